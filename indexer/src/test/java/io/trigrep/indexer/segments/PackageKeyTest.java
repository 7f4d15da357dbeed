package io.trigrep.indexer.segments;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PackageKeyTest {
    @Test
    void theSourceNameIsWhatComesBeforeTheFirstUnderscoreAndDigit() {
        assertThat(PackageKey.of("zlib_1.2.13.dfsg-1")).isEqualTo("zlib");
        assertThat(PackageKey.of("zlib_1.3.1-1+b1")).isEqualTo("zlib");
        assertThat(PackageKey.of("make-dfsg_4.3-4.1")).isEqualTo("make-dfsg");
        assertThat(PackageKey.of("my_project")).isEqualTo("my_project");
        assertThat(PackageKey.of("my_project_2.0")).isEqualTo("my_project");
        assertThat(PackageKey.of("linux")).isEqualTo("linux");
        assertThat(PackageKey.of("_1")).isEqualTo("_1");
        assertThat(PackageKey.of("trailing_")).isEqualTo("trailing_");
    }
}
