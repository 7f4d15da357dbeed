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

/** Binding for {@code struct File}: the answer to a fetchFile request: a whole file, a window of its lines or a byte range. */
public final class File {
    private File() {}

    static final Layout.Slot PACKAGE = Layout.Slot.pointer(0, "package", "Text", 0);
    static final Layout.Slot PATH = Layout.Slot.pointer(1, "path", "Text", 1);
    static final Layout.Slot CONTENT = Layout.Slot.pointer(2, "content", "Data", 2);
    static final Layout.Slot FIRST_LINE = Layout.Slot.data(3, "firstLine", "UInt32", 0, 32);
    static final Layout.Slot TOTAL_LINES = Layout.Slot.data(4, "totalLines", "UInt32", 32, 32);
    static final Layout.Slot TOTAL_BYTES = Layout.Slot.data(5, "totalBytes", "UInt64", 64, 64);
    static final Layout.Slot CUTS = Layout.Slot.pointer(6, "cuts", "List(LineCut)", 3);
    static final Layout.Struct LAYOUT = new Layout.Struct(
            "File", 16, 4, null, List.of(PACKAGE, PATH, CONTENT, FIRST_LINE, TOTAL_LINES, TOTAL_BYTES, CUTS));

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

        public Builder setContent(ByteBuffer source, int offset, int length) {
            Blobs.copy(_initPointerField(Data.factory, CONTENT.index(), length), source, offset, length);
            return this;
        }

        public Builder setContent(byte[] content) {
            return setContent(ByteBuffer.wrap(content), 0, content.length);
        }

        /** Makes room for {@code length} bytes of content, for the caller to fill in place. */
        public org.capnproto.Data.Builder initContent(int length) {
            return _initPointerField(Data.factory, CONTENT.index(), length);
        }

        public Builder setFirstLine(int value) {
            _setIntField(FIRST_LINE.index(), value);
            return this;
        }

        public Builder setTotalLines(int value) {
            _setIntField(TOTAL_LINES.index(), value);
            return this;
        }

        public Builder setTotalBytes(long value) {
            _setLongField(TOTAL_BYTES.index(), value);
            return this;
        }

        public StructList.Builder<LineCut.Builder> initCuts(int count) {
            return _initPointerField(LineCut.factory.listFactory(), CUTS.index(), count);
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

        public Data.Reader getContent() {
            return _getPointerField(Data.factory, CONTENT.index());
        }

        /** Unsigned; 0 for a whole file from an older backend or a byte range. */
        public int getFirstLine() {
            return _getIntField(FIRST_LINE.index());
        }

        /** Unsigned. */
        public int getTotalLines() {
            return _getIntField(TOTAL_LINES.index());
        }

        /** Unsigned. */
        public long getTotalBytes() {
            return _getLongField(TOTAL_BYTES.index());
        }

        public StructList.Reader<LineCut.Reader> getCuts() {
            return _getPointerField(LineCut.factory.listFactory(), CUTS.index());
        }
    }
}
