package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct Symbol}: the definition a sym: query's result shows. */
public final class Symbol {
    private Symbol() {}

    static final Layout.Slot NAME = Layout.Slot.pointer(0, "name", "Text", 0);
    static final Layout.Slot KIND = Layout.Slot.pointer(1, "kind", "Text", 1);
    static final Layout.Slot SCOPE = Layout.Slot.pointer(2, "scope", "Text", 2);
    static final Layout.Slot LANGUAGE = Layout.Slot.pointer(3, "language", "Text", 3);
    static final Layout.Struct LAYOUT = new Layout.Struct("Symbol", 0, 4, null, List.of(NAME, KIND, SCOPE, LANGUAGE));

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

        public Builder setName(String value) {
            _setPointerField(Text.factory, NAME.index(), Blobs.text(value));
            return this;
        }

        public Builder setKind(String value) {
            _setPointerField(Text.factory, KIND.index(), Blobs.text(value));
            return this;
        }

        public Builder setScope(String value) {
            _setPointerField(Text.factory, SCOPE.index(), Blobs.text(value));
            return this;
        }

        public Builder setLanguage(String value) {
            _setPointerField(Text.factory, LANGUAGE.index(), Blobs.text(value));
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Text.Reader getName() {
            return _getPointerField(Text.factory, NAME.index());
        }

        public Text.Reader getKind() {
            return _getPointerField(Text.factory, KIND.index());
        }

        public Text.Reader getScope() {
            return _getPointerField(Text.factory, SCOPE.index());
        }

        public Text.Reader getLanguage() {
            return _getPointerField(Text.factory, LANGUAGE.index());
        }
    }
}
