package io.trigrep.backend.search;

import io.trigrep.re2j.Pattern;

/** A regex with no needles to prefilter by: the lazy DFA scans whole files. */
final class RegexSearch implements LineMatcher {
    private final RegexRanges regex;

    RegexSearch(Pattern pattern) {
        this.regex = new RegexRanges(pattern);
    }

    @Override
    public void search(byte[] content, int length, int start, int startLine, LineSink sink) {
        regex.searchFile(content, length, start, startLine, sink);
    }
}
