package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructList;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct SearchRequest}: one parsed query and the limits it runs under. */
public final class SearchRequest {
    private SearchRequest() {}

    static final Layout.Slot QUERY = Layout.Slot.pointer(0, "query", "Text", 0);
    static final Layout.Slot PATTERN = Layout.Slot.pointer(1, "pattern", "Text", 1);
    static final Layout.Slot LITERAL = Layout.Slot.data(2, "literal", "Bool", 0, 1);
    static final Layout.Slot CASE_INSENSITIVE = Layout.Slot.data(3, "caseInsensitive", "Bool", 1, 1);
    static final Layout.Slot FILTERS = Layout.Slot.pointer(4, "filters", "List(Filter)", 2);
    static final Layout.Slot MAX_RESULTS = Layout.Slot.data(5, "maxResults", "UInt32", 32, 32);
    static final Layout.Slot DEADLINE_MILLIS = Layout.Slot.data(6, "deadlineMillis", "UInt32", 64, 32);
    static final Layout.Slot CONTEXT_LINES = Layout.Slot.data(7, "contextLines", "UInt8", 8, 8);
    static final Layout.Slot FILE_RESULTS = Layout.Slot.data(8, "fileResults", "Bool", 2, 1);
    static final Layout.Struct LAYOUT = new Layout.Struct(
            "SearchRequest",
            16,
            3,
            null,
            List.of(
                    QUERY,
                    PATTERN,
                    LITERAL,
                    CASE_INSENSITIVE,
                    FILTERS,
                    MAX_RESULTS,
                    DEADLINE_MILLIS,
                    CONTEXT_LINES,
                    FILE_RESULTS));

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

        public Builder setQuery(String value) {
            _setPointerField(Text.factory, QUERY.index(), Blobs.text(value));
            return this;
        }

        public Builder setPattern(String value) {
            _setPointerField(Text.factory, PATTERN.index(), Blobs.text(value));
            return this;
        }

        public Builder setLiteral(boolean value) {
            _setBooleanField(LITERAL.index(), value);
            return this;
        }

        public Builder setCaseInsensitive(boolean value) {
            _setBooleanField(CASE_INSENSITIVE.index(), value);
            return this;
        }

        public StructList.Builder<Filter.Builder> initFilters(int count) {
            return _initPointerField(Filter.factory.listFactory(), FILTERS.index(), count);
        }

        public Builder setMaxResults(int value) {
            _setIntField(MAX_RESULTS.index(), value);
            return this;
        }

        public Builder setDeadlineMillis(int value) {
            _setIntField(DEADLINE_MILLIS.index(), value);
            return this;
        }

        public Builder setContextLines(int value) {
            if (value < 0 || value > 255) {
                throw new IllegalArgumentException("contextLines must be in [0, 255], got " + value);
            }
            _setByteField(CONTEXT_LINES.index(), (byte) value);
            return this;
        }

        /** Asks for matching lines as {@link FileResults}, each shown line once, instead of one {@link Result} per line. */
        public Builder setFileResults(boolean value) {
            _setBooleanField(FILE_RESULTS.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Text.Reader getQuery() {
            return _getPointerField(Text.factory, QUERY.index());
        }

        public Text.Reader getPattern() {
            return _getPointerField(Text.factory, PATTERN.index());
        }

        public boolean getLiteral() {
            return _getBooleanField(LITERAL.index());
        }

        public boolean getCaseInsensitive() {
            return _getBooleanField(CASE_INSENSITIVE.index());
        }

        public StructList.Reader<Filter.Reader> getFilters() {
            return _getPointerField(Filter.factory.listFactory(), FILTERS.index());
        }

        /** Unsigned; 0 means the backend's own cap. */
        public int getMaxResults() {
            return _getIntField(MAX_RESULTS.index());
        }

        /** Unsigned; 0 means the backend's default. */
        public int getDeadlineMillis() {
            return _getIntField(DEADLINE_MILLIS.index());
        }

        public int getContextLines() {
            return Byte.toUnsignedInt(_getByteField(CONTEXT_LINES.index()));
        }

        /** Whether the frontend reads {@link FileResults}; older frontends leave it false and get Results. */
        public boolean getFileResults() {
            return _getBooleanField(FILE_RESULTS.index());
        }
    }
}
