package io.trigrep.indexer.format;

import java.util.ArrayList;
import java.util.List;

/**
 * The branches (or tags) of a git repository package at the commits it was indexed at, and the
 * template that links its files to their code host ({@code https://host/{repo}/blob/{commit}/{path}#L{line}};
 * empty for none). A package that is not a repository has no branches ({@link #NONE}). A file's
 * branch mask sets bit i when branch i of this list holds it.
 */
public record GitRefs(List<Branch> branches, String links) {
    /** At most this many branches per repository: a file's branches are one 64-bit mask. */
    public static final int MAX_BRANCHES = 64;

    public static final GitRefs NONE = new GitRefs(List.of(), "");

    /** A branch or tag name and the commit (40 hex digits) it was indexed at. */
    public record Branch(String name, String commit) {}

    public GitRefs {
        branches = List.copyOf(branches);
        if (branches.size() > MAX_BRANCHES) {
            throw new IllegalArgumentException(
                    "a repository may be indexed at most at " + MAX_BRANCHES + " branches, got " + branches.size());
        }
    }

    public boolean isRepository() {
        return !branches.isEmpty();
    }

    /** The names of the branches in {@code mask}, in this list's order. */
    public List<String> names(long mask) {
        ArrayList<String> out = new ArrayList<>(Long.bitCount(mask));
        for (int i = 0; i < branches.size(); i++) {
            if ((mask >>> i & 1) != 0) {
                out.add(branches.get(i).name());
            }
        }
        return out;
    }
}
