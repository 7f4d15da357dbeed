package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.SegmentedIndex;
import io.trigrep.backend.StreamClient;
import io.trigrep.backend.TestShards;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.symbols.SymbolExtractor;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Range;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 16: a shard of three segments, some of whose files are deleted (a package replaced by a
 * newer segment, two files removed), answers every kind of query exactly as a plain shard built
 * from the same live files does: the same results, ranges and rankings, the same counts, and a
 * deleted file is neither found nor fetched.
 */
@Tag("integration")
class SegmentedSearchTest {
    private static final Set<String> REMOVED = Set.of("synthetic_1.0/src/anchors.txt", "synthetic_1.0/web/index.html");

    static Path dir;
    static BackendServer segmented;
    static BackendServer plain;
    static InetSocketAddress segmentedAddress;
    static InetSocketAddress plainAddress;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("segmented-search");
        Path index = dir.resolve("index");
        Files.createDirectories(index);
        // Segment 0: redis, tcl and zlib; segment 5: lua (whose files rank best) and synthetic; segment 7:
        // zlib again, replacing segment 0's.
        SegmentedIndex.buildSegment(
                SegmentedIndex.copy(TestShards.CORPUS, dir.resolve("c0"), n -> n.matches("(redis|tcl|zlib).*")),
                index,
                0,
                options());
        SegmentedIndex.buildSegment(
                SegmentedIndex.copy(TestShards.CORPUS, dir.resolve("c5"), n -> n.matches("(lua|synthetic).*")),
                index,
                5,
                options());
        SegmentedIndex.buildSegment(
                SegmentedIndex.copy(TestShards.CORPUS, dir.resolve("c7"), n -> n.startsWith("zlib")),
                index,
                7,
                options());
        SegmentedIndex.commit(
                index,
                1,
                List.of(
                        new SegmentedIndex.Part(0, name -> name.startsWith("zlib")),
                        new SegmentedIndex.Part(5, REMOVED::contains),
                        SegmentedIndex.Part.whole(7)));
        // The same live files, built as one plain shard.
        Path live = SegmentedIndex.copy(TestShards.CORPUS, dir.resolve("live"), n -> true);
        for (String removed : REMOVED) {
            Files.delete(live.resolve(removed));
        }
        Path plainOut = dir.resolve("plain");
        List<String> errors = new ArrayList<>();
        new IndexBuilder(options(), Clock.systemUTC())
                .build(Corpus.discover(List.of(live), plainOut, errors::add), plainOut, errors::add);
        assertThat(errors).isEmpty();
        // Without its generation file, as an index built before generations: the plain shard folder
        // is served as generation 0, and must answer as the segmented one does.
        try (var files = Files.list(plainOut)) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().matches("gen-[0-9]+\\.json")) {
                    Files.delete(f);
                }
            }
        }

        segmented = BackendServer.open(
                index.resolve("shard-0"), BackendConfig.defaults(), io.trigrep.proto.Tls.PLAIN, false, false);
        segmentedAddress = segmented.start("127.0.0.1", 0);
        plain = BackendServer.open(
                plainOut.resolve("shard-0"), BackendConfig.defaults(), io.trigrep.proto.Tls.PLAIN, false, false);
        plainAddress = plain.start("127.0.0.1", 0);
        assertThat(segmented.generation()).isEqualTo(1);
    }

    private static IndexBuilder.Options options() throws Exception {
        return IndexBuilder.Options.defaults(1)
                .withSymbols(SymbolChoice.extract(
                        SymbolExtractor.start(new SymbolExtractor.Config("ctags", 1, Duration.ofSeconds(30)))));
    }

    @AfterAll
    static void stop() throws Exception {
        if (segmented != null) {
            segmented.close();
        }
        if (plain != null) {
            plain.close();
        }
        SegmentedIndex.delete(dir);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "(lua|luaL)_[A-Z]\\w+",
                "[0-9]{4}",
                "^#include",
                "\\bint\\b",
                "adler32",
                "(?i)hello",
                "(?i)copyright",
                "hello case:no",
                "sym:Init",
                "sym:^inflate",
                "sym:main filetype:c",
                "sym:^adler32 AND BASE",
                "sym:^lua_ OR sym:^z",
                "(sym:^lua OR zmemcpy) AND NOT sym:^zmemzero$",
                "int AND NOT sym:^lua",
                "path:\\.h$",
                "file:README",
                "adler32 OR crc32",
                "lua NOT State",
                "(int OR char) AND return",
                "int package:zlib",
                "return -path:\\.h$",
                "hello filetype:c",
                "int package:lua path:src/ -path:lauxlib",
                ".",
                "x",
                "nothing-matches-this"
            })
    void answersAsThePlainShardOfItsLiveFiles(String query) throws Exception {
        Answer expected = search(plainAddress, query, false, 0);
        Answer actual = search(segmentedAddress, query, false, 0);
        assertThat(actual.results).as("results of %s", query).isEqualTo(expected.results);
        assertThat(actual.counts).as("done of %s", query).isEqualTo(expected.counts);
        assertThat(actual.generation).isEqualTo(1);
        assertThat(expected.generation).as("a plain shard is generation 0").isZero();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Copyright (C)", "foo(bar)", "$dollar ^caret"})
    void literalQueriesToo(String query) throws Exception {
        assertThat(search(segmentedAddress, query, true, 0).results)
                .isEqualTo(search(plainAddress, query, true, 0).results);
    }

    /**
     * A capped search sees the best files first across segments, as in a plain shard: the same
     * first results, though the best files are in a later segment than others that match.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"int", "return", "static", "the", "(?i)z", "path:\\.h$"})
    void aCappedSearchKeepsTheSameBestResults(String query) throws Exception {
        Answer expected = search(plainAddress, query, false, 7);
        Answer actual = search(segmentedAddress, query, false, 7);
        assertThat(expected.results).hasSizeBetween(1, 7);
        assertThat(actual.results).isEqualTo(expected.results);
    }

    @Test
    void deletedFilesAreNotFetchedAndReplacedOnesComeFromTheNewestSegment() throws Exception {
        for (String removed : REMOVED) {
            int slash = removed.indexOf('/');
            Response.Reader[] answer = {null};
            MessageBuilder fetch = Messages.newBuilder();
            fetch.initRoot(Request.factory)
                    .initFetchFile()
                    .setPackage(removed.substring(0, slash))
                    .setPath(removed.substring(slash + 1));
            BackendClient.exchange(segmentedAddress, fetch, r -> {
                answer[0] = r;
                return true;
            });
            assertThat(answer[0].which()).isEqualTo(Response.Which.ERROR);
            assertThat(answer[0].getError().getCode()).isEqualTo(io.trigrep.proto.Failure.Code.NOT_FOUND);
        }
        MessageBuilder fetch = Messages.newBuilder();
        fetch.initRoot(Request.factory)
                .initFetchFile()
                .setPackage("zlib_1.2.13.dfsg-1")
                .setPath("adler32.c");
        byte[][] content = {null};
        BackendClient.exchange(segmentedAddress, fetch, r -> {
            assertThat(r.which()).isEqualTo(Response.Which.FILE);
            java.nio.ByteBuffer b = r.getFile().getContent().asByteBuffer();
            content[0] = new byte[b.remaining()];
            b.get(content[0]);
            return true;
        });
        assertThat(content[0]).isEqualTo(Files.readAllBytes(TestShards.CORPUS.resolve("zlib_1.2.13.dfsg-1/adler32.c")));
    }

    @Test
    void statusCountsLiveAndDeletedFilesOfTheGeneration() throws Exception {
        io.trigrep.proto.Status.Reader[] status = {null, null};
        for (int i = 0; i < 2; i++) {
            MessageBuilder ping = Messages.newBuilder();
            ping.initRoot(Request.factory).setPing();
            int k = i;
            BackendClient.exchange(i == 0 ? segmentedAddress : plainAddress, ping, r -> {
                status[k] = r.getStatus();
                return true;
            });
        }
        assertThat(status[0].getGeneration()).isEqualTo(1);
        assertThat(status[0].getSegments()).isEqualTo(3);
        assertThat(status[0].getFiles()).isEqualTo(status[1].getFiles());
        assertThat(status[0].getBytes()).isEqualTo(status[1].getBytes());
        assertThat(status[0].getDeletedFiles())
                .as("zlib's first version and two removed files")
                .isGreaterThan(2);
        assertThat(status[1].getSegments()).isEqualTo(1);
        assertThat(status[1].getDeletedFiles()).isZero();
    }

    /** A search's answer: its results, sorted, each with its ranges and ranking, and its done counts. */
    record Answer(List<String> results, List<Long> counts, long generation) {}

    static Answer search(InetSocketAddress at, String query, boolean literal, int maxResults) throws Exception {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setLiteral(literal)
                .setMaxResults(maxResults);
        List<String> results = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        long[] generation = {-1};
        StreamClient.exchange(at, request, r -> {
            switch (r.which()) {
                case RESULT -> {
                    var result = r.getResult();
                    StringBuilder line = new StringBuilder()
                            .append(result.getPackage())
                            .append('/')
                            .append(result.getPath())
                            .append(':')
                            .append(result.getLine())
                            .append(' ')
                            .append(result.getRanking());
                    for (Range.Reader range : result.getRanges()) {
                        line.append(' ').append(range.getStart()).append('-').append(range.getEnd());
                    }
                    results.add(line.toString());
                }
                case FILE_MATCH -> {
                    var file = r.getFileMatch();
                    results.add(file.getPackage() + "/" + file.getPath() + " file " + file.getRanking() + " "
                            + file.getBytes());
                }
                case DONE -> {
                    var done = r.getDone();
                    counts.addAll(List.of(
                            done.getResults(),
                            done.getFilesSearched(),
                            done.getCandidateFiles(),
                            done.getTotalFiles()));
                    generation[0] = done.getGeneration();
                }
                case ERROR -> throw new AssertionError("error: " + r.getError().getMessage());
                default -> {}
            }
        });
        assertThat(counts).as("stream ended with done").isNotEmpty();
        if (maxResults == 0) {
            results.sort(null);
        }
        return new Answer(results, counts, generation[0]);
    }
}
