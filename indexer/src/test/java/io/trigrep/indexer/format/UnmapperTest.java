package io.trigrep.indexer.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnmapperTest {
    @Test
    void aReleasedMappingLeavesTheProcessMaps(@TempDir Path dir) throws IOException {
        Path maps = Path.of("/proc/self/maps");
        assumeTrue(Files.isReadable(maps), "needs Linux's /proc/self/maps");
        assertTrue(Unmapper.available(), "jdk.unsupported's invokeCleaner should be reachable on the JDKs we run on");
        Path file = dir.resolve("mapped-" + System.nanoTime());
        Files.write(file, new byte[1 << 16]);
        MappedByteBuffer map;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            map = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }
        assertEquals(0, map.get(100));
        assertTrue(Files.readString(maps).contains(file.toString()), "the mapping is listed while it lives");

        Unmapper.unmap(map);

        assertTrue(
                !Files.readString(maps).contains(file.toString()),
                "the mapping is gone at once, not at the next collection");
    }
}
