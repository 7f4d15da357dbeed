package io.trigrep.proto;

/**
 * The largest frame a reader accepts. A segment table that claims more is refused before any
 * byte of the body is awaited or any buffer of the claimed size is allocated.
 *
 * @param maxSegments     segments per message; the reference implementation writes one per
 *                        allocation, so even large messages rarely have more than a handful
 * @param maxMessageBytes the whole frame, segment table included
 */
public record FrameLimits(int maxSegments, int maxMessageBytes) {
    /** 512 segments (as the capnproto-java runtime allows) and 64 MiB: room for a whole 16 MiB source file with headroom. */
    public static final FrameLimits DEFAULT = new FrameLimits(512, 64 << 20);

    public FrameLimits {
        if (maxSegments < 1 || maxSegments > 1 << 16) {
            throw new IllegalArgumentException("maxSegments must be in [1, 65536], got " + maxSegments);
        }
        if (maxMessageBytes < 16) {
            throw new IllegalArgumentException("maxMessageBytes must be >= 16, got " + maxMessageBytes);
        }
    }
}
