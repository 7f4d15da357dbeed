package io.trigrep.backend.search;

import io.trigrep.indexer.format.GitRefs;
import io.trigrep.proto.GitRefBytes;
import java.util.HashMap;
import java.util.Map;

/**
 * A worker's encoded GitRefs, one per (segment, package, branch mask) it met: the branch names,
 * commit and link template are encoded once, not per result.
 */
final class GitRefCache {
    private record Key(int segment, int packageId, long mask) {}

    private final Map<Key, GitRefBytes> encoded = new HashMap<>();

    GitRefBytes of(int segment, int packageId, GitRefs refs, long mask) {
        return encoded.computeIfAbsent(new Key(segment, packageId, mask), k -> {
            int first = Long.numberOfTrailingZeros(mask);
            String commit =
                    first < refs.branches().size() ? refs.branches().get(first).commit() : "";
            return new GitRefBytes(refs.names(mask), commit, refs.links());
        });
    }
}
