package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.FileVisitor;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.segments.Segment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One package's live files in some segments of a shard, read back from their contents for a
 * merge: a package is indexed from the bytes the index already holds, in the order its source
 * was read (contents are laid out in that order, so ascending content offset is read order),
 * segment after segment.
 */
final class SegmentPackage implements PackageSource {
    /** One live doc: its segment and id there. */
    private record Doc(Segment segment, int doc, long offset, long branches) {}

    private final String name;
    private final float weight;
    private final List<Doc> docs = new ArrayList<>();
    private long bytes;
    /** The branches every doc's mask is re-expressed over; NONE until a segment sets it, unless given. */
    private GitRefs refs;

    /**
     * {@code current}: a repository's branches as the generation records them (null when it does
     * not: then every segment holding the package holds the same branches).
     */
    SegmentPackage(String name, float weight, GitRefs current) {
        this.name = name;
        this.weight = weight;
        this.refs = current == null ? GitRefs.NONE : current;
    }

    /** Adds the live docs of package {@code packageId} of {@code segment}. */
    void add(Segment segment, int packageId) throws IOException {
        DocTable table = segment.shard().docs();
        // Segments written before the repository moved count its branches in their own list: each
        // mask is carried over by branch name.
        GitRefs own = segment.refs(packageId);
        if (!refs.isRepository()) {
            refs = own;
        }
        boolean remap = own.isRepository() && !own.names(-1L).equals(refs.names(-1L));
        List<Doc> mine = new ArrayList<>();
        for (int d = 0; d < table.docCount(); d++) {
            if (table.packageId(d) == packageId && segment.live(d)) {
                long mask = remap ? own.maskIn(table.branches(d), refs) : table.branches(d);
                mine.add(new Doc(segment, d, table.contentOffset(d), mask));
                bytes += table.contentLength(d);
            }
        }
        mine.sort(Comparator.comparingLong(Doc::offset));
        docs.addAll(mine);
    }

    /** Live docs added. */
    int docCount() {
        return docs.size();
    }

    float weight() {
        return weight;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public GitRefs refs() {
        return refs;
    }

    @Override
    public long inputBytes() {
        return bytes;
    }

    @Override
    public void read(FileVisitor visitor) throws IOException {
        for (Doc d : docs) {
            DocTable table = d.segment().shard().docs();
            visitor.file(table.path(d.doc()), d.segment().shard().content(d.doc()), d.branches());
        }
    }
}
