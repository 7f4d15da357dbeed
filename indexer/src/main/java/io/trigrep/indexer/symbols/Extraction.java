package io.trigrep.indexer.symbols;

import io.trigrep.indexer.files.FileTrees;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * ctags at work while a build reads its corpus: files are {@link #add added} as they are read,
 * each to the least loaded of a fixed number of ctags processes, through bounded queues; each
 * process's worker spills the tags it gets to a spool file of its own. Once every file is in
 * ({@link #finish}), {@link #write} turns the tags of one shard's docs, in the shard's order, into
 * its {@code symbols.tgs}, within {@link SymbolExtractor.Config#budgetBytes}.
 *
 * <p>A file goes to the worker given the fewest bytes so far (a file counting its length plus a
 * fixed cost), which depends on the files added before it alone, never on timing; and each worker
 * takes its files in the order they were added (to its one process, or, when ctags has a
 * sandbox, contents to a sandboxed one and the files read from disk to a plain one): ctags keeps
 * some state from one file to the next (its TeX parser carries a {@code \part} into the next
 * file's scopes), so adding the same files in the same order gives the same tags, however the
 * threads interleave.
 */
public final class Extraction implements Closeable {
    /**
     * Files queued per process: references only, the bytes are read by the process's worker. Deep
     * enough that a process slow on a few large files leaves the others files to go on with.
     */
    static final int QUEUE_FILES = 8192;

    /** What a file costs a process beyond its bytes (its round trip), counted as bytes of content. */
    static final int FILE_COST_BYTES = 2048;

    /** What ctags made of the files of one {@link #add}, by file index. */
    public static final class Batch {
        private final SymbolExtractor.Docs docs;
        /** Spool (high 16 bits) and offset (low 48) of a file's tags. */
        private final long[] at;
        /** A file's tag count; -1 when it did not go to ctags (yet: a file taken for its content may). */
        private final int[] count;

        private final int[] bytes;
        private final String[] failure;
        private final AtomicInteger pending = new AtomicInteger(1);

        Batch(SymbolExtractor.Docs docs) {
            int n = docs.count();
            this.docs = docs;
            this.at = new long[n];
            this.count = new int[n];
            this.bytes = new int[n];
            this.failure = new String[n];
            Arrays.fill(count, -1);
        }

        /** One fewer file (or the adder) holds the docs; the last one closes them. */
        private void release() throws IOException {
            if (pending.decrementAndGet() == 0) {
                docs.close();
            }
        }
    }

    /** One shard's docs, in its doc order: where each one was added. */
    public interface ShardDocs {
        int count();

        Batch batch(int doc);

        /** The doc's index in its batch. */
        int file(int doc);
    }

    /** The docs of one batch as a shard's, in the order they were added. */
    static ShardDocs docsOf(Batch batch) {
        return new ShardDocs() {
            @Override
            public int count() {
                return batch.count.length;
            }

            @Override
            public Batch batch(int doc) {
                return batch;
            }

            @Override
            public int file(int doc) {
                return doc;
            }
        };
    }

    /** A file to tag; {@code byName} false: one ctags may know by its content, to be checked once read. */
    private record Item(Batch batch, int file, boolean byName) {}

    /** Tells a worker that no file follows. */
    private static final Item END = new Item(null, -1, false);

    /** A copy of a file for ctags to read from disk: executable, or ctags does not read its {@code #!} line. */
    private static final FileAttribute<Set<PosixFilePermission>> EXECUTABLE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private final SymbolExtractor extractor;
    private final Path scratch;
    private final boolean ownScratch;
    private final Labels labels = new Labels();
    private final ScheduledExecutorService timer;
    private final List<BlockingQueue<Item>> queues = new ArrayList<>();
    private final List<Spill.Writer> spools = new ArrayList<>();
    /** Each process's working directory, where the copies of the files it reads from disk go. */
    private final List<Path> folders = new ArrayList<>();

    private final List<Thread> workers = new ArrayList<>();
    private volatile IOException broken;
    /** Bytes given to each worker so far (with {@link #FILE_COST_BYTES} per file). */
    private final long[] given;

    private boolean finished;

    Extraction(SymbolExtractor extractor, Path scratch, boolean ownScratch) throws IOException {
        this.extractor = extractor;
        this.scratch = scratch;
        this.ownScratch = ownScratch;
        SymbolExtractor.Config config = extractor.config();
        ScheduledThreadPoolExecutor alarms = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "trigrep-ctags-timer");
            t.setDaemon(true);
            return t;
        });
        // Each file sets an alarm and nearly always cancels it: gone at once, not held until due.
        alarms.setRemoveOnCancelPolicy(true);
        this.timer = alarms;
        this.given = new long[config.processes()];
        try {
            for (int w = 0; w < config.processes(); w++) {
                BlockingQueue<Item> queue = new ArrayBlockingQueue<>(QUEUE_FILES);
                Spill.Writer spool = new Spill.Writer(scratch.resolve("tags-" + w));
                spools.add(spool);
                Path folder =
                        Files.createDirectory(scratch.resolve("files-" + w)).toAbsolutePath();
                folders.add(folder);
                queues.add(queue);
                int number = w;
                Thread t = new Thread(() -> work(number, queue, spool, folder), "trigrep-ctags-" + w);
                t.setDaemon(true);
                workers.add(t);
            }
        } catch (IOException e) {
            close();
            throw e;
        }
        for (Thread t : workers) {
            t.start();
        }
    }

    /**
     * Queues {@code docs}' files that ctags has a parser for by name, and those it may know by
     * content ({@link SymbolExtractor#byContent}, decided once read), each to the process given
     * the fewest bytes so far; waits while that process's queue is full. Call from one thread, in
     * an order that depends only on the input.
     */
    public Batch add(SymbolExtractor.Docs docs) throws IOException, InterruptedException {
        if (finished) {
            throw new IllegalStateException("add after finish");
        }
        Batch batch = new Batch(docs);
        try {
            for (int i = 0; i < batch.count.length; i++) {
                if (broken != null) {
                    throw new IOException("symbol extraction failed: " + broken.getMessage(), broken);
                }
                boolean byName = extractor.wants(docs.path(i));
                if (byName) {
                    batch.count[i] = 0;
                }
                batch.pending.incrementAndGet();
                int least = 0;
                for (int w = 1; w < given.length; w++) {
                    if (given[w] < given[least]) {
                        least = w;
                    }
                }
                // A file of an unknown name is nearly always left after its first two bytes.
                given[least] += FILE_COST_BYTES + (byName ? docs.length(i) : 0);
                queues.get(least).put(new Item(batch, i, byName));
            }
        } finally {
            batch.release();
        }
        return batch;
    }

    /** Waits until ctags has had every file added; after this only {@link #write} and {@link #close}. */
    public void finish() throws IOException, InterruptedException {
        if (!finished) {
            finished = true;
            for (BlockingQueue<Item> q : queues) {
                q.put(END);
            }
            for (Thread t : workers) {
                t.join();
            }
            timer.shutdownNow();
            for (Spill.Writer spool : spools) {
                spool.flush();
            }
        }
        if (broken != null) {
            throw new IOException("symbol extraction failed: " + broken.getMessage(), broken);
        }
    }

    private void work(int number, BlockingQueue<Item> queue, Spill.Writer spool, Path folder) {
        SymbolExtractor.Config config = extractor.config();
        byte[] buffer = new byte[1 << 16];
        FoundTags found = new FoundTags(labels);
        long limit = config.perFileLimit().toNanos();
        // Contents go to a sandboxed process when ctags has one (it writes no scratch file per
        // file); files it must read from disk then go to a plain one, started on the first.
        try (Ctags ctags = new Ctags(config.program(), limit, timer, folder, extractor.sandbox());
                Ctags fromDisk =
                        extractor.sandbox() ? new Ctags(config.program(), limit, timer, folder, false) : null) {
            while (true) {
                Item item = queue.take();
                if (item.batch() == null) {
                    return;
                }
                Batch b = item.batch();
                try {
                    if (broken == null) {
                        buffer = tag(
                                ctags, fromDisk != null ? fromDisk : ctags, item, buffer, number, spool, folder, found);
                    }
                } catch (IOException | RuntimeException e) {
                    synchronized (this) {
                        if (broken == null) {
                            broken = e instanceof IOException io ? io : new IOException(e);
                        }
                    }
                } finally {
                    try {
                        b.release();
                    } catch (IOException e) {
                        synchronized (this) {
                            broken = broken != null ? broken : e;
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Tags the item's file, by {@code ctags} from its content or by {@code fromDisk} (may be the
     * same) from a copy, and spills its tags; returns the (maybe grown) buffer.
     */
    private byte[] tag(
            Ctags ctags,
            Ctags fromDisk,
            Item item,
            byte[] buffer,
            int number,
            Spill.Writer spool,
            Path folder,
            FoundTags found)
            throws IOException {
        Batch b = item.batch();
        int i = item.file();
        int length = b.docs.length(i);
        if (!item.byName()) {
            // A file of a name ctags has no parser for is read whole only when its head is "#!".
            b.docs.read(i, buffer, Math.min(2, length));
            if (!SymbolExtractor.byContent(buffer, length)) {
                return buffer;
            }
        }
        if (buffer.length < length) {
            buffer = new byte[Math.max(length, 2 * buffer.length)];
        }
        b.docs.read(i, buffer, length);
        found.clear();
        try {
            if (item.byName()) {
                ctags.tags(b.docs.path(i), buffer, length, found);
            } else {
                b.count[i] = 0;
                tagsOfCopy(fromDisk, folder, b.docs.path(i), buffer, length, found);
            }
        } catch (Ctags.Failure f) {
            b.failure[i] = f.getMessage();
            return buffer;
        }
        long start = spool.position();
        found.spill(spool);
        long bytes = spool.position() - start;
        if (bytes > Integer.MAX_VALUE) {
            throw new IOException(b.docs.path(i) + ": its tags take over " + Integer.MAX_VALUE + " bytes");
        }
        b.at[i] = (long) number << 48 | start;
        b.bytes[i] = (int) bytes;
        b.count[i] = found.count();
        return buffer;
    }

    /**
     * The tags of {@code content[0, length)} written as {@code folder/path}, where ctags reads it (by
     * the same name, which anonymous scopes are named after); the copy is deleted after.
     */
    private static void tagsOfCopy(Ctags ctags, Path folder, String path, byte[] content, int length, Ctags.Sink sink)
            throws Ctags.Failure, IOException {
        Path file;
        try {
            file = folder.resolve(path).normalize();
        } catch (InvalidPathException e) {
            throw new Ctags.Failure("cannot copy the file for ctags: " + e.getMessage());
        }
        if (!file.startsWith(folder) || file.equals(folder)) {
            throw new Ctags.Failure("cannot copy the file for ctags: its path leaves the folder");
        }
        SeekableByteChannel out;
        try {
            Files.createDirectories(file.getParent());
            out = Files.newByteChannel(
                    file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), EXECUTABLE);
        } catch (IOException e) {
            throw new Ctags.Failure("cannot copy the file for ctags: " + e);
        }
        // Created here (CREATE_NEW), so deleted here, whatever ctags made of it.
        try {
            try (out) {
                ByteBuffer bytes = ByteBuffer.wrap(content, 0, length);
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
            } catch (IOException e) {
                throw new Ctags.Failure("cannot copy the file for ctags: " + e);
            }
            ctags.tagsOfFile(folder.relativize(file).toString(), sink);
        } finally {
            Files.delete(file);
        }
    }

    /** Writes the symbols of {@code docs} (every one added before {@link #finish}) to {@code out}. */
    public SymbolExtractor.Result write(ShardDocs docs, Path out) throws IOException {
        return write(docs, out, 1);
    }

    /**
     * {@link #write(ShardDocs, Path)} within one of {@code shares} equal shares of the memory
     * budget, for shards written at once; the calls may run on threads of their own.
     */
    public SymbolExtractor.Result write(ShardDocs docs, Path out, int shares) throws IOException {
        if (shares < 1) {
            throw new IllegalArgumentException("shares must be >= 1, got " + shares);
        }
        if (!finished || broken != null) {
            throw new IllegalStateException("write before a successful finish");
        }
        int n = docs.count();
        int files = 0;
        List<SymbolExtractor.Failure> failures = new ArrayList<>();
        for (int d = 0; d < n; d++) {
            Batch b = docs.batch(d);
            int f = docs.file(d);
            if (b.count[f] >= 0) {
                files++;
            }
            if (b.failure[f] != null) {
                failures.add(new SymbolExtractor.Failure(d, b.failure[f]));
            }
        }
        Spill.Reader[] readers = new Spill.Reader[spools.size()];
        for (int w = 0; w < readers.length; w++) {
            readers[w] = new Spill.Reader(spools.get(w).channel(), 0, 0);
        }
        byte[][] name = {new byte[256]};
        byte[][] scope = {new byte[256]};
        SymbolsWriter.TagSource source = new SymbolsWriter.TagSource() {
            @Override
            public int docs() {
                return n;
            }

            @Override
            public void tags(int doc, SymbolsWriter.TagSink sink) throws IOException {
                Batch b = docs.batch(doc);
                int f = docs.file(doc);
                if (b.count[f] <= 0) {
                    return;
                }
                long at = b.at[f] & ((1L << 48) - 1);
                Spill.Reader in = readers[(int) (b.at[f] >>> 48)].reset(at, at + b.bytes[f]);
                for (int t = 0; t < b.count[f]; t++) {
                    int line = in.readVarint();
                    int kind = in.readVarint();
                    int language = in.readVarint();
                    int nameLength = in.readVarint();
                    if (name[0].length < nameLength) {
                        name[0] = new byte[Math.max(nameLength, 2 * name[0].length)];
                    }
                    in.read(name[0], 0, nameLength);
                    int scopeLength = in.readVarint();
                    if (scope[0].length < scopeLength) {
                        scope[0] = new byte[Math.max(scopeLength, 2 * scope[0].length)];
                    }
                    in.read(scope[0], 0, scopeLength);
                    sink.tag(line, name[0], nameLength, scope[0], scopeLength, kind, language);
                }
            }
        };
        Path temporary = Files.createTempDirectory(scratch, "symbols-");
        SymbolsWriter.Written written;
        try {
            written = SymbolsWriter.write(
                    out,
                    source,
                    labels,
                    temporary,
                    Math.max(1, extractor.config().budgetBytes() / shares));
        } finally {
            FileTrees.delete(temporary);
        }
        return new SymbolExtractor.Result(written.symbols(), files, List.copyOf(failures), written.runs());
    }

    /** Stops the processes and deletes the spools (and the scratch folder when the extraction made it). */
    @Override
    public void close() throws IOException {
        finished = true;
        for (Thread t : workers) {
            t.interrupt();
        }
        for (Thread t : workers) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        timer.shutdownNow();
        // Files still queued (a build that stopped) give their docs back.
        for (BlockingQueue<Item> q : queues) {
            for (Item item = q.poll(); item != null; item = q.poll()) {
                if (item.batch() != null) {
                    item.batch().release();
                }
            }
        }
        for (Spill.Writer spool : spools) {
            spool.close();
            Files.deleteIfExists(spool.path());
        }
        for (Path folder : folders) {
            FileTrees.delete(folder);
        }
        if (ownScratch) {
            FileTrees.delete(scratch);
        }
    }
}
