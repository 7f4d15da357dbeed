package io.trigrep.proto.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Scanner;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A background thread is lowered where the OS can see it: these tests run with the launcher's
 * {@code -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10} (the module's surefire
 * argLine), and Linux reports each thread's nice value in /proc.
 */
class BackgroundPriorityTest {
    @Test
    void aBackgroundThreadRunsTenNiceValuesBelowTheThreadThatMadeIt() throws Exception {
        assumeThat(Path.of("/proc/thread-self/stat")).exists();
        int mine = nice();
        AtomicInteger theirs = new AtomicInteger(Integer.MIN_VALUE);
        AtomicInteger priority = new AtomicInteger();
        Thread t = BackgroundPriority.thread(
                () -> {
                    theirs.set(nice());
                    priority.set(Thread.currentThread().getPriority());
                },
                "background-test");
        assertThat(t.isDaemon()).isTrue();
        t.start();
        t.join();
        assertThat(priority.get()).isEqualTo(Thread.MIN_PRIORITY);
        assertThat(theirs.get()).isEqualTo(Math.min(19, mine + 10));
    }

    @Test
    void theNiceValueIsReadAfterACommandNameWithSpacesAndParentheses() {
        assertThat(niceOf("4242 (a (b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 20 10 1 0 99"))
                .isEqualTo(10);
    }

    /** The calling thread's nice value, as Linux reports it. */
    private static int nice() {
        try {
            return niceOf(Files.readString(Path.of("/proc/thread-self/stat"), StandardCharsets.US_ASCII));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The 19th field of a stat line, counted from the end of the command name (in parentheses, which it may hold too). */
    private static int niceOf(String stat) {
        Scanner fields = new Scanner(stat.substring(stat.lastIndexOf(')') + 1));
        for (int field = 3; field < 19; field++) {
            fields.next();
        }
        return fields.nextInt();
    }
}
