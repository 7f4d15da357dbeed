package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct LineWindow}: one of a {@link FileResults}' lines, shown cut. */
public final class LineWindow {
    private LineWindow() {}

    static final Layout.Slot LINE = Layout.Slot.data(0, "line", "UInt32", 0, 32);
    static final Layout.Slot START = Layout.Slot.data(1, "start", "UInt32", 32, 32);
    static final Layout.Slot BYTES = Layout.Slot.data(2, "bytes", "UInt32", 64, 32);
    static final Layout.Struct LAYOUT = new Layout.Struct("LineWindow", 16, 0, null, List.of(LINE, START, BYTES));

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

        public Builder setLine(int value) {
            _setIntField(LINE.index(), value);
            return this;
        }

        public Builder setStart(int value) {
            _setIntField(START.index(), value);
            return this;
        }

        public Builder setBytes(int value) {
            _setIntField(BYTES.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        /** Unsigned: the line's index among the message's lines. */
        public int getLine() {
            return _getIntField(LINE.index());
        }

        /** Unsigned: where the shown text begins in the full line. */
        public int getStart() {
            return _getIntField(START.index());
        }

        /** Unsigned: the full line's length in bytes. */
        public int getBytes() {
            return _getIntField(BYTES.index());
        }
    }
}
