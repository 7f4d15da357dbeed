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

    /** The commit branch {@code name} is at, or null when this list has no such branch. */
    public String commit(String name) {
        for (Branch b : branches) {
            if (b.name().equals(name)) {
                return b.commit();
            }
        }
        return null;
    }

    /**
     * These branches in this order, so that masks over them still hold, each at the commit
     * {@code current} has it at (a branch {@code current} lacks keeps its own), with
     * {@code current}'s link template: a segment written before its repository moved, read at the
     * commits the index now holds.
     */
    public GitRefs at(GitRefs current) {
        List<Branch> out = new ArrayList<>(branches.size());
        for (Branch b : branches) {
            String commit = current.commit(b.name());
            out.add(commit == null ? b : new Branch(b.name(), commit));
        }
        return new GitRefs(out, current.links());
    }

    /** {@code mask} over these branches as a mask over {@code to}'s, by name; a branch {@code to} lacks drops out. */
    public long maskIn(long mask, GitRefs to) {
        long out = 0;
        for (int i = 0; i < branches.size(); i++) {
            if ((mask >>> i & 1) != 0) {
                for (int j = 0; j < to.branches.size(); j++) {
                    if (to.branches.get(j).name().equals(branches.get(i).name())) {
                        out |= 1L << j;
                    }
                }
            }
        }
        return out;
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
