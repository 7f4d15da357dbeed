package io.trigrep.simd;

/**
 * Whether this JVM can run {@link VectorScan}: it was started with {@code --add-modules
 * jdk.incubator.vector} (the launcher does so for the roles that search) and its vectors hold at
 * least 16 bytes. Reading this class never loads the Vector API, so a JVM without the module
 * (a test, an embedding) gets {@link #BYTES} 0 and the callers' scalar loops.
 */
public final class Vectors {
    /** Bytes per vector {@link VectorScan} tests at once; 0 when it cannot run here. */
    public static final int BYTES = bytes();

    private Vectors() {}

    private static int bytes() {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return 0;
        }
        int width = VectorScan.width();
        return width >= 16 ? width : 0;
    }
}
