package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmarks' entry point runs the search's own matchers: the counts are the search's. */
class KernelsTest {
    private static final byte[] FILE =
            "inflate(a);\nnothing here\ninflateInit2_(s); inflateEnd(s);\n".getBytes(StandardCharsets.UTF_8);

    @Test
    void linesCountTheRangesOfOneSearch() {
        Pattern regex = Pattern.compile("inflate\\w+\\(", Pattern.MULTILINE);
        Kernels.Lines literal = Kernels.Lines.literal("inflate".getBytes(StandardCharsets.UTF_8));
        assertThat(literal.countRanges(FILE, FILE.length)).isEqualTo(3);
        assertThat(literal.countRanges(FILE, FILE.length))
                .as("counted afresh on every call")
                .isEqualTo(3);
        assertThat(Kernels.Lines.regex(regex, List.of("inf")).countRanges(FILE, FILE.length))
                .isEqualTo(2);
        assertThat(Kernels.Lines.regex(regex, List.of()).countRanges(FILE, FILE.length))
                .isEqualTo(2);
    }

    @Test
    void dfaCountsTheLinesThatMatch() {
        Kernels.Dfa upperCaseRun = new Kernels.Dfa(Pattern.compile("[A-Z]{8}", Pattern.MULTILINE));
        assertThat(upperCaseRun.countLines(FILE, FILE.length)).isZero();
        byte[] shouting = "quiet\nLOUDLOUDER\nquiet\nSHOUTING AGAIN\n".getBytes(StandardCharsets.UTF_8);
        assertThat(upperCaseRun.countLines(shouting, shouting.length)).isEqualTo(2);
    }
}
