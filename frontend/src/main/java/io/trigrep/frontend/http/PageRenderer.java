package io.trigrep.frontend.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.fanout.ShardStatus;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Range;
import io.trigrep.proto.Result;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.capnproto.StructList;
import org.capnproto.TextList;

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
            for (int rank = page * perPage; rank < Math.min(total, (page + 1) * perPage); rank++) {
                result(json, read(run, index.sorted(rank)));
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
                for (int r : grouped.top()[i]) {
                    result(json, read(run, r));
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

    /** Result {@code r} of the run, read back from its tee by offset. */
    static Result.Reader read(QueryRun run, int r) throws IOException {
        ResultIndex index = run.index();
        ByteBuffer frame = run.tee().read(index.offset(r), index.length(r));
        return Messages.response(Framing.read(frame, FrameLimits.DEFAULT)).getResult();
    }

    static void result(JsonGenerator json, Result.Reader r) throws IOException {
        json.writeStartObject();
        json.writeStringField("package", r.getPackage().toString());
        json.writeStringField("path", r.getPath().toString());
        json.writeNumberField("line", Integer.toUnsignedLong(r.getLine()));
        json.writeStringField("context", r.getContext().toString());
        lines(json, "context_before", r.getBefore());
        lines(json, "context_after", r.getAfter());
        json.writeArrayFieldStart("ranges");
        StructList.Reader<Range.Reader> ranges = r.getRanges();
        for (int i = 0; i < ranges.size(); i++) {
            json.writeStartArray();
            json.writeNumber(Integer.toUnsignedLong(ranges.get(i).getStart()));
            json.writeNumber(Integer.toUnsignedLong(ranges.get(i).getEnd()));
            json.writeEndArray();
        }
        json.writeEndArray();
        json.writeNumberField("ranking", r.getRanking());
        json.writeEndObject();
    }

    private static void lines(JsonGenerator json, String field, TextList.Reader lines) throws IOException {
        json.writeArrayFieldStart(field);
        for (int i = 0; i < lines.size(); i++) {
            json.writeString(lines.get(i).toString());
        }
        json.writeEndArray();
    }

    /** The running queries, for operators: each with its mode, text and results so far. */
    static byte[] queries(io.trigrep.frontend.fanout.QueryCache cache) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeArrayFieldStart("running");
            for (String key : cache.running()) {
                int split = key.indexOf('\u0000');
                QueryRun run = cache.runningQuery(key);
                json.writeStartObject();
                json.writeStringField("match_mode", key.substring(0, split));
                json.writeStringField("query", key.substring(split + 1));
                json.writeNumberField("results_so_far", run == null ? 0 : run.index().size());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberField("cached_queries", cache.size());
            json.writeNumberField("store_bytes", cache.bytes());
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** A query still running: how far it is, no results yet (they are sorted once it is done). */
    static byte[] running(String query, QueryRun run) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        List<ShardStatus> statuses = run.statuses();
        long done = statuses.stream().filter(s -> s.state() == ShardStatus.State.DONE).count();
        long failed = statuses.stream().filter(s -> s.state() == ShardStatus.State.FAILED).count();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("status", "running");
            json.writeStringField("query", query);
            json.writeNumberField("results_so_far", run.index().size());
            json.writeObjectFieldStart("shards");
            json.writeNumberField("total", statuses.size());
            json.writeNumberField("done", done);
            json.writeNumberField("failed", failed);
            json.writeEndObject();
            json.writeArrayFieldStart("results");
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    static byte[] file(String pkg, String path, byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("package", pkg);
            json.writeStringField("path", path);
            json.writeStringField("content", new String(content, java.nio.charset.StandardCharsets.UTF_8));
            json.writeEndObject();
        }
        return out.toByteArray();
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
