package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexStats;

/** The indexer's closing report: packages, files indexed and skipped by reason, bytes, index size, time. */
final class Summary {
    private Summary() {}

    static long inputDone(IndexStats stats) {
        return stats.inputDone();
    }

    static long inputTotal(IndexStats stats) {
        return stats.inputTotal();
    }

    /** Symbols over all shards, or why there are none. */
    private static String symbols(IndexBuilder.Report report) {
        long symbols = 0;
        long files = 0;
        long failed = 0;
        long bytes = 0;
        for (var shard : report.shards()) {
            if (shard.symbols() == null) {
                return "";
            }
            symbols += shard.symbols().symbols();
            files += shard.symbols().files();
            failed += shard.symbols().failures().size();
            bytes += shard.symbolBytes();
        }
        return String.format(
                "symbols    %,d definitions from %,d files (%,d bytes)%s%n",
                symbols,
                files,
                bytes,
                failed == 0 ? "" : String.format("; ctags failed on %,d files (warnings above)", failed));
    }

    static String of(IndexBuilder.Report report, boolean verified) {
        IndexStats stats = report.stats();
        long content = 0;
        long index = 0;
        long docTable = 0;
        int trigrams = 0;
        long postings = 0;
        long varint = 0;
        for (var shard : report.shards()) {
            content += shard.contentBytes();
            index += shard.indexBytes();
            docTable += shard.docTableBytes();
            trigrams += shard.trigrams();
            postings += shard.postingBytes();
            varint += shard.varintPostingBytes();
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format("packages   %,d indexed, %,d failed%n", stats.packages(), stats.failedInputs()));
        out.append(String.format(
                "files      %,d indexed (%,d bytes), %,d skipped%n",
                stats.files(), stats.bytes(), stats.skippedFiles()));
        out.append(IndexCommand.reasonTable(stats));
        out.append(String.format("shards     %d%s%n", report.shards().size(), verified ? " (checksums verified)" : ""));
        for (int i = 0; i < report.shards().size(); i++) {
            var s = report.shards().get(i);
            out.append(String.format(
                    "  shard-%-3d %,8d docs %,6d packages %,12d content bytes%n",
                    i, s.docs(), s.packages(), s.contentBytes()));
        }
        out.append(String.format(
                "index      %,d bytes without contents (trigrams %,d + doc tables %,d), %,d with contents%n",
                index + docTable, index, docTable, index + docTable + content));
        out.append(symbols(report));
        out.append(String.format(
                "trigrams   %,d lists in all shards; postings %,d bytes (as varint gaps they would be %,d)%n",
                trigrams, postings, varint));
        out.append(String.format(
                "time       %.2f s (reading and filtering %.2f s, building shards %.2f s)%n",
                report.nanos() / 1e9, report.readNanos() / 1e9, (report.nanos() - report.readNanos()) / 1e9));
        return out.toString();
    }
}
