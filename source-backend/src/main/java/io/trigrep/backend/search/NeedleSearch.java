package io.trigrep.backend.search;

import io.trigrep.re2j.Pattern;
import java.util.List;

/** A regex whose matching lines all hold one of a few needles: the lines holding one are checked by the regex alone. */
final class NeedleSearch implements LineMatcher {
    private final byte[][] needles;
    private final int[][] pairs;
    /** Whether the needles are lower case and are looked for in the file's ASCII lower case. */
    private final boolean fold;

    private final RegexRanges regex;
    private byte[] lowered = new byte[0];

    NeedleSearch(Pattern pattern, List<String> needles, boolean fold) {
        this.needles = LiteralScan.latin1(needles);
        this.pairs = LiteralScan.rarePairs(this.needles);
        this.fold = fold;
        this.regex = new RegexRanges(pattern);
    }

    @Override
    public void search(byte[] content, int length, int start, int startLine, LineSink sink) {
        byte[] text = content;
        if (fold) {
            if (lowered.length < length) {
                lowered = new byte[Math.max(length, 2 * lowered.length)];
            }
            Needles.lowerAscii(content, length, lowered);
            text = lowered;
        }
        regex.searchCandidates(text, needles, pairs, content, length, start, startLine, sink);
    }
}
