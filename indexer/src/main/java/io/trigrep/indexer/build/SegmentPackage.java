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
    private GitRefs refs = GitRefs.NONE;

    SegmentPackage(String name, float weight) {
        this.name = name;
        this.weight = weight;
    }

    /** Adds the live docs of package {@code packageId} of {@code segment}. */
    void add(Segment segment, int packageId) throws IOException {
        DocTable table = segment.shard().docs();
        // Every segment holds the version the package was last added at: one set of branches.
        refs = table.refs(packageId);
        List<Doc> mine = new ArrayList<>();
        for (int d = 0; d < table.docCount(); d++) {
            if (table.packageId(d) == packageId && segment.live(d)) {
                mine.add(new Doc(segment, d, table.contentOffset(d), table.branches(d)));
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
