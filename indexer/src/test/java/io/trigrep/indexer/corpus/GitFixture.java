package io.trigrep.indexer.corpus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * A real bare git repository built in a test with JGit: commits from maps of path to entry, branches
 * moved, forced and deleted as a push would. Entries are files ({@link #file}), symbolic links
 * ({@link #link}) and submodule entries ({@link #submodule}).
 */
public final class GitFixture implements AutoCloseable {
    /** One tree entry: its mode and content (a link's target; a submodule's commit id as hex). */
    public record Entry(FileMode mode, byte[] content) {}

    private final Repository repo;
    private long time = 1_700_000_000L;

    private GitFixture(Repository repo) {
        this.repo = repo;
    }

    public static GitFixture bare(Path folder) throws IOException {
        Repository repo = new FileRepositoryBuilder().setGitDir(folder.toFile()).build();
        repo.create(true);
        return new GitFixture(repo);
    }

    public static Entry file(String text) {
        return new Entry(FileMode.REGULAR_FILE, text.getBytes(StandardCharsets.UTF_8));
    }

    public static Entry bytes(byte[] content) {
        return new Entry(FileMode.REGULAR_FILE, content);
    }

    public static Entry link(String target) {
        return new Entry(FileMode.SYMLINK, target.getBytes(StandardCharsets.UTF_8));
    }

    public static Entry submodule(String commit) {
        return new Entry(FileMode.GITLINK, commit.getBytes(StandardCharsets.US_ASCII));
    }

    public Path folder() {
        return repo.getDirectory().toPath();
    }

    /** Commits {@code tree} on top of {@code branch} (a new branch starts with no parent) and moves the branch. */
    public String commit(String branch, Map<String, Entry> tree) throws IOException {
        ObjectId parent = repo.resolve(Constants.R_HEADS + branch);
        return commitOn(branch, tree, parent == null ? List.of() : List.of(parent), false);
    }

    /** A commit with no parent that replaces {@code branch}: a force-push rewriting its history. */
    public String forcePush(String branch, Map<String, Entry> tree) throws IOException {
        return commitOn(branch, tree, List.of(), true);
    }

    public void deleteBranch(String branch) throws IOException {
        RefUpdate update = repo.updateRef(Constants.R_HEADS + branch);
        update.setForceUpdate(true);
        RefUpdate.Result r = update.delete();
        if (r != RefUpdate.Result.FORCED) {
            throw new IOException("cannot delete " + branch + ": " + r);
        }
    }

    /** Sets the remote {@code origin}'s URL, as a clone records where it came from. */
    public void origin(String url) throws IOException {
        org.eclipse.jgit.lib.StoredConfig config = repo.getConfig();
        config.setString("remote", "origin", "url", url);
        config.save();
    }

    /** The commit {@code branch} is at. */
    public String head(String branch) throws IOException {
        ObjectId id = repo.resolve(Constants.R_HEADS + branch);
        if (id == null) {
            throw new IOException("no branch " + branch);
        }
        return id.name();
    }

    /** Points HEAD at {@code branch}, as a clone's default branch. */
    public void headAt(String branch) throws IOException {
        repo.updateRef(Constants.HEAD).link(Constants.R_HEADS + branch);
    }

    private String commitOn(String branch, Map<String, Entry> tree, List<ObjectId> parents, boolean force)
            throws IOException {
        try (ObjectInserter inserter = repo.newObjectInserter()) {
            ObjectId treeId = tree(inserter, new TreeMap<>(tree), "");
            CommitBuilder commit = new CommitBuilder();
            PersonIdent who = new PersonIdent("t", "t@example.org", time++ * 1000, 0);
            commit.setAuthor(who);
            commit.setCommitter(who);
            commit.setMessage("commit " + time);
            commit.setTreeId(treeId);
            commit.setParentIds(parents);
            ObjectId id = inserter.insert(commit);
            inserter.flush();
            RefUpdate update = repo.updateRef(Constants.R_HEADS + branch);
            update.setNewObjectId(id);
            update.setForceUpdate(force);
            RefUpdate.Result r = update.update();
            if (r != RefUpdate.Result.NEW && r != RefUpdate.Result.FAST_FORWARD && r != RefUpdate.Result.FORCED) {
                throw new IOException("cannot move " + branch + ": " + r);
            }
            return id.name();
        }
    }

    /** The tree of the entries under {@code prefix}, sub-trees first written. */
    private static ObjectId tree(ObjectInserter inserter, TreeMap<String, Entry> entries, String prefix)
            throws IOException {
        TreeMap<String, Object> children = new TreeMap<>(GitFixture::gitOrder);
        Map<String, TreeMap<String, Entry>> folders = new TreeMap<>();
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                continue;
            }
            String rest = e.getKey().substring(prefix.length());
            int slash = rest.indexOf('/');
            if (slash < 0) {
                children.put(rest, e.getValue());
            } else {
                folders.computeIfAbsent(rest.substring(0, slash), x -> new TreeMap<>())
                        .put(e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<String, TreeMap<String, Entry>> f : folders.entrySet()) {
            children.put(f.getKey() + "/", tree(inserter, f.getValue(), prefix + f.getKey() + "/"));
        }
        TreeFormatter out = new TreeFormatter();
        for (Map.Entry<String, Object> c : children.entrySet()) {
            if (c.getValue() instanceof ObjectId sub) {
                byte[] name = nameBytes(c.getKey().substring(0, c.getKey().length() - 1));
                out.append(name, 0, name.length, FileMode.TREE, sub);
            } else {
                Entry e = (Entry) c.getValue();
                ObjectId id = e.mode() == FileMode.GITLINK
                        ? ObjectId.fromString(new String(e.content(), StandardCharsets.US_ASCII))
                        : inserter.insert(Constants.OBJ_BLOB, e.content());
                byte[] name = nameBytes(c.getKey());
                out.append(name, 0, name.length, e.mode(), id);
            }
        }
        return inserter.insert(out);
    }

    /** Git sorts a tree's entries by name bytes, a sub-tree's name as if it ended in '/'. */
    private static int gitOrder(String a, String b) {
        return java.util.Arrays.compareUnsigned(nameBytes(a), nameBytes(b));
    }

    /**
     * A name's bytes in a tree: UTF-8, except that a lone surrogate U+DC80..U+DCFF stands for the
     * byte 0x80..0xFF itself (as Python's "surrogateescape" has it), for names that are not UTF-8.
     */
    static byte[] nameBytes(String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 0xDC80 && c <= 0xDCFF) {
                out.write(c - 0xDC00);
            } else {
                int end = i + (Character.isHighSurrogate(c) ? 2 : 1);
                out.writeBytes(name.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end - 1;
            }
        }
        return out.toByteArray();
    }

    /** Every file of {@code commit}'s tree, path to bytes (links and submodules left out): the brute-force truth. */
    public Map<String, byte[]> files(String commit) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (org.eclipse.jgit.treewalk.TreeWalk walk = new org.eclipse.jgit.treewalk.TreeWalk(repo)) {
            walk.addTree(repo.parseCommit(ObjectId.fromString(commit)).getTree());
            walk.setRecursive(true);
            while (walk.next()) {
                FileMode mode = walk.getFileMode(0);
                if (mode == FileMode.REGULAR_FILE || mode == FileMode.EXECUTABLE_FILE) {
                    out.put(walk.getPathString(), repo.open(walk.getObjectId(0)).getBytes());
                }
            }
        }
        return out;
    }

    public List<String> branches() throws IOException {
        List<String> out = new ArrayList<>();
        for (var ref : repo.getRefDatabase().getRefsByPrefix(Constants.R_HEADS)) {
            out.add(ref.getName().substring(Constants.R_HEADS.length()));
        }
        return out;
    }

    @Override
    public void close() {
        repo.close();
    }
}
