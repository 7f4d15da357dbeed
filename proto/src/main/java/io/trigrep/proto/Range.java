package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct Range}: one match as UTF-8 byte offsets into a result's line. */
public final class Range {
    private Range() {}

    static final Layout.Slot START = Layout.Slot.data(0, "start", "UInt32", 0, 32);
    static final Layout.Slot END = Layout.Slot.data(1, "end", "UInt32", 32, 32);
    static final Layout.Struct LAYOUT = new Layout.Struct("Range", 8, 0, null, List.of(START, END));

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

        public Builder setStart(int value) {
            _setIntField(START.index(), value);
            return this;
        }

        public Builder setEnd(int value) {
            _setIntField(END.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        /** Inclusive start, unsigned. */
        public int getStart() {
            return _getIntField(START.index());
        }

        /** Exclusive end, unsigned. */
        public int getEnd() {
            return _getIntField(END.index());
        }
    }
}
