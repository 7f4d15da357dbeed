package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The blocking backend client against a scripted peer: answers, early closes, timeouts and oversized frames. */
@Timeout(30)
@Tag("integration")
class BackendClientTest {
    /** The client's connect and read timeouts: a local peer answers far sooner. */
    private static final int TIMEOUT_MILLIS = 5000;

    /** What the scripted peer does with one connection, after reading its first request whole. */
    interface Script {
        void run(InputStream in, OutputStream out) throws IOException, InterruptedException;
    }

    private final List<ServerSocket> servers = new ArrayList<>();

    @AfterEach
    void closeServers() throws IOException {
        for (ServerSocket s : servers) {
            s.close();
        }
    }

    /** A loopback peer that runs {@code script} on each connection it accepts. */
    private InetSocketAddress peer(Script script) throws IOException {
        ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        servers.add(server);
        Thread accept = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    InputStream in = socket.getInputStream();
                    if (Framing.readFrame(Channels.newChannel(in), FrameLimits.DEFAULT) != null) {
                        script.run(in, socket.getOutputStream());
                    }
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        });
        accept.setDaemon(true);
        accept.start();
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    private static byte[] frame(MessageBuilder message) {
        ByteBuf out = Unpooled.buffer();
        Framing.write(message, out);
        byte[] bytes = ByteBufUtil.getBytes(out);
        out.release();
        return bytes;
    }

    private static byte[] status() {
        MessageBuilder m = Messages.newBuilder();
        m.initRoot(Response.factory).initStatus().setShard("s0");
        return frame(m);
    }

    private static byte[] progress() {
        MessageBuilder m = Messages.newBuilder();
        m.initRoot(Response.factory).initProgress().setFilesSearched(1);
        return frame(m);
    }

    private static byte[] fileMatch() {
        MessageBuilder m = Messages.newBuilder();
        m.initRoot(Response.factory).initFileMatch().setPackage("p").setPath("Makefile.am");
        return frame(m);
    }

    private static byte[] done() {
        MessageBuilder m = Messages.newBuilder();
        m.initRoot(Response.factory).initDone().setResults(2);
        return frame(m);
    }

    private static MessageBuilder ping() {
        MessageBuilder m = Messages.newBuilder();
        m.initRoot(Request.factory).setPing();
        return m;
    }

    /** What an operator writes after --backend(s): host:port, the last colon splitting; anything else refused by name. */
    @Test
    void anAddressIsHostColonPortAndAnythingElseIsRefusedByName() {
        assertThat(BackendClient.address("127.0.0.1:7001")).isEqualTo(new InetSocketAddress("127.0.0.1", 7001));
        assertThat(BackendClient.address("::1:7001")).isEqualTo(new InetSocketAddress("::1", 7001));
        for (String bad : List.of("nonsense", ":7001", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:65536", "h:-1")) {
            assertThatThrownBy(() -> BackendClient.address(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("backend must be host:port, got '" + bad + "'");
        }
    }

    @Test
    void aPingAnsweredWithAStatusIsNullAndOneClosedWithoutAnAnswerSaysSo() throws IOException {
        assertThat(BackendClient.ping(peer((in, out) -> out.write(status())), TIMEOUT_MILLIS))
                .isNull();
        assertThat(BackendClient.ping(peer((in, out) -> {}), TIMEOUT_MILLIS)).isEqualTo("closed without answering");
        assertThat(BackendClient.ask(Tls.PLAIN, peer((in, out) -> {}), ping(), TIMEOUT_MILLIS, TIMEOUT_MILLIS))
                .isNull();
    }

    @Test
    void aPingThatIsNotAnsweredInTimeSaysItTimedOut() throws IOException {
        InetSocketAddress silent = peer((in, out) -> Thread.sleep(10_000));
        long start = System.nanoTime();
        assertThat(BackendClient.ping(silent, 300)).containsIgnoringCase("timed out");
        assertThat(System.nanoTime() - start)
                .as("within the read timeout, not the peer's sleep")
                .isLessThan(TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void aFrameOverTheLimitIsRefusedBeforeItIsRead() throws IOException {
        // A segment table that announces more segments than the frame limits allow.
        byte[] table = ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(1 << 20)
                .putInt(1)
                .array();
        InetSocketAddress hostile = peer((in, out) -> out.write(table));
        assertThatThrownBy(() -> BackendClient.ask(Tls.PLAIN, hostile, ping(), TIMEOUT_MILLIS, TIMEOUT_MILLIS))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("segments, limit is");
        assertThat(BackendClient.ping(hostile, TIMEOUT_MILLIS)).contains("segments, limit is");
    }

    @Test
    void aConnectionHandsEveryMessageToTheHandlerUntilTheLast() throws Exception {
        // Both answers at once: the second must wait in the connection's buffer for the second request.
        InetSocketAddress backend = peer((in, out) -> {
            for (int request = 0; request < 2; request++) {
                out.write(progress());
                out.write(progress());
                out.write(status());
            }
            out.flush();
            in.readAllBytes();
        });
        try (BackendClient.Connection connection = new BackendClient.Connection(backend)) {
            for (int request = 0; request < 2; request++) {
                List<Response.Which> seen = new ArrayList<>();
                connection.exchange(ping(), r -> seen.add(r.which()));
                assertThat(seen)
                        .as("request %d", request)
                        .containsExactly(Response.Which.PROGRESS, Response.Which.PROGRESS, Response.Which.STATUS);
            }
        }
    }

    @Test
    void fileResultsAreResultsNotTheEndOfTheAnswer() throws Exception {
        // A file-name query's answer: file results, then done. Both answers at once, as above.
        InetSocketAddress backend = peer((in, out) -> {
            for (int request = 0; request < 2; request++) {
                out.write(fileMatch());
                out.write(fileMatch());
                out.write(done());
            }
            out.flush();
            in.readAllBytes();
        });
        try (BackendClient.Connection connection = new BackendClient.Connection(backend)) {
            List<Response.Which> seen = new ArrayList<>();
            connection.exchange(ping(), r -> seen.add(r.which()));
            assertThat(seen).containsExactly(Response.Which.FILE_MATCH, Response.Which.FILE_MATCH, Response.Which.DONE);
            List<Response.Which> last = new ArrayList<>();
            assertThat(connection.count(ping(), r -> last.add(r.which()))).isEqualTo(2);
            assertThat(last).containsExactly(Response.Which.DONE);
        }
    }

    @Test
    void aConnectionClosedBeforeTheAnswerEndedNamesTheBackend() throws Exception {
        InetSocketAddress backend = peer((in, out) -> out.write(progress()));
        List<Response.Which> messages = new ArrayList<>();
        assertThatThrownBy(() -> BackendClient.exchange(backend, ping(), r -> messages.add(r.which())))
                .isInstanceOf(EOFException.class)
                .hasMessage("backend " + backend.getHostString() + ":" + backend.getPort()
                        + " closed the connection before the answer ended");
        assertThat(messages).containsExactly(Response.Which.PROGRESS);
    }
}
