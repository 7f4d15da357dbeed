package io.trigrep.frontend.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's ahead-of-time cache: a server role's first start records one, later starts read
 * it, one process records at a time, a --help run and TRIGREP_AOT=0 leave it alone, and new jars
 * get a cache of their own. The launcher runs for real, with a stand-in JDK whose {@code java}
 * prints its arguments.
 */
@Tag("integration")
class LauncherAotCacheTest {
    @TempDir
    Path dir;

    Path jdk;
    Path caches;
    Path jar;

    @BeforeEach
    void standIns() throws IOException {
        jdk = Files.createDirectories(dir.resolve("jdk"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        Path java = Files.createDirectories(jdk.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        caches = dir.resolve("aot");
        jar = Files.write(dir.resolve("app.jar"), new byte[] {1, 2, 3});
    }

    /** The JVM options of {@code ./trigrep ARGS} that name an AOT cache. */
    List<String> aotOptions(Map<String, String> env, String... args) throws Exception {
        List<String> command =
                new ArrayList<>(List.of(DeployConfigTest.ROOT.resolve("trigrep").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("TRIGREP_"));
        builder.environment().put("JAVA_HOME", jdk.toString());
        builder.environment().put("TRIGREP_CLASSPATH", jar.toString());
        builder.environment().put("TRIGREP_AOT_DIR", caches.toString());
        builder.environment().putAll(env);
        Process p = builder.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output.lines().filter(a -> a.startsWith("-XX:AOTCache")).toList();
    }

    static String cacheOf(List<String> options) {
        assertThat(options).hasSize(1);
        return options.get(0).substring(options.get(0).indexOf('=') + 1);
    }

    @Test
    void theFirstStartRecordsAndLaterStartsRead() throws Exception {
        List<String> first = aotOptions(Map.of(), "backend", "--shard", "s");
        assertThat(first).singleElement().asString().startsWith("-XX:AOTCacheOutput=" + caches + "/backend-");

        Path cache = Path.of(cacheOf(first));
        Files.write(cache, new byte[] {42});
        assertThat(aotOptions(Map.of(), "backend", "--shard", "s")).containsExactly("-XX:AOTCache=" + cache);
        assertThat(aotOptions(Map.of(), "frontend", "--backends", "h:1"))
                .singleElement()
                .asString()
                .startsWith("-XX:AOTCacheOutput=" + caches + "/frontend-");
    }

    @Test
    void helpTheSwitchAndOtherRolesLeaveTheCacheAlone() throws Exception {
        assertThat(aotOptions(Map.of(), "backend", "--help")).isEmpty();
        assertThat(aotOptions(Map.of("TRIGREP_AOT", "0"), "backend", "--shard", "s"))
                .isEmpty();
        assertThat(aotOptions(Map.of(), "search", "--backend", "h:1", "q")).isEmpty();
        assertThat(aotOptions(Map.of("TRIGREP_CLASSPATH", dir + ":" + jar), "backend", "--shard", "s"))
                .as("classes in a folder, which the cache cannot take")
                .isEmpty();
        assertThat(caches)
                .satisfiesAnyOf(
                        c -> assertThat(c).doesNotExist(), c -> assertThat(c).isEmptyDirectory());
    }

    @Test
    void newJarsRecordACacheOfTheirOwnAndTheOldOneGoes() throws Exception {
        Path old = Path.of(cacheOf(aotOptions(Map.of(), "backend", "--shard", "s")));
        Files.write(old, new byte[] {42});

        Files.setLastModifiedTime(
                jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        List<String> rebuilt = aotOptions(Map.of(), "backend", "--shard", "s");

        assertThat(rebuilt).singleElement().asString().startsWith("-XX:AOTCacheOutput=");
        assertThat(cacheOf(rebuilt)).isNotEqualTo(old.toString());
        assertThat(old).doesNotExist();
        assertThat(Path.of(old + ".lock")).as("the old cache's lock").doesNotExist();
        assertThat(Path.of(cacheOf(rebuilt) + ".lock"))
                .as("the new cache's lock")
                .exists();
    }

    @Test
    void anotherJdkRecordsACacheOfItsOwn() throws Exception {
        Path first = Path.of(cacheOf(aotOptions(Map.of(), "backend", "--shard", "s")));
        Files.write(first, new byte[] {42});
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.2\"\n");

        assertThat(cacheOf(aotOptions(Map.of(), "backend", "--shard", "s"))).isNotEqualTo(first.toString());
    }

    @Test
    void aCacheFolderWithASpaceStaysOneOption() throws Exception {
        Path spaced = dir.resolve("a b");
        assertThat(aotOptions(Map.of("TRIGREP_AOT_DIR", spaced.toString()), "backend", "--shard", "s"))
                .singleElement()
                .asString()
                .startsWith("-XX:AOTCacheOutput=" + spaced + "/backend-");
    }

    @Test
    void whileOneProcessRecordsTheOthersStartWithout() throws Exception {
        Path cache = Path.of(cacheOf(aotOptions(Map.of(), "backend", "--shard", "s")));
        Process holder = new ProcessBuilder("flock", cache + ".lock", "sh", "-c", "echo held; sleep 60")
                .redirectErrorStream(true)
                .start();
        try {
            assertThat(new String(holder.getInputStream().readNBytes(5), StandardCharsets.UTF_8))
                    .isEqualTo("held\n");
            assertThat(aotOptions(Map.of(), "backend", "--shard", "s")).isEmpty();
        } finally {
            holder.descendants().forEach(ProcessHandle::destroy);
            holder.destroy();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(aotOptions(Map.of(), "backend", "--shard", "s")).containsExactly("-XX:AOTCacheOutput=" + cache);
    }
}
