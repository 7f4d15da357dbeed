package io.trigrep.frontend.http;

import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.MalformedMessageException;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A real backend's port behind a gate the test works: while it is held, requests are accepted and
 * left unanswered (a query stays running, holding its slot, for as long as the test wants, with no
 * sleep and no deadline involved); once opened, each request goes on to the backend. Pings always
 * pass: the backend stays healthy to the frontend, only slow, so its query is not given up. The gate
 * stops requests, not connections: the frontend keeps its connections across queries, so a query
 * may come on a connection made before the gate was held.
 */
final class Gate implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress backend;
    private final List<Socket> all = new ArrayList<>();
    private boolean open = true;
    /** Requests read while held, not yet passed on. */
    private int waiting;

    Gate(InetSocketAddress backend) throws IOException {
        this.backend = backend;
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(
                () -> {
                    try {
                        while (true) {
                            join(server.accept());
                        }
                    } catch (IOException closed) {
                        // the test is over
                    }
                },
                "gate-accept");
        accept.setDaemon(true);
        accept.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    /** From now on, requests wait. */
    synchronized void hold() {
        open = false;
    }

    /** Passes every waiting request on to the backend, and the new ones from now on. */
    synchronized void open() {
        open = true;
        notifyAll();
    }

    synchronized int waiting() {
        return waiting;
    }

    /** Blocks the caller, holding a request, while the gate is held. */
    private synchronized void pass() throws InterruptedException {
        if (open) {
            return;
        }
        waiting++;
        try {
            while (!open) {
                wait();
            }
        } finally {
            waiting--;
        }
    }

    private void join(Socket client) throws IOException {
        Socket up = new Socket();
        synchronized (this) {
            all.add(client);
            all.add(up);
        }
        up.connect(backend);
        pump(client.getInputStream(), up, true, "gate-up");
        pump(up.getInputStream(), client, false, "gate-down");
    }

    private void pump(InputStream from, Socket to, boolean gated, String name) {
        Thread t = new Thread(
                () -> {
                    try {
                        OutputStream out = to.getOutputStream();
                        byte[] buffer = new byte[64 << 10];
                        for (int n; (n = from.read(buffer)) >= 0; ) {
                            if (gated && !isPing(buffer, n)) {
                                pass();
                            }
                            out.write(buffer, 0, n);
                        }
                        to.shutdownOutput();
                    } catch (IOException | InterruptedException e) {
                        try {
                            to.close();
                        } catch (IOException ignored) {
                            // closing anyway
                        }
                    }
                },
                name);
        t.setDaemon(true);
        t.start();
    }

    /** Whether the {@code n} bytes read are one whole ping or heartbeat request. */
    private static boolean isPing(byte[] buffer, int n) {
        try {
            ByteBuffer frame = ByteBuffer.wrap(buffer, 0, n).order(ByteOrder.LITTLE_ENDIAN);
            if (Framing.frameLength(frame, FrameLimits.DEFAULT) != n) {
                return false;
            }
            Request.Which which =
                    Messages.request(Framing.read(frame, FrameLimits.DEFAULT)).which();
            return which == Request.Which.PING || which == Request.Which.HEARTBEAT;
        } catch (MalformedMessageException | RuntimeException e) {
            return false; // part of a frame, or not one: a search's bytes, held
        }
    }

    @Override
    public synchronized void close() throws IOException {
        open = true;
        notifyAll();
        server.close();
        for (Socket s : all) {
            s.close();
        }
    }
}
