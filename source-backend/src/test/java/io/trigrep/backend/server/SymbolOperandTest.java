package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.SymbolExtractor;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Result;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.QueryParser;
import io.trigrep.re2j.Matcher;
import io.trigrep.re2j.Pattern;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 18: {@code sym:} operands of boolean queries, through a real backend over a shard of
 * real Debian files indexed with universal-ctags, equal a brute-force evaluation that shares no
 * code with the search: per file, a {@code sym:} operand holds when ctags, run directly on the
 * file, finds a definition whose name the regex matches; a regex operand when RE2J matches one of
 * its lines. The results are the lines of the operands under an even number of NOTs (a definition
 * line carrying one of its matching definitions, the name and the regexes' matches marked), or
 * the file itself when it has none.
 */
@Tag("external") // drives ctags
@Tag("integration")
class SymbolOperandTest {
    static Path dir;
    static BackendServer server;
    static InetSocketAddress address;
    /** Every indexed file: "package/path" to its lines. */
    static final TreeMap<String, List<String>> files = new TreeMap<>();
    /** What ctags finds on disk, per file: {name, kind, line} per definition. */
    static final Map<String, List<String[]>> tags = new HashMap<>();

    /** A condition over operands, evaluated by the brute force. */
    sealed interface Expr permits Sym, Re, And, Or, Not {}

    record Sym(String regex) implements Expr {}

    record Re(String regex) implements Expr {}

    record And(Expr a, Expr b) implements Expr {}

    record Or(Expr a, Expr b) implements Expr {}

    record Not(Expr e) implements Expr {}

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("sym-operands");
        SymbolExtractor extractor =
                SymbolExtractor.start(new SymbolExtractor.Config("ctags", 2, Duration.ofSeconds(30)));
        Shard shard = TestShards.build(
                        TestShards.CORPUS,
                        dir,
                        IndexBuilder.Options.defaults(1).withSymbols(SymbolChoice.extract(extractor)))
                .get(0);
        for (var f : TestShards.files(shard, TestShards.CORPUS).entrySet()) {
            byte[] bytes = Files.readAllBytes(f.getValue());
            files.put(f.getKey(), List.of(new String(bytes, StandardCharsets.UTF_8).split("\n", -1)));
        }
        List<String> command = new ArrayList<>(
                List.of("ctags", "--options=NONE", "--map-D=-.d", "-x", "--_xformat=%N\t%K\t%F\t%n", "-o", "-"));
        command.addAll(files.keySet());
        Process ctags = new ProcessBuilder(command)
                .directory(TestShards.CORPUS.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        for (String line : new String(ctags.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList()) {
            String[] tag = line.split("\t");
            tags.computeIfAbsent(tag[2], k -> new ArrayList<>()).add(new String[] {tag[0], tag[1], tag[3]});
        }
        assertThat(ctags.waitFor()).isZero();
        assertThat(tags).hasSizeGreaterThan(10);
        server = new BackendServer(Shard.open(dir.resolve("shard-0")), BackendConfig.defaults());
        address = server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void writtenQueriesEqualBruteForce() throws Exception {
        Map<String, Expr> cases = new LinkedHashMap<>();
        cases.put("sym:^adler32 AND BASE", new And(new Sym("^adler32"), new Re("BASE")));
        cases.put("sym:^adler32 BASE", new And(new Sym("^adler32"), new Re("BASE")));
        cases.put("sym:^zmem OR sym:^z_error$", new Or(new Sym("^zmem"), new Sym("^z_error$")));
        cases.put("sym:^lua_ AND NOT lua_lock", new And(new Sym("^lua_"), new Not(new Re("lua_lock"))));
        cases.put(
                "(sym:^sds OR zmemcpy) AND NOT adler",
                new And(new Or(new Sym("^sds"), new Re("zmemcpy")), new Not(new Re("adler"))));
        cases.put("malloc AND NOT sym:^zmalloc$", new And(new Re("malloc"), new Not(new Sym("^zmalloc$"))));
        cases.put("sym:^sdshdr sym:^SDS_TYPE_", new And(new Sym("^sdshdr"), new Sym("^SDS_TYPE_")));
        cases.put("sym:^luaL_ sym:^lua_push", new And(new Sym("^luaL_"), new Sym("^lua_push")));
        cases.put("NOT sym:. AND Copyright", new And(new Not(new Sym(".")), new Re("Copyright")));
        cases.put("sym:_t$ OR NOT sym:.", new Or(new Sym("_t$"), new Not(new Sym("."))));
        cases.put(
                "sym:^z[a-z]+$ AND (len OR adler) AND NOT NO_DUMMY_DECL",
                new And(
                        new And(new Sym("^z[a-z]+$"), new Or(new Re("len"), new Re("adler"))),
                        new Not(new Re("NO_DUMMY_DECL"))));
        cases.put("sym:^zmemcpy$ AND zmemcpy", new And(new Sym("^zmemcpy$"), new Re("zmemcpy")));
        cases.put(
                "NOT (sym:^adler OR sym:^lua) AND sym:^sdshdr[0-9]+$",
                new And(new Not(new Or(new Sym("^adler"), new Sym("^lua"))), new Sym("^sdshdr[0-9]+$")));
        cases.put("sym:^no_such_symbol$ OR sym:^DO[0-9]+$", new Or(new Sym("^no_such_symbol$"), new Sym("^DO[0-9]+$")));
        for (var c : cases.entrySet()) {
            same(c.getKey(), c.getValue(), false, null);
        }
        // case:no holds for the sym: operands as for sym: alone; filters hold for the whole query.
        same("sym:^ADLER32 AND base case:no", new And(new Sym("^ADLER32"), new Re("base")), true, null);
        String filtered = "sym:^lua_ OR sym:^sds path:\\.h$";
        same(
                filtered,
                new Or(new Sym("^lua_"), new Sym("^sds")),
                false,
                CompiledQuery.of(QueryParser.parse(filtered, false)));
    }

    /** A sym: alone keeps its answer: each line once, its definition named, the name marked. */
    @Test
    void aSymAloneIsTheSameAsItsOnlyOperand() throws Exception {
        Map<String, Answer> alone = search("sym:^adler32");
        assertThat(alone).isNotEmpty();
        for (Answer a : alone.values()) {
            assertThat(a.symbol).isNotNull();
        }
        Map<String, Answer> asOperand = search("sym:^adler32 OR sym:^no_such_symbol$");
        assertThat(asOperand.keySet()).isEqualTo(alone.keySet());
        for (var e : alone.entrySet()) {
            assertThat(asOperand.get(e.getKey()).symbol).isEqualTo(e.getValue().symbol);
            assertThat(asOperand.get(e.getKey()).ranges).isEqualTo(e.getValue().ranges);
        }
    }

    private static void same(String query, Expr expr, boolean ignoreCase, CompiledQuery filters) throws Exception {
        TreeMap<String, Expected> expected = expected(expr, ignoreCase, filters);
        Map<String, Answer> actual = search(query);
        assertThat(new TreeSet<>(actual.keySet())).as("results of %s", query).isEqualTo(expected.keySet());
        for (var e : actual.entrySet()) {
            Expected want = expected.get(e.getKey());
            Answer got = e.getValue();
            if (want.definitions.isEmpty()) {
                assertThat(got.symbol)
                        .as("%s: %s has no definition", query, e.getKey())
                        .isNull();
            } else {
                assertThat(want.definitions)
                        .as("%s: the definition on %s", query, e.getKey())
                        .contains(got.symbol);
            }
            if (got.symbol != null && got.window == 0) {
                assertThat(got.ranges)
                        .as("%s: marks on %s", query, e.getKey())
                        .isEqualTo(marks(
                                got.context,
                                want.shownRegexes,
                                ignoreCase,
                                got.symbol.split(" ")[0]));
            }
        }
    }

    /** What the brute force expects of one result: the matching definitions on its line ("name kind"), and the shown regexes. */
    record Expected(TreeSet<String> definitions, List<String> shownRegexes) {}

    /** One result as the backend answered it: "name kind" of its definition (null when none), its marks. */
    record Answer(String symbol, String context, int window, List<List<Integer>> ranges) {}

    static TreeMap<String, Expected> expected(Expr expr, boolean ignoreCase, CompiledQuery filters) {
        List<Expr> shown = new ArrayList<>();
        shown(expr, false, shown);
        List<String> shownRegexes = new ArrayList<>();
        for (Expr e : shown) {
            if (e instanceof Re r) {
                shownRegexes.add(r.regex());
            }
        }
        TreeMap<String, Expected> out = new TreeMap<>();
        for (var file : files.entrySet()) {
            String name = file.getKey();
            if (filters != null) {
                int slash = name.indexOf('/');
                String path = name.substring(slash + 1);
                byte[] bytes = String.join("\n", file.getValue()).getBytes(StandardCharsets.UTF_8);
                if (!filters.accepts(name.substring(0, slash), path, FileType.detect(path, ByteBuffer.wrap(bytes)))) {
                    continue;
                }
            }
            if (!holds(expr, name, ignoreCase)) {
                continue;
            }
            TreeMap<Integer, TreeSet<String>> lines = new TreeMap<>();
            for (Expr e : shown) {
                if (e instanceof Re r) {
                    Pattern p = pattern(r.regex(), ignoreCase);
                    List<String> text = file.getValue();
                    for (int i = 0; i < text.size(); i++) {
                        if (p.matcher(text.get(i)).find()) {
                            lines.computeIfAbsent(i + 1, k -> new TreeSet<>());
                        }
                    }
                } else {
                    Pattern p = pattern(((Sym) e).regex(), ignoreCase);
                    for (String[] tag : tags.getOrDefault(name, List.of())) {
                        if (p.matcher(tag[0]).find()) {
                            lines.computeIfAbsent(Integer.parseInt(tag[2]), k -> new TreeSet<>())
                                    .add(tag[0] + " " + tag[1]);
                        }
                    }
                }
            }
            if (lines.isEmpty()) {
                out.put(name + ":file", new Expected(new TreeSet<>(), shownRegexes));
            }
            for (var l : lines.entrySet()) {
                out.put(name + ":" + l.getKey(), new Expected(l.getValue(), shownRegexes));
            }
        }
        return out;
    }

    static boolean holds(Expr e, String name, boolean ignoreCase) {
        if (e instanceof Sym s) {
            Pattern p = pattern(s.regex(), ignoreCase);
            return tags.getOrDefault(name, List.of()).stream()
                    .anyMatch(t -> p.matcher(t[0]).find());
        } else if (e instanceof Re r) {
            Pattern p = pattern(r.regex(), ignoreCase);
            return files.get(name).stream().anyMatch(l -> p.matcher(l).find());
        } else if (e instanceof And a) {
            return holds(a.a(), name, ignoreCase) && holds(a.b(), name, ignoreCase);
        } else if (e instanceof Or o) {
            return holds(o.a(), name, ignoreCase) || holds(o.b(), name, ignoreCase);
        }
        return !holds(((Not) e).e(), name, ignoreCase);
    }

    static void shown(Expr e, boolean negated, List<Expr> out) {
        if (e instanceof Sym || e instanceof Re) {
            if (!negated) {
                out.add(e);
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

    static Pattern pattern(String regex, boolean ignoreCase) {
        return Pattern.compile(regex, ignoreCase ? Pattern.CASE_INSENSITIVE : 0);
    }

    /**
     * The marks of a definition line: the definition's name wherever it stands (left to right, not
     * overlapping) and the shown regexes' matches, in UTF-8 byte offsets, overlaps joined.
     */
    static List<List<Integer>> marks(String line, List<String> regexes, boolean ignoreCase, String name) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        byte[] needle = name.getBytes(StandardCharsets.UTF_8);
        List<int[]> spans = new ArrayList<>();
        for (int at = 0; at + needle.length <= bytes.length; at++) {
            if (java.util.Arrays.equals(bytes, at, at + needle.length, needle, 0, needle.length)) {
                spans.add(new int[] {at, at + needle.length});
                at += needle.length - 1;
            }
        }
        if (!regexes.isEmpty()) {
            StringBuilder alternation = new StringBuilder();
            for (String r : regexes) {
                alternation
                        .append(alternation.length() == 0 ? "" : "|")
                        .append("(?:")
                        .append(r)
                        .append(')');
            }
            Matcher m = pattern(alternation.toString(), ignoreCase).matcher(line);
            while (m.find()) {
                int start = line.substring(0, m.start()).getBytes(StandardCharsets.UTF_8).length;
                int end = line.substring(0, m.end()).getBytes(StandardCharsets.UTF_8).length;
                spans.add(new int[] {start, end});
            }
        }
        spans.sort((x, y) -> x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1]));
        List<List<Integer>> out = new ArrayList<>();
        for (int[] s : spans) {
            List<Integer> last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && s[0] <= last.get(1)) {
                out.set(out.size() - 1, List.of(last.get(0), Math.max(last.get(1), s[1])));
            } else {
                out.add(List.of(s[0], s[1]));
            }
        }
        return out;
    }

    /** The backend's answer: "package/path:line" (or ":file") to the result, each key once. */
    static Map<String, Answer> search(String query) throws Exception {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory).initSearch().setQuery(query).setLiteral(false);
        Map<String, Answer> out = new TreeMap<>();
        List<String> errors = new ArrayList<>();
        BackendClient.exchange(address, request, r -> {
            if (r.which() == Response.Which.RESULT) {
                Result.Reader result = r.getResult();
                String symbol = result.hasSymbol()
                        ? result.getSymbol().getName() + " "
                                + result.getSymbol().getKind()
                        : null;
                List<List<Integer>> ranges = new ArrayList<>();
                for (var range : result.getRanges()) {
                    ranges.add(List.of(range.getStart(), range.getEnd()));
                }
                String key = result.getPackage() + "/" + result.getPath() + ":" + result.getLine();
                Answer previous = out.put(
                        key, new Answer(symbol, result.getContext().toString(), result.getContextStart(), ranges));
                assertThat(previous).as("%s answered twice for %s", key, query).isNull();
            } else if (r.which() == Response.Which.FILE_MATCH) {
                String key =
                        r.getFileMatch().getPackage() + "/" + r.getFileMatch().getPath() + ":file";
                assertThat(out.put(key, new Answer(null, "", 0, List.of())))
                        .as("%s answered twice for %s", key, query)
                        .isNull();
            } else if (r.which() == Response.Which.ERROR) {
                errors.add(r.getError().getMessage().toString());
            }
            return true;
        });
        assertThat(errors).as("errors of %s", query).isEmpty();
        return out;
    }
}
