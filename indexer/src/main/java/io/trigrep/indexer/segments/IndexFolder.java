package io.trigrep.indexer.segments;

import io.trigrep.indexer.files.FileTrees;
import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.ShardFiles;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The layout of an index folder (FORMAT.md, "Generations"): which files belong to which
 * generation, how a generation is committed (one rename), and which files no generation needs any
 * more. Nothing outside this class composes those names.
 */
public final class IndexFolder {
    private IndexFolder() {}

    private static final Pattern GENERATION = Pattern.compile("gen-([0-9]{1,18})\\.json");
    private static final Pattern SEGMENT = Pattern.compile("seg-([0-9]{1,18})");
    private static final Pattern DELETES = Pattern.compile("seg-([0-9]{1,18})\\.del-([0-9]{1,18})\\.tgx");
    private static final Pattern SHARD = Pattern.compile("shard-([0-9]{1,9})");
    private static final String LOCK = ".update.lock";

    public static String generationFile(long generation) {
        return "gen-" + generation + ".json";
    }

    /** The folder of segment {@code id} of the shard in {@code shardFolder}: the folder itself for 0. */
    public static Path segmentFolder(Path shardFolder, long id) {
        return id == 0 ? shardFolder : shardFolder.resolve("seg-" + id);
    }

    /** The name of segment {@code segment}'s deletes file as of {@code generation}. */
    public static String deletesFile(long segment, long generation) {
        return "seg-" + segment + ".del-" + generation + ".tgx";
    }

    /** The generation numbers with a file in {@code root}, highest first. */
    public static List<Long> generations(Path root) throws IOException {
        List<Long> found = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return found;
        }
        try (Stream<Path> entries = Files.list(root)) {
            for (Path p : entries.toList()) {
                Matcher m = GENERATION.matcher(p.getFileName().toString());
                if (m.matches()) {
                    found.add(Long.parseLong(m.group(1)));
                }
            }
        }
        found.sort(Comparator.reverseOrder());
        return found;
    }

    /**
     * The committed generation of the index in {@code root}: the highest {@code gen-N.json}.
     * Empty for an index of plain shard folders. A highest file that does not read is an error
     * naming it, never a silent fall-back to an older state.
     */
    public static Optional<Generation> latest(Path root) throws IOException {
        while (true) {
            List<Long> listed = generations(root);
            if (listed.isEmpty()) {
                return Optional.empty();
            }
            long n = listed.get(0);
            Path file = root.resolve(generationFile(n));
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (NoSuchFileException e) {
                // Removed by an update that committed a later one since the listing (the older
                // ones listed go too): list again.
                continue;
            }
            Generation g = Generation.read(file, bytes);
            if (g.number() != n) {
                throw new CorruptIndexException(file, 0, "holds generation " + g.number());
            }
            return Optional.of(g);
        }
    }

    /**
     * The index's state as a generation: the committed one, or for plain shard folders (an index
     * built before generations, or by a build that wrote none) generation 0 describing them, each
     * shard one segment, its packages with unknown skipped counts.
     */
    public static Generation current(Path root) throws IOException {
        Optional<Generation> committed = latest(root);
        if (committed.isPresent()) {
            return committed.get();
        }
        List<Generation.ShardEntry> shards = new ArrayList<>();
        TreeSet<String> packages = new TreeSet<>();
        boolean symbols = true;
        for (int k = 0; ; k++) {
            Path folder = root.resolve("shard-" + k);
            Path manifestFile = folder.resolve(ShardFiles.MANIFEST);
            if (!Files.isRegularFile(manifestFile)) {
                break;
            }
            Manifest m = Manifest.read(manifestFile);
            symbols &= m.symbolsAbsent() == null && Files.isRegularFile(folder.resolve(ShardFiles.SYMBOLS));
            try (DocTable docs = DocTable.open(folder.resolve(ShardFiles.DOCS))) {
                for (int p = 0; p < docs.packageCount(); p++) {
                    packages.add(docs.packageName(p));
                }
            }
            shards.add(new Generation.ShardEntry(
                    "shard-" + k,
                    List.of(new Generation.SegmentEntry(0, m.docs(), 0, m.contentBytes(), null)),
                    m.skipped()));
        }
        if (shards.isEmpty()) {
            throw new NoSuchFileException(
                    root.resolve("shard-0").toString(), null, "no index here: no shard-0 with a manifest");
        }
        List<Generation.PackageEntry> entries = new ArrayList<>();
        for (String name : packages) {
            entries.add(new Generation.PackageEntry(name, -1, Map.of()));
        }
        return new Generation(0, 1, symbols, shards, entries);
    }

    /**
     * The index's generation, after deleting what a killed update, merge or build left beside it
     * (scratch folders, segments never committed): only under the update lock, when nobody else's
     * files can be among them.
     */
    public static Generation settle(Path root) throws IOException {
        Generation g = current(root);
        if (g.number() > 0) {
            removeUnreferenced(root, g);
        }
        return g;
    }

    /**
     * Makes {@code next} the index's generation: its file is written under a temporary name,
     * fsynced and renamed into place (the one step that commits), then the folder is fsynced.
     * Before the rename the index is at its previous generation; after it, at {@code next}.
     */
    public static void commit(Path root, Generation next) throws IOException {
        Path target = root.resolve(generationFile(next.number()));
        if (Files.exists(target)) {
            throw new IOException(target + " exists: another update committed this generation");
        }
        Path temporary = root.resolve("." + generationFile(next.number()) + ".tmp");
        Files.deleteIfExists(temporary);
        try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.write(ByteBuffer.wrap(next.toJson()));
            out.force(true);
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(temporary);
            throw new IOException("the file system of " + root + " cannot rename atomically; generations need it", e);
        }
        FileTrees.fsync(root);
    }

    /**
     * Deletes what {@code live} does not use: older generation files, segment folders and deletes
     * files it does not name, and temporary files of updates that never committed. A backend
     * still serving an older generation keeps its mapped files until it lets them go (a deleted
     * file lives while it is mapped); it opens the newest generation for new queries.
     */
    public static List<Path> removeUnreferenced(Path root, Generation live) throws IOException {
        List<Path> removed = new ArrayList<>();
        try (Stream<Path> entries = Files.list(root)) {
            for (Path p : entries.toList()) {
                String name = p.getFileName().toString();
                Matcher g = GENERATION.matcher(name);
                if ((g.matches() && Long.parseLong(g.group(1)) < live.number())
                        || (name.startsWith(".gen-") && name.endsWith(".tmp"))
                        || name.startsWith(".build-")) {
                    delete(p, removed);
                }
            }
        }
        for (Generation.ShardEntry shard : live.shards()) {
            Path folder = root.resolve(shard.name());
            if (!Files.isDirectory(folder)) {
                continue;
            }
            Set<String> keep = new HashSet<>();
            for (Generation.SegmentEntry s : shard.segments()) {
                keep.add("seg-" + s.id());
                if (s.deletes() != null) {
                    keep.add(s.deletes());
                }
            }
            boolean keepRoot = shard.segments().stream().anyMatch(s -> s.id() == 0);
            try (Stream<Path> entries = Files.list(folder)) {
                for (Path p : entries.toList()) {
                    String name = p.getFileName().toString();
                    boolean segmentFile = SEGMENT.matcher(name).matches()
                            || DELETES.matcher(name).matches();
                    boolean rootFile = !keepRoot && Files.isRegularFile(p) && !segmentFile;
                    if ((segmentFile && !keep.contains(name)) || rootFile) {
                        delete(p, removed);
                    }
                }
            }
        }
        return removed;
    }

    /** Shard folders of the index in {@code root} that {@code live} does not name (shard-K beyond its count). */
    static boolean isShardFolder(String name) {
        return SHARD.matcher(name).matches();
    }

    /**
     * Holds the index's update lock until closed: two updates of one index never run at once.
     * Fails at once, naming the folder, when another process holds it.
     */
    public static Closeable lock(Path root) throws IOException {
        Files.createDirectories(root);
        Path key = root.toAbsolutePath().normalize();
        // Within one JVM the kernel's lock cannot tell two holders apart, and a second channel
        // closed on the lock file would drop the first one's lock: this set answers for the JVM.
        if (!HELD.add(key)) {
            throw new IOException("another update or merge holds " + root.resolve(LOCK) + " (in this process)");
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(root.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IOException("another update or merge holds " + root.resolve(LOCK));
            }
            FileChannel held = channel;
            return () -> {
                try {
                    lock.release();
                    held.close();
                } finally {
                    HELD.remove(key);
                }
            };
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                channel.close();
            }
            HELD.remove(key);
            throw e;
        }
    }

    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private static void delete(Path p, List<Path> removed) throws IOException {
        FileTrees.delete(p);
        removed.add(p);
    }
}
