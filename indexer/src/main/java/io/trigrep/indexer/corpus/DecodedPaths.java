package io.trigrep.indexer.corpus;

import java.util.HashSet;
import java.util.Set;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * A recursive tree walk's filter for a set of file paths as the walk decodes them ({@link
 * TreeWalk#getPathString}), the form the diff that found them gives. JGit's own path filters encode
 * their strings as UTF-8, which never matches a path whose bytes are not UTF-8.
 */
final class DecodedPaths extends TreeFilter {
    private final Set<String> files;
    /** Every folder on the way to a file. */
    private final Set<String> folders = new HashSet<>();

    DecodedPaths(Set<String> files) {
        this.files = Set.copyOf(files);
        for (String path : files) {
            for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
                folders.add(path.substring(0, slash));
            }
        }
    }

    @Override
    public boolean include(TreeWalk walker) {
        String path = walker.getPathString();
        return walker.isSubtree() ? folders.contains(path) : files.contains(path);
    }

    @Override
    public boolean shouldBeRecursive() {
        return !folders.isEmpty();
    }

    @Override
    @SuppressWarnings("NoClone") // TreeFilter's contract: a filter without state of its own may be its own clone
    public TreeFilter clone() {
        return this;
    }
}
