package io.trigrep.indexer.format;

import java.lang.reflect.Field;
import java.nio.MappedByteBuffer;

/**
 * Releases a file mapping now rather than when the collector happens to find its buffer
 * unreachable. A mapping's touched pages count in the process's resident memory until it is
 * released, so a build that maps one shard's spools after another would hold them all at once,
 * and a server that swaps an index would keep the old files open and mapped.
 *
 * <p>Java 17 has no public call for this; {@code sun.misc.Unsafe.invokeCleaner}, exported by the
 * JDK's {@code jdk.unsupported} module for exactly this use, runs the buffer's own cleaner. Any
 * later access to the buffer, or to a duplicate or slice of it, crashes the JVM: callers release
 * only buffers no thread can still read. Where the call is unavailable (a runtime without
 * {@code jdk.unsupported}) the mapping is left to the collector, as without this class.
 */
public final class Unmapper {
    private static final sun.misc.Unsafe UNSAFE = unsafe();

    private Unmapper() {}

    /** Whether {@link #unmap} releases mappings here (otherwise it leaves them to the collector). */
    public static boolean available() {
        return UNSAFE != null;
    }

    /** Releases {@code map}, which must be a mapping itself (not a duplicate or a slice) that no thread reads any more. */
    public static void unmap(MappedByteBuffer map) {
        if (UNSAFE != null && map != null) {
            UNSAFE.invokeCleaner(map);
        }
    }

    private static sun.misc.Unsafe unsafe() {
        try {
            Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return (sun.misc.Unsafe) field.get(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }
}
