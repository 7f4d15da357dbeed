package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct LineRun}: consecutive lines of a file among a {@link FileResults}' lines. */
public final class LineRun {
    private LineRun() {}

    static final Layout.Slot FIRST = Layout.Slot.data(0, "first", "UInt32", 0, 32);
    static final Layout.Slot COUNT = Layout.Slot.data(1, "count", "UInt32", 32, 32);
    static final Layout.Struct LAYOUT = new Layout.Struct("LineRun", 8, 0, null, List.of(FIRST, COUNT));

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

        public Builder setFirst(int value) {
            _setIntField(FIRST.index(), value);
            return this;
        }

        public Builder setCount(int value) {
            _setIntField(COUNT.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        /** Unsigned: the 1-based number of the run's first line. */
        public int getFirst() {
            return _getIntField(FIRST.index());
        }

        /** Unsigned: lines in the run. */
        public int getCount() {
            return _getIntField(COUNT.index());
        }
    }
}
