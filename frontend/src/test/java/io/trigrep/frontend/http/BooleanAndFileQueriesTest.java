package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.ParsedQuery;
import io.trigrep.query.QueryParser;
import io.trigrep.re2j.Pattern;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Issue 18: boolean queries and file-name queries, over a generated corpus indexed into three
 * shards behind three backends and the frontend. Each answer, read page by page through the JSON
 * API, equals a brute-force evaluation of every file: a file matches when its condition holds
 * (an operand holds when one of the file's lines matches it, by RE2J); its results are the lines
 * matching an operand under an even number of NOTs, or the file itself when it has none. The
 * brute force evaluates its own expression tree, not the query parser's. File-name queries equal
 * {@code find | grep -E} over the packages.
 */
@Tag("integration")
class BooleanAndFileQueriesTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final int SHARDS = 3;
    /** Operands of varied selectivity: in most files, in some, in one, in none, and one per encoding oddity. */
    static final List<String> OPERANDS = List.of(
            "malloc\\(",
            "calloc\\(",
            "printf",
            "TODO",
            "struct [a-z]+ \\*p",
            "mmGRBM_STATUS",
            "needle_in_minified",
            "café",
            "#include <zlib\\.h>",
            "return 0;",
            "func_[0-9]+\\(",
            "Copyright \\(C\\) 2019",
            "nothing-matches-this",
            "small package [0-4]",
            "if \\(err\\) return [a-d]");

    static Path dir;
    static Path corpus;
    static LoopbackCluster cluster;
    /** Every searchable file: "package/path" to its text as RE2 reads bytes. */
    static final TreeMap<String, String> texts = new TreeMap<>();
    /** Per operand regex, per file: the numbers of its matching lines (absent when none). */
    static final Map<String, Map<String, TreeSet<Integer>>> lines = new HashMap<>();

    /** A boolean expression over operands, rendered to a query as a user would type it. */
    sealed interface Expr permits Op, And, Or, Not {}

    record Op(String regex) implements Expr {}

    record And(Expr a, Expr b) implements Expr {}

    record Or(Expr a, Expr b) implements Expr {}

    record Not(Expr e) implements Expr {}

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("trigrep-boolean");
        corpus = dir.resolve("corpus");
        GeneratedCorpus.write(corpus, 18);
        try (Stream<Path> walk = Files.walk(corpus)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                String name = corpus.relativize(file).toString();
                byte[] bytes = Files.readAllBytes(file);
                if (Files.isSymbolicLink(file)
                        || name.contains("/.git/")
                        || CoverageGroundTruthTest.contains(bytes, (byte) 0)) {
                    continue;
                }
                texts.put(name, CoverageGroundTruthTest.decode(bytes, 0, bytes.length));
            }
        }
        cluster = new LoopbackCluster(corpus, dir, SHARDS);
    }

    @AfterContainer
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    @Property(tries = 30, seed = "18")
    void randomCombinationsEqualBruteForce(@ForAll("expressions") Expr expr) throws Exception {
        String query = render(expr);
        same(query, expected(expr, null), searchAll(query));
    }

    @Provide
    Arbitrary<Expr> expressions() {
        Arbitrary<Expr> leaf = Arbitraries.of(OPERANDS).map(Op::new);
        return Arbitraries.recursive(
                        () -> leaf,
                        inner -> Arbitraries.oneOf(
                                net.jqwik.api.Combinators.combine(inner, inner).as(And::new),
                                net.jqwik.api.Combinators.combine(inner, inner).as(Or::new),
                                inner.map(Not::new)),
                        0,
                        3)
                // A condition that only NOTs hold is every file but a few: allowed, but rarely the point.
                .filter(e -> !(e instanceof Not n && n.e() instanceof Op));
    }

    /** Fixed queries, typed as users type them: spaces in operands, grouping parentheses glued to operands, filters, implicit AND. */
    @Property(tries = 1)
    void writtenQueriesEqualBruteForce() throws Exception {
        Op malloc = new Op("malloc\\(");
        Op calloc = new Op("calloc\\(");
        Op todo = new Op("TODO");
        Op printf = new Op("printf");
        Op none = new Op("nothing-matches-this");
        Map<String, Expr> cases = new java.util.LinkedHashMap<>();
        cases.put("malloc\\( AND NOT calloc\\(", new And(malloc, new Not(calloc)));
        cases.put("(malloc\\( OR calloc\\() AND NOT TODO", new And(new Or(malloc, calloc), new Not(todo)));
        cases.put("( malloc\\( OR calloc\\( ) AND NOT TODO", new And(new Or(malloc, calloc), new Not(todo)));
        cases.put("printf NOT malloc\\(", new And(printf, new Not(malloc)));
        cases.put("NOT NOT printf", new Not(new Not(printf)));
        cases.put("nothing-matches-this AND printf", new And(none, printf));
        cases.put("nothing-matches-this OR café", new Or(none, new Op("café")));
        cases.put("return a \\+ b; AND int main", new And(new Op("return a \\+ b;"), new Op("int main")));
        cases.put(
                "(struct [a-z]+ \\*p|mmGRBM_STATUS) AND NOT (printf OR #include <zlib\\.h>)",
                new And(
                        new Op("(struct [a-z]+ \\*p|mmGRBM_STATUS)"),
                        new Not(new Or(printf, new Op("#include <zlib\\.h>")))));
        cases.put("NOT nothing-matches-this", new Not(none));
        for (var c : cases.entrySet()) {
            same(c.getKey(), expected(c.getValue(), null), searchAll(c.getKey()));
        }
        // Filters hold for the whole query.
        for (String filtered : List.of(
                "printf AND NOT malloc\\( package:small_3", "NOT printf path:^docs/", "TODO OR café -path:^src/")) {
            ParsedQuery parsed = QueryParser.parse(filtered, false);
            CompiledQuery spec = CompiledQuery.of(parsed);
            String conditionText = filtered.replaceAll(" -?(package|path):\\S+", "");
            Expr expr = conditionText.startsWith("printf AND")
                    ? new And(printf, new Not(malloc))
                    : conditionText.startsWith("NOT") ? new Not(printf) : new Or(todo, new Op("café"));
            same(filtered, expected(expr, spec), searchAll(filtered));
        }
    }

    /** File-name queries: the files {@code find | grep -E} lists, among the searchable ones, each once, as a file result. */
    @net.jqwik.api.Tag("external") // drives find and grep
    @Property(tries = 1)
    void fileNameQueriesEqualFindAndGrep() throws Exception {
        for (String regex :
                List.of("\\.h$", "Makefile|README", "^lib/part1", "include/module_1[0-9]\\.h$", "latin1|bom", "x{9}")) {
            TreeSet<String> expected = new TreeSet<>();
            try (Stream<Path> packages = Files.list(corpus)) {
                for (Path pkg : packages.toList()) {
                    Process find = new ProcessBuilder(
                                    "sh", "-c", "find . -type f -printf '%P\\n' | grep -E -e \"$0\" || true", regex)
                            .directory(pkg.toFile())
                            .redirectErrorStream(true)
                            .start();
                    String out = new String(find.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertThat(find.waitFor(60, TimeUnit.SECONDS)).isTrue();
                    for (String path : out.split("\n")) {
                        String name = pkg.getFileName() + "/" + path;
                        if (!path.isEmpty() && texts.containsKey(name)) {
                            expected.add(name + ":file");
                        }
                    }
                }
            }
            same("path:" + regex, expected, searchAll("path:" + regex));
            same("file:" + regex, expected, searchAll("file:" + regex));
        }
    }

    /** What a file-name result carries: size and language, ranked with the name's own match first. */
    @Property(tries = 1)
    void fileResultsCarrySizeAndLanguage() throws Exception {
        JsonNode answer = JSON.readTree(
                get("/api/v1/search?q=" + URLEncoder.encode("path:module_1\\.h|crlf\\.c", StandardCharsets.UTF_8))
                        .body());
        assertThat(answer.get("total_results").asInt()).isEqualTo(2);
        Map<String, JsonNode> byPath = new HashMap<>();
        for (JsonNode r : answer.get("results")) {
            assertThat(r.get("kind").asText()).isEqualTo("file");
            assertThat(r.has("line")).isFalse();
            byPath.put(r.get("path").asText(), r);
        }
        JsonNode header = byPath.get("src/include/module_1.h");
        assertThat(header.get("bytes").asLong())
                .isEqualTo(Files.size(corpus.resolve(GeneratedCorpus.TREE).resolve("src/include/module_1.h")));
        assertThat(header.get("language").asText()).isEqualTo("c");
        assertThat(byPath.get("docs/crlf.c").get("bytes").asLong())
                .isEqualTo(Files.size(corpus.resolve(GeneratedCorpus.TREE).resolve("docs/crlf.c")));
        // Grouping by package and the package list count file results as results.
        JsonNode packages =
                JSON.readTree(get("/api/v1/packages?q=" + URLEncoder.encode("path:README$", StandardCharsets.UTF_8))
                        .body());
        assertThat(packages.get("packages")).hasSize(10);
        for (JsonNode p : packages.get("packages")) {
            assertThat(p.get("results").asInt()).isEqualTo(1);
        }
    }

    /** The expected (package/path:line, or package/path:file) set for {@code expr}, over the files {@code spec}'s filters accept (all when null). */
    static TreeSet<String> expected(Expr expr, CompiledQuery spec) {
        TreeSet<String> out = new TreeSet<>();
        List<String> shown = new ArrayList<>();
        shown(expr, false, shown);
        for (String name : texts.keySet()) {
            if (spec != null) {
                int slash = name.indexOf('/');
                String path = name.substring(slash + 1);
                byte[] bytes = texts.get(name).getBytes(StandardCharsets.UTF_8);
                if (!spec.accepts(name.substring(0, slash), path, FileType.detect(path, ByteBuffer.wrap(bytes)))) {
                    continue;
                }
            }
            if (!holds(expr, name)) {
                continue;
            }
            TreeSet<Integer> fileLines = new TreeSet<>();
            for (String regex : shown) {
                fileLines.addAll(linesOf(regex).getOrDefault(name, new TreeSet<>()));
            }
            if (fileLines.isEmpty()) {
                out.add(name + ":file");
            }
            for (int line : fileLines) {
                out.add(name + ":" + line);
            }
        }
        return out;
    }

    static boolean holds(Expr e, String name) {
        if (e instanceof Op o) {
            return linesOf(o.regex()).containsKey(name);
        } else if (e instanceof And a) {
            return holds(a.a(), name) && holds(a.b(), name);
        } else if (e instanceof Or o) {
            return holds(o.a(), name) || holds(o.b(), name);
        }
        return !holds(((Not) e).e(), name);
    }

    static void shown(Expr e, boolean negated, List<String> out) {
        if (e instanceof Op o) {
            if (!negated) {
                out.add(o.regex());
            }
        } else if (e instanceof And a) {
            shown(a.a(), negated, out);
            shown(a.b(), negated, out);
        } else if (e instanceof Or o) {
            shown(o.a(), negated, out);
            shown(o.b(), negated, out);
        } else {
            shown(((Not) e).e(), !negated, out);
        }
    }

    /** The matching lines of {@code regex} in every file, line by line with RE2J, computed once per regex. */
    static synchronized Map<String, TreeSet<Integer>> linesOf(String regex) {
        return lines.computeIfAbsent(regex, r -> {
            Pattern line = Pattern.compile(r, Pattern.MULTILINE);
            Pattern anywhere = Pattern.compile("(?m)" + r);
            Map<String, TreeSet<Integer>> found = new HashMap<>();
            for (var file : texts.entrySet()) {
                String text = file.getValue();
                if (!anywhere.matcher(text).find()) {
                    continue;
                }
                int start = 0;
                for (int n = 1; start < text.length(); n++) {
                    int end = text.indexOf('\n', start);
                    end = end < 0 ? text.length() : end;
                    if (line.matcher(text.substring(start, end)).find()) {
                        found.computeIfAbsent(file.getKey(), k -> new TreeSet<>())
                                .add(n);
                    }
                    start = end + 1;
                }
            }
            return found;
        });
    }

    /**
     * The query a user would type for {@code e}, parenthesised only where precedence needs it
     * (NOT binds tightest, then AND, then OR), the parentheses glued to operands or standing alone, by turns.
     */
    static String render(Expr e) {
        if (e instanceof Op o) {
            return o.regex();
        } else if (e instanceof Not n) {
            return "NOT " + group(n.e(), !(n.e() instanceof Op || n.e() instanceof Not));
        } else if (e instanceof And a) {
            return group(a.a(), a.a() instanceof Or) + " AND " + group(a.b(), a.b() instanceof Or);
        }
        Or o = (Or) e;
        return render(o.a()) + " OR " + render(o.b());
    }

    private static String group(Expr inner, boolean needed) {
        String text = render(inner);
        if (!needed) {
            return text;
        }
        return text.length() % 2 == 0 ? "(" + text + ")" : "( " + text + " )";
    }

    static TreeSet<String> searchAll(String query) throws Exception {
        TreeSet<String> results = new TreeSet<>();
        String params = "q=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&per_page=1000";
        int pages = 1;
        long total = -1;
        for (int page = 0; page < pages; page++) {
            HttpResponse<String> response = get("/api/v1/search?" + params + "&page=" + page);
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
                String where = result.get("kind").asText().equals("file")
                        ? "file"
                        : String.valueOf(result.get("line").asInt());
                String key = result.get("package").asText() + "/"
                        + result.get("path").asText() + ":" + where;
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

    static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(cluster.base + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void same(String query, TreeSet<String> expected, TreeSet<String> actual) {
        CoverageGroundTruthTest.same("brute force", query, expected, actual);
    }
}
