package io.trigrep.frontend.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The bytes seen last: equal bytes are recognised wherever they sit in a buffer, and no byte
 * outside {@code [offset, offset + n)} is read (the buffers here end where the bytes end).
 */
class RecentBytesTest {
    /** {@code bytes} at {@code offset} of a little-endian buffer that ends with them. */
    private static ByteBuffer at(int offset, byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.allocate(offset + bytes.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < offset; i++) {
            buffer.put(i, (byte) 0x5a);
        }
        buffer.put(offset, bytes);
        return buffer;
    }

    private static byte[] counting(int n) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte) (i * 7 + 1);
        }
        return bytes;
    }

    @Test
    void theSameBytesAreRecognisedAtAnyOffsetAndLengthReadingNothingAround() {
        // lengths below a word, of whole words and with a tail; the first 64 bytes are kept in place, more grow the
        // copy
        for (int n : new int[] {0, 1, 2, 7, 8, 9, 15, 16, 17, 24, 63, 64, 65, 200}) {
            byte[] bytes = counting(n);
            RecentBytes recent = new RecentBytes();
            assertThat(recent.sameAs(at(0, bytes), 0, n))
                    .as("nothing set yet (n = %d)", n)
                    .isFalse();
            assertThat(recent.set(at(3, bytes), 3, n, 40 + n)).isEqualTo(40 + n);
            for (int offset : new int[] {0, 1, 5, 8, 11}) {
                assertThat(recent.sameAs(at(offset, bytes), offset, n))
                        .as("n = %d at %d", n, offset)
                        .isTrue();
            }
            assertThat(recent.value()).isEqualTo(40 + n);
        }
    }

    @Test
    void bytesDifferingInAnyOnePlaceOrInLengthAreNotTheSame() {
        for (int n : new int[] {1, 7, 8, 9, 16, 23, 70}) {
            byte[] bytes = counting(n);
            RecentBytes recent = new RecentBytes();
            recent.set(at(2, bytes), 2, n, 1);
            for (int i = 0; i < n; i++) {
                byte[] other = bytes.clone();
                other[i] ^= 0x10;
                for (int offset : new int[] {0, 6}) {
                    assertThat(recent.sameAs(at(offset, other), offset, n))
                            .as("n = %d, byte %d differs, at %d", n, i, offset)
                            .isFalse();
                }
            }
            byte[] longer = counting(n + 1);
            assertThat(recent.sameAs(at(0, longer), 0, n + 1))
                    .as("one byte longer")
                    .isFalse();
            assertThat(recent.sameAs(at(0, bytes), 0, n - 1))
                    .as("one byte shorter")
                    .isFalse();
        }
    }

    @Test
    void setReplacesTheBytesAndTheValue() {
        RecentBytes recent = new RecentBytes();
        byte[] longer = counting(100);
        byte[] shorter = counting(10);
        recent.set(at(0, longer), 0, 100, 7);
        recent.set(at(1, shorter), 1, 10, 9);
        assertThat(recent.value()).isEqualTo(9);
        assertThat(recent.sameAs(at(0, shorter), 0, 10)).isTrue();
        assertThat(recent.sameAs(at(0, longer), 0, 100)).isFalse();
    }
}
