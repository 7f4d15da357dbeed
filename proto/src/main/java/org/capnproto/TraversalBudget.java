package org.capnproto;

/**
 * Reads and restores a MessageReader's traversal budget, which the runtime keeps package-private.
 * trigrep validates every message once, up front; the runtime charges that walk against the same
 * budget that protects consumers from amplification, so the budget is restored after it
 * (io.trigrep.proto.Messages). Lives in the runtime's package on purpose: nothing else does.
 */
public final class TraversalBudget {
    private TraversalBudget() {}

    public static long remaining(MessageReader reader) {
        return reader.arena.limit;
    }

    public static void restore(MessageReader reader, long words) {
        reader.arena.limit = words;
    }
}
