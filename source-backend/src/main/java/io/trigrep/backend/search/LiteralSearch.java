package io.trigrep.backend.search;

/** A case-sensitive literal: its bytes found in place, eight at a time, never the regex engine. */
final class LiteralSearch implements LineMatcher {
    private final byte[] literal;
    /** The offsets of the literal's two rarest bytes; null for the empty literal and one no line holds, which find nothing. */
    private final int[] pair;

    private final LiteralScan scan = new LiteralScan();

    LiteralSearch(byte[] utf8) {
        this.literal = utf8;
        this.pair = utf8.length == 0 || !LiteralScan.fitsOnALine(utf8) ? null : ByteRarity.rarestPair(utf8, false);
    }

    @Override
    public void search(byte[] content, int length, int start, int startLine, LineSink sink) {
        if (pair != null) {
            scan.scan(content, literal, pair, content, length, start, startLine, sink, false);
        }
    }
}
