package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.trigrep.backend.TestShards;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: with files of tens of MB indexed, each search used to keep its own copy buffer per
 * search thread, and a backend with a modest heap ran out of memory after a few searches; the
 * search thread died and its client waited for ever. Now a backend process with a 192 MiB heap
 * answers forty searches over a 40 MB file, on one connection, each to its end.
 */
@Tag("integration")
class BigFilesHeapTest {
    @TempDir
    Path dir;

    @Test
    void manySearchesOverABigFileFitASmallHeap() throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/big_1.0"));
        StringBuilder line = new StringBuilder();
        while (line.length() < 4000) {
            line.append("0xdeadbeef, 0x12345678, ");
        }
        line.append('\n');
        String text = line.toString();
        StringBuilder big = new StringBuilder(40 << 20);
        while (big.length() < (40 << 20)) {
            big.append(text);
        }
        big.append("needle_at_the_end\n");
        Files.writeString(pkg.resolve("table.h"), big);
        Files.writeString(pkg.resolve("small.c"), "int needle_at_the_end;\n");
        Path shard = TestShards.build(dir.resolve("corpus"), dir.resolve("shards"), 1)
                .get(0)
                .folder();

        Process backend = BackendProcess.start("192m", shard, "--threads", "2", "--verify", "off");
        try {
            InetSocketAddress address = BackendProcess.announced(backend, shard.getParent());
            // A search whose thread died would never answer: a time bound turns that into a failure.
            assertTimeoutPreemptively(Duration.ofMinutes(3), () -> searchForty(address));
        } finally {
            backend.destroy();
            backend.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void searchForty(InetSocketAddress address) throws Exception {
        try (BackendClient.Connection connection = new BackendClient.Connection(address)) {
            for (int i = 0; i < 40; i++) {
                MessageBuilder request = Messages.newBuilder();
                request.initRoot(Request.factory)
                        .initSearch()
                        .setQuery(i % 2 == 0 ? "needle_at_the_end" : "0xdeadbeef, 0x1234")
                        .setMaxResults(100);
                Response.Which[] last = {null};
                connection.exchange(request, r -> {
                    last[0] = r.which();
                    return true;
                });
                assertThat(last[0]).as("search %d ended with", i).isEqualTo(Response.Which.DONE);
            }
        }
    }
}
