package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.FileResults;
import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.LineMatch;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Range;
import io.trigrep.proto.Request;
import io.trigrep.proto.Result;
import io.trigrep.proto.SearchRequest;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.capnproto.MessageBuilder;
import org.capnproto.TextList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A search asked for results by file answers the very matches, in the same order, with the same
 * lines, ranges and rankings, as the same search answered a Result per line, through a real
 * backend over TCP; only a context line that is another match's line may show that match's window.
 */
@Tag("integration")
class FileResultsSearchTest {
    static Path dir;
    static BackendServer server;
    static InetSocketAddress address;
    static Shard shard;

    /** One match as a page shows it. */
    record Shown(
            String file,
            long line,
            List<String> before,
            String context,
            List<String> after,
            List<Long> ranges,
            float ranking,
            long contextStart,
            long lineBytes) {}

    /** What an answer held: its matches, its done's count of results, and its frames. */
    record Answer(List<Shown> matches, long results, int frames) {}

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("file-results");
        shard = TestShards.build(TestShards.CORPUS, dir, 1).get(0);
        server = new BackendServer(shard, BackendConfig.defaults());
        address = server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    @ParameterizedTest(name = "[{index}] {0} context={1} cap={2}")
    @CsvSource(
            delimiter = ';',
            value = {
                "return;2;100000",
                "return;0;100000",
                "the;3;100000",
                "\\w+;2;100000",
                "\\w+;1;37",
                "hello;2;100000",
                "int main;1;100000",
                "x;2;5",
                "nothing-matches-this;2;100000",
                "[{}];2;100000"
            })
    void byFileAnswersWhatByLineAnswers(String query, int context, int cap) throws Exception {
        Answer byLine = search(query, context, cap, false);
        Answer byFile = search(query, context, cap, true);
        assertThat(byFile.results()).isEqualTo(byLine.results());
        assertThat(byFile.matches()).hasSameSizeAs(byLine.matches());
        Map<String, String> windows = new HashMap<>();
        for (Shown s : byLine.matches()) {
            windows.put(s.file() + ":" + s.line(), s.context());
        }
        for (int i = 0; i < byLine.matches().size(); i++) {
            Shown e = byLine.matches().get(i);
            Shown a = byFile.matches().get(i);
            assertThat(a.file()).isEqualTo(e.file());
            assertThat(a.line()).isEqualTo(e.line());
            assertThat(a.context()).isEqualTo(e.context());
            assertThat(a.ranges()).isEqualTo(e.ranges());
            assertThat(a.ranking()).isEqualTo(e.ranking());
            assertThat(a.contextStart()).isEqualTo(e.contextStart());
            assertThat(a.lineBytes()).isEqualTo(e.lineBytes());
            assertThat(a.before()).hasSameSizeAs(e.before());
            assertThat(a.after()).hasSameSizeAs(e.after());
            for (int k = 0; k < e.before().size(); k++) {
                String key = e.file() + ":" + (e.line() - e.before().size() + k);
                assertThat(a.before().get(k)).isIn(e.before().get(k), windows.get(key));
            }
            for (int k = 0; k < e.after().size(); k++) {
                String key = e.file() + ":" + (e.line() + 1 + k);
                assertThat(a.after().get(k)).isIn(e.after().get(k), windows.get(key));
            }
        }
        if (byLine.matches().size() > 100) {
            // Files with many matches come in few frames: that is the point.
            assertThat(byFile.frames()).isLessThan(byLine.frames() / 2);
        }
    }

    /**
     * Every match's context lines are the lines of its file around it, by line and by file: matches
     * on neighbouring lines share context lines, which the backend finds once (checked here against
     * the file's own lines, not against another answer of the backend's).
     */
    @ParameterizedTest(name = "[{index}] {0} context={1}")
    @CsvSource(
            delimiter = ';',
            value = {"\\w+;2", "\\w+;3", "return;2", "^};1", "[{}];3", "e;10", "int;1"})
    void contextLinesAreTheFileLinesAroundEachMatch(String query, int context) throws Exception {
        java.util.TreeMap<String, Path> files = TestShards.files(shard, TestShards.CORPUS);
        for (boolean byFile : new boolean[] {false, true}) {
            Answer answer = search(query, context, 100_000, byFile);
            assertThat(answer.matches()).isNotEmpty();
            int compared = 0;
            for (Shown s : answer.matches()) {
                List<String> lines = fileLines(files.get(s.file()));
                int at = (int) s.line() - 1;
                String where = s.file() + ":" + s.line() + (byFile ? " by file" : " by line");
                assertThat(s.before()).as(where).hasSize(Math.min(context, at));
                assertThat(s.after()).as(where).hasSize(Math.min(context, lines.size() - 1 - at));
                for (int k = 0; k < s.before().size(); k++) {
                    compared += sameWhenWhole(
                            s.before().get(k), lines.get(at - s.before().size() + k), where);
                }
                compared += sameWhenWhole(s.context(), lines.get(at), where);
                for (int k = 0; k < s.after().size(); k++) {
                    compared += sameWhenWhole(s.after().get(k), lines.get(at + 1 + k), where);
                }
            }
            assertThat(compared)
                    .as("lines short enough to be shown whole")
                    .isGreaterThan(answer.matches().size());
        }
    }

    /** The file's lines, as the backend counts them: a last newline ends the last line, it does not start one. */
    private static List<String> fileLines(Path file) throws Exception {
        String text = text(Files.readAllBytes(file));
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (text.endsWith("\n")) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** 1 when {@code expected} is short enough to be shown whole, and then {@code shown} must be it; else 0. */
    private static int sameWhenWhole(String shown, String expected, String where) {
        if (expected.length() > 60) {
            return 0;
        }
        assertThat(shown).as(where).isEqualTo(expected);
        return 1;
    }

    static Answer search(String query, int context, int cap, boolean byFile) throws Exception {
        MessageBuilder request = Messages.newBuilder();
        SearchRequest.Builder search = request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setContextLines(context)
                .setMaxResults(cap)
                .setFileResults(byFile);
        search.setLiteral(false);
        List<Shown> matches = new ArrayList<>();
        long[] results = {-1};
        int[] frames = {0};
        BackendClient.exchange(address, request, r -> {
            switch (r.which()) {
                case RESULT -> {
                    frames[0]++;
                    matches.add(shown(r.getResult()));
                }
                case FILE_RESULTS -> {
                    frames[0]++;
                    FileResultsIndex index = new FileResultsIndex(r.getFileResults());
                    for (int m = 0; m < index.matches(); m++) {
                        matches.add(shown(index, m));
                    }
                }
                case DONE -> results[0] = r.getDone().getResults();
                case ERROR -> throw new AssertionError("error: " + r.getError().getMessage());
                default -> {}
            }
            return true;
        });
        assertThat(results[0]).as("stream ended with done").isEqualTo(matches.size());
        return new Answer(matches, results[0], frames[0]);
    }

    private static Shown shown(Result.Reader r) {
        List<Long> ranges = new ArrayList<>();
        for (Range.Reader range : r.getRanges()) {
            ranges.add(Integer.toUnsignedLong(range.getStart()));
            ranges.add(Integer.toUnsignedLong(range.getEnd()));
        }
        long start = Integer.toUnsignedLong(r.getContextStart());
        long full = Integer.toUnsignedLong(r.getLineBytes());
        return new Shown(
                r.getPackage() + "/" + r.getPath(),
                Integer.toUnsignedLong(r.getLine()),
                texts(r.getBefore()),
                text(r.getContext().asByteBuffer()),
                texts(r.getAfter()),
                ranges,
                r.getRanking(),
                start,
                full);
    }

    private static Shown shown(FileResultsIndex index, int m) {
        FileResults.Reader f = index.file();
        LineMatch.Reader match = index.match(m);
        int line = match.getLine();
        List<String> before = new ArrayList<>();
        for (int k = line - match.getBefore(); k < line; k++) {
            before.add(text(index.text(k)));
        }
        List<String> after = new ArrayList<>();
        for (int k = line + 1; k <= line + match.getAfter(); k++) {
            after.add(text(index.text(k)));
        }
        List<Long> ranges = new ArrayList<>();
        for (int k = index.firstRange(m); k < index.firstRange(m + 1); k++) {
            ranges.add(Integer.toUnsignedLong(index.range(k).getStart()));
            ranges.add(Integer.toUnsignedLong(index.range(k).getEnd()));
        }
        return new Shown(
                f.getPackage() + "/" + f.getPath(),
                index.number(line),
                before,
                text(index.text(line)),
                after,
                ranges,
                match.getRanking(),
                index.start(line),
                index.full(line));
    }

    private static List<String> texts(TextList.Reader list) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            out.add(text(list.get(i).asByteBuffer()));
        }
        return out;
    }

    private static String text(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return text(out);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
