package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.ParsedQuery;
import io.trigrep.query.QueryParser;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every query's results, through a real backend over TCP, equal a brute-force scan of every
 * indexed file with RE2J line by line, and equal {@code rg -n} (ripgrep) on the same files where
 * the two dialects agree.
 */
@Tag("integration")
class GroundTruthTest {
    static Path dir;
    static Shard shard;
    static BackendServer server;
    static InetSocketAddress address;
    static TreeMap<String, Path> files;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ground-truth");
        shard = TestShards.build(TestShards.CORPUS, dir, 1).get(0);
        files = TestShards.files(shard, TestShards.CORPUS);
        server = new BackendServer(shard, BackendConfig.defaults());
        address = server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        server.close();
        io.trigrep.indexer.build.IndexBuilder.class.getName();
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (Exception ignored) {
            // temporary files
        }
    }

    /** Query ;; literal ;; whether rg's dialect agrees (RE2's \\w is ASCII, ripgrep's Unicode). */
    private static final List<String> CASES = List.of(
            // selective and common literals
            "adler32 ;; false ;; true",
            "int main ;; false ;; true",
            "hello ;; false ;; true",
            "return ;; false ;; true",
            "the ;; false ;; true",
            "zz ;; false ;; true",
            "ab ;; false ;; true",
            "lua_State ;; false ;; true",
            "Copyright (C) ;; true ;; true",
            "foo(bar) ;; true ;; true",
            "foo.bar ;; true ;; true",
            "[brackets] ;; true ;; true",
            "$dollar ^caret ;; true ;; true",
            "nothing-matches-this ;; false ;; true",
            // alternation and classes
            "foo|bar ;; false ;; true",
            "adler32|crc32 ;; false ;; true",
            "(lua|luaL)_[A-Z]\\w+ ;; false ;; true",
            "[0-9]{4} ;; false ;; true",
            "0x[0-9a-fA-F]+ ;; false ;; true",
            "[^a-z ]{5} ;; false ;; true",
            "\\d+ ;; false ;; true",
            "[[:upper:]]{3} ;; false ;; true",
            "foo[.(]bar ;; false ;; true",
            // repetition
            "hel+o ;; false ;; true",
            "he?llo ;; false ;; true",
            "a.*b.*c ;; false ;; true",
            "(ab)+ ;; false ;; true",
            "x{2,} ;; false ;; true",
            "z?e{1,2}d ;; false ;; true",
            "\\w+\\s*\\( ;; false ;; true",
            // anchors
            "^#include ;; false ;; true",
            "^start ;; false ;; true",
            "line$ ;; false ;; true",
            "^\\s+[a-z] ;; false ;; true",
            "\\bint\\b ;; false ;; true",
            "\\Bell\\B ;; false ;; true",
            "end$ ;; false ;; true",
            // case-insensitivity
            "(?i)hello ;; false ;; true",
            "hello case:no ;; false ;; true",
            "(?i)HELLO_WORLD ;; false ;; true",
            "(?i)copyright ;; false ;; true",
            "(?i)lua_state ;; false ;; true",
            "(?i)σίσυφος ;; false ;; false",
            "(?i)sqlite ;; false ;; true",
            "sqlite case:no ;; false ;; true",
            "(?i)kelvin sign k ;; false ;; true",
            "(?i)the ;; false ;; true",
            // unicode
            "café ;; false ;; true",
            "Ünïcödé ;; false ;; true",
            "日本語 ;; false ;; true",
            "テ.スト ;; false ;; true",
            "\\p{Greek}+ ;; false ;; true",
            "ǅ ;; false ;; true",
            // filters
            "int package:zlib ;; false ;; true",
            "int -package:zlib ;; false ;; true",
            "return path:\\.h$ ;; false ;; true",
            "return -path:\\.h$ ;; false ;; true",
            "the -file:README ;; false ;; true",
            "hello filetype:c ;; false ;; true",
            "hello filetype:python ;; false ;; true",
            "hello -filetype:c ;; false ;; true",
            "proc filetype:tcl ;; false ;; true",
            "Fatal filetype:go ;; false ;; true",
            "int package:lua path:src/ -path:lauxlib ;; false ;; true",
            "<script> ;; false ;; true",
            // full-scan plans
            ". ;; false ;; true",
            // RE2's \\w is ASCII; ripgrep's is Unicode (it matches 日本語): brute force only.
            "\\w+ ;; false ;; false",
            "ab|cd ;; false ;; true",
            "x ;; false ;; true",
            "(?i)q ;; false ;; true",
            "[{}] ;; false ;; true");

    static Stream<Arguments> cases() {
        return CASES.stream().map(c -> c.split(" ;; ")).map(c -> Arguments.of(c[0], Boolean.parseBoolean(c[1])));
    }

    static Stream<Arguments> ripgrepCases() {
        return CASES.stream()
                .map(c -> c.split(" ;; "))
                .filter(c -> Boolean.parseBoolean(c[2]))
                .map(c -> Arguments.of(c[0], Boolean.parseBoolean(c[1])));
    }

    @ParameterizedTest(name = "[{index}] {0} literal={1}")
    @MethodSource("cases")
    void resultsEqualBruteForce(String query, boolean literal) throws Exception {
        TreeSet<String> actual = search(query, literal);
        ParsedQuery parsed = QueryParser.parse(query, literal);
        CompiledQuery spec = CompiledQuery.of(parsed);
        TreeSet<String> expected = new TreeSet<>();
        for (Map.Entry<String, Path> file : files.entrySet()) {
            String name = file.getKey();
            int slash = name.indexOf('/');
            String pkg = name.substring(0, slash);
            String path = name.substring(slash + 1);
            byte[] bytes = Files.readAllBytes(file.getValue());
            if (!spec.accepts(pkg, path, FileType.detect(path, java.nio.ByteBuffer.wrap(bytes)))) {
                continue;
            }
            String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
            int count = lines.length - (bytes.length > 0 && bytes[bytes.length - 1] == '\n' ? 1 : 0);
            for (int i = 0; i < count; i++) {
                if (spec.pattern().matcher(lines[i]).find()) {
                    expected.add(name + ":" + (i + 1));
                }
            }
        }
        same("brute force", query, expected, actual);
    }

    /** The same answers equal ripgrep's, where the dialects agree: drives {@code rg}, so tagged external. */
    @Tag("external")
    @ParameterizedTest(name = "[{index}] {0} literal={1}")
    @MethodSource("ripgrepCases")
    void resultsEqualRipgrep(String query, boolean literal) throws Exception {
        TreeSet<String> actual = search(query, literal);
        ParsedQuery parsed = QueryParser.parse(query, literal);
        CompiledQuery spec = CompiledQuery.of(parsed);
        List<Path> selected = io.trigrep.backend.Ripgrep.accepted(spec, files);
        same("rg", query, io.trigrep.backend.Ripgrep.matchingLines(parsed, selected, TestShards.CORPUS), actual);
    }

    private static void same(String truth, String query, TreeSet<String> expected, TreeSet<String> actual) {
        TreeSet<String> missing = new TreeSet<>(expected);
        missing.removeAll(actual);
        TreeSet<String> extra = new TreeSet<>(actual);
        extra.removeAll(expected);
        assertThat(missing.isEmpty() && extra.isEmpty())
                .as(
                        "backend vs %s for %s: %d lines missing %s, %d extra %s",
                        truth,
                        query,
                        missing.size(),
                        missing.stream().limit(8).toList(),
                        extra.size(),
                        extra.stream().limit(8).toList())
                .isTrue();
    }

    static TreeSet<String> search(String query, boolean literal) throws Exception {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory).initSearch().setQuery(query).setLiteral(literal);
        TreeSet<String> results = new TreeSet<>();
        boolean[] done = {false};
        BackendClient.exchange(address, request, r -> {
            switch (r.which()) {
                case RESULT ->
                    results.add(r.getResult().getPackage() + "/" + r.getResult().getPath() + ":"
                            + r.getResult().getLine());
                case DONE -> done[0] = true;
                case ERROR -> throw new AssertionError("error: " + r.getError().getMessage());
                default -> {}
            }
            return true;
        });
        assertThat(done[0]).as("stream ended with done").isTrue();
        return results;
    }
}
