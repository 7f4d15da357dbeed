package io.trigrep.frontend.http;

/**
 * Bytes from a backend as the API and the pages deliver them: valid UTF-8 as it is, each byte of
 * an invalid sequence (Latin-1 text, say) one U+FFFD, as the backend's search reads them. The
 * backend's ranges are byte offsets into the bytes it sent; {@link #offsets} says where each of
 * those offsets lands in the UTF-8 the client gets (U+FFFD takes 3 bytes where the invalid byte
 * took 1), so delivered ranges still mark exactly the matched characters.
 */
final class ShownText {
    private ShownText() {}

    static String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    static String decode(byte[] bytes, int from, int to) {
        StringBuilder out = new StringBuilder(to - from);
        for (int i = from; i < to; ) {
            int b = bytes[i];
            if (b >= 0) {
                out.append((char) b);
                i++;
                continue;
            }
            long rune = rune(bytes, i, to);
            out.appendCodePoint((int) rune);
            i += (int) (rune >>> 32);
        }
        return out.toString();
    }

    /**
     * For each byte offset {@code i} in {@code [0, length]}, the offset in the delivered UTF-8
     * where byte {@code i} starts (an offset inside a valid sequence maps to the sequence's start).
     */
    static int[] offsets(byte[] bytes) {
        int[] map = new int[bytes.length + 1];
        int delivered = 0;
        for (int i = 0; i < bytes.length; ) {
            if (bytes[i] >= 0) {
                map[i++] = delivered++;
                continue;
            }
            long rune = rune(bytes, i, bytes.length);
            int width = (int) (rune >>> 32);
            for (int k = 0; k < width; k++) {
                map[i + k] = delivered;
            }
            delivered += (int) rune == 0xfffd && width == 1 ? 3 : width;
            i += width;
        }
        map[bytes.length] = delivered;
        return map;
    }

    /** The code point at {@code bytes[i]} (0x80 or more) and its width, {@code width << 32 | codePoint}; invalid: one byte of U+FFFD. */
    private static long rune(byte[] bytes, int i, int to) {
        int b = bytes[i] & 0xff;
        int need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : -1;
        int cp = need == 3 ? b & 0x07 : need == 2 ? b & 0x0f : b & 0x1f;
        boolean ok = need > 0;
        for (int k = 1; ok && k <= need; k++) {
            if (i + k >= to || (bytes[i + k] & 0xc0) != 0x80) {
                ok = false;
            } else {
                cp = cp << 6 | bytes[i + k] & 0x3f;
            }
        }
        if (ok && (need == 2 && (cp < 0x800 || cp >= 0xd800 && cp <= 0xdfff) || need == 3 && (cp < 0x10000 || cp > 0x10ffff))) {
            ok = false;
        }
        return ok ? (long) (need + 1) << 32 | cp : 1L << 32 | 0xfffd;
    }
}
