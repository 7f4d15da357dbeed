package io.trigrep.proto;

/** Maps schema enums to Java enums whose last constant is {@code _NOT_IN_SCHEMA}, as capnpc-java does. */
final class Enums {
    private Enums() {}

    /** The enum for a wire value; a value this schema does not know (a newer peer's) is {@code _NOT_IN_SCHEMA}. */
    static <E extends Enum<E>> E of(E[] values, short wire) {
        int ordinal = Short.toUnsignedInt(wire);
        return ordinal < values.length - 1 ? values[ordinal] : values[values.length - 1];
    }

    @SuppressWarnings(
            "EnumOrdinal") // Cap'n Proto writes an enum as its index in the schema, which these enums list in order
    static int ordinal(Enum<?> value) {
        if (value.name().equals("_NOT_IN_SCHEMA")) {
            throw new IllegalArgumentException("_NOT_IN_SCHEMA cannot be written");
        }
        return value.ordinal();
    }
}
