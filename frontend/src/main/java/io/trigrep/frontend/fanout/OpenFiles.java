package io.trigrep.frontend.fanout;

import java.lang.management.ManagementFactory;

/** The process's open-file limit, which the frontend's connections and cached answers share. */
public final class OpenFiles {
    private OpenFiles() {}

    /** The open-file limit ({@code RLIMIT_NOFILE}), or 4096 where the JVM cannot tell. */
    public static long limit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return unix.getMaxFileDescriptorCount();
        }
        return 4096;
    }
}
