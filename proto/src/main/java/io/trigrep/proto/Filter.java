package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct Filter}: one {@code package:}, {@code path:} or {@code filetype:} term, maybe negated. */
public final class Filter {
    private Filter() {}

    public enum Kind {
        PACKAGE,
        PATH,
        FILETYPE,
        BRANCH,
        _NOT_IN_SCHEMA;

        static final Layout.Enum LAYOUT = new Layout.Enum("Kind", List.of("package", "path", "filetype", "branch"));
    }

    static final Layout.Slot KIND = Layout.Slot.data(0, "kind", "Kind", 0, 16);
    static final Layout.Slot NEGATED = Layout.Slot.data(1, "negated", "Bool", 16, 1);
    static final Layout.Slot VALUE = Layout.Slot.pointer(2, "value", "Text", 0);
    static final Layout.Struct LAYOUT = new Layout.Struct("Filter", 8, 1, null, List.of(KIND, NEGATED, VALUE));

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

        public Builder setKind(Kind value) {
            _setShortField(KIND.index(), (short) Enums.ordinal(value));
            return this;
        }

        public Builder setNegated(boolean value) {
            _setBooleanField(NEGATED.index(), value);
            return this;
        }

        public Builder setValue(String value) {
            _setPointerField(Text.factory, VALUE.index(), Blobs.text(value));
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Kind getKind() {
            return Enums.of(Kind.values(), _getShortField(KIND.index()));
        }

        public boolean getNegated() {
            return _getBooleanField(NEGATED.index());
        }

        public Text.Reader getValue() {
            return _getPointerField(Text.factory, VALUE.index());
        }
    }
}
