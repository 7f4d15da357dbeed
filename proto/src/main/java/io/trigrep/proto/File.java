package io.trigrep.proto;

import java.nio.ByteBuffer;
import java.util.List;
import org.capnproto.Data;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;
import org.capnproto.Text;

/** Binding for {@code struct File}: one whole file, the answer to a fetchFile request. */
public final class File {
    private File() {}

    static final Layout.Slot PACKAGE = Layout.Slot.pointer(0, "package", "Text", 0);
    static final Layout.Slot PATH = Layout.Slot.pointer(1, "path", "Text", 1);
    static final Layout.Slot CONTENT = Layout.Slot.pointer(2, "content", "Data", 2);
    static final Layout.Struct LAYOUT = new Layout.Struct("File", 0, 3, null, List.of(PACKAGE, PATH, CONTENT));

    public static final BindingFactory<Builder, Reader> factory = new BindingFactory<>(LAYOUT, Builder::new, Reader::new);

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

        public Builder setContent(ByteBuffer source, int offset, int length) {
            Blobs.copy(_initPointerField(Data.factory, CONTENT.index(), length), source, offset, length);
            return this;
        }

        public Builder setContent(byte[] content) {
            return setContent(ByteBuffer.wrap(content), 0, content.length);
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

        public Data.Reader getContent() {
            return _getPointerField(Data.factory, CONTENT.index());
        }
    }
}
