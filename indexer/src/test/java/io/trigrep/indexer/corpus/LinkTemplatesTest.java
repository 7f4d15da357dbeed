package io.trigrep.indexer.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Default link templates from a remote's URL, for the common hosts. */
class LinkTemplatesTest {
    @Test
    void commonHostsInEveryUrlForm() {
        String github = "https://github.com/o/r/blob/{commit}/{path}#L{line}";
        assertThat(LinkTemplates.forRemote("https://github.com/o/r.git")).isEqualTo(github);
        assertThat(LinkTemplates.forRemote("https://github.com/o/r")).isEqualTo(github);
        assertThat(LinkTemplates.forRemote("git@github.com:o/r.git")).isEqualTo(github);
        assertThat(LinkTemplates.forRemote("ssh://git@github.com/o/r.git")).isEqualTo(github);
        assertThat(LinkTemplates.forRemote("https://gitlab.com/g/sub/r.git"))
                .isEqualTo("https://gitlab.com/g/sub/r/-/blob/{commit}/{path}#L{line}");
        assertThat(LinkTemplates.forRemote("https://codeberg.org/o/r"))
                .isEqualTo("https://codeberg.org/o/r/src/commit/{commit}/{path}#L{line}");
    }

    @Test
    void unknownHostsAndNoRemoteHaveNone() {
        assertThat(LinkTemplates.forRemote("https://git.example.org/r.git")).isEmpty();
        assertThat(LinkTemplates.forRemote("/srv/git/r.git")).isEmpty();
        assertThat(LinkTemplates.forRemote(null)).isEmpty();
    }
}
