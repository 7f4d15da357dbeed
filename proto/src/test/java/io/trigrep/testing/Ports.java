package io.trigrep.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for servers a test stops and starts again on the same address. A port from
 * {@code new ServerSocket(0)} is one of the kernel's ephemeral ports, which any outgoing
 * connection may take as its source port while the server is down, so the restart fails to bind.
 * These ports are drawn at random below the ephemeral range, where neither port 0 nor a client
 * ever lands, are free when handed out and are handed out once per JVM.
 */
public final class Ports {
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Below this, ports are well-known or often taken by local services. */
    private static final int LOWEST = 10_000;
    /** The ephemeral range's start when the kernel does not say (IANA's dynamic ports). */
    private static final int DEFAULT_EPHEMERAL_START = 49_152;

    private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

    private Ports() {}

    /** A free loopback address whose port no ephemeral allocation can take. */
    public static InetSocketAddress restartable() throws IOException {
        int end = ephemeralStart();
        if (end - LOWEST < 1_000) {
            throw new IllegalStateException("no room below the ephemeral ports, which start at " + end);
        }
        IOException last = null;
        for (int tries = 0; tries < 200; tries++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, end);
            if (!handedOut.add(port)) {
                continue;
            }
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(true);
                probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                return new InetSocketAddress("127.0.0.1", port);
            } catch (IOException taken) {
                last = taken;
            }
        }
        throw new IOException("no free loopback port in " + LOWEST + ".." + end, last);
    }

    private static int ephemeralStart() throws IOException {
        if (!Files.isReadable(EPHEMERAL_RANGE)) {
            return DEFAULT_EPHEMERAL_START;
        }
        // Read as a stream: Files.readString cuts this procfs file short.
        try (InputStream in = Files.newInputStream(EPHEMERAL_RANGE)) {
            String[] range = new String(in.readAllBytes(), StandardCharsets.US_ASCII)
                    .trim()
                    .split("\\s+");
            return Integer.parseInt(range[0]);
        }
    }
}
