package io.trigrep.proto;

import java.nio.ByteBuffer;
import org.capnproto.FromPointerReader;
import org.capnproto.ReaderArena;

/**
 * A message read from one frame by {@link Framing#read}, not yet validated: its segments and the
 * traversal budget (words its readers may read) that goes with them. Hand it to
 * {@link Messages#request} or {@link Messages#response}, which validate it once and return its root.
 *
 * <p>Validation reads every pointer once and the runtime charges that walk against the same budget
 * that protects the consumer from amplification, so after the walk the budget is set back to its
 * full size: this class owns the {@link ReaderArena} (the runtime's public class behind every
 * {@code MessageReader}) for that, rather than a {@code MessageReader}, which keeps it to itself.
 * Reading the root here is what {@code MessageReader.getRoot} does, with no reader objects between.
 */
public final class FramedMessage {
    private final ReaderArena arena;
    // No more fields: this object is as small as the MessageReader it replaces (one per decoded result).
    private final long traversalLimitInWords;

    FramedMessage(ByteBuffer[] segments, long traversalLimitInWords) {
        assert segments.length >= 1 : "a frame has at least one segment";
        this.arena = new ReaderArena(segments, traversalLimitInWords);
        this.traversalLimitInWords = traversalLimitInWords;
    }

    /** The root struct, read from the start of the first segment. */
    <T> T root(FromPointerReader<T> factory) {
        return factory.fromPointerReader(arena.tryGetSegment(0), 0, Framing.NESTING_LIMIT);
    }

    /** Gives the consumer the whole traversal budget again, once the validating walk is done. */
    void refillBudget() {
        arena.limit = traversalLimitInWords;
    }
}
