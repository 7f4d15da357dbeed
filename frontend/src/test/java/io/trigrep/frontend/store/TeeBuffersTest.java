package io.trigrep.frontend.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TeeBuffersTest {
    @Test
    void aBufferGivenBackIsTheNextOneTakenUpToTheRetainedCount() {
        TeeBuffers pool = new TeeBuffers(1);
        TeeBuffers.Buffer a = pool.take(512);
        TeeBuffers.Buffer b = pool.take(4096);
        assertThat(a.aligned().capacity()).isEqualTo(TeeBuffers.BUFFER_BYTES);
        assertThat(a.aligned().isDirect()).isTrue();
        assertThat(a.aligned().alignmentOffset(0, TeeBuffers.ALIGNMENT)).isZero();
        a.aligned().position(100);
        pool.give(a);
        pool.give(b); // beyond the one retained: freed
        assertThat(pool.waiting()).isEqualTo(1);
        TeeBuffers.Buffer again = pool.take(4096);
        assertThat(again).isSameAs(a);
        assertThat(again.aligned().position()).as("cleared for its next tee").isZero();
        assertThat(again.aligned().limit()).isEqualTo(TeeBuffers.BUFFER_BYTES);
        assertThat(pool.waiting()).isZero();
    }

    @Test
    void aBlockLargerThanThePoolsAlignmentGetsABufferOfItsOwnNeverKept() {
        TeeBuffers pool = new TeeBuffers(4);
        TeeBuffers.Buffer big = pool.take(1 << 16);
        assertThat(big.aligned().alignmentOffset(0, 1 << 16)).isZero();
        pool.give(pool.take(4096));
        assertThat(pool.waiting()).isEqualTo(1);
        // Handed out only to a tee that needs 64 KiB alignment, and this one may not have it.
        TeeBuffers.Buffer misaligned = new TeeBuffers.Buffer(
                big.arena(), big.aligned().position(512).slice().limit(TeeBuffers.BUFFER_BYTES - 512));
        pool.give(misaligned);
        assertThat(pool.waiting())
                .as("a buffer off the pool's alignment is freed")
                .isEqualTo(1);
        assertThat(big.arena().scope().isAlive()).as("freed at once").isFalse();
        pool.clear();
        assertThat(pool.waiting()).isZero();
    }

    @Test
    void aTeeOnAReusedBufferHoldsOnlyItsOwnBytes(@TempDir Path dir) throws Exception {
        TeeBuffers pool = new TeeBuffers(2);
        byte[] first = new byte[100_000];
        Arrays.fill(first, (byte) 'A');
        TeeFile a = new TeeFile(dir.resolve("a.tee"), Runnable::run, true, 4096, pool);
        a.append(ByteBuffer.wrap(first));
        a.finish();
        assertThat(pool.waiting()).isEqualTo(1);

        TeeFile b = new TeeFile(dir.resolve("b.tee"), Runnable::run, true, 4096, pool);
        b.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertThat(pool.waiting()).as("b took a's buffer").isZero();
        assertThat(bytes(b.read(0, 3))).containsExactly(1, 2, 3);
        b.finish();
        assertThat(Files.size(dir.resolve("b.tee"))).isEqualTo(3);
        assertThat(Files.readAllBytes(dir.resolve("b.tee"))).containsExactly(1, 2, 3);
        assertThat(Files.size(dir.resolve("a.tee"))).isEqualTo(first.length);
        a.delete();
        b.delete();
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
