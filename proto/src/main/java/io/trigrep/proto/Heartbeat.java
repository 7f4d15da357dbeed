package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct Heartbeat}: a frontend's ping saying who asks and what it has learnt. */
public final class Heartbeat {
    private Heartbeat() {}

    static final Layout.Slot FRONTEND = Layout.Slot.data(0, "frontend", "UInt64", 0, 64);
    static final Layout.Slot KNOWN = Layout.Slot.data(1, "known", "UInt64", 64, 64);
    static final Layout.Struct LAYOUT = new Layout.Struct("Heartbeat", 16, 0, null, List.of(FRONTEND, KNOWN));

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

        public Builder setFrontend(long value) {
            _setLongField(FRONTEND.index(), value);
            return this;
        }

        public Builder setKnown(long value) {
            _setLongField(KNOWN.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public long getFrontend() {
            return _getLongField(FRONTEND.index());
        }

        public long getKnown() {
            return _getLongField(KNOWN.index());
        }
    }
}
