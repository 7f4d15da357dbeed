package io.trigrep.frontend.http;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A page being written: markup goes in as it is, everything that came from outside (queries,
 * paths, file contents) through {@link #text}, which escapes it. There is no third way in.
 */
final class Html {
    private final StringBuilder out = new StringBuilder(8192);

    /** Markup written by this code, never text from a request or a file. */
    Html raw(String markup) {
        out.append(markup);
        return this;
    }

    /** Text, escaped for element content and quoted attribute values alike. */
    Html text(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return this;
    }

    Html text(CharSequence text, int from, int to) {
        return text(text.subSequence(from, to));
    }

    Html number(long n) {
        out.append(n);
        return this;
    }

    /** A number with thousands separators, as people read them. */
    Html count(long n) {
        out.append(String.format(java.util.Locale.ROOT, "%,d", n));
        return this;
    }

    /** A size as people read it: 1.5 MB, 830 KB, 12 bytes (decimal units). */
    static String bytes(long n) {
        if (n < 1000) {
            return n + (n == 1 ? " byte" : " bytes");
        }
        String[] units = {"KB", "MB", "GB", "TB", "PB"};
        double v = n;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(java.util.Locale.ROOT, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
    }

    byte[] bytes() {
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    static String url(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
