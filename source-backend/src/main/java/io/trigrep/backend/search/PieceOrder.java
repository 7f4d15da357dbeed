package io.trigrep.backend.search;

/**
 * The pieces of an in-order search not yet sent, in doc order: how several tasks search a capped
 * query at once and still send exactly what one task searching in order would.
 *
 * <p>Each task searches a piece and holds its frames; a piece is sent only once every piece
 * before it has been. A task counts its results from the count sent so far, which can only be
 * too low while pieces before it are unsent: a piece that counted past the cap, or that would go
 * past it once the pieces before it are sent, is not sent but searched again, once it is the
 * first, from the exact count, where it stops at the cap as one task would have. Everything after
 * it is dropped. A task whose piece grew to {@link Parallelism#pieceBytes} hands the rest of its
 * work on to a new piece right after its own ({@link #handOn}), so a piece's frames stay small
 * whatever its files hold; the window bounds how many pieces wait, so memory stays flat when the
 * first piece is slow or the reader stalls.
 *
 * <p>Not thread-safe: the search's lock guards it.
 */
final class PieceOrder {
    private final int window;
    private Piece head;
    private Piece tail;
    private int size;
    /** A piece counted past the cap: nothing after it is worth starting. */
    private boolean capReached;

    PieceOrder(int window) {
        this.window = window;
    }

    boolean isEmpty() {
        return head == null;
    }

    /** True when a new chunk may become a piece: the window has room and no piece reached the cap. */
    boolean acceptsNew() {
        return !capReached && size < window;
    }

    /** True when a queued piece waits for a task. */
    boolean hasQueued() {
        return firstQueued() != null;
    }

    /** The first queued piece, now being searched; null when none waits. */
    Piece take() {
        Piece p = firstQueued();
        if (p != null) {
            p.state = Piece.State.SEARCHING;
            p.exact = p == head;
        }
        return p;
    }

    /** A new piece at the end, being searched; the caller fills its work. */
    Piece appendTaken() {
        assert acceptsNew() : "no room for a new piece";
        Piece p = new Piece();
        p.state = Piece.State.SEARCHING;
        p.exact = head == null;
        if (tail == null) {
            head = p;
        } else {
            tail.next = p;
        }
        tail = p;
        size++;
        return p;
    }

    /**
     * The piece right after {@code p} that takes the work {@code p}'s task hands on, made at the
     * first hand-back; null when {@code p} was dropped (its work with it).
     */
    Piece handOn(Piece p) {
        if (p.discarded) {
            return null;
        }
        if (p.handedOn == null) {
            Piece q = new Piece();
            q.state = Piece.State.FILLING;
            q.next = p.next;
            p.next = q;
            if (tail == p) {
                tail = q;
            }
            size++;
            p.handedOn = q;
        }
        return p.handedOn;
    }

    /** {@code p}'s task counted a result past the cap. */
    void full(Piece p) {
        p.full = true;
        capReached = true;
    }

    /** {@code p} is searched: what its task handed on may now be taken. */
    void done(Piece p) {
        p.state = Piece.State.DONE;
        if (p.handedOn != null) {
            p.handedOn.state = Piece.State.QUEUED;
            p.handedOn = null;
        }
    }

    /**
     * Removes and returns the first piece when it is done and may be sent, {@code sent} results
     * having been sent before it and {@code cap} the most that may be; null when the first is not
     * done, or was found to go past the cap from a count that was too low: then it waits again to
     * be searched, first, and everything after it is dropped. Everything after a returned piece
     * that reached the cap or the deadline is dropped too: nothing after it may be sent.
     */
    Piece poll(long sent, long cap) {
        Piece p = head;
        if (p == null || p.state != Piece.State.DONE) {
            return null;
        }
        if (!p.exact && (p.full || sent + p.results > cap)) {
            dropAfter(p);
            p.clear();
            p.state = Piece.State.QUEUED;
            capReached = true;
            return null;
        }
        head = p.next;
        p.next = null;
        if (head == null) {
            tail = null;
        }
        size--;
        if (p.full || p.truncated) {
            dropAll();
        }
        return p;
    }

    /** Drops every piece: their frames are released, but a piece being searched keeps its own until its task ends. */
    void dropAll() {
        Piece p = head;
        head = null;
        tail = null;
        size = 0;
        drop(p);
    }

    private void dropAfter(Piece p) {
        Piece rest = p.next;
        p.next = null;
        tail = p;
        for (Piece q = rest; q != null; q = q.next) {
            size--;
        }
        drop(rest);
    }

    private static void drop(Piece p) {
        while (p != null) {
            Piece next = p.next;
            p.discarded = true;
            p.next = null;
            if (p.state != Piece.State.SEARCHING) {
                p.clear();
            }
            p = next;
        }
    }

    private Piece firstQueued() {
        int at = 0;
        for (Piece p = head; p != null && at++ < window; p = p.next) {
            if (p.state == Piece.State.QUEUED) {
                return p;
            }
        }
        return null;
    }
}
