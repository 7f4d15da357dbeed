package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct Skipped}: files the indexer left out of a shard for one reason. */
public final class Skipped {
    private Skipped() {}

    static final Layout.Slot REASON = Layout.Slot.pointer(0, "reason", "Text", 0);
    static final Layout.Slot FILES = Layout.Slot.data(1, "files", "UInt64", 0, 64);
    static final Layout.Slot BYTES = Layout.Slot.data(2, "bytes", "UInt64", 64, 64);
    static final Layout.Struct LAYOUT = new Layout.Struct("Skipped", 16, 1, null, List.of(REASON, FILES, BYTES));

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

        public Builder setReason(String value) {
            _setPointerField(Text.factory, REASON.index(), Blobs.text(value));
            return this;
        }

        public Builder setFiles(long value) {
            _setLongField(FILES.index(), value);
            return this;
        }

        public Builder setBytes(long value) {
            _setLongField(BYTES.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Text.Reader getReason() {
            return _getPointerField(Text.factory, REASON.index());
        }

        public long getFiles() {
            return _getLongField(FILES.index());
        }

        public long getBytes() {
            return _getLongField(BYTES.index());
        }
    }
}
