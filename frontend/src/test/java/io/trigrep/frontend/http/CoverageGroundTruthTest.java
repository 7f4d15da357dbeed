package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Shard;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.ParsedQuery;
import io.trigrep.query.QueryParser;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 13, "search everything": a generated corpus shaped unlike the tidy test corpus (a 20 MiB
 * file, a 100 KB single line, a file of 100,000 distinct trigrams, Latin-1, UTF-8 with a BOM, CRLF,
 * no final newline, one package larger than a shard, a package spanning shards) is indexed into
 * three shards and served by three backends and the frontend. For every query the (package/path,
 * line) set read page by page through the HTTP API equals a brute-force scan, line by line with
 * RE2J, of every NUL-free regular file outside VCS folders, and equals {@code rg -uuu -a} on the
 * same files where the two dialects agree.
 */
@Tag("integration")
class CoverageGroundTruthTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final int SHARDS = 3;

    @TempDir
    static Path dir;

    static Path corpus;
    static LoopbackCluster cluster;
    /** Every file a user must be able to find: "package/path" to the file. */
    static final TreeMap<String, Path> searchable = new TreeMap<>();
    /** The same files as the brute force reads them, decoded once for every query. */
    static final List<Decoded> decoded = new ArrayList<>();

    /** A searchable file: its package, path, detected type and text as RE2 reads its bytes. */
    record Decoded(String name, String pkg, String path, FileType type, String text) {}

    @BeforeAll
    static void start() throws Exception {
        corpus = dir.resolve("corpus");
        GeneratedCorpus.write(corpus, 13);
        try (Stream<Path> walk = Files.walk(corpus)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                String name = corpus.relativize(file).toString().replace('\\', '/');
                if (Files.isSymbolicLink(file)
                        || name.contains("/.git/")
                        || contains(Files.readAllBytes(file), (byte) 0)) {
                    continue;
                }
                searchable.put(name, file);
            }
        }
        for (var file : searchable.entrySet()) {
            String name = file.getKey();
            int slash = name.indexOf('/');
            byte[] bytes = Files.readAllBytes(file.getValue());
            String path = name.substring(slash + 1);
            decoded.add(new Decoded(
                    name,
                    name.substring(0, slash),
                    path,
                    FileType.detect(path, ByteBuffer.wrap(bytes)),
                    decode(bytes, 0, bytes.length)));
        }
        cluster = new LoopbackCluster(corpus, dir, SHARDS);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyNulFreeFileIsInExactlyOneShardAndTheTreeSpansThemAll() throws Exception {
        TreeMap<String, Integer> held = new TreeMap<>();
        Set<Integer> kernelShards = new TreeSet<>();
        for (int s = 0; s < SHARDS; s++) {
            DocTable docs =
                    Shard.open(dir.resolve("shards").resolve("shard-" + s)).docs();
            for (int doc = 0; doc < docs.docCount(); doc++) {
                String pkg = docs.packageName(docs.packageId(doc));
                String key = pkg + "/" + docs.path(doc);
                assertThat(held.put(key, s)).as("%s held twice", key).isNull();
                if (pkg.equals(GeneratedCorpus.TREE)) {
                    kernelShards.add(s);
                }
            }
        }
        assertThat(held.keySet()).isEqualTo(searchable.keySet());
        assertThat(kernelShards)
                .as("shards holding files of the one big package")
                .hasSize(SHARDS);
    }

    /** Package views merge a package's results from every shard it spans; its files open from any of them. */
    @Test
    void aPackageSpanningShardsIsOnePackageInEveryView() throws Exception {
        TreeSet<String> all = searchAll("return", false);
        long inTree = all.stream()
                .filter(r -> r.startsWith(GeneratedCorpus.TREE + "/"))
                .count();
        JsonNode list = JSON.readTree(get("/api/v1/packages?q=return").body());
        List<String> names = new ArrayList<>();
        for (JsonNode p : list.get("packages")) {
            names.add(p.get("package").asText());
            if (p.get("package").asText().equals(GeneratedCorpus.TREE)) {
                assertThat(p.get("results").asLong()).isEqualTo(inTree);
            }
        }
        assertThat(names).as("each package once").doesNotHaveDuplicates().contains(GeneratedCorpus.TREE);
        JsonNode grouped = JSON.readTree(
                get("/api/v1/search/packages?q=return&per_page=100").body());
        long groupedTotal = -1;
        for (JsonNode p : grouped.get("packages")) {
            if (p.get("package").asText().equals(GeneratedCorpus.TREE)) {
                assertThat(groupedTotal).as("the tree grouped once").isEqualTo(-1);
                groupedTotal = p.get("results_total").asLong();
            }
        }
        assertThat(groupedTotal).isEqualTo(inTree);
        for (int s = 0; s < SHARDS; s++) {
            DocTable docs =
                    Shard.open(dir.resolve("shards").resolve("shard-" + s)).docs();
            for (int doc = 0; doc < docs.docCount(); doc++) {
                if (docs.packageName(docs.packageId(doc)).equals(GeneratedCorpus.TREE)) {
                    String path = docs.path(doc);
                    HttpResponse<String> file = get("/api/v1/file?package=" + GeneratedCorpus.TREE + "&path="
                            + URLEncoder.encode(path, StandardCharsets.UTF_8) + "&from=1&lines=5");
                    assertThat(file.statusCode())
                            .as("%s on shard-%d: %s", path, s, file.body())
                            .isEqualTo(200);
                    break;
                }
            }
        }
    }

    static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(cluster.base + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Query ;; literal ;; whether rg's dialect agrees (RE2's \\w is ASCII, ripgrep's Unicode). */
    private static final List<String> CASES = List.of(
            // what the old defaults hid: the 20 MiB header, the long line, Latin-1, the BOM
            "mmGRBM_STATUS ;; false ;; true",
            "mmGRBM_STATUS2 ;; false ;; true",
            "0x[0-9a-fA-F]{8}\\b ;; false ;; true",
            "regGC_[A-Z]+_[0-9]+ 0x ;; false ;; true",
            "needle_in_minified ;; false ;; true",
            "function\\(a,b\\) ;; false ;; true",
            "window\\.[a-z]+ ;; false ;; true",
            "caf ;; false ;; true",
            "café ;; false ;; true",
            "Universit ;; false ;; true",
            "na.ve ;; false ;; false",
            "caf.; ;; false ;; false",
            "[\\x80-\\xff] ;; false ;; true",
            "\\x{FEFF} ;; false ;; false",
            "byte order mark ;; false ;; true",
            "\\r$ ;; false ;; false",
            "crlf line [0-9]+ ;; false ;; true",
            "no final newline ;; false ;; true",
            "newline$ ;; false ;; true",
            "QqX ;; false ;; true",
            "[A-Z]{3}[0-9]{3} ;; false ;; true",
            "~~ ;; false ;; true",
            "(?i)zzq ;; false ;; true",
            // common code lines, in every file of the tree and in the small packages
            "printf ;; false ;; true",
            "return ;; false ;; true",
            "static int ;; false ;; true",
            "#include ;; false ;; true",
            "^#include <[a-z]+\\.h>$ ;; false ;; true",
            "^#define [A-Z_]+ 0x[0-9a-f]+ ;; false ;; true",
            "(malloc|calloc|realloc)\\( ;; false ;; true",
            "malloc( ;; true ;; true",
            "[0-9]{4}-[0-9]{2}-[0-9]{2} ;; false ;; true",
            "TODO|FIXME ;; false ;; true",
            "\\bint\\b ;; false ;; true",
            "^\\s+return [a-z]+ \\+ [a-z]+; ;; false ;; true",
            "func_[0-9]+\\(int ;; false ;; true",
            "(?i)copyright ;; false ;; true",
            "Copyright \\(C\\) 20[0-9][0-9] ;; false ;; true",
            "struct [a-z]+ \\*p ;; false ;; true",
            "sizeof\\(\\*p\\) ;; false ;; true",
            "error ;; false ;; true",
            "if \\(err\\) ;; false ;; true",
            "a.*b.*c ;; false ;; true",
            "[^a-z ]{12} ;; false ;; true",
            "x{3,} ;; false ;; true",
            "value %d ;; false ;; true",
            "nothing-matches-this-at-all ;; false ;; true",
            "^}$ ;; false ;; true",
            // ^$ and x? match the empty string: refused as every line of every file (issue 15, SyntaxErrorTest)
            "int main ;; false ;; true",
            // filters over a package that spans shards, and the small packages
            "return package:^linux ;; false ;; true",
            "return -package:^linux ;; false ;; true",
            "printf package:small_3 ;; false ;; true",
            "int path:\\.h$ ;; false ;; true",
            "return path:^src/ -path:7 ;; false ;; true",
            "printf filetype:c ;; false ;; true",
            "the -filetype:c ;; false ;; true",
            "COPYRIGHT case:no ;; false ;; true",
            "(?i)CAFÉ ;; false ;; true",
            ". path:^docs/ ;; false ;; false",
            "\\w+ path:^docs/ ;; false ;; false",
            "[{}] path:^src/file00 ;; false ;; true",
            "; package:small_0 ;; false ;; true");

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
    void resultsOverHttpEqualBruteForce(String query, boolean literal) throws Exception {
        TreeSet<String> actual = searchAll(query, literal);
        ParsedQuery parsed = QueryParser.parse(query, literal);
        CompiledQuery spec = CompiledQuery.of(parsed);
        io.trigrep.re2j.Pattern anywhere = io.trigrep.re2j.Pattern.compile(
                "(?m)" + spec.pattern().pattern(), spec.pattern().flags());
        TreeSet<String> expected = new TreeSet<>();
        for (Decoded file : decoded) {
            if (!spec.accepts(file.pkg(), file.path(), file.type())) {
                continue;
            }
            // A line that matches is also a match of the multi-line pattern over the whole file:
            // files without one have no matching line and need no line-by-line scan.
            String text = file.text();
            if (!anywhere.matcher(text).find()) {
                continue;
            }
            int start = 0;
            for (int line = 1; start < text.length(); line++) {
                int end = text.indexOf('\n', start);
                end = end < 0 ? text.length() : end;
                if (spec.pattern().matcher(text.substring(start, end)).find()) {
                    expected.add(file.name() + ":" + line);
                }
                start = end + 1;
            }
        }
        same("brute force", query, expected, actual);
    }

    /** The same answers equal ripgrep's, where the dialects agree: drives {@code rg}, so tagged external. */
    @Tag("external")
    @ParameterizedTest(name = "[{index}] {0} literal={1}")
    @MethodSource("ripgrepCases")
    void resultsEqualRipgrep(String query, boolean literal) throws Exception {
        TreeSet<String> actual = searchAll(query, literal);
        ParsedQuery parsed = QueryParser.parse(query, literal);
        CompiledQuery spec = CompiledQuery.of(parsed);
        List<Path> selected = new ArrayList<>();
        for (Decoded file : decoded) {
            if (spec.accepts(file.pkg(), file.path(), file.type())) {
                selected.add(searchable.get(file.name()));
            }
        }
        same("rg -uuu -a", query, io.trigrep.backend.Ripgrep.matchingLines(parsed, selected, corpus, "-a"), actual);
    }

    /** Each query's answer, read once: the brute-force and the ripgrep comparisons check the same one. */
    private static final Map<String, TreeSet<String>> answers = new ConcurrentHashMap<>();

    static TreeSet<String> searchAll(String query, boolean literal) throws Exception {
        String key = query + (literal ? " ;; literal" : "");
        TreeSet<String> answer = answers.get(key);
        if (answer == null) {
            answer = readAll(query, literal);
            answers.put(key, answer);
        }
        return answer;
    }

    /** Every result of a query, read page by page through the JSON API. */
    static TreeSet<String> readAll(String query, boolean literal) throws Exception {
        TreeSet<String> results = new TreeSet<>();
        String params = "q=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + (literal ? "&match_mode=literal" : "")
                + "&per_page=1000";
        int pages = 1;
        long total = -1;
        for (int page = 0; page < pages; page++) {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(cluster.base + "/api/v1/search?" + params + "&page=" + page))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode())
                    .as("%s page %d: %s", query, page, response.body())
                    .isEqualTo(200);
            JsonNode answer = JSON.readTree(response.body());
            assertThat(answer.get("partial").asBoolean())
                    .as("partial answer for %s", query)
                    .isFalse();
            pages = answer.get("pages").asInt();
            total = answer.get("total_results").asLong();
            for (JsonNode result : answer.get("results")) {
                String key = result.get("package").asText() + "/"
                        + result.get("path").asText() + ":" + result.get("line").asInt();
                assertThat(results.add(key))
                        .as("%s answered twice for %s", key, query)
                        .isTrue();
            }
        }
        assertThat((long) results.size())
                .as("results read against total_results for %s", query)
                .isEqualTo(total);
        return results;
    }

    static void same(String truth, String query, TreeSet<String> expected, TreeSet<String> actual) {
        TreeSet<String> missing = new TreeSet<>(expected);
        missing.removeAll(actual);
        TreeSet<String> extra = new TreeSet<>(actual);
        extra.removeAll(expected);
        assertThat(missing.isEmpty() && extra.isEmpty())
                .as(
                        "HTTP vs %s for %s (%d expected): %d lines missing %s, %d extra %s",
                        truth,
                        query,
                        expected.size(),
                        missing.size(),
                        missing.stream().limit(8).toList(),
                        extra.size(),
                        extra.stream().limit(8).toList())
                .isTrue();
    }

    /**
     * The line as RE2 reads bytes: UTF-8, each byte that does not start a valid sequence one
     * U+FFFD. (RE2J's own byte input decodes some invalid sequences as if they were valid.)
     */
    static String decode(byte[] bytes, int start, int end) {
        StringBuilder out = new StringBuilder(end - start);
        int i = start;
        while (i < end) {
            int b = bytes[i] & 0xff;
            int need = b < 0x80
                    ? 0
                    : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
            int cp = need == 0 ? b : need == 1 ? b & 0x1f : need == 2 ? b & 0x0f : b & 0x07;
            boolean ok = need >= 0 && i + need < end;
            for (int k = 1; ok && k <= need; k++) {
                int c = bytes[i + k] & 0xff;
                ok = (c & 0xc0) == 0x80;
                cp = cp << 6 | c & 0x3f;
            }
            // Overlong forms, surrogates and code points past U+10FFFF are invalid too.
            ok = ok
                    && (need < 2 || cp >= (need == 2 ? 0x800 : 0x10000))
                    && (cp < 0xd800 || cp > 0xdfff)
                    && cp <= 0x10ffff;
            if (ok) {
                out.appendCodePoint(cp);
                i += need + 1;
            } else {
                out.append('\uFFFD');
                i++;
            }
        }
        return out.toString();
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return bytes.length;
    }

    static boolean contains(byte[] bytes, byte b) {
        return indexOf(bytes, b, 0) < bytes.length;
    }
}
