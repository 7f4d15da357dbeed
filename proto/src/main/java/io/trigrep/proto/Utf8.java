package io.trigrep.proto;

/**
 * Decoding UTF-8 as the search reads files and as the frontend shows them: each byte of an
 * invalid sequence is one U+FFFD, as RE2 reads bytes. One definition, so that what a backend
 * matches and what a page marks are the same characters.
 */
public final class Utf8 {
    private Utf8() {}

    /**
     * The code point starting at {@code content[i]} (a byte of 0x80 or more) and its width in
     * bytes, packed as {@code width << 32 | codePoint}; an invalid or cut-off sequence, an
     * overlong form or a surrogate is one byte of U+FFFD.
     */
    public static long rune(byte[] content, int i, int length) {
        int b = content[i] & 0xff;
        int need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : -1;
        int cp = need == 3 ? b & 0x07 : need == 2 ? b & 0x0f : b & 0x1f;
        boolean ok = need > 0;
        for (int k = 1; ok && k <= need; k++) {
            if (i + k >= length || (content[i + k] & 0xc0) != 0x80) {
                ok = false;
            } else {
                cp = cp << 6 | (content[i + k] & 0x3f);
            }
        }
        if (ok
                && ((need == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
                        || (need == 3 && (cp < 0x10000 || cp > 0x10ffff)))) {
            ok = false;
        }
        return ok ? (long) (need + 1) << 32 | cp : 1L << 32 | 0xfffd;
    }
}
