package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.GitPackage;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.segments.Generation;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A git repository the index holds at other commits, re-read only at the paths whose entry changed
 * on some branch ({@link GitPackage#changedSince}): the update deletes the files of those paths
 * and adds what {@link #partial} reads of them, and every other file stays where it is, its
 * branch mask still true and its commits read from the generation ({@link Generation.PackageEntry#refs}).
 *
 * @param partial       the repository at its new commits, reading only the changed paths
 * @param skippedBefore what those paths counted in the package's skipped files at the indexed
 *                      commits, by reason key: {files, bytes}
 * @param before        the package's ledger entry before the update
 */
record RepositoryChange(GitPackage partial, Map<String, long[]> skippedBefore, Generation.PackageEntry before) {
    /**
     * The change that brings {@code source} from {@code held} (the branches the index holds it at)
     * to its own branches; null when it is to be read whole: not a repository the index holds
     * under that name with a ledger entry, an indexed commit gone, or anything unreadable (the
     * whole read then reports it).
     */
    static RepositoryChange of(
            PackageSource source, GitRefs held, Generation.PackageEntry before, FilterLimits limits) {
        if (!(source instanceof GitPackage git)
                || git.paths() != null
                || held == null
                || before == null
                || before.skipShard() < 0) {
            return null;
        }
        try {
            Set<String> paths = git.changedSince(held);
            if (paths == null) {
                return null;
            }
            SkipTally tally = new SkipTally(limits);
            git.at(held).only(paths).read(tally);
            return new RepositoryChange(git.only(paths), tally.counts(), before);
        } catch (IOException e) {
            return null;
        }
    }

    Set<String> paths() {
        return partial.paths();
    }

    /** Whether the update replaces doc {@code doc} (of package {@code packageName}) of {@code table}. */
    boolean replaces(String packageName, DocTable table, int doc) throws IOException {
        return !packageName.equals(partial.name()) || paths().contains(table.path(doc));
    }

    /**
     * The package's skipped counts after the update: its counts before, less what the changed
     * paths counted then, plus what they count now ({@code read}, by reason key).
     */
    Map<String, long[]> skippedAfter(Map<String, long[]> read) {
        Map<String, long[]> out = new LinkedHashMap<>();
        before.skipped().forEach((reason, c) -> out.put(reason, new long[] {c.files(), c.bytes()}));
        skippedBefore.forEach((reason, c) -> {
            long[] now = out.computeIfAbsent(reason, x -> new long[2]);
            now[0] = Math.max(0, now[0] - c[0]);
            now[1] = Math.max(0, now[1] - c[1]);
        });
        read.forEach((reason, c) -> {
            long[] now = out.computeIfAbsent(reason, x -> new long[2]);
            now[0] += c[0];
            now[1] += c[1];
        });
        out.values().removeIf(c -> c[0] == 0);
        return out;
    }
}
