package io.trigrep.proto;

import java.nio.ByteBuffer;
import java.util.List;
import org.capnproto.Data;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructList;
import org.capnproto.StructReader;
import org.capnproto.Text;

/**
 * Binding for {@code struct FileResults}: matching lines of one file with their context, each shown
 * line once. {@link FileResultsWriter} writes them on the backend's hot path; this binding is for
 * reading them and for tests that build hostile ones.
 */
public final class FileResults {
    private FileResults() {}

    static final Layout.Slot PACKAGE = Layout.Slot.pointer(0, "package", "Text", 0);
    static final Layout.Slot PATH = Layout.Slot.pointer(1, "path", "Text", 1);
    static final Layout.Slot LINES = Layout.Slot.pointer(2, "lines", "Data", 2);
    static final Layout.Slot RUNS = Layout.Slot.pointer(3, "runs", "List(LineRun)", 3);
    static final Layout.Slot WINDOWS = Layout.Slot.pointer(4, "windows", "List(LineWindow)", 4);
    static final Layout.Slot MATCHES = Layout.Slot.pointer(5, "matches", "List(LineMatch)", 5);
    static final Layout.Slot RANGES = Layout.Slot.pointer(6, "ranges", "List(Range)", 6);
    static final Layout.Slot GIT = Layout.Slot.pointer(7, "git", "GitRef", 7);
    static final Layout.Struct LAYOUT = new Layout.Struct(
            "FileResults", 0, 8, null, List.of(PACKAGE, PATH, LINES, RUNS, WINDOWS, MATCHES, RANGES, GIT));

    public static final BindingFactory<Builder, Reader> factory =
            new BindingFactory<>(LAYOUT, Builder::new, Reader::new);

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

        /** The shown lines as they go on the wire: each followed by one '\n'. */
        public Builder setLines(byte[] value) {
            Blobs.copy(
                    _initPointerField(Data.factory, LINES.index(), value.length),
                    ByteBuffer.wrap(value),
                    0,
                    value.length);
            return this;
        }

        public StructList.Builder<LineRun.Builder> initRuns(int count) {
            return _initPointerField(LineRun.factory.listFactory(), RUNS.index(), count);
        }

        public StructList.Builder<LineWindow.Builder> initWindows(int count) {
            return _initPointerField(LineWindow.factory.listFactory(), WINDOWS.index(), count);
        }

        public StructList.Builder<LineMatch.Builder> initMatches(int count) {
            return _initPointerField(LineMatch.factory.listFactory(), MATCHES.index(), count);
        }

        public StructList.Builder<Range.Builder> initRanges(int count) {
            return _initPointerField(Range.factory.listFactory(), RANGES.index(), count);
        }

        public GitRef.Builder initGit() {
            return _initPointerField(GitRef.factory, GIT.index(), 0);
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

        /** The shown lines, each followed by one '\n'. */
        public Data.Reader getLines() {
            return _getPointerField(Data.factory, LINES.index());
        }

        public StructList.Reader<LineRun.Reader> getRuns() {
            return _getPointerField(LineRun.factory.listFactory(), RUNS.index());
        }

        public StructList.Reader<LineWindow.Reader> getWindows() {
            return _getPointerField(LineWindow.factory.listFactory(), WINDOWS.index());
        }

        public StructList.Reader<LineMatch.Reader> getMatches() {
            return _getPointerField(LineMatch.factory.listFactory(), MATCHES.index());
        }

        public StructList.Reader<Range.Reader> getRanges() {
            return _getPointerField(Range.factory.listFactory(), RANGES.index());
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
