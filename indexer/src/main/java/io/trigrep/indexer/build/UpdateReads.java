package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.PackageKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an update reads of the packages it is given: a git repository whose branches the index
 * holds at the same commits is not read again, one that moved is read only at the paths that
 * changed ({@link RepositoryChange}), any other package is read whole.
 *
 * @param read      what to read, in the order given: each package whole, or its changed paths
 * @param addByKey  the full name of each package to add, by package key
 * @param unchanged the repositories not read again
 * @param changes   the repositories read in part, by package key
 * @param refs      the branches of each package read, by full name
 */
record UpdateReads(
        List<PackageSource> read,
        Map<String, String> addByKey,
        List<String> unchanged,
        Map<String, RepositoryChange> changes,
        Map<String, GitRefs> refs) {
    /** Sorts {@code given} ({@code givenByKey}: their full names by key) against the index's generation {@code g}. */
    static UpdateReads of(
            List<PackageSource> given,
            Map<String, String> givenByKey,
            List<WorkingShard> shards,
            Generation g,
            FilterLimits limits)
            throws IOException {
        Map<String, GitRefs> held = HeldRepositories.of(shards, g);
        Map<String, Generation.PackageEntry> ledgerEntries = new HashMap<>();
        for (Generation.PackageEntry p : g.packages()) {
            ledgerEntries.put(p.name(), p);
        }
        List<PackageSource> add = new ArrayList<>();
        Map<String, String> addByKey = new LinkedHashMap<>(givenByKey);
        List<String> unchanged = new ArrayList<>();
        Map<String, RepositoryChange> changes = new HashMap<>();
        Map<String, GitRefs> refsOf = new HashMap<>();
        for (PackageSource p : given) {
            if (p.refs().isRepository() && p.refs().equals(held.get(p.name()))) {
                unchanged.add(p.name());
                addByKey.remove(PackageKey.of(p.name()));
                continue;
            }
            RepositoryChange change = RepositoryChange.of(p, held.get(p.name()), ledgerEntries.get(p.name()), limits);
            if (change != null) {
                changes.put(PackageKey.of(p.name()), change);
            }
            add.add(change != null ? change.partial() : p);
            refsOf.put(p.name(), p.refs());
        }
        return new UpdateReads(add, addByKey, unchanged, changes, refsOf);
    }
}
