package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct FetchFile}: asks a backend for a file of its shard: whole, a window of lines, or a byte range. */
public final class FetchFile {
    private FetchFile() {}

    static final Layout.Slot PACKAGE = Layout.Slot.pointer(0, "package", "Text", 0);
    static final Layout.Slot PATH = Layout.Slot.pointer(1, "path", "Text", 1);
    static final Layout.Slot FIRST_LINE = Layout.Slot.data(2, "firstLine", "UInt32", 0, 32);
    static final Layout.Slot MAX_LINES = Layout.Slot.data(3, "maxLines", "UInt32", 32, 32);
    static final Layout.Slot MAX_LINE_BYTES = Layout.Slot.data(4, "maxLineBytes", "UInt32", 64, 32);
    static final Layout.Slot BYTE_OFFSET = Layout.Slot.data(5, "byteOffset", "UInt64", 128, 64);
    static final Layout.Slot BYTE_COUNT = Layout.Slot.data(6, "byteCount", "UInt32", 96, 32);
    static final Layout.Slot BRANCH = Layout.Slot.pointer(7, "branch", "Text", 2);
    static final Layout.Struct LAYOUT = new Layout.Struct(
            "FetchFile",
            24,
            3,
            null,
            List.of(PACKAGE, PATH, FIRST_LINE, MAX_LINES, MAX_LINE_BYTES, BYTE_OFFSET, BYTE_COUNT, BRANCH));

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

        /** The branch (or tag) of a git repository package the file is wanted from; empty: any. */
        public Builder setBranch(String value) {
            _setPointerField(Text.factory, BRANCH.index(), Blobs.text(value));
            return this;
        }

        public Builder setFirstLine(int value) {
            _setIntField(FIRST_LINE.index(), value);
            return this;
        }

        public Builder setMaxLines(int value) {
            _setIntField(MAX_LINES.index(), value);
            return this;
        }

        public Builder setMaxLineBytes(int value) {
            _setIntField(MAX_LINE_BYTES.index(), value);
            return this;
        }

        public Builder setByteOffset(long value) {
            _setLongField(BYTE_OFFSET.index(), value);
            return this;
        }

        public Builder setByteCount(int value) {
            _setIntField(BYTE_COUNT.index(), value);
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

        public Text.Reader getBranch() {
            return _getPointerField(Text.factory, BRANCH.index());
        }

        /** Unsigned, 1-based; 0 means 1. */
        public int getFirstLine() {
            return _getIntField(FIRST_LINE.index());
        }

        /** Unsigned; 0 means every line to the end. */
        public int getMaxLines() {
            return _getIntField(MAX_LINES.index());
        }

        /** Unsigned; 0 means lines are not cut. */
        public int getMaxLineBytes() {
            return _getIntField(MAX_LINE_BYTES.index());
        }

        /** Unsigned. */
        public long getByteOffset() {
            return _getLongField(BYTE_OFFSET.index());
        }

        /** Unsigned; 0 means a whole file or a window of lines, not a byte range. */
        public int getByteCount() {
            return _getIntField(BYTE_COUNT.index());
        }
    }
}
