package io.trigrep.proto;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Mutual TLS between frontends and backends, from PEM files: a certificate (chain), its
 * unencrypted PKCS#8 key, and the CA that signs the peers' certificates. A backend requires a
 * client certificate signed by the CA; a client verifies the backend's certificate against the CA
 * and, unless told otherwise, that it names the host dialled. {@link #PLAIN} is no TLS at all.
 * One instance serves every connection of its side: Netty handlers for the event-loop server and
 * fan-out, blocking sockets for {@link BackendClient} (the command-line client, pings, file
 * fetches). The JDK provider keeps both on one {@code SSLContext} (no native library to ship).
 *
 * <p>TLS 1.2 only: under TLS 1.3 the server checks the client's certificate after the client's
 * handshake has ended, so a refused client learns it from a broken pipe or a reset on its first
 * request, racing the server's alert, and cannot say why. Under TLS 1.2 the refusal is part of
 * the handshake and every client reports it as "TLS handshake failed: ...". The connections are
 * long-lived (one per query per backend, or a ping), so the extra round trip does not matter.
 */
public final class Tls {
    static final String PROTOCOL = "TLSv1.2";

    /** No TLS: plain TCP, the default. */
    public static final Tls PLAIN = new Tls(null, false);

    private final SslContext context;
    private final boolean checkHostname;

    private Tls(SslContext context, boolean checkHostname) {
        this.context = context;
        this.checkHostname = checkHostname;
    }

    /** A backend's side: presents {@code cert}, accepts only clients whose certificate {@code ca} signed. */
    public static Tls server(Path cert, Path key, Path ca) {
        return build(
                cert,
                key,
                ca,
                () -> SslContextBuilder.forServer(cert.toFile(), key.toFile()).clientAuth(ClientAuth.REQUIRE),
                false);
    }

    /**
     * A client's side: presents {@code cert}, accepts a backend whose certificate {@code ca} signed and,
     * when {@code checkHostname}, that names the host as dialled (a DNS or IP subject alternative name).
     */
    public static Tls client(Path cert, Path key, Path ca, boolean checkHostname) {
        return build(
                cert,
                key,
                ca,
                () -> SslContextBuilder.forClient()
                        .keyManager(cert.toFile(), key.toFile())
                        .endpointIdentificationAlgorithm(checkHostname ? "HTTPS" : null),
                checkHostname);
    }

    /**
     * From a command's {@code --tls-cert}, {@code --tls-key} and {@code --tls-ca}: {@link #PLAIN} when
     * none is given, else all three are needed.
     */
    public static Tls fromOptions(Path cert, Path key, Path ca, boolean server) {
        if (cert == null && key == null && ca == null) {
            return PLAIN;
        }
        if (cert == null || key == null || ca == null) {
            throw new IllegalArgumentException(
                    "--tls-cert, --tls-key and --tls-ca go together, got only" + (cert == null ? "" : " --tls-cert")
                            + (key == null ? "" : " --tls-key") + (ca == null ? "" : " --tls-ca"));
        }
        return server ? server(cert, key, ca) : client(cert, key, ca, true);
    }

    private interface Builder {
        SslContextBuilder get() throws Exception;
    }

    private static Tls build(Path cert, Path key, Path ca, Builder builder, boolean checkHostname) {
        try {
            return new Tls(
                    builder.get()
                            .trustManager(ca.toFile())
                            .sslProvider(SslProvider.JDK)
                            .protocols(PROTOCOL)
                            .build(),
                    checkHostname);
        } catch (Exception e) {
            // Netty names neither the file nor the role; say which three files were read.
            throw new IllegalArgumentException(
                    "cannot use TLS certificate " + cert + ", key " + key + " and CA " + ca + ": "
                            + (e.getMessage() == null ? e.toString() : e.getMessage()),
                    e);
        }
    }

    public boolean enabled() {
        return context != null;
    }

    /** The first handler of a backend connection's pipeline. */
    public SslHandler serverHandler(ByteBufAllocator alloc) {
        if (context == null || !context.isServer()) {
            throw new IllegalStateException("serverHandler needs a server TLS configuration");
        }
        return context.newHandler(alloc);
    }

    /** The first handler of a connection to {@code backend}; the host name goes out as SNI and is checked against the certificate. */
    public SslHandler clientHandler(ByteBufAllocator alloc, InetSocketAddress backend) {
        if (context == null || !context.isClient()) {
            throw new IllegalStateException("clientHandler needs a client TLS configuration");
        }
        return context.newHandler(alloc, backend.getHostString(), backend.getPort());
    }

    /** A blocking connection to {@code backend}, TLS handshake done when enabled; a refusal is an {@link SSLHandshakeException}. */
    public Socket connect(InetSocketAddress backend, int connectMillis, int readMillis) throws IOException {
        Socket raw = new Socket();
        try {
            raw.connect(backend, connectMillis);
            raw.setSoTimeout(readMillis);
            raw.setTcpNoDelay(true);
            if (context == null) {
                return raw;
            }
            if (!context.isClient()) {
                throw new IllegalStateException("connect needs a client TLS configuration");
            }
            SSLSocket socket = (SSLSocket) ((JdkSslContext) context)
                    .context()
                    .getSocketFactory()
                    .createSocket(raw, backend.getHostString(), backend.getPort(), true);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm(checkHostname ? "HTTPS" : null);
            parameters.setProtocols(new String[] {PROTOCOL});
            socket.setSSLParameters(parameters);
            try {
                socket.startHandshake();
            } catch (SSLHandshakeException e) {
                throw e;
            } catch (IOException e) {
                // A peer that does not speak TLS is a bare SSLException; a backend that refuses our certificate
                // may close while our flight is still being written (broken pipe, reset): the handshake failed all the
                // same.
                String why = e instanceof SSLException
                        ? message(e)
                        : "the backend closed the connection (" + message(e)
                                + "); did it refuse this client's certificate?";
                throw (SSLHandshakeException) new SSLHandshakeException(why).initCause(e);
            }
            return socket;
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /**
     * What a TLS failure in {@code cause}'s chain means in one line ("TLS handshake failed: ..."), or
     * null when the cause is not about TLS. For logs and shard failures: no stack trace, no hex dump.
     */
    public static String reason(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NotSslRecordException) {
                return "TLS handshake failed: the peer does not speak TLS";
            }
            if (t instanceof SSLHandshakeException) {
                return "TLS handshake failed: " + message(t);
            }
            if (t instanceof SSLException) {
                return "TLS error: " + message(t);
            }
        }
        return null;
    }

    /** A failed handshake's reason in one line, whatever {@code cause} is: "TLS handshake failed: ...". */
    public static String handshakeFailure(Throwable cause) {
        String reason = reason(cause);
        if (reason == null) {
            return "TLS handshake failed: " + message(cause);
        }
        return reason.startsWith("TLS error: ")
                ? "TLS handshake failed: " + reason.substring("TLS error: ".length())
                : reason;
    }

    private static String message(Throwable t) {
        String text = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }

    @Override
    public String toString() {
        return context == null ? "plain" : context.isServer() ? "mTLS server" : "mTLS client";
    }
}
