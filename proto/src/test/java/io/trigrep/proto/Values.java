package io.trigrep.proto;

import java.util.ArrayList;
import java.util.List;
import org.capnproto.MessageBuilder;
import org.capnproto.StructList;
import org.capnproto.TextList;

/**
 * Plain values for every message kind, with a writer through the bindings and a reader back, so
 * tests compare whole messages with {@code equals}.
 */
final class Values {
    private Values() {}

    record RangeValue(int start, int end) {}

    record SymbolValue(String name, String kind, String scope, String language) {}

    record ResultValue(
            String pkg,
            String path,
            int line,
            List<String> before,
            String context,
            List<String> after,
            List<RangeValue> ranges,
            float ranking,
            int contextStart,
            int lineBytes,
            List<Integer> beforeBytes,
            List<Integer> afterBytes,
            SymbolValue symbol) {
        /** A result that is not a sym: query's. */
        ResultValue(
                String pkg,
                String path,
                int line,
                List<String> before,
                String context,
                List<String> after,
                List<RangeValue> ranges,
                float ranking,
                int contextStart,
                int lineBytes,
                List<Integer> beforeBytes,
                List<Integer> afterBytes) {
            this(
                    pkg,
                    path,
                    line,
                    before,
                    context,
                    after,
                    ranges,
                    ranking,
                    contextStart,
                    lineBytes,
                    beforeBytes,
                    afterBytes,
                    null);
        }

        /** A result as older writers send it: nothing cut, no cut fields. */
        ResultValue(
                String pkg,
                String path,
                int line,
                List<String> before,
                String context,
                List<String> after,
                List<RangeValue> ranges,
                float ranking) {
            this(pkg, path, line, before, context, after, ranges, ranking, 0, 0, List.of(), List.of());
        }

        /** The same with the full matching line's length set, as ResultWriter writes it. */
        ResultValue withLineBytes(int bytes) {
            return new ResultValue(
                    pkg,
                    path,
                    line,
                    before,
                    context,
                    after,
                    ranges,
                    ranking,
                    contextStart,
                    bytes,
                    beforeBytes,
                    afterBytes,
                    symbol);
        }

        /** The same naming the definition on its line, as a sym: query's result does. */
        ResultValue withSymbol(SymbolValue definition) {
            return new ResultValue(
                    pkg,
                    path,
                    line,
                    before,
                    context,
                    after,
                    ranges,
                    ranking,
                    contextStart,
                    lineBytes,
                    beforeBytes,
                    afterBytes,
                    definition);
        }
    }

    record ProgressValue(long filesSearched, long candidateFiles, long totalFiles, long results) {}

    record DoneValue(
            long results,
            long filesSearched,
            long candidateFiles,
            long totalFiles,
            long elapsedNanos,
            Done.Truncation truncation,
            boolean fullScan,
            long generation) {
        DoneValue(
                long results,
                long filesSearched,
                long candidateFiles,
                long totalFiles,
                long elapsedNanos,
                Done.Truncation truncation,
                boolean fullScan) {
            this(results, filesSearched, candidateFiles, totalFiles, elapsedNanos, truncation, fullScan, 0);
        }
    }

    record FailureValue(Failure.Code code, String message, int position) {}

    record FileValue(
            String pkg,
            String path,
            byte[] content,
            int firstLine,
            int totalLines,
            long totalBytes,
            List<CutValue> cuts) {
        FileValue(String pkg, String path, byte[] content) {
            this(pkg, path, content, 0, 0, 0, List.of());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FileValue f
                    && f.pkg.equals(pkg)
                    && f.path.equals(path)
                    && java.util.Arrays.equals(f.content, content)
                    && f.firstLine == firstLine
                    && f.totalLines == totalLines
                    && f.totalBytes == totalBytes
                    && f.cuts.equals(cuts);
        }

        @Override
        public int hashCode() {
            return pkg.hashCode() * 31 + java.util.Arrays.hashCode(content);
        }
    }

    record SkippedValue(String reason, long files, long bytes) {}

    record StatusValue(
            String shard,
            long files,
            long bytes,
            int queriesInFlight,
            int formatVersion,
            List<SkippedValue> skipped,
            long generation,
            int segments,
            long deletedFiles) {
        StatusValue(String shard, long files, long bytes, int queriesInFlight, int formatVersion) {
            this(shard, files, bytes, queriesInFlight, formatVersion, List.of(), 0);
        }

        StatusValue(
                String shard,
                long files,
                long bytes,
                int queriesInFlight,
                int formatVersion,
                List<SkippedValue> skipped,
                long generation) {
            this(shard, files, bytes, queriesInFlight, formatVersion, skipped, generation, 0, 0);
        }

        StatusValue(
                String shard,
                long files,
                long bytes,
                int queriesInFlight,
                int formatVersion,
                List<SkippedValue> skipped) {
            this(shard, files, bytes, queriesInFlight, formatVersion, skipped, 0);
        }
    }

    record CutValue(int line, int bytes) {}

    record FileMatchValue(String pkg, String path, float ranking, long bytes, String language) {}

    record FilterValue(Filter.Kind kind, boolean negated, String value) {}

    record SearchValue(
            String query,
            String pattern,
            boolean literal,
            boolean caseInsensitive,
            List<FilterValue> filters,
            int maxResults,
            int deadlineMillis,
            int contextLines) {}

    record FetchValue(
            String pkg, String path, int firstLine, int maxLines, int maxLineBytes, long byteOffset, int byteCount) {
        FetchValue(String pkg, String path) {
            this(pkg, path, 0, 0, 0, 0, 0);
        }
    }

    record PingValue() {}

    record HeartbeatValue(long frontend, long known) {}

    static MessageBuilder write(Object value) {
        return write(value, Messages.newBuilder());
    }

    static MessageBuilder write(Object value, MessageBuilder message) {
        if (value instanceof SearchValue
                || value instanceof FetchValue
                || value instanceof PingValue
                || value instanceof HeartbeatValue) {
            Request.Builder request = message.initRoot(Request.factory);
            if (value instanceof SearchValue s) {
                SearchRequest.Builder b = request.initSearch()
                        .setQuery(s.query)
                        .setPattern(s.pattern)
                        .setLiteral(s.literal)
                        .setCaseInsensitive(s.caseInsensitive)
                        .setMaxResults(s.maxResults)
                        .setDeadlineMillis(s.deadlineMillis)
                        .setContextLines(s.contextLines);
                StructList.Builder<Filter.Builder> filters = b.initFilters(s.filters.size());
                for (int i = 0; i < s.filters.size(); i++) {
                    FilterValue f = s.filters.get(i);
                    filters.get(i).setKind(f.kind).setNegated(f.negated).setValue(f.value);
                }
            } else if (value instanceof FetchValue f) {
                request.initFetchFile()
                        .setPackage(f.pkg)
                        .setPath(f.path)
                        .setFirstLine(f.firstLine)
                        .setMaxLines(f.maxLines)
                        .setMaxLineBytes(f.maxLineBytes)
                        .setByteOffset(f.byteOffset)
                        .setByteCount(f.byteCount);
            } else if (value instanceof HeartbeatValue h) {
                request.initHeartbeat().setFrontend(h.frontend).setKnown(h.known);
            } else {
                request.setPing();
            }
            return message;
        }
        Response.Builder response = message.initRoot(Response.factory);
        if (value instanceof ResultValue r) {
            Result.Builder b = response.initResult()
                    .setPackage(r.pkg)
                    .setPath(r.path)
                    .setLine(r.line)
                    .setContext(r.context)
                    .setRanking(r.ranking)
                    .setContextStart(r.contextStart)
                    .setLineBytes(r.lineBytes);
            if (!r.beforeBytes.isEmpty()) {
                ints(b.initBeforeBytes(r.beforeBytes.size()), r.beforeBytes);
            }
            if (!r.afterBytes.isEmpty()) {
                ints(b.initAfterBytes(r.afterBytes.size()), r.afterBytes);
            }
            texts(b.initBefore(r.before.size()), r.before);
            texts(b.initAfter(r.after.size()), r.after);
            StructList.Builder<Range.Builder> ranges = b.initRanges(r.ranges.size());
            for (int i = 0; i < r.ranges.size(); i++) {
                ranges.get(i).setStart(r.ranges.get(i).start).setEnd(r.ranges.get(i).end);
            }
            if (r.symbol != null) {
                b.initSymbol()
                        .setName(r.symbol.name())
                        .setKind(r.symbol.kind())
                        .setScope(r.symbol.scope())
                        .setLanguage(r.symbol.language());
            }
        } else if (value instanceof ProgressValue p) {
            response.initProgress()
                    .setFilesSearched(p.filesSearched)
                    .setCandidateFiles(p.candidateFiles)
                    .setTotalFiles(p.totalFiles)
                    .setResults(p.results);
        } else if (value instanceof DoneValue d) {
            response.initDone()
                    .setResults(d.results)
                    .setFilesSearched(d.filesSearched)
                    .setCandidateFiles(d.candidateFiles)
                    .setTotalFiles(d.totalFiles)
                    .setElapsedNanos(d.elapsedNanos)
                    .setTruncation(d.truncation)
                    .setFullScan(d.fullScan)
                    .setGeneration(d.generation);
        } else if (value instanceof FailureValue f) {
            response.initError().setCode(f.code).setMessage(f.message).setPosition(f.position);
        } else if (value instanceof FileValue f) {
            File.Builder file = response.initFile()
                    .setPackage(f.pkg)
                    .setPath(f.path)
                    .setContent(f.content)
                    .setFirstLine(f.firstLine)
                    .setTotalLines(f.totalLines)
                    .setTotalBytes(f.totalBytes);
            if (!f.cuts.isEmpty()) {
                StructList.Builder<LineCut.Builder> cuts = file.initCuts(f.cuts.size());
                for (int i = 0; i < f.cuts.size(); i++) {
                    cuts.get(i)
                            .setLine(f.cuts.get(i).line())
                            .setBytes(f.cuts.get(i).bytes());
                }
            }
        } else if (value instanceof StatusValue s) {
            Status.Builder status = response.initStatus()
                    .setShard(s.shard)
                    .setFiles(s.files)
                    .setBytes(s.bytes)
                    .setQueriesInFlight(s.queriesInFlight)
                    .setFormatVersion(s.formatVersion)
                    .setGeneration(s.generation)
                    .setSegments(s.segments)
                    .setDeletedFiles(s.deletedFiles);
            if (!s.skipped.isEmpty()) {
                StructList.Builder<Skipped.Builder> skipped = status.initSkipped(s.skipped.size());
                for (int i = 0; i < s.skipped.size(); i++) {
                    skipped.get(i)
                            .setReason(s.skipped.get(i).reason())
                            .setFiles(s.skipped.get(i).files())
                            .setBytes(s.skipped.get(i).bytes());
                }
            }
        } else if (value instanceof FileMatchValue f) {
            response.initFileMatch()
                    .setPackage(f.pkg)
                    .setPath(f.path)
                    .setRanking(f.ranking)
                    .setBytes(f.bytes)
                    .setLanguage(f.language);
        } else {
            throw new IllegalArgumentException("not a message value: " + value);
        }
        return message;
    }

    private static void ints(org.capnproto.PrimitiveList.Int.Builder list, List<Integer> values) {
        for (int i = 0; i < values.size(); i++) {
            list.set(i, values.get(i));
        }
    }

    private static List<Integer> ints(org.capnproto.PrimitiveList.Int.Reader list) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            out.add(list.get(i));
        }
        return out;
    }

    private static void texts(TextList.Builder list, List<String> values) {
        for (int i = 0; i < values.size(); i++) {
            list.set(i, Blobs.text(values.get(i)));
        }
    }

    static Object read(Request.Reader request) {
        return switch (request.which()) {
            case SEARCH -> {
                SearchRequest.Reader s = request.getSearch();
                List<FilterValue> filters = new ArrayList<>();
                for (Filter.Reader f : s.getFilters()) {
                    filters.add(new FilterValue(
                            f.getKind(), f.getNegated(), f.getValue().toString()));
                }
                yield new SearchValue(
                        s.getQuery().toString(),
                        s.getPattern().toString(),
                        s.getLiteral(),
                        s.getCaseInsensitive(),
                        filters,
                        s.getMaxResults(),
                        s.getDeadlineMillis(),
                        s.getContextLines());
            }
            case FETCH_FILE -> {
                FetchFile.Reader f = request.getFetchFile();
                yield new FetchValue(
                        f.getPackage().toString(),
                        f.getPath().toString(),
                        f.getFirstLine(),
                        f.getMaxLines(),
                        f.getMaxLineBytes(),
                        f.getByteOffset(),
                        f.getByteCount());
            }
            case PING -> new PingValue();
            case HEARTBEAT ->
                new HeartbeatValue(
                        request.getHeartbeat().getFrontend(),
                        request.getHeartbeat().getKnown());
            case _NOT_IN_SCHEMA -> throw new AssertionError("unknown request");
        };
    }

    static Object read(Response.Reader response) {
        return switch (response.which()) {
            case RESULT -> {
                Result.Reader r = response.getResult();
                List<RangeValue> ranges = new ArrayList<>();
                for (Range.Reader range : r.getRanges()) {
                    ranges.add(new RangeValue(range.getStart(), range.getEnd()));
                }
                yield new ResultValue(
                        r.getPackage().toString(),
                        r.getPath().toString(),
                        r.getLine(),
                        strings(r.getBefore()),
                        r.getContext().toString(),
                        strings(r.getAfter()),
                        ranges,
                        r.getRanking(),
                        r.getContextStart(),
                        r.getLineBytes(),
                        ints(r.getBeforeBytes()),
                        ints(r.getAfterBytes()),
                        r.hasSymbol()
                                ? new SymbolValue(
                                        r.getSymbol().getName().toString(),
                                        r.getSymbol().getKind().toString(),
                                        r.getSymbol().getScope().toString(),
                                        r.getSymbol().getLanguage().toString())
                                : null);
            }
            case PROGRESS -> {
                Progress.Reader p = response.getProgress();
                yield new ProgressValue(p.getFilesSearched(), p.getCandidateFiles(), p.getTotalFiles(), p.getResults());
            }
            case DONE -> {
                Done.Reader d = response.getDone();
                yield new DoneValue(
                        d.getResults(),
                        d.getFilesSearched(),
                        d.getCandidateFiles(),
                        d.getTotalFiles(),
                        d.getElapsedNanos(),
                        d.getTruncation(),
                        d.getFullScan(),
                        d.getGeneration());
            }
            case ERROR ->
                new FailureValue(
                        response.getError().getCode(),
                        response.getError().getMessage().toString(),
                        response.getError().getPosition());
            case FILE -> {
                File.Reader f = response.getFile();
                List<CutValue> cuts = new ArrayList<>();
                for (LineCut.Reader c : f.getCuts()) {
                    cuts.add(new CutValue(c.getLine(), c.getBytes()));
                }
                yield new FileValue(
                        f.getPackage().toString(),
                        f.getPath().toString(),
                        Blobs.bytes(f.getContent()),
                        f.getFirstLine(),
                        f.getTotalLines(),
                        f.getTotalBytes(),
                        cuts);
            }
            case STATUS -> {
                Status.Reader s = response.getStatus();
                List<SkippedValue> skipped = new ArrayList<>();
                for (Skipped.Reader k : s.getSkipped()) {
                    skipped.add(new SkippedValue(k.getReason().toString(), k.getFiles(), k.getBytes()));
                }
                yield new StatusValue(
                        s.getShard().toString(),
                        s.getFiles(),
                        s.getBytes(),
                        s.getQueriesInFlight(),
                        s.getFormatVersion(),
                        skipped,
                        s.getGeneration(),
                        s.getSegments(),
                        s.getDeletedFiles());
            }
            case FILE_MATCH -> {
                FileMatch.Reader f = response.getFileMatch();
                yield new FileMatchValue(
                        f.getPackage().toString(),
                        f.getPath().toString(),
                        f.getRanking(),
                        f.getBytes(),
                        f.getLanguage().toString());
            }
            case FILE_RESULTS -> throw new AssertionError("FileResultsWriterTest reads fileResults, not Values");
            case _NOT_IN_SCHEMA -> throw new AssertionError("unknown response");
        };
    }

    private static List<String> strings(TextList.Reader list) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            out.add(list.get(i).toString());
        }
        return out;
    }
}
