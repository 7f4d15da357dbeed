package io.trigrep.bench.backend;

import io.trigrep.backend.search.Kernels;
import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.indexer.format.TrigramIndexWriter;
import io.trigrep.query.plan.Planner;
import io.trigrep.query.plan.Query;
import io.trigrep.re2j.Pattern;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The backend's inner loops, reached through {@link Kernels}: intersecting posting lists for a
 * three-trigram AND, and confirming candidates in a 64 KiB source-like file with the literal
 * matcher, the needle-prefiltered regex and the whole-file regex. Time per operation;
 * {@code -prof gc} gives allocation per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SearchKernelBenchmark {
    private Path file;
    private TrigramIndex index;
    private Query and;
    private byte[] content;
    private Kernels.Lines literal;
    /** {@code struct}, on about half the lines, one or more times: a result-heavy query's scan. */
    private Kernels.Lines frequentLiteral;

    private Kernels.Lines needles;
    private Kernels.Lines wholeFile;
    /** {@code [A-Z]{8}}: its idle states' 26 exits are one byte range, which the DFA jumps between. */
    private Kernels.Dfa upperCaseRun;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        // Three lists over 1,000,000 docs: 1% , 10% and 30% dense, independent.
        Random random = new Random(1);
        int docs = 1_000_000;
        file = Files.createTempFile("kernel", ".tgi");
        Files.delete(file);
        int[] trigrams = {0x616263, 0x626364, 0x636465};
        double[] density = {0.01, 0.10, 0.30};
        try (TrigramIndexWriter writer = new TrigramIndexWriter(file, docs)) {
            for (int t = 0; t < 3; t++) {
                for (int d = 0; d < docs; d++) {
                    if (random.nextDouble() < density[t]) {
                        writer.add(trigrams[t], d);
                    }
                }
            }
            writer.finish();
        }
        index = TrigramIndex.open(file);
        and = Query.combine(
                true,
                List.of(
                        new Query.Trigram(trigrams[0]),
                        new Query.Trigram(trigrams[1]),
                        new Query.Trigram(trigrams[2])));

        StringBuilder text = new StringBuilder();
        String[] words = {"static", "int", "return", "buffer", "length", "if", "for", "while", "struct", "const", "char"
        };
        int line = 0;
        while (text.length() < 64 << 10) {
            text.append("    ".repeat(line % 3));
            for (int w = 0; w < 8; w++) {
                text.append(words[random.nextInt(words.length)]).append(' ');
            }
            if (line % 97 == 0) {
                text.append("inflateInit2_(strm, 15);");
            }
            text.append('\n');
            line++;
        }
        content = text.toString().getBytes(StandardCharsets.UTF_8);
        literal = Kernels.Lines.literal("inflateInit2_".getBytes(StandardCharsets.UTF_8));
        frequentLiteral = Kernels.Lines.literal("struct".getBytes(StandardCharsets.UTF_8));
        Pattern regex = Pattern.compile("inflate\\w+\\(", Pattern.MULTILINE);
        Query plan = Planner.plan("inflate\\w+\\(", false, false);
        needles = Kernels.Lines.regex(regex, List.of("inf"));
        wholeFile = Kernels.Lines.regex(regex, List.of());
        upperCaseRun = new Kernels.Dfa(Pattern.compile("[A-Z]{8}", Pattern.MULTILINE));
        if (plan instanceof Query.All) {
            throw new IllegalStateException("plan should not be a full scan: " + plan);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
    }

    @Benchmark
    public int intersectThreeLists() throws Exception {
        return Kernels.countCandidates(and, index);
    }

    @Benchmark
    public int verifyLiteral() {
        return literal.countRanges(content, content.length);
    }

    @Benchmark
    public int verifyFrequentLiteral() {
        return frequentLiteral.countRanges(content, content.length);
    }

    /**
     * {@code struct} with two context lines on each side found for each matching line, as a
     * result-heavy query's search finds them; the scan told which lines the context already
     * found (as the search's sink tells it), or not ({@code Rescanned}): the difference is what
     * stepping over known lines saves.
     */
    @Benchmark
    public long frequentLiteralWithContext() {
        return frequentLiteral.countShownBytes(content, content.length, 2, true);
    }

    @Benchmark
    public long frequentLiteralWithContextRescanned() {
        return frequentLiteral.countShownBytes(content, content.length, 2, false);
    }

    @Benchmark
    public int verifyRegexWithNeedles() {
        return needles.countRanges(content, content.length);
    }

    /** The lazy DFA alone over the 64 KiB file, which holds no match (nor an upper-case letter): a full scan's cost per byte. */
    @Benchmark
    public int dfaUpperCaseRunNoMatch() {
        return upperCaseRun.countLines(content, content.length);
    }

    @Benchmark
    public int verifyRegexWholeFile() {
        return wholeFile.countRanges(content, content.length);
    }
}
