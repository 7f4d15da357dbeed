package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct LineCut}: a line of a file window that was cut, with its full length. */
public final class LineCut {
    private LineCut() {}

    static final Layout.Slot LINE = Layout.Slot.data(0, "line", "UInt32", 0, 32);
    static final Layout.Slot BYTES = Layout.Slot.data(1, "bytes", "UInt32", 32, 32);
    static final Layout.Struct LAYOUT = new Layout.Struct("LineCut", 8, 0, null, List.of(LINE, BYTES));

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

        public Builder setBytes(int value) {
            _setIntField(BYTES.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        /** Unsigned, 1-based. */
        public int getLine() {
            return _getIntField(LINE.index());
        }

        /** Unsigned: the line's full length in bytes, without its newline. */
        public int getBytes() {
            return _getIntField(BYTES.index());
        }
    }
}
