package io.trigrep.indexer.corpus;

import java.util.Set;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * A recursive tree walk's filter for a set of file paths as the walk decodes them ({@link
 * TreeWalk#getPathString}), the form the diff that found them gives. JGit's own path filters encode
 * their strings as UTF-8, which never matches a path whose bytes are not UTF-8. Every folder is
 * entered: a path is decoded whole (as Latin-1 when any of its bytes is not UTF-8), so a folder's
 * own name may decode otherwise than in the paths below it. Only the files named pass: none of a
 * folder that is one of the paths here and a file on another branch.
 */
final class DecodedPaths extends TreeFilter {
    private final Set<String> files;

    DecodedPaths(Set<String> files) {
        this.files = Set.copyOf(files);
    }

    @Override
    public boolean include(TreeWalk walker) {
        return walker.isSubtree() || files.contains(walker.getPathString());
    }

    @Override
    public boolean shouldBeRecursive() {
        return true;
    }

    @Override
    @SuppressWarnings("NoClone") // TreeFilter's contract: a filter without state of its own may be its own clone
    public TreeFilter clone() {
        return this;
    }
}
