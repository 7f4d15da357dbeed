package io.trigrep.frontend.deploy;

import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.backend.TestShards;
import io.trigrep.backend.ops.OpsServer;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.http.FrontendServer;
import io.trigrep.indexer.format.Shard;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The project's Prometheus files against a running trigrep: two backends with their operator
 * ports, a frontend over them and one dead backend (so failures are counted too). Every metric
 * the rules and the dashboard read must be exported; and a real Prometheus server, given the
 * project's scrape config pointed at these ports and the project's rules, computes a number for
 * the p99 latency rule.
 */
@Tag("external") // drives prometheus
@Tag("integration")
class PrometheusRulesTest {
    static final Path ROOT = DeployConfigTest.ROOT;
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient http = HttpClient.newHttpClient();
    /** Prometheus starting, scraping every second and evaluating the rules over its scrapes. */
    static final Duration PROMETHEUS = Duration.ofSeconds(90);

    @TempDir
    static Path dir;

    static final List<BackendServer> backends = new ArrayList<>();
    static final List<OpsServer> ops = new ArrayList<>();
    static final List<Integer> opsPorts = new ArrayList<>();
    static final List<InetSocketAddress> live = new ArrayList<>();
    static FanOut fanOut;
    static FrontendServer frontend;
    static int frontendPort;

    @BeforeAll
    static void start() throws Exception {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (Shard shard :
                TestShards.build(Path.of("../source-backend/src/test/resources/corpus"), dir.resolve("shards"), 2)) {
            BackendServer server = new BackendServer(shard, BackendConfig.defaults());
            InetSocketAddress search = server.start("127.0.0.1", 0);
            addresses.add(search);
            live.add(search);
            backends.add(server);
            OpsServer operator = new OpsServer(server.metrics(), search);
            opsPorts.add(operator.start("127.0.0.1", 0).getPort());
            ops.add(operator);
        }
        try (ServerSocket closed = new ServerSocket(0)) {
            addresses.add(new InetSocketAddress("127.0.0.1", closed.getLocalPort()));
        }
        fanOut = new FanOut(addresses, dir.resolve("data"), 2);
        frontend = new FrontendServer(fanOut, 8);
        frontendPort = frontend.start("127.0.0.1", 0).getPort();
        queries();
    }

    @AfterAll
    static void stop() {
        frontend.close();
        fanOut.close();
        ops.forEach(OpsServer::close);
        backends.forEach(BackendServer::close);
    }

    static void queries() throws Exception {
        for (String q : List.of("return", "int", "(?i)lua_\\w+", "adler32", "nothing-matches-this")) {
            HttpResponse<String> r =
                    get(frontendPort, "/api/v1/search?cache=false&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8));
            assertThat(r.statusCode()).isEqualTo(200);
        }
    }

    static HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The metric names in a scrape: what comes before the labels or the value on each sample line. */
    static Set<String> exported(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }

    /** Every PromQL expression of the rules file and the dashboard. */
    static List<String> expressions() throws Exception {
        List<String> exprs = new ArrayList<>();
        for (JsonNode group : DeployConfigTest.yaml(ROOT.resolve("deploy/prometheus/rules/trigrep.yml"))
                .get("groups")) {
            for (JsonNode rule : group.get("rules")) {
                exprs.add(rule.get("expr").asText());
            }
        }
        for (JsonNode panel : JSON.readTree(
                        ROOT.resolve("deploy/grafana/trigrep-dashboard.json").toFile())
                .get("panels")) {
            panel.path("targets").forEach(t -> exprs.add(t.get("expr").asText()));
        }
        return exprs;
    }

    static Set<String> recorded() throws Exception {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*- record: (\\S+)$")
                .matcher(Files.readString(ROOT.resolve("deploy/prometheus/rules/trigrep.yml")));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void everyMetricTheRulesAndTheDashboardReadIsExported() throws Exception {
        Set<String> exported =
                new TreeSet<>(exported(get(frontendPort, "/metrics").body()));
        for (int port : opsPorts) {
            exported.addAll(exported(get(port, "/metrics").body()));
        }
        exported.add("up"); // Prometheus' own, per target
        Set<String> recorded = recorded();
        Pattern metric = Pattern.compile("\\b((?:trigrep|disk|jvm|process|up)[a-z0-9_:]*)\\b(?=\\s*[{\\[)\\s/]|$)");
        List<String> exprs = expressions();
        assertThat(exprs).hasSizeGreaterThan(20);
        Set<String> read = new TreeSet<>();
        for (String expr : exprs) {
            Matcher m = metric.matcher(expr);
            while (m.find()) {
                read.add(m.group(1));
            }
        }
        assertThat(read)
                .contains(
                        "trigrep_query_duration_seconds_bucket",
                        "trigrep_query_first_result_seconds_bucket",
                        "trigrep_backend_failures_total",
                        "trigrep_backend_search_duration_seconds_bucket",
                        "disk_free_bytes",
                        "up");
        for (String name : read) {
            if (name.contains(":")) {
                assertThat(recorded).as("recording rule %s", name).contains(name);
            } else {
                assertThat(exported).as("metric %s is exported", name).contains(name);
            }
        }
    }

    /** Every path the compose file, the manifests and the scrape config ask of a role answers 200 from a running one. */
    @Test
    void everyProbedPathAnswersOnARunningFrontendAndBackend() throws Exception {
        Map<String, Set<String>> probed = DeployConfigTest.probedPaths();
        assertThat(probed.get("frontend")).contains("/readyz", "/readyz?partial=true", "/healthz", "/metrics");
        assertThat(probed.get("backend")).contains("/readyz", "/healthz", "/metrics");
        // A frontend whose backends all answer: the strict /readyz is 200 only then.
        try (FanOut healthy = new FanOut(live, dir.resolve("data-healthy"), 1);
                FrontendServer server = new FrontendServer(healthy, 2)) {
            int port = server.start("127.0.0.1", 0).getPort();
            for (String path : probed.get("frontend")) {
                assertThat(get(port, path).statusCode()).as("frontend %s", path).isEqualTo(200);
            }
        }
        for (String path : probed.get("backend")) {
            assertThat(get(opsPorts.get(0), path).statusCode())
                    .as("backend %s", path)
                    .isEqualTo(200);
        }
    }

    @Test
    void aRealPrometheusComputesTheP99Rule() throws Exception {
        // The project's scrape config, pointed at this test's ports, scraping every second.
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
        @SuppressWarnings("unchecked")
        Map<String, Object> config = yaml.load(Files.readString(ROOT.resolve("deploy/prometheus/prometheus.yml")));
        @SuppressWarnings("unchecked")
        Map<String, Object> global = (Map<String, Object>) config.get("global");
        global.put("scrape_interval", "1s");
        global.put("evaluation_interval", "1s");
        config.put("rule_files", List.of(ROOT.resolve("deploy/prometheus/rules").toString() + "/*.yml"));
        Map<String, List<String>> targets = new LinkedHashMap<>();
        targets.put("trigrep-frontend", List.of("127.0.0.1:" + frontendPort));
        targets.put(
                "trigrep-backend", opsPorts.stream().map(p -> "127.0.0.1:" + p).toList());
        for (Object job : (List<?>) config.get("scrape_configs")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> j = (Map<String, Object>) job;
            List<String> t = targets.get((String) j.get("job_name"));
            assertThat(t).as("job %s", j.get("job_name")).isNotNull();
            j.put("static_configs", List.of(Map.of("targets", t)));
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Path file = dir.resolve("prometheus.yml");
        Files.writeString(file, new Yaml(options).dump(config));

        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process prometheus = new ProcessBuilder(
                        "prometheus",
                        "--config.file=" + file,
                        "--storage.tsdb.path=" + dir.resolve("tsdb"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        try {
            String value;
            try {
                // An IOException: Prometheus is still starting.
                value = eventuallyGet("p99 from Prometheus", PROMETHEUS, () -> {
                    queries(); // the histograms must grow between scrapes for rate() to see them
                    JsonNode answer = JSON.readTree(get(port, "/api/v1/query?query=trigrep:query_duration_seconds:p99")
                            .body());
                    JsonNode result = answer.path("data").path("result");
                    String p99 = result.size() == 1
                            ? result.get(0).path("value").get(1).asText()
                            : "NaN";
                    return p99.equals("NaN") ? null : p99;
                });
            } catch (AssertionError e) {
                throw new AssertionError(
                        e.getMessage() + "; Prometheus' log:\n" + Files.readString(dir.resolve("prometheus.log")), e);
            }
            assertThat(Double.parseDouble(value)).isPositive().isLessThan(30);

            JsonNode rules = JSON.readTree(get(port, "/api/v1/rules").body())
                    .path("data")
                    .path("groups");
            assertThat(rules.size()).isEqualTo(2);
            for (JsonNode group : rules) {
                for (JsonNode rule : group.path("rules")) {
                    assertThat(rule.path("health").asText())
                            .as("rule %s: %s", rule.path("name"), rule.path("lastError"))
                            .isEqualTo("ok");
                }
            }
            // Every target scraped within the last minute: one scrape read at one instant can be a
            // timeout (1 s at this interval) on a busy machine and say 2.
            String everyTarget = java.net.URLEncoder.encode(
                    "count(max_over_time(up[1m]) == 1)", java.nio.charset.StandardCharsets.UTF_8);
            JsonNode up = JSON.readTree(
                            get(port, "/api/v1/query?query=" + everyTarget).body())
                    .path("data")
                    .path("result");
            assertThat(up.get(0).path("value").get(1).asText()).isEqualTo("3");
        } finally {
            prometheus.destroy();
            prometheus.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
