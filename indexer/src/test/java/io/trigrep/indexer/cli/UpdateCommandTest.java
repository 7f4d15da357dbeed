package io.trigrep.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code update}, {@code merge} and {@code segments} as an operator runs them: outputs and exit codes. */
@Tag("integration") // the index command, with ctags when it is installed
class UpdateCommandTest {
    @TempDir
    Path dir;

    private static IndexCommandTest.Run run(Object command, String... args) {
        return IndexCommandTest.runCommand(command, args);
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void anOperatorAddsReplacesRemovesMergesAndSeesIt() throws Exception {
        Path index = dir.resolve("index");
        Path first = dir.resolve("first");
        write(first.resolve("alpha_1.0/a.c"), "int alpha_one;\n");
        write(first.resolve("beta_1.0/b.c"), "int beta_one;\n");
        write(first.resolve("gamma_1.0/g.c"), "int gamma_one;\n");
        IndexCommandTest.build(index, first, "--shards", "2");
        IndexCommandTest.Run listed = run(new SegmentsCommand(), "--index", index.toString(), "--packages");
        assertThat(listed.out()).isEqualTo("alpha_1.0\nbeta_1.0\ngamma_1.0\n");

        Path next = dir.resolve("next");
        write(next.resolve("alpha_2.0/a.c"), "int alpha_two;\n");
        write(next.resolve("delta_1.0/d.c"), "int delta_one;\n");
        IndexCommandTest.Run update = run(
                new UpdateCommand(),
                "--index",
                index.toString(),
                "--no-symbols",
                "--add",
                next.toString(),
                "--remove",
                "beta");
        assertThat(update.exit()).as(update.err()).isZero();
        assertThat(update.out())
                .contains("added      2  alpha_2.0 delta_1.0")
                .contains("replaced   1  alpha_1.0")
                .contains("removed    1  beta_1.0");
        assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                        .out())
                .isEqualTo("alpha_2.0\ndelta_1.0\ngamma_1.0\n");
        IndexCommandTest.Run table = run(new SegmentsCommand(), "--index", index.toString());
        assertThat(table.out()).contains("3 packages, symbols no").containsPattern("shard-0 +\\d+ +\\d+ +\\d+");

        assertThat(run(new MergeCommand(), "--index", index.toString(), "--tiered", "--rebalance")
                        .exit())
                .as("--tiered and --rebalance exclude each other")
                .isEqualTo(2);
        IndexCommandTest.Run merge = run(new MergeCommand(), "--index", index.toString(), "--no-symbols");
        assertThat(merge.exit()).as(merge.err()).isZero();
        assertThat(merge.out()).contains("merged");
        assertThat(run(new SegmentsCommand(), "--index", index.toString()).out())
                .doesNotContainPattern("seg-\\d+ +\\d+ +[1-9]");
        IndexCommandTest.Run again = run(new MergeCommand(), "--index", index.toString(), "--no-symbols");
        assertThat(again.out()).startsWith("nothing to merge");

        // Two versions of one package in one update: refused, nothing changed.
        Path twice = dir.resolve("twice");
        write(twice.resolve("gamma_2.0/g.c"), "int gamma_two;\n");
        write(twice.resolve("gamma_3.0/g.c"), "int gamma_three;\n");
        IndexCommandTest.Run refused =
                run(new UpdateCommand(), "--index", index.toString(), "--no-symbols", "--add", twice.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("two inputs for package gamma");
        assertThat(run(new UpdateCommand(), "--index", index.toString()).exit())
                .as("nothing to do")
                .isEqualTo(2);
    }

    @Test
    void aRemovalOfAPackageTheIndexDoesNotHoldFailsAndChangesNothing() throws Exception {
        Path index = dir.resolve("index");
        Path first = dir.resolve("first");
        write(first.resolve("alpha_1.0/a.c"), "int alpha_one;\n");
        write(first.resolve("beta_1.0/b.c"), "int beta_one;\n");
        IndexCommandTest.build(index, first);
        String before = run(new SegmentsCommand(), "--index", index.toString()).out();
        IndexCommandTest.Run refused =
                run(new UpdateCommand(), "--index", index.toString(), "--no-symbols", "--remove", "beta", "nothere_3");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("nothere");
        assertThat(run(new SegmentsCommand(), "--index", index.toString()).out())
                .as("beta stays: nothing was changed")
                .isEqualTo(before);

        // A full name removes that version only: another version of a held package is unknown.
        for (String other : List.of("beta_9.9", "beta_1")) {
            IndexCommandTest.Run wrongVersion =
                    run(new UpdateCommand(), "--index", index.toString(), "--no-symbols", "--remove", other);
            assertThat(wrongVersion.exit()).as(other).isEqualTo(2);
            assertThat(wrongVersion.err()).contains(other);
        }
        // A package removed and added in one update is replaced: the removal, then the addition.
        Path next = dir.resolve("next");
        write(next.resolve("beta_2.0/b.c"), "int beta_two;\n");
        IndexCommandTest.Run both = run(
                new UpdateCommand(),
                "--index",
                index.toString(),
                "--no-symbols",
                "--add",
                next.resolve("beta_2.0").toString(),
                "--remove",
                "beta_1.0");
        assertThat(both.exit()).as(both.err()).isZero();
        assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                        .out())
                .isEqualTo("alpha_1.0\nbeta_2.0\n");
        IndexCommandTest.Run exact =
                run(new UpdateCommand(), "--index", index.toString(), "--no-symbols", "--remove", "beta_2.0");
        assertThat(exact.exit()).as(exact.err()).isZero();
        assertThat(exact.out()).contains("removed    1  beta_2.0");
    }

    /** A removal takes every version of a source name: naming one of several is refused, not widened. */
    @Test
    void aRemovalByFullNameOfOneOfSeveralVersionsIsRefused() throws Exception {
        Path index = dir.resolve("index");
        write(dir.resolve("two/beta_1.0/b.c"), "int beta_one;\n");
        write(dir.resolve("two/beta_2.0/b.c"), "int beta_two;\n");
        IndexCommandTest.build(index, dir.resolve("two"));
        IndexCommandTest.Run one =
                run(new UpdateCommand(), "--index", index.toString(), "--no-symbols", "--remove", "beta_1.0");
        assertThat(one.exit()).isEqualTo(2);
        assertThat(one.err()).contains("2 versions of beta (beta_1.0 beta_2.0)");
        assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                        .out())
                .isEqualTo("beta_1.0\nbeta_2.0\n");
        IndexCommandTest.Run all =
                run(new UpdateCommand(), "--index", index.toString(), "--no-symbols", "--remove", "beta");
        assertThat(all.exit()).as(all.err()).isZero();
        assertThat(all.out()).contains("removed    2  beta_1.0 beta_2.0");
    }

    /** A merge writes new checksums over what it reads: a segment whose bytes fail its own is refused, not laundered. */
    @Test
    void aMergeRefusesACorruptSegment() throws Exception {
        Path index = dir.resolve("index");
        write(dir.resolve("first/alpha_1.0/a.c"), "int alpha_one_line_of_some_length;\n");
        IndexCommandTest.build(index, dir.resolve("first"));
        write(dir.resolve("next/beta_1.0/b.c"), "int beta_one;\n");
        assertThat(run(
                                new UpdateCommand(),
                                "--index",
                                index.toString(),
                                "--no-symbols",
                                "--no-merge",
                                "--add",
                                dir.resolve("next").toString())
                        .exit())
                .isZero();
        Path contents = index.resolve("shard-0/contents.tgc");
        byte[] bytes = Files.readAllBytes(contents);
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("alpha_one_line");
        assertThat(at).isPositive();
        bytes[at] ^= 0x20;
        Files.write(contents, bytes);
        String before = run(new SegmentsCommand(), "--index", index.toString()).out();

        IndexCommandTest.Run merge = run(new MergeCommand(), "--index", index.toString(), "--no-symbols");
        assertThat(merge.exit()).isNotZero();
        assertThat(merge.err()).contains(contents.toString());
        assertThat(run(new SegmentsCommand(), "--index", index.toString()).out())
                .as("nothing was changed")
                .isEqualTo(before);
    }

    @Test
    void aFolderThatIsOnePackageIsAddedAsOne() throws Exception {
        Path index = dir.resolve("index");
        Path first = dir.resolve("first");
        write(first.resolve("alpha_1.0/a.c"), "int alpha_one;\n");
        IndexCommandTest.build(index, first);
        Path lua = dir.resolve("lua5.4_5.4.4-3");
        write(lua.resolve("debian/control"), "Source: lua5.4\n");
        write(lua.resolve("doc/readme.html"), "<p>lua</p>\n");
        write(lua.resolve("src/lua.c"), "int main(void);\n");
        IndexCommandTest.Run update =
                run(new UpdateCommand(), "--index", index.toString(), "--no-symbols", "--add", lua + "/");
        assertThat(update.exit()).as(update.err()).isZero();
        assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                        .out())
                .isEqualTo("alpha_1.0\nlua5.4_5.4.4-3\n");
    }
}
