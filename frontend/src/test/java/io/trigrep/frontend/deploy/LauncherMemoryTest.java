package io.trigrep.frontend.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15 item 7, bounded memory: the launcher gives every role's JVM a heap, a direct-memory
 * cap, a metaspace and code-cache cap, one collector and exit-on-out-of-memory; its defaults are
 * the table in deploy/README.md; operators override them per role; and the memory the compose
 * file and the Kubernetes manifests give each container holds what the JVM may take. The launcher
 * runs for real, with a stand-in JDK in JAVA_HOME whose {@code java} prints its arguments.
 */
@Tag("integration")
class LauncherMemoryTest {
    static final Path ROOT = DeployConfigTest.ROOT;
    /** Native memory besides the capped parts (GC structures, thread stacks, symbols, malloc): measured 60-90 MiB, see deploy/README.md. */
    static final long NATIVE_ALLOWANCE = 128L << 20;

    static final Pattern SIZE = Pattern.compile("(\\d+)([kKmMgG]i?)?");

    @TempDir
    Path jdk;

    record Run(int exit, String output, List<String> jvm) {
        /** The value of the last occurrence of a flag with this prefix, as the JVM reads it; null when absent. */
        String last(String prefix) {
            String value = null;
            for (String a : jvm) {
                if (a.startsWith(prefix)) {
                    value = a.substring(prefix.length());
                }
            }
            return value;
        }

        long count(String prefix) {
            return jvm.stream().filter(a -> a.startsWith(prefix)).count();
        }

        List<String> collectors() {
            return jvm.stream().filter(a -> a.matches("-XX:\\+Use\\w+GC")).toList();
        }
    }

    /** A stand-in JDK whose java prints its arguments, one a line: the launcher runs JAVA_HOME's. */
    @BeforeEach
    void standInJava() throws IOException {
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        Path java = Files.createDirectories(jdk.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Runs {@code ./trigrep ARGS} with only ENV of the TRIGREP_ variables set; the JVM options are what comes before -cp. */
    Run launch(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("trigrep").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("TRIGREP_"));
        builder.environment().put("JAVA_HOME", jdk.toString());
        builder.environment().put("TRIGREP_CLASSPATH", "/nonexistent/lib/*");
        builder.environment().putAll(env);
        Process p = builder.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        List<String> lines = output.lines().toList();
        int cp = lines.indexOf("-cp");
        return new Run(p.exitValue(), output, cp < 0 ? List.of() : lines.subList(0, cp));
    }

    static long bytes(String size) {
        Matcher m = SIZE.matcher(size.trim());
        assertThat(m.matches()).as("a size: %s", size).isTrue();
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2).substring(0, 1).toLowerCase(Locale.ROOT);
        return switch (unit) {
            case "k" -> n << 10;
            case "m" -> n << 20;
            case "g" -> n << 30;
            default -> n;
        };
    }

    /** What the JVM of a run may hold in memory at most, besides the native allowance: heap, direct, metaspace, code. */
    static long capped(Run run) {
        return bytes(run.last("-Xmx"))
                + bytes(run.last("-XX:MaxDirectMemorySize="))
                + bytes(run.last("-XX:MaxMetaspaceSize="))
                + bytes(run.last("-XX:ReservedCodeCacheSize="));
    }

    @Test
    void everyRoleCapsHeapDirectMemoryMetaspaceAndCodeAndExitsOnOutOfMemory() throws Exception {
        for (String role : List.of("index", "files", "backend", "search", "frontend")) {
            Run run = launch(Map.of(), role, "--help");
            assertThat(run.exit()).as(run.output()).isZero();
            for (String flag : List.of(
                    "-Xmx",
                    "-XX:MaxDirectMemorySize=",
                    "-XX:MaxMetaspaceSize=",
                    "-XX:ReservedCodeCacheSize=",
                    "-XX:+ExitOnOutOfMemoryError")) {
                assertThat(run.count(flag))
                        .as("%s: %s in %s", role, flag, run.jvm())
                        .isEqualTo(1);
            }
            assertThat(run.collectors()).as("%s: one collector", role).hasSize(1);
        }
    }

    /** The rows of the table "Memory per role" in deploy/README.md: role, heap, direct, collector. */
    static Map<String, String[]> documented() throws IOException {
        Map<String, String[]> rows = new LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| (\\w+) \\| `([^`]+)` \\| `([^`]+)` \\| (G1|Serial|Parallel) \\|")
                .matcher(Files.readString(ROOT.resolve("deploy/README.md")));
        while (row.find()) {
            rows.put(row.group(1), new String[] {row.group(2), row.group(3), row.group(4)});
        }
        return rows;
    }

    @Test
    void theDefaultsAreTheTableInTheDeployReadme() throws Exception {
        Map<String, String[]> table = documented();
        assertThat(table.keySet()).containsExactlyInAnyOrder("index", "files", "backend", "search", "frontend");
        for (Map.Entry<String, String[]> row : table.entrySet()) {
            Run run = launch(Map.of(), row.getKey(), "--help");
            assertThat(run.collectors())
                    .as("%s collector", row.getKey())
                    .containsExactly("-XX:+Use" + row.getValue()[2] + "GC");
            if (row.getKey().equals("index") || row.getKey().equals("frontend")) {
                continue; // rules computed from the arguments: the next tests
            }
            assertThat(run.last("-Xmx")).as("%s heap", row.getKey()).isEqualTo(row.getValue()[0]);
            assertThat(run.last("-XX:MaxDirectMemorySize="))
                    .as("%s direct", row.getKey())
                    .isEqualTo(row.getValue()[1]);
        }
        assertThat(table.get("index"))
                .as("the index rule as the launcher computes it")
                .startsWith("max(256m + 128m × shards, 4 × (sort buffer + 64m))", "64m");
        assertThat(launch(Map.of(), "index", "in").last("-XX:MaxDirectMemorySize="))
                .isEqualTo("64m");
        assertThat(table.get("frontend"))
                .as("the frontend rule as the launcher computes it")
                .startsWith("896m + cache bytes / 10", "max queries × (4m + 1.25m × backends) + 32m");
    }

    @Test
    void theFrontendHeapFollowsTheCacheAndItsDirectMemoryTheQuerySlotsAndBackends() throws Exception {
        // heap 896 MiB + cache / 10; direct: max queries × (4 + 1.25 × backends) + 32 MiB
        Run defaults = launch(Map.of(), "frontend", "--backends", "a:1,b:2", "--data", "d");
        assertThat(defaults.last("-Xmx")).isEqualTo("998m"); // 1 GiB cache
        assertThat(defaults.last("-XX:MaxDirectMemorySize=")).isEqualTo("240m"); // 32 × 6.5 + 32
        Run big = launch(
                Map.of("TRIGREP_CACHE_BYTES", "8589934592", "TRIGREP_BACKENDS", "a:1,b:2,c:3"),
                "frontend",
                "--max-queries",
                "64");
        assertThat(big.last("-Xmx")).isEqualTo("1715m");
        assertThat(big.last("-XX:MaxDirectMemorySize=")).isEqualTo("528m"); // 64 × 7.75 + 32
        Run flags =
                launch(Map.of("TRIGREP_CACHE_BYTES", "1"), "frontend", "--cache-bytes=4294967296", "--backends=a:1");
        assertThat(flags.last("-Xmx"))
                .as("the flag wins over the variable, as in the frontend")
                .isEqualTo("1305m");
        assertThat(flags.last("-XX:MaxDirectMemorySize=")).isEqualTo("200m");
        Run set = launch(
                Map.of("TRIGREP_FRONTEND_HEAP", "2g", "TRIGREP_FRONTEND_DIRECT", "100m"),
                "frontend",
                "--cache-bytes",
                "99999999999");
        assertThat(set.last("-Xmx")).isEqualTo("2g");
        assertThat(set.last("-XX:MaxDirectMemorySize=")).isEqualTo("100m");
    }

    @Test
    void theIndexHeapFollowsShardsAndTheSortBuffer() throws Exception {
        // max(256 + 128 × shards, 4 × (sort buffer MiB + 64))
        assertThat(launch(Map.of(), "index", "--shards", "2", "in").last("-Xmx"))
                .isEqualTo("768m");
        assertThat(launch(Map.of(), "index", "--shards=8", "in").last("-Xmx")).isEqualTo("1280m");
        assertThat(launch(Map.of("TRIGREP_SHARDS", "6"), "index", "in").last("-Xmx"))
                .isEqualTo("1024m");
        assertThat(launch(Map.of(), "index", "--sort-buffer-mb", "512", "--shards", "3", "in")
                        .last("-Xmx"))
                .isEqualTo("2304m");
        assertThat(launch(Map.of("TRIGREP_SORT_BUFFER_MB", "256"), "index", "in")
                        .last("-Xmx"))
                .isEqualTo("1280m");
        assertThat(launch(Map.of("TRIGREP_INDEX_HEAP", "3g"), "index", "--shards", "30", "in")
                        .last("-Xmx"))
                .isEqualTo("3g");
    }

    @Test
    void operatorsOverrideEachRoleAndTheLastOptionWins() throws Exception {
        Run backend = launch(Map.of("TRIGREP_BACKEND_HEAP", "3g", "TRIGREP_BACKEND_DIRECT", "1g"), "backend", "--help");
        assertThat(backend.last("-Xmx")).isEqualTo("3g");
        assertThat(backend.last("-XX:MaxDirectMemorySize=")).isEqualTo("1g");
        Run frontend = launch(Map.of("TRIGREP_BACKEND_HEAP", "3g"), "frontend", "--help");
        assertThat(frontend.last("-Xmx")).as("another role's variable").isEqualTo("998m");

        // TRIGREP_JAVA_OPTS (every role) comes after the defaults, the role's own options after it.
        Run both = launch(
                Map.of("TRIGREP_JAVA_OPTS", "-Xmx5g -Dx=1", "TRIGREP_FRONTEND_JAVA_OPTS", "-Xmx7g"),
                "frontend",
                "--help");
        assertThat(both.last("-Xmx")).isEqualTo("7g");
        assertThat(both.jvm()).contains("-Dx=1");
        assertThat(launch(Map.of("TRIGREP_JAVA_OPTS", "-Xmx5g"), "search", "--help")
                        .last("-Xmx"))
                .isEqualTo("5g");

        // The JVM refuses two collectors: one named by the operator replaces the role's.
        Run serial = launch(Map.of("TRIGREP_BACKEND_JAVA_OPTS", "-XX:+UseSerialGC"), "backend", "--help");
        assertThat(serial.collectors()).containsExactly("-XX:+UseSerialGC");
        assertThat(launch(Map.of("TRIGREP_JAVA_OPTS", "-XX:+UseZGC"), "index", "in")
                        .collectors())
                .containsExactly("-XX:+UseZGC");
    }

    @Test
    void aMalformedSizeIsRefusedBeforeJavaStarts() throws Exception {
        Run run = launch(Map.of("TRIGREP_FRONTEND_HEAP", "lots"), "frontend", "--help");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.jvm()).isEmpty();
        // A usage error, for the operator to read: it names the value refused.
        assertThat(run.output()).contains("'lots'");
    }

    /** The effective JVM of a deploy file's container: its command and environment through the launcher. */
    Run container(List<String> command, JsonNode env) throws Exception {
        Map<String, String> vars = new LinkedHashMap<>();
        if (env.isArray()) {
            env.forEach(e -> vars.put(e.get("name").asText(), e.path("value").asText()));
        } else {
            env.fields().forEachRemaining(e -> vars.put(e.getKey(), e.getValue().asText()));
        }
        Run run = launch(vars, command.toArray(String[]::new));
        assertThat(run.jvm()).as("%s: %s", command, run.output()).isNotEmpty();
        return run;
    }

    @Test
    void composeMemoryLimitsHoldWhatEachJvmMayTake() throws Exception {
        JsonNode services =
                DeployConfigTest.yaml(ROOT.resolve("docker-compose.yml")).get("services");
        int checked = 0;
        for (var it = services.fields(); it.hasNext(); ) {
            var service = it.next();
            JsonNode command = service.getValue().path("command");
            if (!command.isArray()
                    || !List.of("index", "backend", "frontend")
                            .contains(command.get(0).asText())) {
                continue;
            }
            Run run = container(
                    DeployConfigTest.words(command), service.getValue().path("environment"));
            long heap = bytes(run.last("-Xmx"));
            String limit = service.getValue().path("mem_limit").asText();
            String reservation = service.getValue().path("mem_reservation").asText();
            assertThat(limit).as("%s mem_limit", service.getKey()).isNotEmpty();
            assertThat(bytes(limit))
                    .as(
                            "%s: mem_limit %s holds heap, direct, metaspace, code cache and native (%s)",
                            service.getKey(), limit, run.jvm())
                    .isGreaterThanOrEqualTo(capped(run) + NATIVE_ALLOWANCE);
            assertThat(bytes(reservation))
                    .as("%s: mem_reservation %s holds at least the heap", service.getKey(), reservation)
                    .isGreaterThanOrEqualTo(heap + NATIVE_ALLOWANCE)
                    .isLessThanOrEqualTo(bytes(limit));
            checked++;
        }
        assertThat(checked).as("indexer, backends and frontend").isGreaterThanOrEqualTo(3);
    }

    @Test
    void kubernetesRequestsAndLimitsHoldWhatEachJvmMayTake() throws Exception {
        int checked = 0;
        for (String file : List.of("index-job.yaml", "backend.yaml", "frontend.yaml")) {
            for (JsonNode doc :
                    DeployConfigTest.yamlDocuments(ROOT.resolve("deploy/k8s").resolve(file))) {
                for (JsonNode container :
                        doc.path("spec").path("template").path("spec").path("containers")) {
                    List<String> command = container.has("args")
                            ? DeployConfigTest.words(container.get("args"))
                            : List.of(DeployConfigTest.words(container.get("command"))
                                    .get(2)
                                    .replaceFirst("^exec /opt/trigrep/trigrep ", "")
                                    .replace("${HOSTNAME##*-}", "0")
                                    .split(" "));
                    Run run = container(command, container.path("env"));
                    JsonNode resources = container.path("resources");
                    long limit = bytes(resources.path("limits").path("memory").asText());
                    long request =
                            bytes(resources.path("requests").path("memory").asText());
                    assertThat(limit)
                            .as("%s: limit holds heap, direct, metaspace, code cache and native (%s)", file, run.jvm())
                            .isGreaterThanOrEqualTo(capped(run) + NATIVE_ALLOWANCE);
                    assertThat(request)
                            .as("%s: request holds at least the heap", file)
                            .isGreaterThanOrEqualTo(bytes(run.last("-Xmx")) + NATIVE_ALLOWANCE)
                            .isLessThanOrEqualTo(limit);
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(3);
    }
}
