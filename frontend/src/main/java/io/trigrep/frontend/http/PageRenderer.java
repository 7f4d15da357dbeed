package io.trigrep.frontend.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.trigrep.frontend.fanout.CorpusStatus;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.fanout.ShardStatus;
import io.trigrep.frontend.query.QueryService;
import io.trigrep.frontend.query.StoredResult;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.proto.FileMatch;
import io.trigrep.proto.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Renders one page of a finished query as JSON, with Debian Code Search's field names: only the
 * page's results are read back from the tee, by offset, so page N costs the same as page 0.
 */
final class PageRenderer {
    private static final JsonFactory JSON = new JsonFactory();

    private PageRenderer() {}

    static byte[] page(String query, QueryRun run, int page, int perPage) throws IOException {
        ResultIndex index = run.index();
        int total = index.size();
        int pages = (total + perPage - 1) / perPage;
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            header(json, query, run, total);
            json.writeNumberField("page", page);
            json.writeNumberField("pages", pages);
            json.writeNumberField("per_page", perPage);
            json.writeArrayFieldStart("results");
            for (StoredResult r : QueryService.read(run, index.sorted(page * perPage, (page + 1) * perPage))) {
                result(json, r);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** Page {@code page} of the grouped view: {@code perPage} packages, each with its best {@code perPackage} results. */
    static byte[] grouped(String query, QueryRun run, int page, int perPage, int perPackage) throws IOException {
        ResultIndex index = run.index();
        ResultIndex.Grouped grouped = index.grouped(perPackage);
        int packages = grouped.packages().length;
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            header(json, query, run, index.size());
            json.writeNumberField("packages_total", packages);
            json.writeNumberField("page", page);
            json.writeNumberField("pages", (packages + perPage - 1) / perPage);
            json.writeNumberField("per_page", perPage);
            json.writeArrayFieldStart("packages");
            for (int i = page * perPage; i < Math.min(packages, (page + 1) * perPage); i++) {
                json.writeStartObject();
                json.writeStringField("package", index.packages().name(grouped.packages()[i]));
                json.writeNumberField("results_total", grouped.counts()[i]);
                json.writeArrayFieldStart("results");
                for (StoredResult r : QueryService.read(run, grouped.top()[i])) {
                    result(json, r);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** Every matching package with its number of results, most results first. */
    static byte[] packages(String query, QueryRun run) throws IOException {
        ResultIndex index = run.index();
        int[] counts = index.packageCounts();
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            header(json, query, run, index.size());
            json.writeArrayFieldStart("packages");
            for (int id : index.packagesByCount()) {
                json.writeStartObject();
                json.writeStringField("package", index.packages().name(id));
                json.writeNumberField("results", counts[id]);
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** Status, query, counts and shards: the fields every search answer starts with. */
    private static void header(JsonGenerator json, String query, QueryRun run, int total) throws IOException {
        json.writeStringField("status", "done");
        json.writeStringField("query", query);
        json.writeNumberField("total_results", total);
        List<ShardStatus> failed = run.failed();
        json.writeBooleanField("partial", !failed.isEmpty());
        QueryRun.Capped capped = run.capped();
        if (capped != null) {
            // The answer holds the first results under a cap, not all: say which cap and its value.
            json.writeObjectFieldStart("capped");
            json.writeStringField("reason", capped.reason());
            json.writeNumberField("limit", capped.limit());
            json.writeEndObject();
        }
        json.writeObjectFieldStart("shards");
        json.writeNumberField("total", run.statuses().size());
        json.writeNumberField("successful", run.statuses().size() - failed.size());
        json.writeArrayFieldStart("failed");
        for (ShardStatus s : failed) {
            json.writeStartObject();
            json.writeStringField("shard", s.shard());
            json.writeStringField("reason", s.reason());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeNumberField("elapsed_seconds", run.elapsedNanos() / 1e9);
    }

    /** One result of either kind: a matching line, or a whole file (a file-name query's, or a boolean query's without a line to show). */
    static void result(JsonGenerator json, StoredResult r) throws IOException {
        if (r.which() == Response.Which.FILE_MATCH) {
            file(json, r.response().getFileMatch());
        } else {
            result(json, ResultView.of(r));
        }
    }

    /** {@code {"kind":"file","package":…,"path":…,"bytes":N,"language":…,"ranking":R}}. */
    static void file(JsonGenerator json, FileMatch.Reader f) throws IOException {
        json.writeStartObject();
        json.writeStringField("kind", "file");
        json.writeStringField("package", ShownText.decode(ResultView.bytes(f.getPackage())));
        json.writeStringField("path", ShownText.decode(ResultView.bytes(f.getPath())));
        json.writeNumberField("bytes", f.getBytes());
        json.writeStringField("language", f.getLanguage().toString());
        json.writeNumberField("ranking", f.getRanking());
        if (f.hasGit()) {
            git(
                    json,
                    GitView.of(f.getGit()),
                    ShownText.decode(ResultView.bytes(f.getPackage())),
                    ShownText.decode(ResultView.bytes(f.getPath())),
                    0);
        }
        json.writeEndObject();
    }

    /** {@code "git":{"branches":[…],"commit":…,"url":…}}: url is the code host's link, "" when the repository has none. */
    static void git(JsonGenerator json, GitView git, String pkg, String path, long line) throws IOException {
        json.writeObjectFieldStart("git");
        json.writeArrayFieldStart("branches");
        for (String b : git.branches()) {
            json.writeString(b);
        }
        json.writeEndArray();
        json.writeStringField("commit", git.commit());
        json.writeStringField("url", git.url(pkg, path, line));
        json.writeEndObject();
    }

    /**
     * One result in Debian Code Search's shape. Texts are delivered with U+FFFD for bytes that are
     * not UTF-8, so ranges are moved from the backend's byte offsets to offsets into the UTF-8 the
     * client gets; {@code cut} lists the lines the backend cut, only when there are any.
     */
    static void result(JsonGenerator json, ResultView r) throws IOException {
        json.writeStartObject();
        json.writeStringField("kind", "line");
        json.writeStringField("package", r.pkg);
        json.writeStringField("path", r.path);
        json.writeNumberField("line", r.line);
        json.writeStringField("context", ShownText.decode(r.context));
        lines(json, "context_before", r.before);
        lines(json, "context_after", r.after);
        json.writeArrayFieldStart("ranges");
        int[] delivered = ShownText.offsets(r.context);
        for (int i = 0; i < r.ranges.length; i += 2) {
            json.writeStartArray();
            json.writeNumber(delivered[r.ranges[i]]);
            json.writeNumber(delivered[r.ranges[i + 1]]);
            json.writeEndArray();
        }
        json.writeEndArray();
        json.writeNumberField("ranking", r.ranking);
        if (r.symbol != null) {
            json.writeObjectFieldStart("symbol");
            json.writeStringField("name", r.symbol[0]);
            json.writeStringField("kind", r.symbol[1]);
            json.writeStringField("scope", r.symbol[2]);
            json.writeStringField("language", r.symbol[3]);
            json.writeEndObject();
        }
        if (r.git != null) {
            git(json, r.git, r.pkg, r.path, r.line);
        }
        List<ResultView.Cut> cuts = r.cuts();
        if (!cuts.isEmpty()) {
            cuts(json, cuts);
        }
        json.writeEndObject();
    }

    /** {@code "cut":[{"line":N,"start":S,"end":E,"bytes":B}, ...]}: of line N's B bytes, S to E are shown. */
    static void cuts(JsonGenerator json, List<ResultView.Cut> cuts) throws IOException {
        json.writeArrayFieldStart("cut");
        for (ResultView.Cut c : cuts) {
            json.writeStartObject();
            json.writeNumberField("line", c.line());
            json.writeNumberField("start", c.start());
            json.writeNumberField("end", c.end());
            json.writeNumberField("bytes", c.bytes());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void lines(JsonGenerator json, String field, String[] lines) throws IOException {
        json.writeArrayFieldStart(field);
        for (String line : lines) {
            json.writeString(line);
        }
        json.writeEndArray();
    }

    /** The running queries, for operators: each with its mode, text and results so far. */
    static byte[] queries(QueryService queries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeArrayFieldStart("running");
            for (QueryService.Running r : queries.running()) {
                json.writeStartObject();
                json.writeStringField("match_mode", r.mode());
                json.writeStringField("query", r.query());
                json.writeNumberField("results_so_far", r.resultsSoFar());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberField("cached_queries", queries.cachedQueries());
            json.writeNumberField("store_bytes", queries.storeBytes());
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** A query still running: how far it is, no results yet (they are sorted once it is done). */
    static byte[] running(String query, QueryRun run) throws IOException {
        return running(query, run, new int[0], QueryService.progress(run).results(), 0, 0);
    }

    /**
     * A running query's answer: progress, and the results ranked {@code [page * perPage, (page + 1)
     * * perPage)} among the {@code among} arrived so far ({@code best}, best first: at least that
     * many of the best so far), marked provisional: a better result may still arrive and move them
     * down. {@code results_so_far} is {@code among}, so the count and the page agree.
     */
    static byte[] running(String query, QueryRun run, int[] best, long among, int page, int perPage)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        QueryService.Progress now = QueryService.progress(run);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("status", "running");
            json.writeStringField("query", query);
            json.writeNumberField("results_so_far", among);
            json.writeObjectFieldStart("shards");
            json.writeNumberField("total", now.shardsTotal());
            json.writeNumberField("done", now.shardsDone());
            json.writeNumberField("failed", now.shardsFailed());
            json.writeEndObject();
            json.writeBooleanField("provisional", true);
            json.writeNumberField("page", page);
            json.writeArrayFieldStart("results");
            int from = Math.min(best.length, page * perPage);
            int to = Math.min(best.length, (page + 1) * perPage);
            for (StoredResult r : QueryService.read(run, Arrays.copyOfRange(best, from, to))) {
                result(json, r);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** A file, or a window of its lines: the content as text (U+FFFD for bytes that are not UTF-8) with where it lies in the file. */
    static byte[] file(String pkg, String path, FileView file) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.content.length + 256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("package", pkg);
            json.writeStringField("path", path);
            json.writeStringField("content", ShownText.decode(file.content));
            json.writeNumberField("first_line", file.firstLine);
            json.writeNumberField("total_lines", file.totalLines);
            json.writeNumberField("total_bytes", file.totalBytes);
            List<ResultView.Cut> cuts = new ArrayList<>();
            for (int i = 0; i < file.lines(); i++) {
                if (file.cut(i)) {
                    cuts.add(new ResultView.Cut(file.firstLine + i, 0, file.ends[i] - file.starts[i], file.full[i]));
                }
            }
            if (!cuts.isEmpty()) {
                cuts(json, cuts);
            }
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** What is searchable, per shard and in all, and what the indexers left out, by reason. */
    static byte[] status(CorpusStatus.Snapshot now) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeObjectFieldStart("searchable");
            json.writeNumberField("files", now.files());
            json.writeNumberField("bytes", now.bytes());
            json.writeEndObject();
            skipped(json, now.skipped());
            json.writeArrayFieldStart("shards");
            for (CorpusStatus.Shard s : now.shards()) {
                json.writeStartObject();
                json.writeStringField("backend", s.backend());
                json.writeStringField("shard", s.name());
                json.writeBooleanField("reachable", s.reachable());
                if (s.problem() != null) {
                    json.writeStringField("problem", s.problem());
                }
                json.writeNumberField("files", s.files());
                json.writeNumberField("bytes", s.bytes());
                json.writeNumberField("format_version", s.formatVersion());
                json.writeNumberField("generation", s.generation());
                json.writeNumberField("segments", s.segments());
                json.writeNumberField("deleted_files", s.deletedFiles());
                skipped(json, s.skipped());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberField("updated_millis", now.takenMillis());
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    private static void skipped(JsonGenerator json, List<CorpusStatus.Skip> skipped) throws IOException {
        json.writeArrayFieldStart("skipped");
        for (CorpusStatus.Skip k : skipped) {
            json.writeStartObject();
            json.writeStringField("reason", k.reason());
            json.writeNumberField("files", k.files());
            json.writeNumberField("bytes", k.bytes());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    static byte[] error(String message, int position) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("error", message);
            if (position > 0) {
                json.writeNumberField("position", position);
            }
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    static byte[] object(String... keyValues) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            for (int i = 0; i + 1 < keyValues.length; i += 2) {
                json.writeStringField(keyValues[i], keyValues[i + 1]);
            }
            json.writeEndObject();
        }
        return out.toByteArray();
    }
}
