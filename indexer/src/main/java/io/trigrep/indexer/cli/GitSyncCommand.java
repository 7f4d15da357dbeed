package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.corpus.GitMirror;
import io.trigrep.indexer.corpus.GitPackage;
import io.trigrep.indexer.corpus.LinkTemplates;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.files.IoMessages;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.PackageKey;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.transport.CredentialsProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./trigrep sync --git FILE}: keeps an index's git repositories in step with a list of
 * remotes. Each remote is mirrored into the cache and fetched; a repository whose branches moved
 * is re-indexed, one whose commits did not change is left as it is, a listed branch deleted upstream
 * is dropped, and a repository the index holds that the list no longer names is removed; all of it
 * as one update. With {@code --every} it keeps running, a round at a time: a process that stays
 * up pays the JVM's start and warm-up once, not once a round, so a push is searchable within a
 * round of a fraction of a second.
 */
@Command(
        name = "sync",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Mirror and fetch each git remote of --git FILE into --git-cache, then apply what changed to the index with"
                    + " one update: repositories whose branches moved are re-indexed, unchanged ones left alone,"
                    + " branches deleted upstream dropped, repositories no longer listed removed. FILE: one remote a"
                    + " line, URL [BRANCH,BRANCH...] [name=NAME] [links=TEMPLATE] [user=USER] [token-file=PATH].",
            "With --every SECONDS it does not exit: a round every SECONDS, FILE read again each round (an edit"
                    + " applies once two rounds in a row read it the same), a failed round reported and the next one"
                    + " run, a first round's code 2 the process's exit code, other rounds' codes printed. Stop it with"
                    + " SIGTERM: a round cut short leaves the index at its last generation."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done (or up to date, or a dry run)",
            "1:done, but some remote could not be fetched or read (its older version stays)",
            "2:bad usage, the list could not be read, or it names no remote while the index holds some (nothing changed)",
            "3:done, but a backend serving the index did not switch to it within --wait-for-backends",
            "4:another sync holds the cache's lock (nothing changed)",
            "143:stopped by SIGTERM (with --every)"
        })
public final class GitSyncCommand implements Callable<Integer> {
    @Mixin
    IndexOption folder;

    @Option(names = "--git", required = true, paramLabel = "FILE", description = "the remotes, one a line")
    Path list;

    @Option(names = "--dry-run", description = "fetch and print the plan; change nothing in the index")
    boolean dryRun;

    @Option(names = "--no-merge", description = "do not merge segments after the update")
    boolean noMerge;

    @Mixin
    GitOptions git;

    @Mixin
    BuildOptions build;

    @Mixin
    BackendsOption backends;

    @Option(
            names = "--every",
            paramLabel = "SECONDS",
            description = "keep running: start a round every SECONDS (at once when a round took longer); 0, the"
                    + " default: one round, then exit")
    long every;

    @Option(
            names = "--git-jobs",
            paramLabel = "N",
            defaultValue = "${env:TRIGREP_GIT_JOBS:-4}",
            description = "remotes fetched at once (env TRIGREP_GIT_JOBS; default ${DEFAULT-VALUE}): a fetch mostly"
                    + " waits on its remote")
    int jobs;

    static final String LOCK = ".sync.lock";

    /** The build options, worked out (and ctags probed) once for all rounds. */
    private IndexBuilder.Options options;

    /** The remotes the last round read, while running rounds: an edit applies once read twice. */
    private List<GitRemotes.Remote> previous;

    /** Time this round spent mirroring and fetching. */
    private long fetchingNanos;

    /** Ends a process running rounds after its current round (tests; a service is stopped by a signal). */
    private final CountDownLatch stopped = new CountDownLatch(1);

    void stop() {
        stopped.countDown();
    }

    @Override
    public Integer call() throws Exception {
        if (every < 0) {
            System.err.println("error: --every must be >= 0, got " + every);
            return 2;
        }
        if (git.timeoutSeconds < 0) {
            System.err.println("error: --git-timeout must be >= 0, got " + git.timeoutSeconds);
            return 2;
        }
        if (jobs < 1) {
            System.err.println("error: --git-jobs must be >= 1, got " + jobs);
            return 2;
        }
        if (every == 0) {
            return round();
        }
        if (dryRun) {
            System.err.println("error: --dry-run prints one round's plan; it does not go with --every");
            return 2;
        }
        long period = TimeUnit.SECONDS.toNanos(every);
        for (int n = 1; ; n++) {
            long started = System.nanoTime();
            fetchingNanos = 0;
            int code;
            try {
                code = round();
            } catch (IOException | RuntimeException e) {
                System.err.println("error: " + GitMirror.redact(IoMessages.describe(e)));
                code = 1;
            }
            long took = System.nanoTime() - started;
            System.err.printf(
                    "sync: round %d took %.3f s (fetching %.3f s), exit code %d%n",
                    n, took / 1e9, fetchingNanos / 1e9, code);
            if (n == 1 && code == 2) {
                return code;
            }
            if (stopped.await(Math.max(0, period - took), TimeUnit.NANOSECONDS)) {
                return 0;
            }
        }
    }

    /** One round: the list read, the remotes fetched, what changed applied; the exit code. */
    private int round() throws Exception {
        PrintStream err = System.err;
        PrintStream out = System.out;
        GitRemotes remotes;
        try {
            remotes = GitRemotes.read(list);
        } catch (IOException e) {
            err.println("error: " + IoMessages.describe(e));
            return 2;
        }
        if (every > 0) {
            // A list caught half-written would remove, or drop branches of, every repository past the cut.
            boolean same = previous == null || previous.equals(remotes.remotes());
            previous = remotes.remotes();
            if (!same) {
                err.println("sync: " + list + " changed since the last round; it applies from the next round that"
                        + " reads it the same");
                return 0;
            }
        }
        if (options == null) {
            options = build.options(IndexFolder.current(folder.index).shards().size(), err);
            if (options == null) {
                return 2;
            }
        }
        Files.createDirectories(git.cache);
        try (FileChannel channel =
                FileChannel.open(git.cache.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = tryLock(channel);
            if (lock == null) {
                err.println("error: another sync holds " + git.cache.resolve(LOCK) + "; nothing changed");
                return 4;
            }
            try {
                return sync(remotes, options, out, err);
            } finally {
                lock.release();
            }
        }
    }

    /** The lock, or null when another process (or this one) holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    private int sync(GitRemotes remotes, IndexBuilder.Options options, PrintStream out, PrintStream err)
            throws Exception {
        Map<String, GitRefs> held = IndexUpdater.repositories(folder.index);
        if (remotes.remotes().isEmpty() && !held.isEmpty()) {
            // Most likely a list emptied by mistake (a failed download, a bad template), not a wish.
            err.println("error: " + list + " names no remote: a sync would remove all " + held.size()
                    + " repositories the index holds; nothing changed (remove them with update --remove)");
            return 2;
        }
        // Packages of other kinds, by key: a remote of the same key would replace one of them.
        Map<String, String> others = new HashMap<>();
        for (Generation.PackageEntry p : IndexFolder.current(folder.index).packages()) {
            if (!held.containsKey(p.name())) {
                others.put(PackageKey.of(p.name()), p.name());
            }
        }
        List<PackageSource> changed = new ArrayList<>();
        Set<String> remove = new TreeSet<>();
        Set<String> listed = new TreeSet<>();
        int failures = 0;
        List<GitRemotes.Remote> fetch = new ArrayList<>();
        for (GitRemotes.Remote remote : remotes.remotes()) {
            if (!others.containsKey(PackageKey.of(remote.name()))) {
                fetch.add(remote);
            }
        }
        Map<String, Future<Path>> mirrors = fetchAll(fetch);
        for (GitRemotes.Remote remote : remotes.remotes()) {
            listed.add(remote.name());
            String shown = GitMirror.redact(remote.url());
            String other = others.get(PackageKey.of(remote.name()));
            if (other != null) {
                failures++;
                err.println("error: " + shown + ": the index holds " + other + ", which is no git repository of this"
                        + " list, under the same name: give the remote another (name=) or remove " + other
                        + " first; left out");
                continue;
            }
            try {
                Path mirror = fetched(mirrors.get(remote.url()));
                List<String> branches = GitPackage.existing(mirror, remote.branches());
                for (String b : remote.branches()) {
                    if (!branches.contains(b)) {
                        err.println("warning: " + shown + ": branch " + b + " is gone upstream: indexed without it");
                    }
                }
                if (!remote.branches().isEmpty() && branches.isEmpty()) {
                    if (held.containsKey(remote.name())) {
                        remove.add(remote.name());
                        out.println("remove     " + remote.name() + "  (no listed branch is left)");
                    }
                    continue;
                }
                String links = remote.links().isEmpty() ? LinkTemplates.forRemote(remote.url()) : remote.links();
                GitPackage p = GitPackage.open(mirror, branches, remote.name(), links);
                GitRefs before = held.get(remote.name());
                if (p.refs().equals(before)) {
                    if (every == 0) {
                        out.println("unchanged  " + remote.name() + "  " + describe(p.refs()));
                    }
                } else {
                    changed.add(p);
                    out.println((before == null ? "add        " : "replace    ") + remote.name() + "  "
                            + describe(p.refs()));
                }
            } catch (IOException | RuntimeException e) {
                failures++;
                String message = GitMirror.redact(String.valueOf(e.getMessage()));
                // A mirror's own messages name the remote already.
                err.println("error: " + (message.startsWith(shown + ": ") ? "" : shown + ": ") + message
                        + "; its indexed version stays");
            }
        }
        for (String name : held.keySet()) {
            if (!listed.contains(name)) {
                remove.add(name);
                out.println("remove     " + name + "  (no longer listed)");
            }
        }
        if (dryRun) {
            err.println("sync: dry run, nothing changed");
            return failures > 0 ? 1 : 0;
        }
        if (changed.isEmpty() && remove.isEmpty()) {
            err.println("sync: up to date");
            return failures > 0 ? 1 : 0;
        }
        IndexUpdater.Result r = new IndexUpdater(options, Clock.systemUTC())
                .update(folder.index, changed, List.copyOf(remove), !noMerge, m -> err.println("error: " + m));
        out.println("generation " + r.fromGeneration() + " -> " + r.toGeneration());
        boolean switched = backends.await(folder.index, r.toGeneration(), out, err);
        return failures + r.errors().size() > 0 ? 1 : switched ? 0 : BackendsOption.BEHIND;
    }

    /**
     * Mirrors each URL of {@code remotes} once (the first remote naming it gives the credentials),
     * {@code --git-jobs} at a time; returns when all are done, each URL's mirror folder or failure.
     */
    private Map<String, Future<Path>> fetchAll(List<GitRemotes.Remote> remotes) throws InterruptedException {
        long started = System.nanoTime();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "trigrep-git-fetch-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            Map<String, Future<Path>> mirrors = new LinkedHashMap<>();
            for (GitRemotes.Remote remote : remotes) {
                mirrors.computeIfAbsent(
                        remote.url(),
                        url -> pool.submit(() -> git.mirror(credentials(remote)).update(url)));
            }
            for (Future<Path> f : mirrors.values()) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    // read by the remote's turn in the list
                }
            }
            return mirrors;
        } finally {
            pool.shutdownNow();
            fetchingNanos += System.nanoTime() - started;
        }
    }

    /** The mirror folder a fetch gave, or its failure as thrown. */
    private static Path fetched(Future<Path> mirror) throws IOException {
        try {
            return mirror.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching", e);
        }
    }

    private static CredentialsProvider credentials(GitRemotes.Remote remote) {
        return remote.tokenFile() != null
                ? GitCredentials.of(remote.user(), null, remote.tokenFile().toString())
                : GitCredentials.fromEnvironment();
    }

    /** {@code main@0123abc, dev@4567def}. */
    private static String describe(GitRefs refs) {
        List<String> parts = new ArrayList<>();
        for (GitRefs.Branch b : refs.branches()) {
            parts.add(b.name() + "@"
                    + b.commit().substring(0, Math.min(12, b.commit().length())));
        }
        return String.join(", ", parts);
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new GitSyncCommand(), args));
    }
}
