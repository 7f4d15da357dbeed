package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct Progress}: how far a running search has come. */
public final class Progress {
    private Progress() {}

    static final Layout.Slot FILES_SEARCHED = Layout.Slot.data(0, "filesSearched", "UInt64", 0, 64);
    static final Layout.Slot CANDIDATE_FILES = Layout.Slot.data(1, "candidateFiles", "UInt64", 64, 64);
    static final Layout.Slot TOTAL_FILES = Layout.Slot.data(2, "totalFiles", "UInt64", 128, 64);
    static final Layout.Slot RESULTS = Layout.Slot.data(3, "results", "UInt64", 192, 64);
    static final Layout.Struct LAYOUT =
            new Layout.Struct("Progress", 32, 0, null, List.of(FILES_SEARCHED, CANDIDATE_FILES, TOTAL_FILES, RESULTS));

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

        public Builder setResults(long value) {
            _setLongField(RESULTS.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
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

        public long getResults() {
            return _getLongField(RESULTS.index());
        }
    }
}
