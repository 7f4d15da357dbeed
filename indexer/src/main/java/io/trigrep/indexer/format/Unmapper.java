package io.trigrep.indexer.format;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Releases a file mapping now rather than when the collector happens to find its buffer
 * unreachable. A mapping's touched pages count in the process's resident memory until it is
 * released, so a build that maps one shard's spools after another would hold them all at once,
 * and a server that swaps an index would keep the old files open and mapped.
 *
 * <p>Java 17 has no public call for this; {@code sun.misc.Unsafe.invokeCleaner}, exported by the
 * JDK's {@code jdk.unsupported} module for exactly this use, runs the buffer's own cleaner. It is
 * looked up by name because naming {@code sun.misc.Unsafe} in code draws a compiler warning that
 * no annotation silences, and the build fails on warnings. Any later access to the buffer, or to
 * a duplicate or slice of it, crashes the JVM: callers release only buffers no thread can still
 * read. Where the call is unavailable (a runtime without {@code jdk.unsupported}) the mapping is
 * left to the collector, as without this class.
 */
public final class Unmapper {
    private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

    private Unmapper() {}

    /** Whether {@link #unmap} releases mappings here (otherwise it leaves them to the collector). */
    public static boolean available() {
        return INVOKE_CLEANER != null;
    }

    /** Releases {@code map}, which must be a mapping itself (not a duplicate or a slice) that no thread reads any more. */
    public static void unmap(MappedByteBuffer map) {
        if (INVOKE_CLEANER != null && map != null) {
            try {
                INVOKE_CLEANER.invokeExact((ByteBuffer) map);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("invokeCleaner threw a checked exception it does not declare", e);
            }
        }
    }

    /** {@code Unsafe.invokeCleaner} bound to the one instance, or null where the JDK lacks it. */
    private static MethodHandle invokeCleaner() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field field = unsafeClass.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(field.get(null));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }
}
