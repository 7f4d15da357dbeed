package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.capnproto.TextList;
import org.junit.jupiter.api.Test;

/** The hand-written writers put a GitRef on Result, FileResults and FileMatch that the bindings read back. */
class GitRefWriterTest {
    private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";
    private static final GitRefBytes GIT = new GitRefBytes(
            List.of("main", "release-1.0"), COMMIT, "https://example.org/{repo}/blob/{commit}/{path}#L{line}");

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> names(TextList.Reader list) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            out.add(list.get(i).toString());
        }
        return out;
    }

    private static void assertGit(GitRef.Reader git) {
        assertThat(names(git.getBranches())).containsExactly("main", "release-1.0");
        assertThat(git.getCommit().toString()).isEqualTo(COMMIT);
        assertThat(git.getLinks().toString()).isEqualTo("https://example.org/{repo}/blob/{commit}/{path}#L{line}");
    }

    @Test
    void aResultCarriesItsBranchesAfterASymbol() throws Exception {
        ByteBuf source = Unpooled.wrappedBuffer(utf8("int x;\nx++;\n"));
        ByteBuf out = Unpooled.buffer();
        try {
            new ResultWriter(1)
                    .start(utf8("zlib"), utf8("a.c"), source, 2, 0.5f, GIT)
                    .symbol(utf8("x"), utf8("variable"), utf8(""), utf8("C"))
                    .before(0, 6)
                    .match(7, 4)
                    .range(0, 1)
                    .writeTo(out);
            Result.Reader r =
                    Messages.response(Framing.read(out, FrameLimits.DEFAULT)).getResult();
            assertThat(r.getPath().toString()).isEqualTo("a.c");
            assertThat(r.getSymbol().getName().toString()).isEqualTo("x");
            assertThat(r.hasGit()).isTrue();
            assertGit(r.getGit());
        } finally {
            out.release();
        }
    }

    @org.junit.jupiter.api.Tag("external") // drives capnp
    @Test
    void bytesEqualWhatCapnpEncodes() throws Exception {
        String text =
                "(result = (package = \"zlib\", path = \"a.c\", line = 2, before = [\"int x;\"], context = \"x++;\","
                        + " after = [], ranges = [(start = 0, end = 1)], ranking = 0.5, lineBytes = 4,"
                        + " symbol = (name = \"x\", kind = \"variable\", scope = \"\", language = \"C\"),"
                        + " git = (branches = [\"main\", \"release-1.0\"], commit = \"" + COMMIT + "\","
                        + " links = \"https://example.org/{repo}/blob/{commit}/{path}#L{line}\")))\n";
        CapnpTool.Output reference = CapnpTool.run(
                text.getBytes(StandardCharsets.UTF_8),
                "encode",
                CapnpTool.SCHEMA.getFileName().toString(),
                "Response");
        assertThat(reference.exit()).as(reference.stderr()).isZero();
        ByteBuf source = Unpooled.wrappedBuffer(utf8("int x;\nx++;\n"));
        ByteBuf out = Unpooled.buffer();
        try {
            new ResultWriter(1)
                    .start(utf8("zlib"), utf8("a.c"), source, 2, 0.5f, GIT)
                    .symbol(utf8("x"), utf8("variable"), utf8(""), utf8("C"))
                    .before(0, 6)
                    .match(7, 4)
                    .range(0, 1)
                    .writeTo(out);
            assertThat(io.netty.buffer.ByteBufUtil.hexDump(out))
                    .isEqualTo(io.netty.buffer.ByteBufUtil.hexDump(reference.stdout()));
        } finally {
            out.release();
        }
    }

    @Test
    void aResultOfAnotherPackageHasNone() throws Exception {
        ByteBuf source = Unpooled.wrappedBuffer(utf8("x\n"));
        ByteBuf out = Unpooled.buffer();
        try {
            new ResultWriter(0)
                    .start(utf8("p"), utf8("a"), source, 1, 1f)
                    .match(0, 1)
                    .range(0, 1)
                    .writeTo(out);
            Result.Reader r =
                    Messages.response(Framing.read(out, FrameLimits.DEFAULT)).getResult();
            assertThat(r.hasGit()).isFalse();
        } finally {
            out.release();
        }
    }

    @Test
    void fileResultsAndFileMatchesCarryThemToo() throws Exception {
        ByteBuf source = Unpooled.wrappedBuffer(utf8("int x;\nx++;\n"));
        ByteBuf out = Unpooled.buffer();
        try {
            FileResultsWriter w = new FileResultsWriter(1);
            w.file(utf8("zlib"), utf8("a.c"), source, GIT);
            w.start(2, 0.5f).before(0, 6).match(7, 4).range(0, 1);
            w.add(out);
            w.writeTo(out);
            byte[] frame = io.netty.buffer.ByteBufUtil.getBytes(out);
            assertThat(new ResultPeek().peek(java.nio.ByteBuffer.wrap(frame).order(java.nio.ByteOrder.LITTLE_ENDIAN)))
                    .as("the frontend's ingest peek takes it")
                    .isTrue();
            FileResults.Reader file =
                    Messages.response(Framing.read(out, FrameLimits.DEFAULT)).getFileResults();
            assertThat(file.getMatches().size()).isEqualTo(1);
            assertGit(file.getGit());
        } finally {
            out.release();
        }
        ByteBuf match = Unpooled.buffer();
        try {
            FileMatch.write(match, utf8("zlib"), utf8("a.c"), 1f, 12, utf8("c"), GIT);
            FileMatch.Reader m =
                    Messages.response(Framing.read(match, FrameLimits.DEFAULT)).getFileMatch();
            assertThat(m.getLanguage().toString()).isEqualTo("c");
            assertGit(m.getGit());
        } finally {
            match.release();
        }
    }
}
