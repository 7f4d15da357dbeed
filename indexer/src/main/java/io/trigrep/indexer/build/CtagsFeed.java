package io.trigrep.indexer.build;

import io.trigrep.indexer.symbols.Extraction;
import io.trigrep.indexer.symbols.SymbolExtractor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Hands each spooled part to ctags as soon as it and every part before it are spooled: in package
 * order, then part order, whatever order the workers finish in, so ctags' processes see the same
 * files in the same order in every build of the same input. Runs on a thread of its own, which
 * waits for ctags to end once the last package has been read; {@link #batches} waits for that.
 */
final class CtagsFeed {
    private final Extraction extraction;
    /** Parts spooled but not yet handed over, by (package << 32 | index); null for a part that failed. */
    private final Map<Long, SpooledPart> spooled = new HashMap<>();
    /** Each package's part count once its reader has ended, else -1. */
    private final int[] parts;

    private final IdentityHashMap<SpooledPart, Extraction.Batch> batches = new IdentityHashMap<>();
    private final FutureTask<Void> done = new FutureTask<>(this::run, null);
    private final Thread thread = new Thread(done, "trigrep-ctags-feed");

    CtagsFeed(Extraction extraction, int packages) {
        this.extraction = extraction;
        this.parts = new int[packages];
        Arrays.fill(parts, -1);
        thread.setDaemon(true);
        thread.start();
    }

    /** Part {@code index} of package {@code pkg} is spooled ({@code part} null: it failed). */
    synchronized void spooled(int pkg, int index, SpooledPart part) {
        spooled.put((long) pkg << 32 | index, part);
        notifyAll();
    }

    /** Package {@code pkg}'s reader has ended, having handed over {@code count} parts. */
    synchronized void ended(int pkg, int count) {
        parts[pkg] = count;
        notifyAll();
    }

    private void run() {
        try {
            for (int pkg = 0; pkg < parts.length; pkg++) {
                for (int index = 0; ; index++) {
                    SpooledPart part;
                    long key = (long) pkg << 32 | index;
                    synchronized (this) {
                        while (!spooled.containsKey(key) && parts[pkg] != index) {
                            wait();
                        }
                        if (!spooled.containsKey(key)) {
                            break;
                        }
                        part = spooled.remove(key);
                    }
                    if (part != null && !part.files().isEmpty()) {
                        Extraction.Batch batch = extraction.add(new PartDocs(part));
                        synchronized (this) {
                            batches.put(part, batch);
                        }
                    }
                }
            }
            extraction.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.UncheckedIOException(new InterruptedIOException("interrupted while feeding ctags"));
        }
    }

    /** Waits until ctags has had every part, then answers where each part's tags are. */
    Map<SpooledPart, Extraction.Batch> batches() throws IOException {
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for ctags");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw new IOException("feeding ctags failed: " + cause, cause);
        }
        synchronized (this) {
            return batches;
        }
    }

    /** Stops feeding (a build that failed or was stopped). */
    void stop() {
        thread.interrupt();
    }

    /** A part's files as ctags reads them: from the part's spool, the channel opened on the first read. */
    private static final class PartDocs implements SymbolExtractor.Docs {
        private final SpooledPart part;
        private FileChannel channel;

        PartDocs(SpooledPart part) {
            this.part = part;
        }

        @Override
        public int count() {
            return part.files().size();
        }

        @Override
        public String path(int doc) {
            return part.packageName() + "/" + new String(part.files().get(doc).path(), StandardCharsets.UTF_8);
        }

        @Override
        public int length(int doc) {
            return part.files().get(doc).length();
        }

        @Override
        public void read(int doc, byte[] into, int length) throws IOException {
            FileChannel in = channel();
            ByteBuffer target = ByteBuffer.wrap(into, 0, length);
            long at = part.files().get(doc).offset();
            while (target.hasRemaining()) {
                if (in.read(target, at + target.position()) < 0) {
                    throw new IOException(part.spool() + ": ends inside file " + doc);
                }
            }
        }

        private synchronized FileChannel channel() throws IOException {
            if (channel == null) {
                channel = FileChannel.open(part.spool());
            }
            return channel;
        }

        @Override
        public synchronized void close() throws IOException {
            if (channel != null) {
                channel.close();
                channel = null;
            }
        }
    }
}
