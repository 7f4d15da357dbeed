package io.trigrep.indexer.segments;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.Symbols;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A shard as one generation of its index has it: the segments live in that generation, opened
 * and mapped, with their deletes. What a backend serves; {@link #close} unmaps every segment, for
 * when no query reads this generation any more.
 */
public final class LiveShard implements Closeable {
    private final Path folder;
    private final String name;
    private final long generation;
    private final List<Segment> segments;
    private final Map<String, Manifest.Skipped> skipped;

    private LiveShard(
            Path folder, String name, long generation, List<Segment> segments, Map<String, Manifest.Skipped> skipped) {
        this.folder = folder;
        this.name = name;
        this.generation = generation;
        this.segments = List.copyOf(segments);
        this.skipped = skipped;
    }

    /**
     * The shard in {@code folder} at its index's newest generation ({@code folder}'s parent holds
     * the generation files), or, in an index without any, the plain shard folder as generation 0.
     * An update may commit and delete the files of the generation just read while this opens
     * them: then the newer one is opened instead.
     */
    public static LiveShard open(Path folder) throws IOException {
        Path absolute = folder.toAbsolutePath().normalize();
        Path root = absolute.getParent();
        String name = absolute.getFileName().toString();
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            Generation g = root == null ? null : IndexFolder.latest(root).orElse(null);
            Generation.ShardEntry entry = g == null ? null : g.shard(name);
            try {
                if (entry == null) {
                    Shard shard = Shard.open(folder);
                    Symbols symbols = Symbols.open(folder);
                    Segment only = new Segment(
                            0, shard, symbols, Deletes.none(shard.docs().docCount()));
                    return new LiveShard(
                            folder, name, 0, List.of(only), shard.manifest().skipped());
                }
                return open(folder, name, g.number(), entry, g.repositories());
            } catch (NoSuchFileException e) {
                last = e;
                if (g == null
                        || IndexFolder.latest(root).map(Generation::number).orElse(0L) == g.number()) {
                    throw e; // missing from the newest generation: broken, not superseded
                }
            }
        }
        throw last;
    }

    /**
     * A plain shard whose files are already open, as generation 0 of one segment: for a server
     * given an opened shard. Closing it closes {@code shard} and {@code symbols}.
     */
    public static LiveShard of(Shard shard, Symbols symbols) {
        Path folder = shard.folder().toAbsolutePath().normalize();
        Segment only = new Segment(0, shard, symbols, Deletes.none(shard.docs().docCount()));
        return new LiveShard(
                folder,
                folder.getFileName().toString(),
                0,
                List.of(only),
                shard.manifest().skipped());
    }

    private static LiveShard open(
            Path folder, String name, long generation, Generation.ShardEntry entry, Map<String, GitRefs> repositories)
            throws IOException {
        List<Segment> opened = new ArrayList<>();
        try {
            for (Generation.SegmentEntry e : entry.segments()) {
                Path segmentFolder = IndexFolder.segmentFolder(folder, e.id());
                Shard shard = Shard.open(segmentFolder);
                Symbols symbols;
                try {
                    symbols = Symbols.open(segmentFolder);
                } catch (IOException | RuntimeException ex) {
                    shard.close();
                    throw ex;
                }
                int docs = shard.docs().docCount();
                Segment segment;
                try {
                    segment = Segment.of(
                            e.id(),
                            shard,
                            symbols,
                            e.deletes() == null ? Deletes.none(docs) : Deletes.read(folder.resolve(e.deletes()), docs),
                            repositories);
                } catch (IOException | RuntimeException ex) {
                    shard.close();
                    symbols.close();
                    throw ex;
                }
                opened.add(segment);
                if (docs != e.docs() || segment.deletes().count() != e.deleted()) {
                    throw new CorruptIndexException(
                            segmentFolder,
                            0,
                            "generation " + generation + " records " + e.docs() + " docs, " + e.deleted()
                                    + " deleted; the segment has " + docs + ", "
                                    + segment.deletes().count());
                }
            }
        } catch (IOException | RuntimeException e) {
            for (Segment s : opened) {
                close(s);
            }
            throw e;
        }
        return new LiveShard(folder, name, generation, opened, entry.skipped());
    }

    public Path folder() {
        return folder;
    }

    /** The shard's name: its folder's ({@code shard-3}). */
    public String name() {
        return name;
    }

    /** The index generation this is; 0 for a plain shard folder. */
    public long generation() {
        return generation;
    }

    /** Live segments, oldest first. */
    public List<Segment> segments() {
        return segments;
    }

    /** Files left out of the packages this shard counts, by reason. */
    public Map<String, Manifest.Skipped> skipped() {
        return skipped;
    }

    public int liveDocs() {
        int n = 0;
        for (Segment s : segments) {
            n += s.liveDocs();
        }
        return n;
    }

    public int deletedDocs() {
        int n = 0;
        for (Segment s : segments) {
            n += s.deletes().count();
        }
        return n;
    }

    /** Content bytes of the live docs. */
    public long liveBytes() throws CorruptIndexException {
        long n = 0;
        for (Segment s : segments) {
            var docs = s.shard().docs();
            for (int d = 0; d < docs.docCount(); d++) {
                if (s.live(d)) {
                    n += docs.contentLength(d);
                }
            }
        }
        return n;
    }

    /** Where a file is: a live doc of one segment. */
    public record Located(Segment segment, int doc) {}

    /** The live doc holding {@code path} of {@code packageName}, newest segment first; null when none does. */
    public Located find(String packageName, String path) throws CorruptIndexException {
        return find(packageName, path, "");
    }

    /** As {@link #find(String, String)}, the file of a repository package as {@code branch} holds it (empty: any). */
    public Located find(String packageName, String path, String branch) throws CorruptIndexException {
        for (int i = segments.size() - 1; i >= 0; i--) {
            Segment s = segments.get(i);
            int doc = s.shard().docs().find(packageName, path, branch);
            if (doc >= 0 && s.live(doc)) {
                return new Located(s, doc);
            }
        }
        return null;
    }

    /** Unmaps every segment: only once no thread reads any of them. */
    @Override
    public void close() {
        for (Segment s : segments) {
            close(s);
        }
    }

    private static void close(Segment s) {
        s.shard().close();
        s.symbols().close();
    }
}
