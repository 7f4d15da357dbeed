package io.trigrep.proto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads what sorting needs from a framed {@code Response{result}}, {@code Response{fileMatch}} or
 * {@code Response{fileResults}} without building readers and without allocating: how many results
 * it holds (a file's matching lines are several), the ranking of each, and where the package and
 * path bytes are (the first two pointers of all three). For the frontend's ingest path, which sees every result. Only the single-segment layout that every trigrep writer
 * produces is accepted; anything else is reported as not a result, and the caller falls back to
 * {@link Messages#response}.
 */
public final class ResultPeek {
    private static final short RESULT = (short) Response.RESULT.unionTag();
    private static final short FILE_MATCH = (short) Response.FILE_MATCH.unionTag();
    private static final short FILE_RESULTS = (short) Response.FILE_RESULTS.unionTag();
    /** Byte offset of LineMatch's ranking in its data section. */
    private static final int MATCH_RANKING = LineMatch.RANKING.bitOffset() / 8;

    private ByteBuffer frame;
    private int base;
    private float ranking;
    private int packageOffset;
    private int packageLength;
    private int pathOffset;
    private int pathLength;
    private int results;
    /** For a fileResults: where its first LineMatch starts, and the words of each. */
    private int matchesAt;

    private int matchWords;

    /** Peeks at {@code frame} (position to limit); returns false when it is not a single-segment result. */
    public boolean peek(ByteBuffer frame) {
        ByteBuffer le = frame.order() == ByteOrder.LITTLE_ENDIAN
                ? frame
                : frame.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.frame = le;
        int start = le.position();
        int end = le.limit();
        if (end - start < 32 || le.getInt(start) != 0) {
            return false;
        }
        base = start + 8;
        int segmentEnd = base + 8 * le.getInt(start + 4);
        if (segmentEnd > end || segmentEnd < base) {
            return false;
        }
        int response = structTarget(le, base, segmentEnd);
        if (response < 0) {
            return false;
        }
        short member = le.getShort(response);
        if (member != RESULT && member != FILE_MATCH && member != FILE_RESULTS) {
            return false;
        }
        int responseDataWords = dataWords(le, base);
        if ((le.getLong(base) >>> 48 & 0xffff) < 1) {
            return false; // no pointer section: a reader would see the member as empty, not what is past it
        }
        int result = structTarget(le, response + 8 * responseDataWords, segmentEnd);
        if (result < 0) {
            return false;
        }
        long resultPointer = le.getLong(response + 8 * responseDataWords);
        int dataWords = (int) (resultPointer >>> 32) & 0xffff;
        int pointers = (int) (resultPointer >>> 48) & 0xffff;
        if (dataWords < (member == FILE_RESULTS ? 0 : 1) || pointers < 2) {
            return false;
        }
        int firstPointer = result + 8 * dataWords;
        if (member == FILE_RESULTS) {
            if (!matches(le, pointers > MATCHES_POINTER ? firstPointer + 8 * MATCHES_POINTER : -1, segmentEnd)) {
                return false;
            }
        } else {
            results = 1;
            matchWords = 0;
            ranking = le.getFloat(result + (member == RESULT ? Result.RANKING : FileMatch.RANKING).bitOffset() / 8);
        }
        return text(le, firstPointer, segmentEnd, true) && text(le, firstPointer + 8, segmentEnd, false);
    }

    private static final int MATCHES_POINTER = FileResults.MATCHES.index();
    private static final int MATCH_DATA_WORDS = LineMatch.LAYOUT.dataBytes() / 8;

    /**
     * Reads a fileResults' list of matches, whose pointer is at {@code at} (-1 when the struct has
     * no such pointer: no matches): an inline-composite list whose elements have at least
     * LineMatch's data words and pointer.
     */
    private boolean matches(ByteBuffer le, int at, int segmentEnd) {
        long pointer = at < 0 ? 0 : le.getLong(at);
        matchWords = 0;
        if (pointer == 0) {
            results = 0;
            return true;
        }
        if ((pointer & 3) != 1 || (pointer >>> 32 & 7) != 7) {
            return false;
        }
        long tagAt = at + 8 + 8L * ((int) pointer >> 2);
        long words = pointer >>> 35;
        if (tagAt < base || tagAt + 8 + 8 * words > segmentEnd) {
            return false;
        }
        long tag = le.getLong((int) tagAt);
        long count = (tag & 0xffffffffL) >>> 2;
        int elementWords = (int) (tag >>> 32 & 0xffff) + (int) (tag >>> 48 & 0xffff);
        // Every LineMatch ever written has its two data words and its pointer: a frame's matches
        // then take at least as many bytes as the frontend's records of them.
        if ((tag & 3) != 0
                || (tag >>> 32 & 0xffff) < MATCH_DATA_WORDS
                || (tag >>> 48 & 0xffff) < 1
                || count * elementWords > words) {
            return false;
        }
        results = (int) count;
        matchesAt = (int) tagAt + 8;
        matchWords = elementWords;
        ranking = results == 0 ? 0f : ranking(0);
        return true;
    }

    private static int dataWords(ByteBuffer le, int pointerAt) {
        return (int) (le.getLong(pointerAt) >>> 32) & 0xffff;
    }

    /** The struct a struct pointer at {@code at} points to, or -1 when it is not an in-bounds struct pointer. */
    private static int structTarget(ByteBuffer le, int at, int segmentEnd) {
        if (at + 8 > segmentEnd) {
            return -1;
        }
        long pointer = le.getLong(at);
        if ((pointer & 3) != 0) {
            return -1;
        }
        long target = at + 8 + 8L * ((int) pointer >> 2);
        long size = 8L * (((pointer >>> 32) & 0xffff) + ((pointer >>> 48) & 0xffff));
        return target < 0 || target + size > segmentEnd || target + 8 > segmentEnd ? -1 : (int) target;
    }

    private boolean text(ByteBuffer le, int at, int segmentEnd, boolean isPackage) {
        long pointer = le.getLong(at);
        int offset;
        int length;
        if (pointer == 0) {
            offset = at;
            length = 0;
        } else {
            if ((pointer & 3) != 1 || (pointer >>> 32 & 7) != 2) {
                return false;
            }
            long target = at + 8 + 8L * ((int) pointer >> 2);
            long count = pointer >>> 35;
            if (count == 0 || target < base || target + count > segmentEnd) {
                return false;
            }
            offset = (int) target;
            length = (int) count - 1;
        }
        if (isPackage) {
            packageOffset = offset;
            packageLength = length;
        } else {
            pathOffset = offset;
            pathLength = length;
        }
        return true;
    }

    /** The first result's ranking. */
    public float ranking() {
        return ranking;
    }

    /** How many results the frame holds: 1 for a result or fileMatch, a fileResults' matches (possibly 0). */
    public int results() {
        return results;
    }

    /** The ranking of result {@code i} of the frame, {@code 0 <= i < results()}. */
    public float ranking(int i) {
        return matchWords == 0 ? ranking : frame.getFloat(matchesAt + 8 * matchWords * i + MATCH_RANKING);
    }

    /** The frame the offsets below index into (little-endian view). */
    public ByteBuffer frame() {
        return frame;
    }

    public int packageOffset() {
        return packageOffset;
    }

    public int packageLength() {
        return packageLength;
    }

    public int pathOffset() {
        return pathOffset;
    }

    public int pathLength() {
        return pathLength;
    }
}
