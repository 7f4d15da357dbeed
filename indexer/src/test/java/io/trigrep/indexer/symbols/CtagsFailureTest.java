package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file ctags hangs on, crashes on or answers with an error costs that file its symbols, never
 * the build, and the files after it still get theirs. The ctags here is a small Python stand-in
 * speaking the interactive protocol, which misbehaves on command.
 */
@Tag("external") // drives python3
class CtagsFailureTest {
    private static final String FAKE = """
            #!/usr/bin/env python3
            import json, sys, time, os
            if '--version' in sys.argv: print('Universal Ctags 0.0.0 (stand-in)'); sys.exit(0)
            if '--list-features' in sys.argv: print('interactive  accepts commands on stdin'); sys.exit(0)
            if '--list-maps' in sys.argv: print('C        *.c\\nMake     Makefile *.mk'); sys.exit(0)
            out = sys.stdout
            out.write(json.dumps({"_type": "program", "name": "Universal Ctags"}) + "\\n"); out.flush()
            stdin = sys.stdin.buffer
            seen = 0
            while True:
                line = stdin.readline()
                if not line: break
                command = json.loads(line)
                if "size" in command: content = stdin.read(command["size"]).decode()
                else: content = open(command["filename"]).read()
                seen += 1
                if "HANG" in content: time.sleep(60)
                if "CRASH" in content: os._exit(3)
                if "WARN" in content:
                    out.write(json.dumps({"_type": "error", "message": "ignoring null tag", "fatal": False}) + "\\n")
                if "FATAL" in content:
                    out.write(json.dumps({"_type": "error", "message": "cannot parse", "fatal": True}) + "\\n"); out.flush(); sys.exit(1)
                else:
                    for number, text in enumerate(content.splitlines(), 1):
                        if text:
                            out.write(json.dumps({"_type": "tag", "name": text, "line": number, "kind": "function",
                                                  "language": "C",
                                                  "scope": str(seen) if "STATEFUL" in content else command["filename"]}) + "\\n")
                out.write(json.dumps({"_type": "completed", "command": "generate-tags"}) + "\\n"); out.flush()
            """;

    record Doc(String path, String content) {}

    /** An extractor running the stand-in, written to {@code dir}. */
    private static SymbolExtractor fake(Path dir, int processes, Duration perFileLimit) throws IOException {
        Path program = dir.resolve("ctags");
        Files.writeString(program, FAKE.stripIndent());
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwx------"));
        return SymbolExtractor.start(new SymbolExtractor.Config(program.toString(), processes, perFileLimit));
    }

    static final class ListDocs implements SymbolExtractor.Docs {
        private final List<Doc> docs;

        ListDocs(List<Doc> docs) {
            this.docs = docs;
        }

        @Override
        public int count() {
            return docs.size();
        }

        @Override
        public String path(int doc) {
            return docs.get(doc).path();
        }

        @Override
        public int length(int doc) {
            return docs.get(doc).content().getBytes(StandardCharsets.UTF_8).length;
        }

        @Override
        public void read(int doc, byte[] into, int length) {
            byte[] b = docs.get(doc).content().getBytes(StandardCharsets.UTF_8);
            System.arraycopy(b, 0, into, 0, length);
        }
    }

    @Test
    void hangsCrashesAndErrorsCostOnlyTheirFile(@TempDir Path dir) throws Exception {
        SymbolExtractor extractor = fake(dir, 2, Duration.ofMillis(1500));
        List<Doc> docs = List.of(
                new Doc("p/a.c", "alpha\n\nbeta"),
                new Doc("p/hang.c", "HANG"),
                new Doc("p/README", "not for ctags"),
                new Doc("p/crash.c", "CRASH"),
                new Doc("p/err.c", "FATAL"),
                new Doc("p/warn.c", "WARN"),
                new Doc("p/sub/Makefile", "all"),
                new Doc("p/z.c", "zeta\nWARN"));
        Path out = dir.resolve("symbols.tgs");
        long start = System.nanoTime();
        SymbolExtractor.Result result = extractor.extract(new ListDocs(docs), out);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));

        assertThat(result.files()).isEqualTo(7);
        assertThat(result.failures()).extracting(SymbolExtractor.Failure::doc).containsExactly(1, 3, 4);
        assertThat(result.failures().get(0).reason()).isEqualTo("ctags took over 1500 ms (killed)");
        assertThat(result.failures().get(1).reason()).isEqualTo("ctags exited with status 3 on this file");
        assertThat(result.failures().get(2).reason()).isEqualTo("ctags: cannot parse");

        Symbols symbols = Symbols.openFile(out);
        // a warning costs nothing: a.c 2 tags, warn.c 1, Makefile 1, z.c 2
        assertThat(symbols.symbolCount()).isEqualTo(result.symbols()).isEqualTo(6);
        assertThat(symbols.definitionLines(0)).containsExactly(1, 3);
        assertThat(symbols.scope(0)).isEqualTo("p/a.c");
        assertThat(symbols.endOfDoc(1) - symbols.firstOfDoc(1)).isZero();
        assertThat(symbols.name(symbols.nameId(symbols.firstOfDoc(5)))).isEqualTo("WARN");
        assertThat(symbols.name(symbols.nameId(symbols.firstOfDoc(6)))).isEqualTo("all");
        assertThat(symbols.definitionLines(7)).containsExactly(1, 2);
    }

    /**
     * A file ctags reads from disk (a script known by its {@code #!} line) is bound and reported as
     * one sent over the pipe, under its own name; its copy is gone once it is tagged.
     */
    @Test
    void aScriptReadFromDiskFailsAndSucceedsAsAFileSent(@TempDir Path dir) throws Exception {
        SymbolExtractor extractor = fake(dir, 2, Duration.ofMillis(1500));
        List<Doc> docs = List.of(
                new Doc("p/bin/run", "#!/bin/sh\nHANG"),
                new Doc("p/NOTES", "HANG"),
                new Doc("p/bin/tool", "#!/bin/sh\nalpha"),
                new Doc("p/bin/boom", "#!/bin/sh\nCRASH"),
                new Doc("p/a.c", "beta"));
        Path scratch = Files.createDirectory(dir.resolve("scratch"));
        SymbolExtractor.Result result;
        try (Extraction extraction = extractor.begin(scratch)) {
            Extraction.Batch batch = extraction.add(new ListDocs(docs));
            extraction.finish();
            try (var left = Files.walk(scratch)) {
                assertThat(left.filter(Files::isRegularFile)
                                .map(f -> f.getFileName().toString()))
                        .as("only the spools are left")
                        .allMatch(name -> name.startsWith("tags-"));
            }
            result = extraction.write(Extraction.docsOf(batch), dir.resolve("symbols.tgs"));
        }
        try (var left = Files.list(scratch)) {
            assertThat(left).isEmpty();
        }

        assertThat(result.files()).as("all but the notes").isEqualTo(4);
        assertThat(result.failures()).extracting(SymbolExtractor.Failure::doc).containsExactly(0, 3);
        assertThat(result.failures().get(0).reason()).isEqualTo("ctags took over 1500 ms (killed)");
        assertThat(result.failures().get(1).reason()).isEqualTo("ctags exited with status 3 on this file");
        Symbols symbols = Symbols.openFile(dir.resolve("symbols.tgs"));
        assertThat(symbols.definitionLines(2)).containsExactly(1, 2);
        assertThat(symbols.scope(symbols.firstOfDoc(2)))
                .as("the name ctags was given")
                .isEqualTo("p/bin/tool");
        assertThat(symbols.definitionLines(4)).containsExactly(1);
    }

    /** Like ctags' TeX parser, the stand-in lets one file's scope depend on the files its process saw before. */
    @Test
    void twoRunsOverTheSameDocsWriteTheSameBytes(@TempDir Path dir) throws Exception {
        SymbolExtractor extractor = fake(dir, 3, Duration.ofSeconds(20));
        List<Doc> docs = new java.util.ArrayList<>();
        for (int i = 0; i < 60; i++) {
            docs.add(new Doc("p/f" + i + ".c", "STATEFUL\n" + "x\n".repeat(i % 7 == 0 ? 2000 : 1)));
        }
        Path first = dir.resolve("first.tgs");
        Path second = dir.resolve("second.tgs");
        extractor.extract(new ListDocs(docs), first);
        extractor.extract(new ListDocs(docs), second);
        assertThat(Files.readAllBytes(second)).isEqualTo(Files.readAllBytes(first));
        assertThat(Symbols.openFile(first).scope(Symbols.openFile(first).firstOfDoc(3)))
                .as("doc 3 is process 0's second file")
                .isEqualTo("2");
    }

    @Test
    void aMissingOrForeignCtagsIsRefusedWithTheReason(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> SymbolExtractor.start(
                        new SymbolExtractor.Config(dir.resolve("none").toString(), 1, Duration.ofSeconds(1))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("ctags not found")
                .hasMessageContaining("install universal-ctags");
        Path exuberant = dir.resolve("ctags");
        Files.writeString(exuberant, "#!/bin/sh\necho 'Exuberant Ctags 5.8'\n");
        Files.setPosixFilePermissions(exuberant, PosixFilePermissions.fromString("rwx------"));
        assertThatThrownBy(() -> SymbolExtractor.start(
                        new SymbolExtractor.Config(exuberant.toString(), 1, Duration.ofSeconds(1))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("is not universal-ctags (Exuberant Ctags 5.8)");
    }
}
