package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct Response}: every message a backend sends, one union member each. */
public final class Response {
    private Response() {}

    public enum Which {
        RESULT,
        PROGRESS,
        DONE,
        ERROR,
        FILE,
        STATUS,
        FILE_MATCH,
        FILE_RESULTS,
        _NOT_IN_SCHEMA;

        /**
         * Whether a message of this kind holds results of a search: a matching line, a file's
         * matching lines, or a file as a match of its own.
         */
        public boolean isResult() {
            return this == RESULT || this == FILE_MATCH || this == FILE_RESULTS;
        }
    }

    static final Layout.Slot TAG = Layout.Slot.data(-1, "(union)", "UInt16", 0, 16);
    static final Layout.Slot RESULT =
            Layout.Slot.pointer(0, "result", "Result", 0).inUnion(0);
    static final Layout.Slot PROGRESS =
            Layout.Slot.pointer(1, "progress", "Progress", 0).inUnion(1);
    static final Layout.Slot DONE = Layout.Slot.pointer(2, "done", "Done", 0).inUnion(2);
    static final Layout.Slot ERROR =
            Layout.Slot.pointer(3, "error", "Failure", 0).inUnion(3);
    static final Layout.Slot FILE = Layout.Slot.pointer(4, "file", "File", 0).inUnion(4);
    static final Layout.Slot STATUS =
            Layout.Slot.pointer(5, "status", "Status", 0).inUnion(5);
    static final Layout.Slot FILE_MATCH =
            Layout.Slot.pointer(6, "fileMatch", "FileMatch", 0).inUnion(6);
    static final Layout.Slot FILE_RESULTS =
            Layout.Slot.pointer(7, "fileResults", "FileResults", 0).inUnion(7);
    static final Layout.Struct LAYOUT = new Layout.Struct(
            "Response", 8, 1, TAG, List.of(RESULT, PROGRESS, DONE, ERROR, FILE, STATUS, FILE_MATCH, FILE_RESULTS));

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

        public Result.Builder initResult() {
            _setShortField(TAG.index(), (short) RESULT.unionTag());
            return _initPointerField(Result.factory, RESULT.index(), 0);
        }

        public Progress.Builder initProgress() {
            _setShortField(TAG.index(), (short) PROGRESS.unionTag());
            return _initPointerField(Progress.factory, PROGRESS.index(), 0);
        }

        public Done.Builder initDone() {
            _setShortField(TAG.index(), (short) DONE.unionTag());
            return _initPointerField(Done.factory, DONE.index(), 0);
        }

        public Failure.Builder initError() {
            _setShortField(TAG.index(), (short) ERROR.unionTag());
            return _initPointerField(Failure.factory, ERROR.index(), 0);
        }

        public File.Builder initFile() {
            _setShortField(TAG.index(), (short) FILE.unionTag());
            return _initPointerField(File.factory, FILE.index(), 0);
        }

        public Status.Builder initStatus() {
            _setShortField(TAG.index(), (short) STATUS.unionTag());
            return _initPointerField(Status.factory, STATUS.index(), 0);
        }

        public FileMatch.Builder initFileMatch() {
            _setShortField(TAG.index(), (short) FILE_MATCH.unionTag());
            return _initPointerField(FileMatch.factory, FILE_MATCH.index(), 0);
        }

        public FileResults.Builder initFileResults() {
            _setShortField(TAG.index(), (short) FILE_RESULTS.unionTag());
            return _initPointerField(FileResults.factory, FILE_RESULTS.index(), 0);
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Which which() {
            return Enums.of(Which.values(), _getShortField(TAG.index()));
        }

        public Result.Reader getResult() {
            expect(Which.RESULT);
            return _getPointerField(Result.factory, RESULT.index());
        }

        public Progress.Reader getProgress() {
            expect(Which.PROGRESS);
            return _getPointerField(Progress.factory, PROGRESS.index());
        }

        public Done.Reader getDone() {
            expect(Which.DONE);
            return _getPointerField(Done.factory, DONE.index());
        }

        public Failure.Reader getError() {
            expect(Which.ERROR);
            return _getPointerField(Failure.factory, ERROR.index());
        }

        public File.Reader getFile() {
            expect(Which.FILE);
            return _getPointerField(File.factory, FILE.index());
        }

        public Status.Reader getStatus() {
            expect(Which.STATUS);
            return _getPointerField(Status.factory, STATUS.index());
        }

        public FileMatch.Reader getFileMatch() {
            expect(Which.FILE_MATCH);
            return _getPointerField(FileMatch.factory, FILE_MATCH.index());
        }

        public FileResults.Reader getFileResults() {
            expect(Which.FILE_RESULTS);
            return _getPointerField(FileResults.factory, FILE_RESULTS.index());
        }

        private void expect(Which member) {
            Which actual = which();
            if (actual != member) {
                throw new IllegalStateException("Response holds " + actual + ", not " + member);
            }
        }
    }
}
