package io.trigrep.indexer.format;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The header and footer every shard file has (see FORMAT.md): 16 bytes of magic, kind and
 * version at the start; 16 bytes of length, CRC32C and end magic at the end.
 */
public final class Envelope {
    private Envelope() {}

    static final int MAGIC = 0x50524754; // "TGRP" little-endian
    static final int END_MAGIC = 0x45524754; // "TGRE"
    static final int VERSION = 1;
    public static final int HEADER = 16;
    public static final int FOOTER = 16;

    static final int KIND_TRIGRAMS = kind("TRIG");
    static final int KIND_DOCS = kind("DOCS");
    static final int KIND_CONTENTS = kind("BLOB");
    public static final int KIND_SYMBOLS = kind("SYMS");
    public static final int KIND_DELETES = kind("DELS");

    private static int kind(String ascii) {
        return ascii.charAt(0) | ascii.charAt(1) << 8 | ascii.charAt(2) << 16 | ascii.charAt(3) << 24;
    }

    static String kindName(int kind) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            char c = (char) (kind >>> (8 * i) & 0xff);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return out.toString();
    }

    /** Checks magic, kind, version and the footer's length against the real file size. */
    public static void check(MappedFile file, int kind) throws CorruptIndexException {
        check(file, kind, VERSION);
    }

    /** As {@link #check(MappedFile, int)} for a kind read in versions 1 to {@code newest}; returns the file's. */
    static int check(MappedFile file, int kind, int newest) throws CorruptIndexException {
        if (file.size() < HEADER + FOOTER) {
            throw new CorruptIndexException(
                    file.path(),
                    0,
                    "file of " + file.size() + " bytes is too short for a header and footer (truncated?)");
        }
        if (file.getInt(0) != MAGIC) {
            throw new CorruptIndexException(
                    file.path(), 0, "not a trigrep shard file (magic 0x" + Integer.toHexString(file.getInt(0)) + ")");
        }
        if (file.getInt(4) != kind) {
            throw new CorruptIndexException(
                    file.path(), 4, "file kind " + kindName(file.getInt(4)) + ", expected " + kindName(kind));
        }
        int version = file.getInt(8);
        if (version < VERSION || version > newest) {
            throw new CorruptIndexException(
                    file.path(),
                    8,
                    "format version " + version + ", this build reads "
                            + (newest == VERSION ? "version " + VERSION : "versions " + VERSION + " to " + newest));
        }
        long footer = file.size() - FOOTER;
        if (file.getInt(footer + 12) != END_MAGIC) {
            throw new CorruptIndexException(
                    file.path(), footer + 12, "footer magic missing (truncated or appended to?)");
        }
        long length = file.getLong(footer);
        if (length != file.size()) {
            throw new CorruptIndexException(
                    file.path(),
                    footer,
                    "footer records " + length + " bytes, file has " + file.size() + " (truncated?)");
        }
        return version;
    }

    /** Recomputes the CRC32C of everything before the footer and compares it with the stored one. */
    public static void verifyChecksum(MappedFile file) throws CorruptIndexException {
        long footer = file.size() - FOOTER;
        CRC32C crc = new CRC32C();
        for (long at = 0; at < footer; ) {
            int n = (int) Math.min(footer - at, MappedFile.DEFAULT_MAX_SPAN);
            ByteBuffer part = file.slice(at, n);
            crc.update(part);
            at += n;
        }
        int stored = file.getInt(footer + 8);
        if ((int) crc.getValue() != stored) {
            throw new CorruptIndexException(
                    file.path(),
                    footer + 8,
                    "checksum mismatch: stored 0x" + Integer.toHexString(stored) + ", computed 0x"
                            + Integer.toHexString((int) crc.getValue()));
        }
    }
}
