package io.trigrep.frontend.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A real backend's port behind a gate the test works: while it is held, connections are accepted
 * and left unanswered (a query stays running, holding its slot, for as long as the test wants, with
 * no sleep and no deadline involved); once opened, each connection is joined to the backend byte
 * for byte, the held ones first.
 */
final class Gate implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress backend;
    private final List<Socket> held = new ArrayList<>();
    private final List<Socket> all = new ArrayList<>();
    private boolean open = true;

    Gate(InetSocketAddress backend) throws IOException {
        this.backend = backend;
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(() -> {
            try {
                while (true) {
                    arrived(server.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        }, "gate-accept");
        accept.setDaemon(true);
        accept.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    /** From now on, new connections wait. */
    synchronized void hold() {
        open = false;
    }

    /** Joins every waiting connection to the backend, and the new ones from now on. */
    synchronized void open() throws IOException {
        open = true;
        for (Socket s : held) {
            join(s);
        }
        held.clear();
    }

    synchronized int waiting() {
        return held.size();
    }

    private synchronized void arrived(Socket client) throws IOException {
        all.add(client);
        if (open) {
            join(client);
        } else {
            held.add(client);
        }
    }

    private void join(Socket client) throws IOException {
        Socket up = new Socket();
        all.add(up);
        up.connect(backend);
        pump(client.getInputStream(), up, "gate-up");
        pump(up.getInputStream(), client, "gate-down");
    }

    private static void pump(InputStream from, Socket to, String name) {
        Thread t = new Thread(() -> {
            try {
                OutputStream out = to.getOutputStream();
                byte[] buffer = new byte[64 << 10];
                for (int n; (n = from.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                }
                to.shutdownOutput();
            } catch (IOException e) {
                try {
                    to.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public synchronized void close() throws IOException {
        server.close();
        for (Socket s : all) {
            s.close();
        }
    }
}
