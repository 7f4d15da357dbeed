package io.trigrep.proto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads what sorting needs from a framed {@code Response{result}} or {@code Response{fileMatch}}
 * without building readers and without allocating: the ranking, and where the package and path
 * bytes are (the first two pointers of both). For the frontend's ingest path, which sees every result. Only the single-segment layout that every trigrep writer
 * produces is accepted; anything else is reported as not a result, and the caller falls back to
 * {@link Messages#response}.
 */
public final class ResultPeek {
    private static final short RESULT = (short) Response.RESULT.unionTag();
    private static final short FILE_MATCH = (short) Response.FILE_MATCH.unionTag();

    private ByteBuffer frame;
    private int base;
    private float ranking;
    private int packageOffset;
    private int packageLength;
    private int pathOffset;
    private int pathLength;

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
        if (member != RESULT && member != FILE_MATCH) {
            return false;
        }
        int responseDataWords = dataWords(le, base);
        int result = structTarget(le, response + 8 * responseDataWords, segmentEnd);
        if (result < 0) {
            return false;
        }
        long resultPointer = le.getLong(response + 8 * responseDataWords);
        int dataWords = (int) (resultPointer >>> 32) & 0xffff;
        int pointers = (int) (resultPointer >>> 48) & 0xffff;
        if (dataWords < 1 || pointers < 2) {
            return false;
        }
        ranking = le.getFloat(result + (member == RESULT ? Result.RANKING : FileMatch.RANKING).bitOffset() / 8);
        int firstPointer = result + 8 * dataWords;
        return text(le, firstPointer, segmentEnd, true) && text(le, firstPointer + 8, segmentEnd, false);
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

    public float ranking() {
        return ranking;
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
