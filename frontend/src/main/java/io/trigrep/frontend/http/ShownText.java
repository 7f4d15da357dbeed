package io.trigrep.frontend.http;

import io.trigrep.proto.Utf8;

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
            long rune = Utf8.rune(bytes, i, to);
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
            long rune = Utf8.rune(bytes, i, bytes.length);
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
}
