package io.trigrep.proto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.capnproto.Data;
import org.capnproto.Text;

/** Copies between blob fields and plain Java values. */
final class Blobs {
    private Blobs() {}

    static Text.Reader text(String value) {
        return new Text.Reader(value == null ? "" : value);
    }

    /** Copies {@code length} bytes of {@code source} from {@code offset} into an initialised text field. */
    static void copy(Text.Builder target, ByteBuffer source, int offset, int length) {
        target.buffer.put(target.offset, source, offset, length);
    }

    static void copy(Data.Builder target, ByteBuffer source, int offset, int length) {
        target.buffer.put(target.offset, source, offset, length);
    }

    static byte[] bytes(Data.Reader data) {
        byte[] out = new byte[data.size];
        data.buffer.get(data.offset, out, 0, data.size);
        return out;
    }

    static String string(Text.Reader text) {
        byte[] out = new byte[text.size];
        text.buffer.get(text.offset, out, 0, text.size);
        return new String(out, StandardCharsets.UTF_8);
    }
}
