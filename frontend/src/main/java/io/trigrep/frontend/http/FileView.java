package io.trigrep.frontend.http;

import io.trigrep.frontend.fanout.FileFetch;
import java.util.HashMap;
import java.util.Map;

/**
 * A window of a file's lines as a backend sent it, checked: the lines of the content (each
 * without its newline), their numbers, and the full length of each line the backend cut. Claims
 * that contradict the content (a cut line outside the window, a total below the lines sent) are
 * ignored or raised to what was sent.
 */
final class FileView {
    final byte[] content;
    final long firstLine;
    final long totalLines;
    final long totalBytes;
    /** Line {@code firstLine + i} is {@code content[starts[i], ends[i])}. */
    final int[] starts;

    final int[] ends;
    /** The full length of line {@code firstLine + i}: more than its shown length when cut. */
    final long[] full;

    FileView(FileFetch.Outcome outcome) {
        content = outcome.content();
        firstLine = Math.max(1, outcome.firstLine());
        int lines = 0;
        for (byte b : content) {
            lines += b == '\n' ? 1 : 0;
        }
        if (content.length > 0 && content[content.length - 1] != '\n') {
            lines++;
        }
        starts = new int[lines];
        ends = new int[lines];
        full = new long[lines];
        Map<Long, Long> cut = new HashMap<>();
        for (int i = 0; i < outcome.cutLines().length; i++) {
            cut.put(outcome.cutLines()[i], outcome.cutBytes()[i]);
        }
        int at = 0;
        for (int i = 0; i < lines; i++) {
            int end = at;
            while (end < content.length && content[end] != '\n') {
                end++;
            }
            starts[i] = at;
            ends[i] = end;
            full[i] = Math.max(end - at, cut.getOrDefault(firstLine + i, 0L));
            at = end + 1;
        }
        totalLines = Math.max(outcome.totalLines(), lines == 0 ? 0 : firstLine + lines - 1);
        totalBytes = Math.max(outcome.totalBytes(), content.length);
    }

    int lines() {
        return starts.length;
    }

    boolean cut(int i) {
        return full[i] > ends[i] - starts[i];
    }
}
