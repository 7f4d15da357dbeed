package io.trigrep.indexer.symbols;

/**
 * One line of ctags' JSON output, a flat object of strings, numbers and booleans:
 * {@code {"_type": "tag", "name": "foo", "language": "C", "line": 1, "kind": "function"}}. Only the
 * keys symbol search keeps are read; others are skipped.
 */
final class TagLine {
    String type;
    String name;
    String kind;
    String language;
    String scope;
    String message;
    long line;
    boolean fatal;

    private String text;
    private int at;

    /** Parses {@code json} into the fields (those it lacks become null, 0, false). */
    TagLine parse(String json) {
        type = name = kind = language = scope = message = null;
        line = 0;
        fatal = false;
        text = json;
        at = 0;
        expect('{');
        skipSpace();
        if (peek() == '}') {
            return this;
        }
        while (true) {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            char c = peek();
            if (c == '"') {
                String value = string();
                switch (key) {
                    case "_type" -> type = value;
                    case "name" -> name = value;
                    case "kind" -> kind = value;
                    case "language" -> language = value;
                    case "scope" -> scope = value;
                    case "message" -> message = value;
                    default -> {}
                }
            } else if (c == 't' || c == 'f') {
                boolean value = word();
                if (key.equals("fatal")) {
                    fatal = value;
                }
            } else {
                long value = number();
                if (key.equals("line")) {
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

    private char peek() {
        if (at >= text.length()) {
            throw bad("ends early");
        }
        return text.charAt(at);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw bad("expected '" + c + "'");
        }
        at++;
    }

    private void skipSpace() {
        while (at < text.length() && text.charAt(at) == ' ') {
            at++;
        }
    }

    private boolean word() {
        if (text.startsWith("true", at)) {
            at += 4;
            return true;
        }
        if (text.startsWith("false", at)) {
            at += 5;
            return false;
        }
        throw bad("expected true or false");
    }

    private long number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        while (at < text.length() && Character.isDigit(text.charAt(at))) {
            at++;
        }
        try {
            return Long.parseLong(text, start, at, 10);
        } catch (NumberFormatException e) {
            throw bad("expected a number");
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = null;
        int start = at;
        while (true) {
            char c = peek();
            if (c == '"') {
                String s = out == null
                        ? text.substring(start, at)
                        : out.append(text, start, at).toString();
                at++;
                return s;
            }
            if (c != '\\') {
                at++;
                continue;
            }
            if (out == null) {
                out = new StringBuilder();
            }
            out.append(text, start, at);
            at++;
            char e = peek();
            at++;
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw bad("short \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text, at, at + 4, 16));
                    } catch (NumberFormatException x) {
                        throw bad("bad \\u escape");
                    }
                    at += 4;
                }
                default -> out.append(e);
            }
            start = at;
        }
    }

    private IllegalArgumentException bad(String problem) {
        return new IllegalArgumentException("ctags output at column " + at + ": " + problem + ": "
                + (text.length() > 200 ? text.substring(0, 200) + "…" : text));
    }
}
