package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.trigrep.backend.TestShards;
import io.trigrep.backend.search.FrameSink;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Tls;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result batches' buffers are made once and used again; every other buffer is the pooled allocator's. */
class RecyclingAllocatorTest {
    static final int CAPACITY = 4096;

    @TempDir
    Path dir;

    @Test
    void aReleasedBatchBufferIsTheNextOneEmptyAndOthersAreThePooledAllocators() {
        RecyclingAllocator alloc = new RecyclingAllocator(PooledByteBufAllocator.DEFAULT, CAPACITY, 2);
        assertThat(alloc.made()).as("every kept buffer made with the allocator").isEqualTo(2);
        assertThat(alloc.free()).isEqualTo(2);
        ByteBuf first = alloc.buffer(CAPACITY);
        assertThat(alloc.free()).isEqualTo(1);
        assertThat(first.readableBytes()).isZero();
        assertThat(first.writableBytes()).isEqualTo(CAPACITY);
        first.writeLong(0x1122334455667788L);
        long address = first.hasMemoryAddress() ? first.memoryAddress() : -1;
        first.release();
        assertThat(alloc.made()).isEqualTo(2);
        assertThat(alloc.free()).isEqualTo(2);

        ByteBuf again = alloc.buffer(CAPACITY);
        assertThat(alloc.made()).as("the kept memory, not new memory").isEqualTo(2);
        assertThat(alloc.free()).isEqualTo(1);
        assertThat(again.readableBytes()).as("a batch starts empty").isZero();
        if (address != -1) {
            assertThat(again.memoryAddress()).isEqualTo(address);
        }
        again.release();

        ByteBuf other = alloc.buffer(1000);
        assertThat(other.alloc()).isSameAs(PooledByteBufAllocator.DEFAULT);
        other.release();
        assertThat(alloc.made()).isEqualTo(2);
        assertThat(alloc.free()).isEqualTo(2);
    }

    @Test
    void pastTheKeptOnesBatchesComeFromThePooledAllocator() {
        RecyclingAllocator alloc = new RecyclingAllocator(PooledByteBufAllocator.DEFAULT, CAPACITY, 2);
        List<ByteBuf> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(alloc.buffer(CAPACITY));
        }
        assertThat(alloc.made()).isEqualTo(2);
        assertThat(held.get(0).alloc()).isSameAs(alloc);
        assertThat(held.get(2).alloc()).isSameAs(PooledByteBufAllocator.DEFAULT);
        held.forEach(ByteBuf::release);
        assertThat(alloc.free()).isEqualTo(2);
    }

    @Test
    void aBatchThatGrewGivesBackItsKeptMemoryWhole() {
        RecyclingAllocator alloc = new RecyclingAllocator(PooledByteBufAllocator.DEFAULT, CAPACITY, 1);
        ByteBuf grown = alloc.buffer(CAPACITY);
        for (int i = 0; i < CAPACITY + 100; i++) {
            grown.writeByte(i);
        }
        assertThat(grown.capacity()).isGreaterThan(CAPACITY);
        for (int i = 0; i < CAPACITY + 100; i++) {
            assertThat(grown.getByte(i)).isEqualTo((byte) i);
        }
        grown.release();
        assertThat(alloc.free()).isEqualTo(1);

        ByteBuf next = alloc.buffer(CAPACITY);
        assertThat(next.capacity()).isEqualTo(CAPACITY);
        next.writeBytes(new byte[CAPACITY]);
        next.release();
        assertThat(alloc.made()).isEqualTo(1);
    }

    @Test
    void aResultHeavySearchWritesItsBatchesInKeptBuffersAndGivesThemAllBack() throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/many_1.0"));
        StringBuilder text = new StringBuilder();
        for (int line = 0; line < 400; line++) {
            text.append("int value_")
                    .append(line)
                    .append(" = compute(")
                    .append(line)
                    .append(");\n");
        }
        for (int file = 0; file < 100; file++) {
            Files.writeString(pkg.resolve("f" + file + ".c"), text);
        }
        Shard shard = TestShards.build(dir.resolve("corpus"), dir.resolve("shards"), 1)
                .get(0);
        try (BackendServer server = new BackendServer(shard, BackendConfig.defaults())) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            MessageBuilder request = Messages.newBuilder();
            request.initRoot(Request.factory)
                    .initSearch()
                    .setQuery("int")
                    .setLiteral(true)
                    .setContextLines(2)
                    .setMaxResults(1_000_000)
                    .setFileResults(true);
            RecyclingAllocator batches = BackendServer.BATCHES;
            long lentBefore = batches.lent();
            try (BackendClient.Connection connection = new BackendClient.Connection(address, Tls.PLAIN)) {
                for (int i = 0; i < 3; i++) {
                    assertThat(connection.count(request, end -> true)).isEqualTo(40_000);
                }
            }
            assertThat(batches.lent() - lentBefore)
                    .as("this server's batches went out in kept buffers")
                    .isPositive();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (batches.free() < batches.made() && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            assertThat(batches.free())
                    .as("every kept buffer given back once written")
                    .isEqualTo(batches.made());
            assertThat(FrameSink.BATCH_CAPACITY).isEqualTo(320 << 10);
        }
    }
}
