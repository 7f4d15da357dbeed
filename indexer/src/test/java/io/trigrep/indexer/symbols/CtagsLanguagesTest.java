package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class CtagsLanguagesTest {
    @Test
    void extensionsNamesAndGlobsAsCtagsListsThem() {
        CtagsLanguages languages = new CtagsLanguages(List.of(
                "C        *.c",
                "Asm      *.A51 *.29[kK] *.[68][68][kKsSxX] *.asm",
                "Make     [Mm]akefile GNUmakefile *.mak",
                "Kconfig  Kconfig*",
                "Ant      build.xml *.build.xml",
                "Unknown "));
        assertThat(languages.knows("zutil.c")).isTrue();
        assertThat(languages.knows("zutil.C"))
                .as("maps are case-sensitive, as ctags' on Linux")
                .isFalse();
        assertThat(languages.knows("boot.68k")).isTrue();
        assertThat(languages.knows("GNUmakefile")).isTrue();
        assertThat(languages.knows("makefile")).isTrue();
        assertThat(languages.knows("Kconfig.debug")).isTrue();
        assertThat(languages.knows("x.build.xml")).isTrue();
        assertThat(languages.knows("README")).isFalse();
        assertThat(languages.knows("c")).isFalse();
        assertThat(languages.knows("archive.tar.gz")).isFalse();
    }

    @Test
    void aTemplateIsKnownByItsNameWithoutOneTrailingIn() {
        CtagsLanguages languages = new CtagsLanguages(List.of("C *.c *.h", "Make [Mm]akefile *.mak"));
        assertThat(languages.knows("zconf.h.in")).isTrue();
        assertThat(languages.knows("Makefile.in")).isTrue();
        assertThat(languages.knows("config.h.in.in"))
                .as("one suffix only, as ctags")
                .isFalse();
        assertThat(languages.knows("notes.in")).isFalse();
        assertThat(languages.knows(".in")).isFalse();
        assertThat(languages.knows("zconf.h.tmpl")).isFalse();
    }

    @Test
    void aFileUnknownByNameIsTakenForAHashBangOpeningItsFirstLine() {
        byte[] script = "#!/bin/sh\n".getBytes(StandardCharsets.UTF_8);
        assertThat(SymbolExtractor.byContent(script, script.length)).isTrue();
        assertThat(SymbolExtractor.byContent(script, 2)).isTrue();
        assertThat(SymbolExtractor.byContent(script, 1))
                .as("only the bytes given")
                .isFalse();
        byte[] indented = " #!/bin/sh\n".getBytes(StandardCharsets.UTF_8);
        assertThat(SymbolExtractor.byContent(indented, indented.length)).isFalse();
        byte[] comment = "# -*- mode: python -*-\n".getBytes(StandardCharsets.UTF_8);
        assertThat(SymbolExtractor.byContent(comment, comment.length))
                .as("ctags reads modelines only when told to guess eagerly")
                .isFalse();
        assertThat(SymbolExtractor.byContent(new byte[0], 0)).isFalse();
    }

    @Test
    @Tag("external") // drives ctags
    void realCtagsKnowsSourcesButNotDependencyFiles() throws Exception {
        SymbolExtractor extractor =
                SymbolExtractor.start(new SymbolExtractor.Config("ctags", 1, Duration.ofSeconds(5)));
        assertThat(extractor.wants("zlib/src/inflate.c")).isTrue();
        assertThat(extractor.wants("pkg/Makefile.am")).isTrue();
        assertThat(extractor.wants("pkg/tools/build.py")).isTrue();
        assertThat(extractor.wants("binutils/gas/testsuite/gas/arm/mve-vpt.d")).isFalse();
        assertThat(extractor.wants("pkg/README")).isFalse();
        assertThat(extractor.wants("zlib/zconf.h.in")).isTrue();
        assertThat(extractor.wants("pkg/config.h.in")).isTrue();
    }
}
