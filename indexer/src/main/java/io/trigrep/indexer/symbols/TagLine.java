package io.trigrep.indexer.symbols;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * One line of ctags' JSON output, a flat object of strings, numbers and booleans:
 * {@code {"_type": "tag", "name": "foo", "language": "C", "line": 1, "kind": "function"}}, parsed
 * from its UTF-8 bytes. Only the keys symbol search keeps are read; others are skipped. Name and
 * scope stay UTF-8 (ctags sends over a million a build): as bytes of their own, unescaped.
 */
final class TagLine {
    String type;
    String kind;
    String language;
    String message;
    long line;
    boolean fatal;

    /** The name's UTF-8 bytes, {@code nameBytes[0, nameLength)}; length -1 when the line has no name. */
    byte[] nameBytes = new byte[64];

    int nameLength;
    /** The scope's UTF-8 bytes, {@code scopeBytes[0, scopeLength)}; length -1 when the line has no scope. */
    byte[] scopeBytes = new byte[64];

    int scopeLength;

    private byte[] text;
    private int begin;
    private int at;
    private int end;
    /** Where the last {@link #string} read its bytes: {@code text[start, stop)} when not escaped, else {@code escaped}. */
    private int start;

    private int stop;
    private String escaped;

    /** Parses {@code json} into the fields (those it lacks become null, -1, 0, false). */
    TagLine parse(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return parse(bytes, 0, bytes.length);
    }

    /** Parses the line {@code bytes[from, to)} (UTF-8) into the fields. */
    TagLine parse(byte[] bytes, int from, int to) {
        type = kind = language = message = null;
        nameLength = scopeLength = -1;
        line = 0;
        fatal = false;
        text = bytes;
        begin = at = from;
        end = to;
        expect('{');
        skipSpace();
        if (peek() == '}') {
            return this;
        }
        while (true) {
            skipSpace();
            string();
            int key = key();
            skipSpace();
            expect(':');
            skipSpace();
            byte c = peek();
            if (c == '"') {
                string();
                switch (key) {
                    case TYPE -> type = value();
                    case NAME -> {
                        nameBytes = room(nameBytes);
                        nameLength = copy(nameBytes);
                    }
                    case KIND -> kind = value();
                    case LANGUAGE -> language = value();
                    case SCOPE -> {
                        scopeBytes = room(scopeBytes);
                        scopeLength = copy(scopeBytes);
                    }
                    case MESSAGE -> message = value();
                    default -> {}
                }
            } else if (c == 't' || c == 'f') {
                boolean value = word();
                if (key == FATAL) {
                    fatal = value;
                }
            } else {
                long value = number();
                if (key == LINE) {
                    line = value;
                }
            }
            skipSpace();
            if (peek() == ',') {
                at++;
                continue;
            }
            expect('}');
            return this;
        }
    }

    /** The name, or null when the line has none. */
    String name() {
        return nameLength < 0 ? null : new String(nameBytes, 0, nameLength, StandardCharsets.UTF_8);
    }

    /** The scope, or null when the line has none. */
    String scope() {
        return scopeLength < 0 ? null : new String(scopeBytes, 0, scopeLength, StandardCharsets.UTF_8);
    }

    /** The keys read, numbered by their place here; any other key is {@link #OTHER}. */
    private static final List<String> KEYS =
            List.of("_type", "name", "kind", "language", "scope", "message", "fatal", "line");

    private static final byte[][] KEY_BYTES =
            KEYS.stream().map(k -> k.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
    private static final int TYPE = 0;
    private static final int NAME = 1;
    private static final int KIND = 2;
    private static final int LANGUAGE = 3;
    private static final int SCOPE = 4;
    private static final int MESSAGE = 5;
    private static final int FATAL = 6;
    private static final int LINE = 7;
    private static final int OTHER = -1;

    /** The key the last {@link #string} read. */
    private int key() {
        for (int k = 0; k < KEY_BYTES.length; k++) {
            if (escaped == null
                    ? Arrays.equals(text, start, stop, KEY_BYTES[k], 0, KEY_BYTES[k].length)
                    : escaped.equals(KEYS.get(k))) {
                return k;
            }
        }
        return OTHER;
    }

    /** The last {@link #string} as a String. */
    private String value() {
        return escaped != null ? escaped : new String(text, start, stop - start, StandardCharsets.UTF_8);
    }

    /** {@code into} grown to hold the last {@link #string}'s bytes. */
    private byte[] room(byte[] into) {
        int need = escaped != null ? 4 * escaped.length() : stop - start;
        return into.length >= need ? into : new byte[Math.max(need, 2 * into.length)];
    }

    /** Copies the last {@link #string}'s UTF-8 bytes into {@code into} (grown by {@link #room}); returns their count. */
    private int copy(byte[] into) {
        if (escaped == null) {
            System.arraycopy(text, start, into, 0, stop - start);
            return stop - start;
        }
        byte[] bytes = escaped.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(bytes, 0, into, 0, bytes.length);
        return bytes.length;
    }

    private byte peek() {
        if (at >= end) {
            throw bad("ends early");
        }
        return text[at];
    }

    private void expect(char c) {
        if (peek() != c) {
            throw bad("expected '" + c + "'");
        }
        at++;
    }

    private void skipSpace() {
        while (at < end && text[at] == ' ') {
            at++;
        }
    }

    private boolean word() {
        if (startsWith("true")) {
            at += 4;
            return true;
        }
        if (startsWith("false")) {
            at += 5;
            return false;
        }
        throw bad("expected true or false");
    }

    private boolean startsWith(String word) {
        if (end - at < word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (text[at + i] != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private long number() {
        boolean negative = peek() == '-';
        if (negative) {
            at++;
        }
        int from = at;
        long value = 0;
        try {
            for (; at < end && text[at] >= '0' && text[at] <= '9'; at++) {
                int digit = text[at] - '0';
                value = Math.addExact(Math.multiplyExact(value, 10), negative ? -digit : digit);
            }
        } catch (ArithmeticException e) {
            throw bad("expected a number");
        }
        if (at == from) {
            throw bad("expected a number");
        }
        return value;
    }

    /**
     * Reads a string: its raw bytes {@code text[start, stop)}, and when it holds escapes or bytes
     * past ASCII, {@code escaped}: decoded, then unescaped, as a String (so invalid UTF-8 becomes
     * U+FFFD, as when the whole line was decoded at once).
     */
    private void string() {
        expect('"');
        start = at;
        boolean plain = true;
        while (true) {
            byte c = peek();
            if (c == '"') {
                stop = at;
                at++;
                escaped = plain ? null : unescape(start, stop);
                return;
            }
            if (c < 0 || c == '\\') {
                plain = false;
            }
            at += c == '\\' ? 2 : 1;
        }
    }

    private String unescape(int from, int to) {
        String s = new String(text, from, to - from, StandardCharsets.UTF_8);
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            char c = s.charAt(i++);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw bad("short \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(s, i, i + 4, 16));
                    } catch (NumberFormatException x) {
                        throw bad("bad \\u escape");
                    }
                    i += 4;
                }
                default -> out.append(e);
            }
        }
        return out.toString();
    }

    private IllegalArgumentException bad(String problem) {
        String line = new String(text, begin, end - begin, StandardCharsets.UTF_8);
        return new IllegalArgumentException("ctags output at byte " + (at - begin) + ": " + problem + ": "
                + (line.length() > 200 ? line.substring(0, 200) + "…" : line));
    }
}
