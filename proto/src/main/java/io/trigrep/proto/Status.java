package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructList;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct Status}: a backend's answer to ping, for readiness checks. */
public final class Status {
    private Status() {}

    static final Layout.Slot SHARD = Layout.Slot.pointer(0, "shard", "Text", 0);
    static final Layout.Slot FILES = Layout.Slot.data(1, "files", "UInt64", 0, 64);
    static final Layout.Slot BYTES = Layout.Slot.data(2, "bytes", "UInt64", 64, 64);
    static final Layout.Slot QUERIES_IN_FLIGHT = Layout.Slot.data(3, "queriesInFlight", "UInt32", 128, 32);
    static final Layout.Slot FORMAT_VERSION = Layout.Slot.data(4, "formatVersion", "UInt32", 160, 32);
    static final Layout.Slot SKIPPED = Layout.Slot.pointer(5, "skipped", "List(Skipped)", 1);
    static final Layout.Slot GENERATION = Layout.Slot.data(6, "generation", "UInt64", 192, 64);
    static final Layout.Slot SEGMENTS = Layout.Slot.data(7, "segments", "UInt32", 256, 32);
    static final Layout.Slot DELETED_FILES = Layout.Slot.data(8, "deletedFiles", "UInt64", 320, 64);
    static final Layout.Struct LAYOUT = new Layout.Struct(
            "Status",
            48,
            2,
            null,
            List.of(
                    SHARD,
                    FILES,
                    BYTES,
                    QUERIES_IN_FLIGHT,
                    FORMAT_VERSION,
                    SKIPPED,
                    GENERATION,
                    SEGMENTS,
                    DELETED_FILES));

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

        public Builder setShard(String value) {
            _setPointerField(Text.factory, SHARD.index(), Blobs.text(value));
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

        public Builder setQueriesInFlight(int value) {
            _setIntField(QUERIES_IN_FLIGHT.index(), value);
            return this;
        }

        public Builder setFormatVersion(int value) {
            _setIntField(FORMAT_VERSION.index(), value);
            return this;
        }

        public Builder setGeneration(long value) {
            _setLongField(GENERATION.index(), value);
            return this;
        }

        public Builder setSegments(int value) {
            _setIntField(SEGMENTS.index(), value);
            return this;
        }

        public Builder setDeletedFiles(long value) {
            _setLongField(DELETED_FILES.index(), value);
            return this;
        }

        public StructList.Builder<Skipped.Builder> initSkipped(int count) {
            return _initPointerField(Skipped.factory.listFactory(), SKIPPED.index(), count);
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Text.Reader getShard() {
            return _getPointerField(Text.factory, SHARD.index());
        }

        public long getFiles() {
            return _getLongField(FILES.index());
        }

        public long getBytes() {
            return _getLongField(BYTES.index());
        }

        public int getQueriesInFlight() {
            return _getIntField(QUERIES_IN_FLIGHT.index());
        }

        public int getFormatVersion() {
            return _getIntField(FORMAT_VERSION.index());
        }

        public long getGeneration() {
            return _getLongField(GENERATION.index());
        }

        public int getSegments() {
            return _getIntField(SEGMENTS.index());
        }

        public long getDeletedFiles() {
            return _getLongField(DELETED_FILES.index());
        }

        public StructList.Reader<Skipped.Reader> getSkipped() {
            return _getPointerField(Skipped.factory.listFactory(), SKIPPED.index());
        }
    }
}
