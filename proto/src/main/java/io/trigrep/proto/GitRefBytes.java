package io.trigrep.proto;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code GitRef} as a writer puts it on the wire, each text encoded once: a backend builds one
 * per distinct (package, branch set) and hands it to every result of those files.
 */
public final class GitRefBytes {
    private final byte[][] branches;
    private final byte[] commit;
    private final byte[] links;
    private final int words;

    public GitRefBytes(List<String> branches, String commit, String links) {
        this.branches = new byte[branches.size()][];
        for (int i = 0; i < branches.size(); i++) {
            this.branches[i] = branches.get(i).getBytes(StandardCharsets.UTF_8);
        }
        this.commit = commit.getBytes(StandardCharsets.UTF_8);
        this.links = links.getBytes(StandardCharsets.UTF_8);
        this.words = GitRef.words(this.branches, this.commit, this.links);
    }

    /** Words after the GitRef's pointer in its parent. */
    int words() {
        return words;
    }

    void writeTo(WordWriter w) {
        GitRef.write(w, branches, commit, links);
    }

    List<String> branchNames() {
        List<String> out = new ArrayList<>(branches.length);
        for (byte[] b : branches) {
            out.add(new String(b, StandardCharsets.UTF_8));
        }
        return out;
    }

    String commitString() {
        return new String(commit, StandardCharsets.UTF_8);
    }

    String linksString() {
        return new String(links, StandardCharsets.UTF_8);
    }
}
