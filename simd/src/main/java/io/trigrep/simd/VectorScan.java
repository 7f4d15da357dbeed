package io.trigrep.simd;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Byte scans a vector at a time. {@link #firstCandidateBlock}: the first stretch of bytes where a
 * two-byte pattern may start.
 * A literal's scan ({@code LiteralScan} in the backend) tests two of its bytes, {@code x} at offset
 * {@code a} and {@code y} at offset {@code b} from each position: here a whole vector of positions
 * is tested with four instructions and skipped when none qualifies, which is almost always for a
 * selective query's needle. The caller finds the exact positions in the stretch returned. Only
 * call it where {@link Vectors#BYTES} is not 0.
 */
public final class VectorScan {
    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;

    private VectorScan() {}

    static int width() {
        return SPECIES.length();
    }

    /**
     * The first {@code i} from {@code from} on, stepping by {@link Vectors#BYTES}, such that some
     * position {@code p} in {@code [i, i + BYTES)} has {@code (text[p + a] | xOr) == x} and
     * {@code (text[p + b] | yOr) == y}; or the first {@code i} with {@code i + BYTES + max(a, b) >
     * length}, where the caller goes on without vectors. {@code xOr} and {@code yOr} (0, or 0x20 to
     * fold ASCII letters to lower case) let a case-blind scan test lower-case bytes.
     */
    public static int firstCandidateBlock(
            byte[] text, int length, int a, byte x, byte xOr, int b, byte y, byte yOr, int from) {
        int width = SPECIES.length();
        int end = length - Math.max(a, b) - width;
        int i = from;
        for (; i <= end; i += width) {
            ByteVector first = ByteVector.fromArray(SPECIES, text, i + a).or(xOr);
            ByteVector second = ByteVector.fromArray(SPECIES, text, i + b).or(yOr);
            if (first.eq(x).and(second.eq(y)).anyTrue()) {
                return i;
            }
        }
        return i;
    }

    /**
     * How many bytes of {@code bytes[from, to)} equal {@code value}, where {@code to - from} is a
     * multiple of {@link Vectors#BYTES}: the caller counts a shorter rest its own way, eight at a
     * time. A line number is the newlines before a match, so a match late in a large file counts
     * many of them: a vector at a time.
     */
    public static int count(byte[] bytes, int from, int to, byte value) {
        int width = SPECIES.length();
        int n = 0;
        // Whole vectors only, even if the caller's range is not: never a read past to.
        for (int i = from; i <= to - width; i += width) {
            n += ByteVector.fromArray(SPECIES, bytes, i).eq(value).trueCount();
        }
        return n;
    }
}
