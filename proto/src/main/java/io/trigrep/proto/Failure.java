package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct Failure}: why a request could not be answered (the {@code error} message). */
public final class Failure {
    private Failure() {}

    public enum Code {
        INTERNAL,
        BAD_REQUEST,
        BAD_QUERY,
        OVERLOADED,
        NOT_FOUND,
        _NOT_IN_SCHEMA;

        static final Layout.Enum LAYOUT =
                new Layout.Enum("Code", List.of("internal", "badRequest", "badQuery", "overloaded", "notFound"));
    }

    static final Layout.Slot CODE = Layout.Slot.data(0, "code", "Code", 0, 16);
    static final Layout.Slot MESSAGE = Layout.Slot.pointer(1, "message", "Text", 0);
    static final Layout.Slot POSITION = Layout.Slot.data(2, "position", "UInt32", 32, 32);
    static final Layout.Struct LAYOUT = new Layout.Struct("Failure", 8, 1, null, List.of(CODE, MESSAGE, POSITION));

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

        public Builder setCode(Code value) {
            _setShortField(CODE.index(), (short) Enums.ordinal(value));
            return this;
        }

        public Builder setMessage(String value) {
            _setPointerField(Text.factory, MESSAGE.index(), Blobs.text(value));
            return this;
        }

        /** 1-based character position in the query; 0 when none applies. */
        public Builder setPosition(int value) {
            _setIntField(POSITION.index(), value);
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Code getCode() {
            return Enums.of(Code.values(), _getShortField(CODE.index()));
        }

        public Text.Reader getMessage() {
            return _getPointerField(Text.factory, MESSAGE.index());
        }

        public int getPosition() {
            return _getIntField(POSITION.index());
        }
    }
}
