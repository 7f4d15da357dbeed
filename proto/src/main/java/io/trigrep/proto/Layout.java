package io.trigrep.proto;

import java.util.List;
import org.capnproto.StructSize;

/**
 * Where each field of a struct lives in its encoding. The hand-written bindings read and write
 * through these slots only, and SchemaLayoutTest compares every slot with what {@code capnp
 * compile -ocapnp} prints for trigrep.capnp, so bindings and schema cannot drift apart.
 */
final class Layout {
    private Layout() {}

    static final int NO_UNION = -1;

    /** One field: a range of bits in the data section, or one pointer slot. */
    record Slot(String name, int ordinal, String type, boolean pointer, int bitOffset, int bitWidth, int unionTag) {
        Slot {
            if (!pointer && bitWidth > 0 && bitOffset % bitWidth != 0) {
                throw new IllegalArgumentException(
                        name + ": bit offset " + bitOffset + " is not aligned to width " + bitWidth);
            }
        }

        static Slot data(int ordinal, String name, String type, int bitOffset, int bitWidth) {
            return new Slot(name, ordinal, type, false, bitOffset, bitWidth, NO_UNION);
        }

        static Slot pointer(int ordinal, String name, String type, int index) {
            return new Slot(name, ordinal, type, true, index, 0, NO_UNION);
        }

        Slot inUnion(int tag) {
            return new Slot(name, ordinal, type, pointer, bitOffset, bitWidth, tag);
        }

        /** The index the runtime's {@code _get*Field} accessors take: pointer index, or offset in units of the width. */
        int index() {
            if (pointer) {
                return bitOffset;
            }
            return bitWidth == 1 || bitWidth == 0 ? bitOffset : bitOffset / bitWidth;
        }

        /** The location comment as capnp prints it, e.g. {@code ptr[0]} or {@code bits[32, 64)}. */
        String location() {
            String where =
                    pointer ? "ptr[" + bitOffset + "]" : "bits[" + bitOffset + ", " + (bitOffset + bitWidth) + ")";
            return unionTag == NO_UNION ? where : where + ", union tag = " + unionTag;
        }
    }

    /** A struct: its data section size in bytes, its pointer count, its fields and, if it has one, its union tag. */
    record Struct(String name, int dataBytes, int pointers, Slot unionTag, List<Slot> slots) {
        Struct {
            if (dataBytes % 8 != 0) {
                throw new IllegalArgumentException(
                        name + ": data section must be whole words, got " + dataBytes + " bytes");
            }
            slots = List.copyOf(slots);
        }

        StructSize size() {
            return new StructSize((short) (dataBytes / 8), (short) pointers);
        }
    }

    /** An enum: its enumerant names in ordinal order, as spelled in the schema. */
    @SuppressWarnings("JavaLangClash") // named after the schema's kind, like Struct; always written Layout.Enum outside
    record Enum(String name, List<String> enumerants) {
        Enum {
            enumerants = List.copyOf(enumerants);
        }
    }
}
