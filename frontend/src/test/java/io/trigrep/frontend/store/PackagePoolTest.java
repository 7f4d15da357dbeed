package io.trigrep.frontend.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Package names interned to ids: one id per distinct name, through every growth of the table. */
class PackagePoolTest {
    /** {@code name} placed at {@code offset} of a buffer with other bytes around it. */
    private static ByteBuffer around(String name, int offset) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(offset + bytes.length + 5);
        for (int i = 0; i < buffer.capacity(); i++) {
            buffer.put(i, (byte) 'x');
        }
        buffer.put(offset, bytes);
        return buffer;
    }

    private static int intern(PackagePool pool, String name, int offset) {
        return pool.intern(around(name, offset), offset, name.getBytes(StandardCharsets.UTF_8).length);
    }

    private static int fnv(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        return ResultColumns.hash(ByteBuffer.wrap(bytes), 0, bytes.length);
    }

    @Test
    void eachDistinctNameGetsTheNextIdAndKeepsItThroughEveryRehash() {
        PackagePool pool = new PackagePool();
        // Prefixes of each other ("p", "pp", ...) and names with a shared prefix: equal bytes up to
        // a length must not make two names one; 1,000 names grow the table from 64 slots five times.
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            names.add("p".repeat(i + 1));
        }
        for (int i = 0; i < 960; i++) {
            names.add("lib" + i);
        }
        names.add("");
        for (int i = 0; i < names.size(); i++) {
            assertThat(intern(pool, names.get(i), i % 7)).as(names.get(i)).isEqualTo(i);
            assertThat(pool.size()).isEqualTo(i + 1);
        }
        for (int i = names.size() - 1; i >= 0; i--) {
            String name = names.get(i);
            assertThat(intern(pool, name, 3 + i % 5))
                    .as("known again: %s", name)
                    .isEqualTo(i);
            assertThat(pool.name(i)).isEqualTo(name);
            assertThat(pool.hash(i)).as("hash of %s", name).isEqualTo(fnv(name));
        }
        assertThat(pool.size()).as("nothing added by interning known names").isEqualTo(names.size());
    }

    @Test
    void namesAreTheirUtf8Bytes() {
        PackagePool pool = new PackagePool();
        assertThat(intern(pool, "zürich-tools", 2)).isZero();
        assertThat(intern(pool, "zurich-tools", 0)).isEqualTo(1);
        assertThat(pool.name(0)).isEqualTo("zürich-tools");
        assertThat(pool.name(1)).isEqualTo("zurich-tools");
    }

    /**
     * Names whose FNV-1a hashes are equal (found by a birthday search): the pool compares bytes,
     * not hashes, whether the lengths differ or only the bytes do.
     */
    @Test
    void namesWithTheSameHashAreStillTwoPackages() {
        String[][] collisions = {{"pkg-46vu", "pkg-fyea"}, {"pkg-nwye", "pkg-127a0"}};
        for (String[] pair : collisions) {
            assertThat(fnv(pair[0])).as("%s and %s collide", pair[0], pair[1]).isEqualTo(fnv(pair[1]));
            PackagePool pool = new PackagePool();
            assertThat(intern(pool, pair[0], 1)).isZero();
            assertThat(intern(pool, pair[1], 2)).as(pair[1]).isEqualTo(1);
            assertThat(intern(pool, pair[0], 0)).isZero();
            assertThat(intern(pool, pair[1], 0)).isEqualTo(1);
            assertThat(pool.size()).isEqualTo(2);
            assertThat(pool.name(0)).isEqualTo(pair[0]);
            assertThat(pool.name(1)).isEqualTo(pair[1]);
        }
    }
}
