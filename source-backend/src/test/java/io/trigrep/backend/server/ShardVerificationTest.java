package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.backend.TestShards;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.SymbolExtractor;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Failure;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 15, shards verified before they serve: a backend started with verification answers "not
 * ready" until every checksum is read, then serves; a flipped byte in any shard file makes it
 * refuse every request with the file and offset, named relative to the shard, never a wrong
 * answer and never a server path. The symbols are verified too: a search ranks with them.
 */
@Tag("integration")
class ShardVerificationTest {
    /** A ping's connect and read timeouts: a backend on loopback answers far sooner. */
    private static final int PING_MILLIS = 5000;

    @TempDir
    Path dir;

    record Answer(Response.Which last, Failure.Code code, String message, int results) {}

    static Answer search(InetSocketAddress address, String query) throws Exception {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory).initSearch().setQuery(query);
        List<String> results = new ArrayList<>();
        Response.Which[] last = {null};
        Failure.Code[] code = {null};
        String[] message = {null};
        BackendClient.exchange(address, request, r -> {
            last[0] = r.which();
            if (r.which() == Response.Which.RESULT) {
                results.add(r.getResult().getPath().toString());
            } else if (r.which() == Response.Which.ERROR) {
                code[0] = r.getError().getCode();
                message[0] = r.getError().getMessage().toString();
            }
            return true;
        });
        return new Answer(last[0], code[0], message[0], results.size());
    }

    Shard build() throws Exception {
        return TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
    }

    @Test
    void aShardIsServedOnlyOnceItsChecksumsAreVerified() throws Exception {
        Shard shard = build();
        try (BackendServer server = BackendServer.verifying(shard, BackendConfig.defaults())) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            Answer early = search(address, "hello");
            assertThat(early.code()).isEqualTo(Failure.Code.OVERLOADED);
            assertThat(early.message()).contains("not ready").contains("being verified");
            assertThat(BackendClient.ping(address, PING_MILLIS))
                    .as("readiness while verifying")
                    .contains("not ready");

            server.verify(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
            assertThat(server.refusal()).isNull();
            assertThat(search(address, "hello").last()).isEqualTo(Response.Which.DONE);
            assertThat(search(address, "hello").results()).isPositive();
            assertThat(BackendClient.ping(address, PING_MILLIS)).isNull();
        }
    }

    @Test
    void errorsLeaveTheServerWithTheShardsNameNotItsPath() throws Exception {
        Shard shard = build();
        String name = shard.manifest().shard();
        assertThat(shard.withoutPaths(
                        "reading " + shard.folder().toAbsolutePath().normalize() + "/docs.tgd at offset 5: bad"))
                .isEqualTo("reading " + name + "/docs.tgd at offset 5: bad");
        assertThat(shard.withoutPaths("no path here")).isEqualTo("no path here");
    }

    /** A copy of the built shard-0 under {@code name}, to damage. */
    private Path copyOfShard(String name) throws Exception {
        Path copy = dir.resolve(name);
        Files.createDirectories(copy);
        try (var files = Files.list(dir.resolve("shards").resolve("shard-0"))) {
            for (Path f : files.toList()) {
                Files.copy(f, copy.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return copy;
    }

    @Test
    void aFlippedByteInTheManifestIsRefusedAtOpenNamingIt() throws Exception {
        build();
        Path copy = copyOfShard("copy-manifest");
        // A digit of a count in the middle: still well-formed JSON, so only the checksum can tell.
        Path manifest = copy.resolve("manifest.json");
        String text = Files.readString(manifest);
        int digit = text.indexOf("\"docs\": ") + "\"docs\": ".length();
        char flipped = text.charAt(digit) == '9' ? '8' : (char) (text.charAt(digit) + 1);
        Files.writeString(manifest, text.substring(0, digit) + flipped + text.substring(digit + 1));
        assertThatThrownBy(() -> Shard.open(copy))
                .isInstanceOf(io.trigrep.indexer.format.CorruptIndexException.class)
                .hasMessageContaining("manifest.json")
                .hasMessageContaining("crc32c");
    }

    @ParameterizedTest
    @ValueSource(strings = {"trigrams.tgi", "docs.tgd", "contents.tgc"})
    void aFlippedByteInAnyFileIsRefusedNamingThatFile(String file) throws Exception {
        build();
        assertRefusedNaming(file);
    }

    @Test
    @Tag("external") // drives ctags
    void aFlippedByteInTheSymbolsIsRefusedNamingThem() throws Exception {
        TestShards.build(
                TestShards.CORPUS,
                dir.resolve("shards"),
                IndexBuilder.Options.defaults(1)
                        .withSymbols(SymbolChoice.extract(SymbolExtractor.start(
                                new SymbolExtractor.Config("ctags", 1, Duration.ofSeconds(30))))));
        assertRefusedNaming("symbols.tgs");
    }

    /** Shard-0 copied with one bit of {@code file} flipped: verified, it refuses every request naming that file. */
    private void assertRefusedNaming(String file) throws Exception {
        Path copy = copyOfShard("copy");
        // One bit in the middle of the body: the headers, footers and directories still read.
        Path target = copy.resolve(file);
        byte[] bytes = Files.readAllBytes(target);
        int middle = 16 + (bytes.length - 32) / 2;
        bytes[middle] ^= 0x10;
        Files.write(target, bytes);

        Shard shard = Shard.open(copy);
        try (BackendServer server = BackendServer.verifying(shard, BackendConfig.defaults())) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            server.verify(new PrintStream(log, true, StandardCharsets.UTF_8));
            assertThat(log.toString(StandardCharsets.UTF_8))
                    .as("the operator's log names the full path")
                    .contains(target.toString());

            Answer answer = search(address, "hello");
            assertThat(answer.results()).as("no result from a corrupt shard").isZero();
            assertThat(answer.code()).isEqualTo(Failure.Code.INTERNAL);
            assertThat(answer.message())
                    .contains("corrupt")
                    .contains(shard.manifest().shard() + "/" + file + " at offset ")
                    .doesNotContain(dir.toString());
            String ping = BackendClient.ping(address, PING_MILLIS);
            assertThat(ping).contains(file).doesNotContain(dir.toString());
        }
    }
}
