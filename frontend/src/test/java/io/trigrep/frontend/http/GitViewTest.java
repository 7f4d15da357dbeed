package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The code host link a repository's template makes. */
class GitViewTest {
    private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

    @Test
    void aTemplateIsFilledWithThePathEncodedSegmentBySegment() {
        GitView git =
                new GitView(List.of("feature/x", "main"), COMMIT, "https://host/{repo}/blob/{commit}/{path}#L{line}");
        assertThat(git.url("proj", "src/a b/é.c", 12))
                .isEqualTo("https://host/proj/blob/" + COMMIT + "/src/a%20b/%C3%A9.c#L12");
        assertThat(new GitView(List.of("feature/x"), COMMIT, "https://host/{repo}/tree/{branch}/{path}")
                        .url("p", "a", 1))
                .isEqualTo("https://host/p/tree/feature%2Fx/a");
    }

    @Test
    void aWholeFileLeavesTheLineFragmentOut() {
        GitView git = new GitView(List.of("main"), COMMIT, "https://host/{repo}/blob/{commit}/{path}#L{line}");
        assertThat(git.url("proj", "a.c", 0)).isEqualTo("https://host/proj/blob/" + COMMIT + "/a.c");
    }

    @Test
    void onlyWebLinksAreMade() {
        assertThat(new GitView(List.of("main"), COMMIT, "javascript:alert(1)//{path}").url("p", "a", 1))
                .isEmpty();
        assertThat(new GitView(List.of("main"), COMMIT, "").url("p", "a", 1)).isEmpty();
    }
}
