package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.frontend.http.BooleanAndFileQueriesTest.And;
import io.trigrep.frontend.http.BooleanAndFileQueriesTest.Expr;
import io.trigrep.frontend.http.BooleanAndFileQueriesTest.Not;
import io.trigrep.frontend.http.BooleanAndFileQueriesTest.Op;
import io.trigrep.frontend.http.BooleanAndFileQueriesTest.Or;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.symbols.SymbolExtractor;
import io.trigrep.re2j.Pattern;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Issue 18: random boolean expression trees whose operands are regexes and {@code sym:} terms,
 * over real Debian files (zlib, Lua, Redis, Tcl) indexed with universal-ctags into two shards,
 * read page by page through the JSON API, equal a brute-force evaluation: a {@code sym:} operand
 * holds for a file when ctags, run directly on it, finds a definition whose name the regex
 * matches; a regex operand when RE2J matches one of its lines. The results are the lines of the
 * operands under an even number of NOTs (a {@code sym:} operand's being its definitions' lines,
 * which carry their {@code symbol}), or the file itself when it has none. The expression trees
 * and their rendering are {@link BooleanAndFileQueriesTest}'s; a leaf {@code sym:REGEX} is a
 * {@code sym:} operand.
 */
@Tag("external") // drives ctags
@Tag("integration")
class SymbolOperandPropertyTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final List<String> OPERANDS = List.of(
            "sym:^adler32",
            "sym:^lua_",
            "sym:^luaL_",
            "sym:^sds",
            "sym:^z",
            "sym:_t$",
            "sym:^[A-Z_]+$",
            "sym:^no_such_symbol$",
            "int",
            "return",
            "lua_State",
            "adler",
            "#include",
            "static",
            "nothing-matches-this");

    static Path dir;
    static LoopbackCluster cluster;
    /** Every searchable file: "package/path" to its lines. */
    static final TreeMap<String, List<String>> files = new TreeMap<>();
    /** What ctags finds on disk, per file: {name, line} per definition. */
    static final Map<String, List<String[]>> tags = new HashMap<>();

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("trigrep-sym-operands");
        cluster = new LoopbackCluster(
                HttpApiTest.CORPUS,
                dir,
                IndexBuilder.Options.defaults(2)
                        .withSymbols(SymbolChoice.extract(SymbolExtractor.start(
                                new SymbolExtractor.Config("ctags", 2, Duration.ofSeconds(30))))));
        try (Stream<Path> walk = Files.walk(HttpApiTest.CORPUS)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                String name = HttpApiTest.CORPUS.relativize(file).toString();
                byte[] bytes = Files.readAllBytes(file);
                // Files of packages only (the corpus's top-level NOTICE is none), text only.
                if (name.contains("/") && !CoverageGroundTruthTest.contains(bytes, (byte) 0)) {
                    files.put(
                            name,
                            List.of(CoverageGroundTruthTest.decode(bytes, 0, bytes.length)
                                    .split("\n", -1)));
                }
            }
        }
        List<String> command = new ArrayList<>(
                List.of("ctags", "--options=NONE", "--map-D=-.d", "-x", "--_xformat=%N\t%F\t%n", "-o", "-"));
        command.addAll(files.keySet());
        Process ctags = new ProcessBuilder(command)
                .directory(HttpApiTest.CORPUS.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        for (String line : new String(ctags.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList()) {
            String[] tag = line.split("\t");
            tags.computeIfAbsent(tag[1], k -> new ArrayList<>()).add(new String[] {tag[0], tag[2]});
        }
        assertThat(ctags.waitFor()).isZero();
        assertThat(tags).isNotEmpty();
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

    @Property(tries = 40, seed = "18")
    void randomCombinationsWithSymOperandsEqualBruteForce(@ForAll("expressions") Expr expr) throws Exception {
        String query = BooleanAndFileQueriesTest.render(expr);
        TreeMap<String, Boolean> expected = expected(expr);
        TreeMap<String, Boolean> actual = searchAll(query);
        CoverageGroundTruthTest.same(
                "brute force", query, new TreeSet<>(expected.keySet()), new TreeSet<>(actual.keySet()));
        assertThat(actual).as("which results of %s carry a definition", query).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Expr> expressions() {
        Arbitrary<Expr> leaf = Arbitraries.of(OPERANDS).map(Op::new);
        return Arbitraries.recursive(
                        () -> leaf,
                        inner -> Arbitraries.oneOf(
                                Combinators.combine(inner, inner).as(And::new),
                                Combinators.combine(inner, inner).as(Or::new),
                                inner.map(Not::new)),
                        1,
                        3)
                // A condition that only NOTs hold is every file but a few: allowed, but rarely the point.
                .filter(e -> !(e instanceof Not n && n.e() instanceof Op));
    }

    /** Per expected result (package/path:line, or package/path:file): whether it is a definition line. */
    static TreeMap<String, Boolean> expected(Expr expr) {
        List<String> shown = new ArrayList<>();
        BooleanAndFileQueriesTest.shown(expr, false, shown);
        TreeMap<String, Boolean> out = new TreeMap<>();
        for (var file : files.entrySet()) {
            String name = file.getKey();
            if (!holds(expr, name)) {
                continue;
            }
            TreeMap<Integer, Boolean> lines = new TreeMap<>();
            for (String operand : shown) {
                if (operand.startsWith("sym:")) {
                    Pattern p = Pattern.compile(operand.substring(4));
                    for (String[] tag : tags.getOrDefault(name, List.of())) {
                        if (p.matcher(tag[0]).find()) {
                            lines.put(Integer.parseInt(tag[1]), true);
                        }
                    }
                } else {
                    Pattern p = Pattern.compile(operand);
                    List<String> text = file.getValue();
                    for (int i = 0; i < text.size(); i++) {
                        if (p.matcher(text.get(i)).find()) {
                            lines.putIfAbsent(i + 1, false);
                        }
                    }
                }
            }
            if (lines.isEmpty()) {
                out.put(name + ":file", false);
            }
            for (var l : lines.entrySet()) {
                out.put(name + ":" + l.getKey(), l.getValue());
            }
        }
        return out;
    }

    static boolean holds(Expr e, String name) {
        if (e instanceof Op o && o.regex().startsWith("sym:")) {
            Pattern p = Pattern.compile(o.regex().substring(4));
            return tags.getOrDefault(name, List.of()).stream()
                    .anyMatch(t -> p.matcher(t[0]).find());
        } else if (e instanceof Op o) {
            Pattern p = Pattern.compile(o.regex());
            return files.get(name).stream().anyMatch(l -> p.matcher(l).find());
        } else if (e instanceof And a) {
            return holds(a.a(), name) && holds(a.b(), name);
        } else if (e instanceof Or o) {
            return holds(o.a(), name) || holds(o.b(), name);
        }
        return !holds(((Not) e).e(), name);
    }

    /** Every result of {@code query}, page by page: per result, whether it carries a definition. */
    static TreeMap<String, Boolean> searchAll(String query) throws Exception {
        TreeMap<String, Boolean> results = new TreeMap<>();
        String params = "q=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&per_page=1000";
        int pages = 1;
        for (int page = 0; page < pages; page++) {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(cluster.base + "/api/v1/search?" + params + "&page=" + page))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode())
                    .as("%s page %d: %s", query, page, response.body())
                    .isEqualTo(200);
            JsonNode answer = JSON.readTree(response.body());
            assertThat(answer.get("partial").asBoolean()).isFalse();
            pages = answer.get("pages").asInt();
            for (JsonNode r : answer.get("results")) {
                String where = r.get("kind").asText().equals("file")
                        ? "file"
                        : String.valueOf(r.get("line").asInt());
                String key = r.get("package").asText() + "/" + r.get("path").asText() + ":" + where;
                assertThat(results.put(key, r.has("symbol") && !r.get("symbol").isNull()))
                        .as("%s answered twice for %s", key, query)
                        .isNull();
            }
        }
        return results;
    }
}
