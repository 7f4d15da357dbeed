package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.List;
import org.capnproto.MessageBuilder;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct FileMatch}: a whole file as a result, with no line of its own. */
public final class FileMatch {
    private FileMatch() {}

    static final Layout.Slot PACKAGE = Layout.Slot.pointer(0, "package", "Text", 0);
    static final Layout.Slot PATH = Layout.Slot.pointer(1, "path", "Text", 1);
    static final Layout.Slot RANKING = Layout.Slot.data(2, "ranking", "Float32", 0, 32);
    static final Layout.Slot BYTES = Layout.Slot.data(3, "bytes", "UInt64", 64, 64);
    static final Layout.Slot LANGUAGE = Layout.Slot.pointer(4, "language", "Text", 2);
    static final Layout.Slot GIT = Layout.Slot.pointer(5, "git", "GitRef", 3);
    static final Layout.Struct LAYOUT =
            new Layout.Struct("FileMatch", 16, 4, null, List.of(PACKAGE, PATH, RANKING, BYTES, LANGUAGE, GIT));

    public static final BindingFactory<Builder, Reader> factory =
            new BindingFactory<>(LAYOUT, Builder::new, Reader::new);

    /**
     * Appends one framed {@code Response{fileMatch}} to {@code out}, in a single segment sized to
     * fit: the frontend's ingest peek reads only single-segment results, and a path of a few
     * kilobytes would overflow the default first segment. Package, path and language are UTF-8,
     * each encoded once by the caller (a file-name query writes one of these per file).
     */
    public static void write(ByteBuf out, byte[] pkg, byte[] path, float ranking, long bytes, byte[] language) {
        write(out, pkg, path, ranking, bytes, language, null);
    }

    /** As above, for a file of a git repository package ({@code git} null for any other). */
    public static void write(
            ByteBuf out, byte[] pkg, byte[] path, float ranking, long bytes, byte[] language, GitRefBytes git) {
        // Root pointer, Response's data word and pointer, FileMatch's two data words and four pointers, the texts.
        int words = 1
                + 2
                + 2
                + 4
                + WordWriter.textWords(pkg.length)
                + WordWriter.textWords(path.length)
                + WordWriter.textWords(language.length)
                + (git == null ? 0 : git.words());
        MessageBuilder message = new MessageBuilder(words);
        Builder file = message.initRoot(Response.factory)
                .initFileMatch()
                .setRanking(ranking)
                .setBytes(bytes);
        file.setText(PACKAGE, pkg);
        file.setText(PATH, path);
        file.setText(LANGUAGE, language);
        if (git != null) {
            GitRef.Builder ref = file.initGit();
            ref.setBranches(git.branchNames());
            ref.setCommit(git.commitString());
            ref.setLinks(git.linksString());
        }
        Framing.write(message, out);
    }

    public static final class Builder extends StructBuilder implements BindingFactory.Viewable<Reader> {
        Builder(SegmentBuilder segment, int data, int pointers, int dataSize, short pointerCount) {
            super(segment, data, pointers, dataSize, pointerCount);
        }

        @Override
        public Reader asReader() {
            return new Reader(segment, data, pointers, dataSize, pointerCount, Integer.MAX_VALUE);
        }

        public Builder setPackage(String value) {
            _setPointerField(Text.factory, PACKAGE.index(), Blobs.text(value));
            return this;
        }

        public Builder setPath(String value) {
            _setPointerField(Text.factory, PATH.index(), Blobs.text(value));
            return this;
        }

        private void setText(Layout.Slot slot, byte[] utf8) {
            Blobs.copy(
                    _initPointerField(Text.factory, slot.index(), utf8.length), ByteBuffer.wrap(utf8), 0, utf8.length);
        }

        public Builder setRanking(float value) {
            _setFloatField(RANKING.index(), value);
            return this;
        }

        public Builder setBytes(long value) {
            _setLongField(BYTES.index(), value);
            return this;
        }

        public GitRef.Builder initGit() {
            return _initPointerField(GitRef.factory, GIT.index(), 0);
        }

        public Builder setLanguage(String value) {
            _setPointerField(Text.factory, LANGUAGE.index(), Blobs.text(value));
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Text.Reader getPackage() {
            return _getPointerField(Text.factory, PACKAGE.index());
        }

        public Text.Reader getPath() {
            return _getPointerField(Text.factory, PATH.index());
        }

        public float getRanking() {
            return _getFloatField(RANKING.index());
        }

        public long getBytes() {
            return _getLongField(BYTES.index());
        }

        public Text.Reader getLanguage() {
            return _getPointerField(Text.factory, LANGUAGE.index());
        }

        /** Whether the file is in a git repository package: then {@link #getGit} names its branches and commit. */
        public boolean hasGit() {
            return !_pointerFieldIsNull(GIT.index());
        }

        public GitRef.Reader getGit() {
            return _getPointerField(GitRef.factory, GIT.index());
        }
    }
}
