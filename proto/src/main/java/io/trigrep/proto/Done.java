package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct Done}: the last message of a search that ran to its end or to a limit. */
public final class Done {
    private Done() {}

    /** Why a search stopped before it had searched every candidate. */
    public enum Truncation {
        NONE,
        MAX_RESULTS,
        DEADLINE,
        _NOT_IN_SCHEMA;

        static final Layout.Enum LAYOUT = new Layout.Enum("Truncation", List.of("none", "maxResults", "deadline"));
    }

    static final Layout.Slot RESULTS = Layout.Slot.data(0, "results", "UInt64", 0, 64);
    static final Layout.Slot FILES_SEARCHED = Layout.Slot.data(1, "filesSearched", "UInt64", 64, 64);
    static final Layout.Slot CANDIDATE_FILES = Layout.Slot.data(2, "candidateFiles", "UInt64", 128, 64);
    static final Layout.Slot TOTAL_FILES = Layout.Slot.data(3, "totalFiles", "UInt64", 192, 64);
    static final Layout.Slot ELAPSED_NANOS = Layout.Slot.data(4, "elapsedNanos", "UInt64", 256, 64);
    static final Layout.Slot TRUNCATION = Layout.Slot.data(5, "truncation", "Truncation", 320, 16);
    static final Layout.Slot FULL_SCAN = Layout.Slot.data(6, "fullScan", "Bool", 336, 1);
    static final Layout.Slot GENERATION = Layout.Slot.data(7, "generation", "UInt64", 384, 64);
    static final Layout.Struct LAYOUT = new Layout.Struct(
            "Done",
            56,
            0,
            null,
            List.of(
                    RESULTS,
                    FILES_SEARCHED,
                    CANDIDATE_FILES,
                    TOTAL_FILES,
                    ELAPSED_NANOS,
                    TRUNCATION,
                    FULL_SCAN,
                    GENERATION));

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

        public Builder setResults(long value) {
            _setLongField(RESULTS.index(), value);
            return this;
        }

        public Builder setFilesSearched(long value) {
            _setLongField(FILES_SEARCHED.index(), value);
            return this;
        }

        public Builder setCandidateFiles(long value) {
            _setLongField(CANDIDATE_FILES.index(), value);
            return this;
        }

        public Builder setTotalFiles(long value) {
            _setLongField(TOTAL_FILES.index(), value);
            return this;
        }

        public Builder setElapsedNanos(long value) {
            _setLongField(ELAPSED_NANOS.index(), value);
            return this;
        }

        public Builder setTruncation(Truncation value) {
            _setShortField(TRUNCATION.index(), (short) Enums.ordinal(value));
            return this;
        }

        public Builder setFullScan(boolean value) {
            _setBooleanField(FULL_SCAN.index(), value);
            return this;
        }

        public Builder setGeneration(long value) {
            _setLongField(GENERATION.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public long getResults() {
            return _getLongField(RESULTS.index());
        }

        public long getFilesSearched() {
            return _getLongField(FILES_SEARCHED.index());
        }

        public long getCandidateFiles() {
            return _getLongField(CANDIDATE_FILES.index());
        }

        public long getTotalFiles() {
            return _getLongField(TOTAL_FILES.index());
        }

        public long getElapsedNanos() {
            return _getLongField(ELAPSED_NANOS.index());
        }

        public Truncation getTruncation() {
            return Enums.of(Truncation.values(), _getShortField(TRUNCATION.index()));
        }

        public boolean getFullScan() {
            return _getBooleanField(FULL_SCAN.index());
        }

        public long getGeneration() {
            return _getLongField(GENERATION.index());
        }
    }
}
