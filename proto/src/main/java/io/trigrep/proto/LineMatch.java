package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct LineMatch}: one matching line of a {@link FileResults}, with its context. */
public final class LineMatch {
    private LineMatch() {}

    static final Layout.Slot LINE = Layout.Slot.data(0, "line", "UInt32", 0, 32);
    static final Layout.Slot RANKING = Layout.Slot.data(1, "ranking", "Float32", 32, 32);
    static final Layout.Slot RANGES = Layout.Slot.data(2, "ranges", "UInt32", 64, 32);
    static final Layout.Slot BEFORE = Layout.Slot.data(3, "before", "UInt8", 96, 8);
    static final Layout.Slot AFTER = Layout.Slot.data(4, "after", "UInt8", 104, 8);
    static final Layout.Slot SYMBOL = Layout.Slot.pointer(5, "symbol", "Symbol", 0);
    static final Layout.Struct LAYOUT =
            new Layout.Struct("LineMatch", 16, 1, null, List.of(LINE, RANKING, RANGES, BEFORE, AFTER, SYMBOL));

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

        public Builder setLine(int value) {
            _setIntField(LINE.index(), value);
            return this;
        }

        public Builder setRanking(float value) {
            _setFloatField(RANKING.index(), value);
            return this;
        }

        public Builder setRanges(int value) {
            _setIntField(RANGES.index(), value);
            return this;
        }

        public Builder setBefore(int value) {
            _setByteField(BEFORE.index(), (byte) value);
            return this;
        }

        public Builder setAfter(int value) {
            _setByteField(AFTER.index(), (byte) value);
            return this;
        }

        public Symbol.Builder initSymbol() {
            return _initPointerField(Symbol.factory, SYMBOL.index(), 0);
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        /** Unsigned: the matching line's index among the message's lines. */
        public int getLine() {
            return _getIntField(LINE.index());
        }

        public float getRanking() {
            return _getFloatField(RANKING.index());
        }

        /** Unsigned: how many of the message's ranges, in order, are this match's. */
        public int getRanges() {
            return _getIntField(RANGES.index());
        }

        public int getBefore() {
            return Byte.toUnsignedInt(_getByteField(BEFORE.index()));
        }

        public int getAfter() {
            return Byte.toUnsignedInt(_getByteField(AFTER.index()));
        }

        public boolean hasSymbol() {
            return !_pointerFieldIsNull(SYMBOL.index());
        }

        public Symbol.Reader getSymbol() {
            return _getPointerField(Symbol.factory, SYMBOL.index());
        }
    }
}
