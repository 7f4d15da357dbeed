package io.trigrep.proto;

import java.nio.ByteBuffer;
import java.util.List;
import org.capnproto.PrimitiveList;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructList;
import org.capnproto.StructReader;
import org.capnproto.Text;
import org.capnproto.TextList;

/** Binding for {@code struct Result}: one matching line with its context. */
public final class Result {
    private Result() {}

    static final Layout.Slot PACKAGE = Layout.Slot.pointer(0, "package", "Text", 0);
    static final Layout.Slot PATH = Layout.Slot.pointer(1, "path", "Text", 1);
    static final Layout.Slot LINE = Layout.Slot.data(2, "line", "UInt32", 0, 32);
    static final Layout.Slot BEFORE = Layout.Slot.pointer(3, "before", "List(Text)", 2);
    static final Layout.Slot CONTEXT = Layout.Slot.pointer(4, "context", "Text", 3);
    static final Layout.Slot AFTER = Layout.Slot.pointer(5, "after", "List(Text)", 4);
    static final Layout.Slot RANGES = Layout.Slot.pointer(6, "ranges", "List(Range)", 5);
    static final Layout.Slot RANKING = Layout.Slot.data(7, "ranking", "Float32", 32, 32);
    static final Layout.Slot CONTEXT_START = Layout.Slot.data(8, "contextStart", "UInt32", 64, 32);
    static final Layout.Slot LINE_BYTES = Layout.Slot.data(9, "lineBytes", "UInt32", 96, 32);
    static final Layout.Slot BEFORE_BYTES = Layout.Slot.pointer(10, "beforeBytes", "List(UInt32)", 6);
    static final Layout.Slot AFTER_BYTES = Layout.Slot.pointer(11, "afterBytes", "List(UInt32)", 7);
    static final Layout.Slot SYMBOL = Layout.Slot.pointer(12, "symbol", "Symbol", 8);
    static final Layout.Slot GIT = Layout.Slot.pointer(13, "git", "GitRef", 9);
    static final Layout.Struct LAYOUT = new Layout.Struct(
            "Result",
            16,
            10,
            null,
            List.of(
                    PACKAGE,
                    PATH,
                    LINE,
                    BEFORE,
                    CONTEXT,
                    AFTER,
                    RANGES,
                    RANKING,
                    CONTEXT_START,
                    LINE_BYTES,
                    BEFORE_BYTES,
                    AFTER_BYTES,
                    SYMBOL,
                    GIT));

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

        public Builder setPackage(String value) {
            _setPointerField(Text.factory, PACKAGE.index(), Blobs.text(value));
            return this;
        }

        public Builder setPath(String value) {
            _setPointerField(Text.factory, PATH.index(), Blobs.text(value));
            return this;
        }

        public Builder setLine(int value) {
            _setIntField(LINE.index(), value);
            return this;
        }

        public TextList.Builder initBefore(int count) {
            return _initPointerField(TextList.factory, BEFORE.index(), count);
        }

        public Builder setContext(String value) {
            _setPointerField(Text.factory, CONTEXT.index(), Blobs.text(value));
            return this;
        }

        /** Sets the matching line from raw UTF-8 bytes, without decoding them. */
        public Builder setContext(ByteBuffer source, int offset, int length) {
            Blobs.copy(_initPointerField(Text.factory, CONTEXT.index(), length), source, offset, length);
            return this;
        }

        public TextList.Builder initAfter(int count) {
            return _initPointerField(TextList.factory, AFTER.index(), count);
        }

        public StructList.Builder<Range.Builder> initRanges(int count) {
            return _initPointerField(Range.factory.listFactory(), RANGES.index(), count);
        }

        public GitRef.Builder initGit() {
            return _initPointerField(GitRef.factory, GIT.index(), 0);
        }

        public Builder setRanking(float value) {
            _setFloatField(RANKING.index(), value);
            return this;
        }

        public Builder setContextStart(int value) {
            _setIntField(CONTEXT_START.index(), value);
            return this;
        }

        public Builder setLineBytes(int value) {
            _setIntField(LINE_BYTES.index(), value);
            return this;
        }

        public PrimitiveList.Int.Builder initBeforeBytes(int count) {
            return _initPointerField(PrimitiveList.Int.factory, BEFORE_BYTES.index(), count);
        }

        public PrimitiveList.Int.Builder initAfterBytes(int count) {
            return _initPointerField(PrimitiveList.Int.factory, AFTER_BYTES.index(), count);
        }

        public Symbol.Builder initSymbol() {
            return _initPointerField(Symbol.factory, SYMBOL.index(), 0);
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Text.Reader getPackage() {
            return _getPointerField(Text.factory, PACKAGE.index());
        }

        public Text.Reader getPath() {
            return _getPointerField(Text.factory, PATH.index());
        }

        public int getLine() {
            return _getIntField(LINE.index());
        }

        public TextList.Reader getBefore() {
            return _getPointerField(TextList.factory, BEFORE.index());
        }

        public Text.Reader getContext() {
            return _getPointerField(Text.factory, CONTEXT.index());
        }

        public TextList.Reader getAfter() {
            return _getPointerField(TextList.factory, AFTER.index());
        }

        public StructList.Reader<Range.Reader> getRanges() {
            return _getPointerField(Range.factory.listFactory(), RANGES.index());
        }

        public float getRanking() {
            return _getFloatField(RANKING.index());
        }

        /** Unsigned: where {@code context} starts in the full matching line (0 when not cut at the start). */
        public int getContextStart() {
            return _getIntField(CONTEXT_START.index());
        }

        /** Unsigned: the full matching line's length; 0 from writers that do not cut (then: not cut). */
        public int getLineBytes() {
            return _getIntField(LINE_BYTES.index());
        }

        /** Empty when no line before was cut; else each line's full length (unsigned). */
        public PrimitiveList.Int.Reader getBeforeBytes() {
            return _getPointerField(PrimitiveList.Int.factory, BEFORE_BYTES.index());
        }

        public PrimitiveList.Int.Reader getAfterBytes() {
            return _getPointerField(PrimitiveList.Int.factory, AFTER_BYTES.index());
        }

        /** Whether this is a sym: query's result, which names the definition on its line. */
        public boolean hasSymbol() {
            return !_pointerFieldIsNull(SYMBOL.index());
        }

        public Symbol.Reader getSymbol() {
            return _getPointerField(Symbol.factory, SYMBOL.index());
        }

        /** Whether the file is in a git repository package: then {@link #getGit} names its branches and commit. */
        public boolean hasGit() {
            return !_pointerFieldIsNull(GIT.index());
        }

        public GitRef.Reader getGit() {
            return _getPointerField(GitRef.factory, GIT.index());
        }
    }
}
