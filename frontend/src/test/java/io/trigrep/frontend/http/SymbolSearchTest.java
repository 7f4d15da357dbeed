package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.symbols.SymbolExtractor;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 18, symbol search: over real Debian files (zlib, Lua, Redis, Tcl) indexed with symbols
 * into two shards, every {@code sym:} query's lines, read through the JSON API, are exactly the
 * lines where universal-ctags, run directly on the same files, finds a definition whose name the
 * regex matches (and the query's filters accept), each result naming one of those definitions.
 */
@Tag("external") // drives ctags
@Tag("integration")
class SymbolSearchTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    static LoopbackCluster withoutSymbols;
    /** What ctags finds on disk: one {name, kind, "pkg/path", line} per definition. */
    static final List<String[]> tags = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        SymbolExtractor extractor =
                SymbolExtractor.start(new SymbolExtractor.Config("ctags", 2, Duration.ofSeconds(30)));
        cluster = new LoopbackCluster(
                HttpApiTest.CORPUS,
                dir.resolve("with"),
                IndexBuilder.Options.defaults(2).withSymbols(SymbolChoice.extract(extractor)));
        withoutSymbols = new LoopbackCluster(HttpApiTest.CORPUS, dir.resolve("without"), 1);
        List<String> files;
        try (Stream<Path> walk = Files.walk(HttpApiTest.CORPUS)) {
            files = walk.filter(Files::isRegularFile)
                    .map(p -> HttpApiTest.CORPUS.relativize(p).toString())
                    .sorted()
                    .toList();
        }
        // The options the indexer gives ctags: none from configuration files, and *.d not read as D.
        List<String> command = new ArrayList<>(
                List.of("ctags", "--options=NONE", "--map-D=-.d", "--output-format=json", "--fields=NnKF", "-o", "-"));
        command.addAll(files);
        Process ctags = new ProcessBuilder(command)
                .directory(HttpApiTest.CORPUS.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        for (String line : new String(ctags.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList()) {
            JsonNode tag = JSON.readTree(line);
            if ("tag".equals(tag.path("_type").asText())) {
                tags.add(new String[] {
                    tag.get("name").asText(),
                    tag.get("kind").asText(),
                    tag.get("path").asText(),
                    tag.get("line").asText()
                });
            }
        }
        assertThat(ctags.waitFor()).isZero();
        assertThat(tags).hasSizeGreaterThan(300);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (withoutSymbols != null) {
            withoutSymbols.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "sym:^adler32$",
                "sym:^adler32",
                "sym:^zmem",
                "sym:^z[a-z]+$",
                "sym:^z_",
                "sym:_t$",
                "sym:^lua_[a-z]+$",
                "sym:^luaL_",
                "sym:^lua_push",
                "sym:(?i)^LUA_",
                "sym:^LUAI?_[A-Z]+$",
                "sym:^sds",
                "sym:^SDS_TYPE_",
                "sym:^sdshdr[0-9]+$",
                "sym:^Trace",
                "sym:^DO[0-9]+$",
                "sym:Free$ case:no",
                "sym:^main$",
                "sym:^zmemcpy$",
                "sym:^no_such_symbol_anywhere$",
                "sym:^[A-Z][A-Z0-9_]{12,}$",
                "sym:^lua_ package:^lua",
                "sym:^z path:\\.h$",
                "sym:sds -path:\\.c$",
                "sym:table",
                "sym:^l",
                "sym:e",
                "sym:::shell$",
                "sym:^Test"
            })
    void definitionsEqualWhatCtagsFindsOnDisk(String query) throws Exception {
        ParsedQuery parsed = QueryParser.parse(query, false);
        CompiledQuery spec = CompiledQuery.of(parsed);
        Pattern names = spec.symbolNames();
        // Expected: per line (pkg/path:line), the names of its matching definitions.
        TreeMap<String, TreeSet<String>> expected = new TreeMap<>();
        for (String[] tag : tags) {
            String file = tag[2];
            int slash = file.indexOf('/');
            String path = file.substring(slash + 1);
            byte[] bytes = Files.readAllBytes(HttpApiTest.CORPUS.resolve(file));
            if (names.matcher(tag[0]).find()
                    && spec.accepts(file.substring(0, slash), path, FileType.detect(path, ByteBuffer.wrap(bytes)))) {
                expected.computeIfAbsent(file + ":" + tag[3], k -> new TreeSet<>())
                        .add(tag[0] + " " + tag[1]);
            }
        }
        assertThat(expected.isEmpty())
                .as("ctags finds no definition for %s", query)
                .isEqualTo(query.contains("no_such"));
        TreeMap<String, String> actual = new TreeMap<>();
        String params = "q=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&per_page=1000";
        int pages = 1;
        for (int page = 0; page < pages; page++) {
            HttpResponse<String> response = get(cluster, "/api/v1/search?" + params + "&page=" + page);
            assertThat(response.statusCode())
                    .as("%s: %s", query, response.body())
                    .isEqualTo(200);
            JsonNode answer = JSON.readTree(response.body());
            pages = answer.get("pages").asInt();
            for (JsonNode r : answer.get("results")) {
                String key = r.get("package").asText() + "/" + r.get("path").asText() + ":"
                        + r.get("line").asInt();
                JsonNode symbol = r.get("symbol");
                assertThat(symbol).as("%s has its definition", key).isNotNull();
                assertThat(actual.put(
                                key,
                                symbol.get("name").asText() + " "
                                        + symbol.get("kind").asText()))
                        .as("%s twice", key)
                        .isNull();
            }
        }
        assertThat(actual.keySet()).as("lines of %s", query).isEqualTo(expected.keySet());
        for (var e : actual.entrySet()) {
            assertThat(expected.get(e.getKey()))
                    .as("the definition named on %s", e.getKey())
                    .contains(e.getValue());
        }
    }

    /** A definition outranks another kind's: functions and types above variables and members, for the same name. */
    @Test
    void marksTheNameAndRanksByKind() throws Exception {
        JsonNode answer = JSON.readTree(get(
                        cluster,
                        "/api/v1/search?per_page=5&q="
                                + URLEncoder.encode("sym:^adler32_combine_$", StandardCharsets.UTF_8))
                .body());
        JsonNode first = answer.get("results").get(0);
        assertThat(first.get("symbol").get("kind").asText()).isEqualTo("function");
        String context = first.get("context").asText();
        JsonNode range = first.get("ranges").get(0);
        assertThat(context.getBytes(StandardCharsets.UTF_8))
                .hasSizeGreaterThanOrEqualTo(range.get(1).asInt());
        assertThat(new String(
                        context.getBytes(StandardCharsets.UTF_8),
                        range.get(0).asInt(),
                        range.get(1).asInt() - range.get(0).asInt(),
                        StandardCharsets.UTF_8))
                .isEqualTo("adler32_combine_");
    }

    /** A shard built without ctags says so: sym:, alone or as an operand, is refused with the reason; plain queries still work. */
    @Test
    void withoutSymbolsSymSaysWhy() throws Exception {
        HttpResponse<String> refused =
                get(withoutSymbols, "/api/v1/search?q=" + URLEncoder.encode("sym:^adler32$", StandardCharsets.UTF_8));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(refused.body()).get("error").asText())
                .contains("sym:")
                .contains("has none");
        assertThat(get(withoutSymbols, "/api/v1/search?q=adler32").statusCode()).isEqualTo(200);
        // A sym: operand of a boolean query likewise, where it stands.
        HttpResponse<String> operand = get(
                withoutSymbols,
                "/api/v1/search?q=" + URLEncoder.encode("adler32 AND NOT sym:^adler32$", StandardCharsets.UTF_8));
        assertThat(operand.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(operand.body()).get("error").asText())
                .contains("sym: needs the shard's symbols")
                .contains("has none");
    }

    static HttpResponse<String> get(LoopbackCluster on, String pathAndQuery) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(on.base + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
