package io.trigrep.frontend.query;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Who may start a new search now. Only starting a search takes a slot, and holds it until the
 * search ends: a cache hit, a page of a finished query, joining a running query, health and
 * metrics never wait for one. Three bounds, checked in this order, each a 429 of its own reason:
 * a client (an address, as the HTTP layer tells it) runs at most {@code perClient} searches, so
 * one client's flood leaves room for everyone else; full scans (no trigram can be required, every
 * file is read) at most {@code expensive}, so they cannot crowd out selective queries; all
 * searches at most {@code slots}.
 */
public final class Admission {
    /** Why a search was refused: the {@code reason} label of {@code trigrep_http_rejected_total}. */
    enum Reason {
        CLIENT_SHARE("client_share"),
        EXPENSIVE("expensive"),
        SLOTS("slots");

        final String label;

        Reason(String label) {
            this.label = label;
        }
    }

    /** A search was not admitted; its message says why, for the client. Carries no stack trace: it is an answer, made often under load. */
    public static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        final transient Reason reason;

        Rejected(Reason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    /** An admitted search's slots; {@link #release} once, when the search ends (later calls do nothing). */
    final class Ticket {
        private final String client;
        private final boolean expensive;
        private boolean released;

        private Ticket(String client, boolean expensive) {
            this.client = client;
            this.expensive = expensive;
        }

        void release() {
            synchronized (Admission.this) {
                if (released) {
                    return;
                }
                released = true;
                running--;
                if (expensive) {
                    runningExpensive--;
                }
                perClientRunning.computeIfPresent(client, (k, n) -> n == 1 ? null : n - 1);
            }
        }
    }

    private final int slots;
    private final int expensive;
    private final int perClient;
    private final Consumer<Reason> rejected;
    private int running;
    private int runningExpensive;
    /** Searches running per client; only clients with one running are in it, so it is bounded by {@link #slots}. */
    private final Map<String, Integer> perClientRunning = new HashMap<>();

    /** {@code rejected} is told each refusal (for the metric). */
    Admission(int slots, int expensive, int perClient, Consumer<Reason> rejected) {
        if (slots < 1 || expensive < 1 || perClient < 1) {
            throw new IllegalArgumentException("slots, expensive slots and the per-client share must be >= 1, got "
                    + slots + ", " + expensive + " and " + perClient);
        }
        this.slots = slots;
        this.expensive = Math.min(expensive, slots);
        this.perClient = Math.min(perClient, slots);
        this.rejected = rejected;
    }

    /** Admits a new search by {@code client}, a full scan when {@code fullScan}, or says why not. */
    Ticket admit(String client, boolean fullScan) throws Rejected {
        Rejected no;
        synchronized (this) {
            int mine = perClientRunning.getOrDefault(client, 0);
            if (mine >= perClient) {
                no = new Rejected(
                        Reason.CLIENT_SHARE,
                        "you are running " + mine + " searches, this server's share per client"
                                + " (--max-queries-per-client); try again when one has finished");
            } else if (fullScan && runningExpensive >= expensive) {
                no = new Rejected(
                        Reason.EXPENSIVE,
                        "too many searches that read every file are running (" + expensive
                                + ", --max-expensive-queries): this query has no three characters in a row that every match needs; "
                                + "add some, or a package:, path: or filetype: filter, or try again shortly");
            } else if (running >= slots) {
                no = new Rejected(
                        Reason.SLOTS, "too many queries are running (" + slots + ", --max-queries); try again shortly");
            } else {
                running++;
                if (fullScan) {
                    runningExpensive++;
                }
                perClientRunning.put(client, mine + 1);
                return new Ticket(client, fullScan);
            }
        }
        rejected.accept(no.reason);
        throw no;
    }

    synchronized int running() {
        return running;
    }
}
