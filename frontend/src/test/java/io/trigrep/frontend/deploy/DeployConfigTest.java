package io.trigrep.frontend.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import picocli.CommandLine.Option;

/**
 * The deploy files agree with the code: every role, flag and environment variable they use
 * exists, backends and shards line up, probes and scrape targets point at real endpoints on the
 * right ports; and the real validators (docker-compose, promtool, systemd-analyze) accept them.
 */
@Tag("integration")
class DeployConfigTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final ObjectMapper JSON = new ObjectMapper();
    /** What the HTTP ports of the frontend and of a backend's operator port answer for probes. */
    static final Set<String> PROBE_PATHS = Set.of("/healthz", "/readyz", "/metrics");

    static final Pattern FLAG = Pattern.compile("--[a-z][a-z-]*");
    /** An option's {@code ${env:NAME}} or {@code ${env:NAME:-VALUE}} default: the variable, and the value without it. */
    static final Pattern ENV_DEFAULT = Pattern.compile("\\$\\{env:([A-Z0-9_]+)(?::-([^}]*))?\\}");

    /** One launcher role: the flags its command takes, each with its environment variable (null: none), and the default each falls back to without it. */
    record Role(String name, Map<String, String> envByFlag, Map<String, String> defaultByFlag) {
        Set<String> env() {
            return envByFlag.values().stream().filter(e -> e != null).collect(Collectors.toSet());
        }
    }

    /**
     * The launcher's roles that run Java, read from the launcher itself: {@code role) ... run_java
     * MODULE CLASS}; and those that run a script's mode, {@code exec "$root/SCRIPT" --MODE}, whose
     * flags are the case labels of the script's {@code MODE_main} function.
     */
    static Map<String, Role> roles() throws Exception {
        Map<String, Role> roles = new LinkedHashMap<>();
        String label = null;
        for (String line : Files.readAllLines(ROOT.resolve("trigrep"))) {
            Matcher arm = Pattern.compile("^  ([a-z]+)\\)$").matcher(line);
            if (arm.matches()) {
                label = arm.group(1);
            }
            Matcher run =
                    Pattern.compile("run_java \\S+ (io\\.trigrep\\.[\\w.]+)").matcher(line);
            if (run.find() && label != null && !line.trim().startsWith("#")) {
                Map<String, String> flags = new LinkedHashMap<>();
                Map<String, String> defaults = new LinkedHashMap<>();
                optionsOf(Class.forName(run.group(1)), flags, defaults);
                roles.merge(label, new Role(label, flags, defaults), DeployConfigTest::both);
            }
            Matcher script = SCRIPT_ROLE.matcher(line);
            if (script.find() && label != null && !line.trim().startsWith("#")) {
                roles.merge(
                        label,
                        new Role(label, scriptFlags(ROOT.resolve(script.group(1)), script.group(2)), Map.of()),
                        DeployConfigTest::both);
            }
        }
        return roles;
    }

    /** A role that runs a class or a script by its flags (sync: --git, or Debian's): the flags of both. */
    private static Role both(Role a, Role b) {
        Map<String, String> flags = new LinkedHashMap<>(a.envByFlag());
        flags.putAll(b.envByFlag());
        Map<String, String> defaults = new LinkedHashMap<>(a.defaultByFlag());
        defaults.putAll(b.defaultByFlag());
        return new Role(a.name(), flags, defaults);
    }

    /**
     * The options of a command class, its superclasses' and those of its mixins (options several
     * roles share): each flag's environment variable in {@code flags}, and in {@code defaults} the
     * value a {@code ${env:NAME:-VALUE}} default falls back to.
     */
    private static void optionsOf(Class<?> command, Map<String, String> flags, Map<String, String> defaults) {
        for (Class<?> c = command; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(picocli.CommandLine.Mixin.class)) {
                    optionsOf(f.getType(), flags, defaults);
                }
                Option option = f.getAnnotation(Option.class);
                // Hidden options are retired ones kept for old scripts: not documented, not configured.
                if (option != null && !option.hidden()) {
                    Matcher env = ENV_DEFAULT.matcher(option.defaultValue());
                    boolean found = env.find(0);
                    for (String name : option.names()) {
                        flags.put(name, found ? env.group(1) : null);
                        if (found && env.group(2) != null) {
                            defaults.put(name, env.group(2));
                        }
                    }
                }
            }
        }
    }

    /** A launcher line running a script's mode: the script's path in the repository and the mode. */
    static final Pattern SCRIPT_ROLE = Pattern.compile("exec \"\\$root/(\\S+\\.sh)\" --([a-z]+)");

    /** The flags the function {@code MODE_main} of a shell script takes: its case labels ({@code --index)}). */
    static Map<String, String> scriptFlags(Path script, String mode) throws IOException {
        String text = Files.readString(script);
        Matcher body =
                Pattern.compile("(?ms)^" + mode + "_main\\(\\) \\{$(.*?)^\\}$").matcher(text);
        assertThat(body.find()).as("%s has a function %s_main", script, mode).isTrue();
        Map<String, String> flags = new LinkedHashMap<>();
        Matcher label = Pattern.compile("(?m)^\\s+([-a-z|]+)\\)").matcher(body.group(1));
        while (label.find()) {
            for (String name : label.group(1).split("\\|")) {
                if (name.startsWith("-")) {
                    flags.put(name, null);
                }
            }
        }
        assertThat(flags).as("flags of %s --%s", script, mode).containsKey("--help");
        return flags;
    }

    /** The launcher's script roles and the script each runs, as a path in the repository. */
    static Map<String, String> scriptRoles() throws IOException {
        Map<String, String> scripts = new LinkedHashMap<>();
        String label = null;
        for (String line : Files.readAllLines(ROOT.resolve("trigrep"))) {
            Matcher arm = Pattern.compile("^  ([a-z]+)\\)$").matcher(line);
            if (arm.matches()) {
                label = arm.group(1);
            }
            Matcher script = SCRIPT_ROLE.matcher(line);
            if (script.find() && label != null) {
                scripts.put(label, script.group(1));
            }
        }
        return scripts;
    }

    /** Environment variables the launcher itself reads (not a command's options). */
    static Set<String> launcherEnv() throws IOException {
        String text = Files.readString(ROOT.resolve("trigrep")) + Files.readString(ROOT.resolve("deploy/demo.sh"));
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("\\$\\{(TRIGREP_[A-Z_]+)").matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** Checks a command line of the launcher: a known role, and only flags that role takes; returns flag values. */
    static Map<String, String> checkCommand(Map<String, Role> roles, List<String> words, String where) {
        assertThat(roles).as("%s: role of %s", where, words).containsKey(words.get(0));
        Role role = roles.get(words.get(0));
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            if (w.startsWith("--")) {
                String flag = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
                assertThat(role.envByFlag())
                        .as("%s: %s takes %s", where, role.name(), flag)
                        .containsKey(flag);
                String value = w.contains("=")
                        ? w.substring(w.indexOf('=') + 1)
                        : i + 1 < words.size() && !words.get(i + 1).startsWith("--") ? words.get(++i) : "";
                values.put(flag, value);
            }
        }
        return values;
    }

    static void checkEnv(Map<String, Role> roles, String role, Iterable<String> names, String where)
            throws IOException {
        Set<String> known = new HashSet<>(launcherEnv());
        known.addAll(roles.get(role).env());
        for (String name : names) {
            assertThat(known)
                    .as("%s: environment variable %s of role %s", where, name, role)
                    .contains(name);
        }
    }

    static List<String> words(JsonNode list) {
        List<String> words = new ArrayList<>();
        list.forEach(n -> words.add(n.asText()));
        return words;
    }

    /** A YAML file as a tree; SnakeYAML resolves anchors, aliases and merge keys ({@code <<: *anchor}). */
    static JsonNode yaml(Path file) throws IOException {
        return JSON.valueToTree(new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file)));
    }

    /** Every document of a multi-document YAML file. */
    static List<JsonNode> yamlDocuments(Path file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(file))) {
            docs.add(JSON.valueToTree(doc));
        }
        return docs;
    }

    static int port(String hostPort) {
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    /**
     * Every HTTP path the deploy files probe or scrape, by the role that must answer it
     * ("frontend" or "backend"), with its query string: {@code PrometheusRulesTest} asks a running
     * frontend and backend for each.
     */
    static Map<String, Set<String>> probedPaths() throws Exception {
        Map<String, Set<String>> paths = new LinkedHashMap<>();
        paths.put("frontend", new TreeSet<>());
        paths.put("backend", new TreeSet<>());
        JsonNode services = yaml(ROOT.resolve("docker-compose.yml")).get("services");
        services.fields().forEachRemaining(e -> {
            JsonNode command = e.getValue().path("command");
            List<String> test = words(e.getValue().path("healthcheck").path("test"));
            if (command.isArray() && paths.containsKey(command.get(0).asText()) && test.size() == 4) {
                paths.get(command.get(0).asText()).add(test.get(3).replaceFirst("^http://[^/]+", ""));
            }
        });
        Path k8s = ROOT.resolve("deploy/k8s");
        for (String[] file : new String[][] {{"frontend.yaml", "frontend"}, {"backend.yaml", "backend"}}) {
            for (JsonNode doc : yamlDocuments(k8s.resolve(file[0]))) {
                for (JsonNode container :
                        doc.path("spec").path("template").path("spec").path("containers")) {
                    for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
                        JsonNode get = container.path(probe).path("httpGet");
                        if (!get.isMissingNode()) {
                            paths.get(file[1]).add(get.get("path").asText());
                        }
                    }
                }
            }
        }
        for (JsonNode job :
                yaml(ROOT.resolve("deploy/prometheus/prometheus.yml")).get("scrape_configs")) {
            paths.get(job.get("job_name").asText().replace("trigrep-", ""))
                    .add(job.path("metrics_path").asText("/metrics"));
        }
        return paths;
    }

    @Test
    void theConfigurationTableIsEveryOptionOfEveryRole() throws Exception {
        Map<String, Role> roles = roles();
        assertThat(roles.keySet()).contains("index", "backend", "frontend", "search", "files");
        Set<String> documented = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| (\\S+) \\| (?:`(--[a-z-]+)`)? *\\| `(TRIGREP_[A-Z_]+)` \\|([^|]*)\\|")
                .matcher(Files.readString(ROOT.resolve("deploy/README.md")));
        Set<String> launcher = launcherEnv();
        while (row.find()) {
            String role = row.group(1);
            String env = row.group(3);
            if (roles.containsKey(role)) {
                assertThat(roles.get(role).envByFlag())
                        .as("%s %s", role, row.group(2))
                        .containsEntry(row.group(2), env);
                documented.add(role + " " + row.group(2));
                // A default written as a number is the code's; words ("one per core", "none")
                // describe a sentinel (0, -1, empty) the code falls back to.
                String written = row.group(4).trim();
                if (!written.isEmpty() && Character.isDigit(written.charAt(0))) {
                    assertThat(written.split(" ", 2)[0])
                            .as("deploy/README.md's default of %s %s", role, row.group(2))
                            .isEqualTo(roles.get(role).defaultByFlag().get(row.group(2)));
                }
            } else {
                assertThat(launcher).as("launcher variable %s", env).contains(env);
            }
        }
        for (String role : List.of("index", "backend", "frontend")) {
            for (Map.Entry<String, String> option : roles.get(role).envByFlag().entrySet()) {
                if (option.getKey().equals("--help")
                        || option.getKey().equals("-h")
                        || option.getKey().startsWith("-V")
                        || option.getKey().equals("--version")) {
                    continue;
                }
                assertThat(option.getValue())
                        .as("%s %s has an environment variable", role, option.getKey())
                        .isNotNull();
                assertThat(documented)
                        .as("deploy/README.md documents %s %s", role, option.getKey())
                        .contains(role + " " + option.getKey());
            }
        }
    }

    @Test
    void composeAgreesWithTheCode() throws Exception {
        Map<String, Role> roles = roles();
        JsonNode compose = yaml(ROOT.resolve("docker-compose.yml"));
        JsonNode services = compose.get("services");
        int shards = -1;
        // Per shard, each replica's service name and port.
        Map<Integer, List<String>> backendPorts = new java.util.TreeMap<>();
        List<String> backendHttpPorts = new ArrayList<>();
        List<String> frontendBackends = null;
        int frontendPort = -1;
        for (Iterator<Map.Entry<String, JsonNode>> it = services.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            JsonNode service = e.getValue();
            if (!service.path("image").asText().startsWith("trigrep")) {
                continue;
            }
            assertThat(service.path("build").path("dockerfile").asText()).isEqualTo("deploy/Dockerfile");
            assertThat(ROOT.resolve("deploy/Dockerfile")).exists();
            List<String> command = words(service.get("command"));
            Map<String, String> flags = checkCommand(roles, command, "docker-compose " + name);
            List<String> env = new ArrayList<>();
            service.path("environment").fieldNames().forEachRemaining(env::add);
            checkEnv(roles, command.get(0), env, "docker-compose " + name);
            List<String> volumes = words(service.path("volumes"));
            switch (command.get(0)) {
                case "index" -> {
                    shards = Integer.parseInt(flags.get("--shards"));
                    assertThat(volumes).anyMatch(v -> v.startsWith("shards:" + flags.get("--out")));
                }
                case "backend" -> {
                    Matcher n = Pattern.compile("backend-(\\d+)[a-z]?").matcher(name);
                    assertThat(n.matches()).as(name).isTrue();
                    int i = Integer.parseInt(n.group(1));
                    assertThat(flags.get("--shard")).isEqualTo("/data/shards/shard-" + i);
                    assertThat(volumes).contains("shards:/data/shards");
                    assertThat(flags.get("--bind")).isEqualTo("0.0.0.0");
                    backendPorts.computeIfAbsent(i, k -> new ArrayList<>()).add(name + ":" + flags.get("--port"));
                    backendHttpPorts.add(name + ":" + flags.get("--http-port"));
                    checkProbe(service, Integer.parseInt(flags.get("--http-port")), name);
                    assertThat(service.path("depends_on")
                                    .path("indexer")
                                    .path("condition")
                                    .asText())
                            .isEqualTo("service_completed_successfully");
                }
                case "frontend" -> {
                    frontendBackends = Arrays.asList(flags.get("--backends").split(","));
                    frontendPort = Integer.parseInt(flags.get("--port"));
                    assertThat(flags.get("--bind")).isEqualTo("0.0.0.0");
                    checkProbe(service, frontendPort, name);
                    assertThat(words(service.path("ports"))).contains(frontendPort + ":" + frontendPort);
                    for (Iterator<String> d = service.path("depends_on").fieldNames(); d.hasNext(); ) {
                        assertThat(service.path("depends_on")
                                        .path(d.next())
                                        .path("condition")
                                        .asText())
                                .isEqualTo("service_healthy");
                    }
                }
                default -> throw new AssertionError("unexpected role in docker-compose: " + command);
            }
        }
        assertThat(shards).isPositive();
        assertThat(backendPorts.keySet())
                .as("a backend or more per shard")
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.IntStream.range(0, shards).boxed().toList());
        assertThat(backendPorts.values()).as("a shard with replicas").anyMatch(r -> r.size() > 1);
        List<String> expected = new ArrayList<>();
        backendPorts.forEach((i, replicas) -> expected.add(String.join("|", replicas)));
        assertThat(frontendBackends).as("shards in order, replicas joined by |").containsExactlyElementsOf(expected);
        for (String depends : List.of("backend-0", "backend-1", "backend-2")) {
            assertThat(services.path("frontend").path("depends_on").has(depends))
                    .isTrue();
        }

        // Prometheus scrapes exactly those ports, and reads its files from the mounted deploy folder.
        JsonNode prometheus = yaml(ROOT.resolve("deploy/prometheus/prometheus.yml"));
        Map<String, List<String>> targets = new LinkedHashMap<>();
        for (JsonNode job : prometheus.get("scrape_configs")) {
            List<String> t = new ArrayList<>();
            job.path("static_configs").forEach(sc -> t.addAll(words(sc.path("targets"))));
            targets.put(job.get("job_name").asText(), t);
            assertThat(job.path("metrics_path").asText("/metrics")).isIn(PROBE_PATHS);
        }
        assertThat(targets.get("trigrep-frontend")).containsExactly("frontend:" + frontendPort);
        assertThat(targets.get("trigrep-backend")).containsExactlyInAnyOrderElementsOf(backendHttpPorts);
        assertThat(words(services.path("prometheus").path("volumes")))
                .contains("./deploy/prometheus:/etc/prometheus:ro");
    }

    private static void checkProbe(JsonNode service, int port, String name) {
        List<String> test = words(service.path("healthcheck").path("test"));
        assertThat(test).as(name).hasSize(4);
        assertThat(test.subList(0, 3)).containsExactly("CMD", "/opt/trigrep/trigrep", "probe");
        Matcher url = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)(/\\S*)").matcher(test.get(3));
        assertThat(url.matches()).as(test.get(3)).isTrue();
        assertThat(Integer.parseInt(url.group(1)))
                .as("%s probes its own port", name)
                .isEqualTo(port);
        assertThat(url.group(2)).isIn(PROBE_PATHS);
    }

    @Test
    void kubernetesManifestsAgreeWithTheCode() throws Exception {
        Map<String, Role> roles = roles();
        Path k8s = ROOT.resolve("deploy/k8s");
        JsonNode kustomization = yaml(k8s.resolve("kustomization.yaml"));
        Map<String, JsonNode> byKindAndName = new LinkedHashMap<>();
        for (JsonNode resource : kustomization.get("resources")) {
            Path file = k8s.resolve(resource.asText());
            assertThat(file).exists();
            for (JsonNode doc : yamlDocuments(file)) {
                if (doc != null && doc.has("kind")) {
                    byKindAndName.put(
                            doc.get("kind").asText() + "/"
                                    + doc.path("metadata").path("name").asText(),
                            doc);
                }
            }
        }
        try (var files = Files.list(k8s)) {
            assertThat(files.filter(f -> f.toString().endsWith(".yaml") && !f.endsWith("kustomization.yaml"))
                            .map(f -> f.getFileName().toString())
                            .toList())
                    .as("every manifest is in the kustomization")
                    .allMatch(f -> kustomization.get("resources").toString().contains(f));
        }

        JsonNode job = byKindAndName.get("Job/trigrep-index");
        JsonNode indexer = job.path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
        Map<String, String> indexFlags = checkCommand(roles, words(indexer.get("args")), "Job/trigrep-index");
        checkK8sEnv(roles, "index", indexer, "Job/trigrep-index");
        int shards = Integer.parseInt(indexFlags.get("--shards"));

        JsonNode sts = byKindAndName.get("StatefulSet/trigrep-backend");
        assertThat(sts.path("spec").path("replicas").asInt())
                .as("two backends per shard")
                .isEqualTo(2 * shards);
        JsonNode backend = sts.path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
        String shell = words(backend.get("command")).get(2);
        assertThat(shell).startsWith("exec /opt/trigrep/trigrep ");
        Map<String, String> backendFlags = checkCommand(
                roles,
                List.of(shell.substring("exec /opt/trigrep/trigrep ".length()).split(" ")),
                "StatefulSet/trigrep-backend");
        assertThat(backendFlags.get("--shard"))
                .isEqualTo(indexFlags.get("--out") + "/shard-$((${HOSTNAME##*-}%" + shards + "))");
        checkK8sEnv(roles, "backend", backend, "StatefulSet/trigrep-backend");
        Map<String, Integer> backendPorts = containerPorts(backend);
        assertThat(backendPorts)
                .containsEntry("search", Integer.parseInt(backendFlags.get("--port")))
                .containsEntry("http", Integer.parseInt(backendFlags.get("--http-port")));
        checkK8sProbes(backend, backendPorts, "http", "StatefulSet/trigrep-backend");
        assertThat(sts.path("spec")
                        .path("template")
                        .path("metadata")
                        .path("annotations")
                        .path("prometheus.io/port")
                        .asText())
                .isEqualTo(backendFlags.get("--http-port"));
        String serviceName = sts.path("spec").path("serviceName").asText();
        JsonNode backendService = byKindAndName.get("Service/" + serviceName);
        assertThat(backendService.path("spec").path("clusterIP").asText()).isEqualTo("None");
        checkServicePorts(backendService, backendPorts);
        assertThat(sts.path("spec")
                        .path("template")
                        .path("spec")
                        .path("volumes")
                        .toString())
                .contains("trigrep-shards");
        assertThat(byKindAndName)
                .containsKey("PersistentVolumeClaim/trigrep-shards")
                .containsKey("PersistentVolumeClaim/trigrep-corpus");

        JsonNode deployment = byKindAndName.get("Deployment/trigrep-frontend");
        JsonNode frontend = deployment
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
        Map<String, String> frontendFlags =
                checkCommand(roles, words(frontend.get("args")), "Deployment/trigrep-frontend");
        checkK8sEnv(roles, "frontend", frontend, "Deployment/trigrep-frontend");
        List<String> expected = new ArrayList<>();
        // Pod k serves shard k % shards: shard i's replicas are pods i and i + shards, by their own DNS names.
        for (int i = 0; i < shards; i++) {
            List<String> replicas = new ArrayList<>();
            for (int pod = i; pod < 2 * shards; pod += shards) {
                replicas.add(sts.path("metadata").path("name").asText() + "-" + pod + "." + serviceName + ":"
                        + backendFlags.get("--port"));
            }
            expected.add(String.join("|", replicas));
        }
        assertThat(frontendFlags.get("--backends").split(",")).containsExactlyElementsOf(expected);
        Map<String, Integer> frontendPorts = containerPorts(frontend);
        assertThat(frontendPorts).containsEntry("http", Integer.parseInt(frontendFlags.get("--port")));
        checkK8sProbes(frontend, frontendPorts, "http", "Deployment/trigrep-frontend");
        assertThat(deployment
                        .path("spec")
                        .path("template")
                        .path("metadata")
                        .path("annotations")
                        .path("prometheus.io/port")
                        .asText())
                .isEqualTo(frontendFlags.get("--port"));
        checkServicePorts(byKindAndName.get("Service/trigrep-frontend"), frontendPorts);

        // The sync updates the index the Job built and the backends serve, never two at once.
        JsonNode cron = byKindAndName.get("CronJob/trigrep-sync");
        assertThat(cron).as("CronJob/trigrep-sync").isNotNull();
        assertThat(cron.path("spec").path("concurrencyPolicy").asText()).isEqualTo("Forbid");
        JsonNode syncPod = cron.path("spec")
                .path("jobTemplate")
                .path("spec")
                .path("template")
                .path("spec");
        JsonNode syncer = syncPod.path("containers").get(0);
        Map<String, String> syncFlags = checkCommand(roles, words(syncer.get("args")), "CronJob/trigrep-sync");
        checkK8sEnv(roles, "sync", syncer, "CronJob/trigrep-sync");
        assertThat(syncFlags.get("--index")).isEqualTo(indexFlags.get("--out"));
        JsonNode indexPod = job.path("spec").path("template").path("spec");
        assertThat(claimAt(syncPod, syncFlags.get("--index"), false))
                .as("the sync writes the claim the index Job writes")
                .isEqualTo(claimAt(indexPod, indexFlags.get("--out"), false))
                .isEqualTo("trigrep-shards");
        assertThat(claimAt(syncPod, syncFlags.get("--dsc-dir"), true))
                .as("the sync reads the corpus claim")
                .isEqualTo("trigrep-corpus");
        JsonNode syncResources = syncer.path("resources");
        assertThat(syncResources.path("requests").path("memory").asText()).isNotEmpty();
        assertThat(syncResources.path("limits").path("memory").asText()).isNotEmpty();

        for (String workload : List.of("StatefulSet/trigrep-backend", "Deployment/trigrep-frontend")) {
            JsonNode w = byKindAndName.get(workload);
            JsonNode labels = w.path("spec").path("template").path("metadata").path("labels");
            assertThat(w.path("spec").path("selector").path("matchLabels")).isEqualTo(labels);
            JsonNode pdb = byKindAndName.get(
                    "PodDisruptionBudget/" + w.path("metadata").path("name").asText());
            assertThat(pdb).as("PodDisruptionBudget for %s", workload).isNotNull();
            assertThat(pdb.path("spec").path("selector").path("matchLabels")).isEqualTo(labels);
            JsonNode resources = w.path("spec")
                    .path("template")
                    .path("spec")
                    .path("containers")
                    .get(0)
                    .path("resources");
            assertThat(resources.path("requests").path("memory").asText()).isNotEmpty();
            assertThat(resources.path("limits").path("memory").asText()).isNotEmpty();
        }
    }

    /**
     * The claim of the volume the pod's first container mounts at {@code path} (or a folder of it),
     * checking the mount is read-only exactly when {@code readOnly}.
     */
    private static String claimAt(JsonNode pod, String path, boolean readOnly) {
        String volume = null;
        for (JsonNode mount : pod.path("containers").get(0).path("volumeMounts")) {
            String at = mount.get("mountPath").asText();
            if (path.equals(at) || path.startsWith(at + "/")) {
                volume = mount.get("name").asText();
                assertThat(mount.path("readOnly").asBoolean(false))
                        .as("%s is mounted read-only", path)
                        .isEqualTo(readOnly);
            }
        }
        assertThat(volume).as("a volume is mounted at %s", path).isNotNull();
        for (JsonNode v : pod.path("volumes")) {
            if (v.get("name").asText().equals(volume)) {
                return v.path("persistentVolumeClaim").path("claimName").asText(null);
            }
        }
        throw new AssertionError("no volume " + volume + " in the pod");
    }

    /** Every script a launcher role runs is in the image, where the launcher there looks for it. */
    @Test
    void theImageHoldsTheScriptsOfTheLaunchersRoles() throws Exception {
        Map<String, String> scripts = scriptRoles();
        assertThat(scripts).containsEntry("sync", "indexer/fetch-debian-sources.sh");
        String dockerfile = Files.readString(ROOT.resolve("deploy/Dockerfile"));
        assertThat(dockerfile).contains("COPY trigrep /opt/trigrep/trigrep");
        for (String script : scripts.values()) {
            assertThat(dockerfile).contains("COPY " + script + " /opt/trigrep/" + script);
            assertThat(Files.isExecutable(ROOT.resolve(script))).as(script).isTrue();
        }
    }

    private static void checkK8sEnv(Map<String, Role> roles, String role, JsonNode container, String where)
            throws IOException {
        List<String> names = new ArrayList<>();
        container.path("env").forEach(e -> names.add(e.get("name").asText()));
        checkEnv(roles, role, names, where);
    }

    private static Map<String, Integer> containerPorts(JsonNode container) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        container
                .path("ports")
                .forEach(p ->
                        ports.put(p.get("name").asText(), p.get("containerPort").asInt()));
        return ports;
    }

    private static void checkK8sProbes(JsonNode container, Map<String, Integer> ports, String portName, String where) {
        for (String probe : List.of("readinessProbe", "livenessProbe")) {
            JsonNode get = container.path(probe).path("httpGet");
            assertThat(get.isMissingNode()).as("%s has a %s", where, probe).isFalse();
            assertThat(get.get("port").asText()).as("%s %s port", where, probe).isEqualTo(portName);
            assertThat(ports).containsKey(portName);
            assertThat(get.get("path").asText().replaceFirst("\\?.*", ""))
                    .as("%s %s path", where, probe)
                    .isIn(PROBE_PATHS);
        }
    }

    private static void checkServicePorts(JsonNode service, Map<String, Integer> containerPorts) {
        assertThat(service).isNotNull();
        for (JsonNode port : service.path("spec").path("ports")) {
            assertThat(containerPorts)
                    .as("Service targets a named container port")
                    .containsKey(port.get("targetPort").asText());
        }
    }

    @Tag("external") // drives systemd-analyze
    @Test
    void systemdUnitsAgreeWithTheCode(@TempDir Path dir) throws Exception {
        Map<String, Role> roles = roles();
        Path systemd = ROOT.resolve("deploy/systemd");
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(systemd.resolve("trigrep.env"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                env.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
            }
        }
        Set<String> anyRole = new HashSet<>(launcherEnv());
        roles.values().forEach(r -> anyRole.addAll(r.env()));
        assertThat(anyRole).containsAll(env.keySet());

        Map<String, Map<String, String>> flagsByUnit = new LinkedHashMap<>();
        try (var units = Files.list(systemd)) {
            for (Path unit :
                    units.filter(u -> u.toString().endsWith(".service")).toList()) {
                String text = Files.readString(unit);
                Matcher exec = Pattern.compile("(?m)^ExecStart=/opt/trigrep/trigrep (.+)$")
                        .matcher(text);
                assertThat(exec.find()).as(unit.toString()).isTrue();
                flagsByUnit.put(
                        unit.getFileName().toString(),
                        checkCommand(roles, List.of(exec.group(1).split(" ")), unit.toString()));
                assertThat(text).contains("EnvironmentFile=/etc/trigrep/trigrep.env");
            }
        }
        int shards = Integer.parseInt(flagsByUnit.get("trigrep-index.service").get("--shards"));
        assertThat(env.get("TRIGREP_BACKENDS").split(",")).hasSize(shards);
        Map<String, String> backend = flagsByUnit.get("trigrep-backend@.service");
        assertThat(backend.get("--shard")).isEqualTo("/var/lib/trigrep/shards/shard-%i");
        Map<String, String> replica = flagsByUnit.get("trigrep-backend-replica@.service");
        assertThat(replica.get("--shard")).isEqualTo(backend.get("--shard"));
        String target = Files.readString(systemd.resolve("trigrep.target"));
        int replicated = 0;
        for (int i = 0; i < shards; i++) {
            String[] replicas = env.get("TRIGREP_BACKENDS").split(",")[i].split("\\|");
            assertThat(replicas[0])
                    .isEqualTo("127.0.0.1:" + backend.get("--port").replace("%i", "" + i));
            assertThat(target).contains("trigrep-backend@" + i + ".service");
            if (replicas.length > 1) {
                replicated++;
                assertThat(replicas)
                        .containsExactly(
                                replicas[0],
                                "127.0.0.1:" + replica.get("--port").replace("%i", "" + i));
                assertThat(target).contains("trigrep-backend-replica@" + i + ".service");
            }
        }
        assertThat(replicated).as("a shard with two replicas").isPositive();

        // The sync follows the index the backends serve and writes only where its unit lets it.
        Map<String, String> sync = flagsByUnit.get("trigrep-sync.service");
        assertThat(sync).as("deploy/systemd/trigrep-sync.service").isNotNull();
        assertThat(sync.get("--index")).isEqualTo(backend.get("--shard").replace("/shard-%i", ""));
        String syncUnit = Files.readString(systemd.resolve("trigrep-sync.service"));
        assertThat(syncUnit).contains("Type=oneshot");
        Matcher writable = Pattern.compile("(?m)^ReadWritePaths=(.+)$").matcher(syncUnit);
        assertThat(writable.find()).isTrue();
        assertThat(writable.group(1).split(" ")).contains(sync.get("--index"), sync.get("--download"));
        // Each timer starts a unit that exists (its own name's .service unless it names one).
        try (var timers = Files.list(systemd)) {
            for (Path timer :
                    timers.filter(t -> t.toString().endsWith(".timer")).toList()) {
                String text = Files.readString(timer);
                Matcher named = Pattern.compile("(?m)^Unit=(.+)$").matcher(text);
                String unit = named.find()
                        ? named.group(1)
                        : timer.getFileName().toString().replaceFirst("\\.timer$", ".service");
                assertThat(systemd.resolve(unit))
                        .as("%s starts %s", timer, unit)
                        .exists();
                assertThat(text).containsPattern("(?m)^RandomizedDelaySec=");
            }
        }
        assertThat(systemd.resolve("trigrep-sync.timer")).exists();

        // systemd's own check, on copies that run this checkout's launcher instead of /opt's.
        List<String> command = new ArrayList<>(List.of("systemd-analyze", "verify", "--man=no"));
        try (var units = Files.list(systemd)) {
            for (Path unit : units.filter(u -> u.toString().endsWith(".service")
                            || u.toString().endsWith(".target")
                            || u.toString().endsWith(".timer"))
                    .toList()) {
                Path copy = dir.resolve(unit.getFileName());
                Files.writeString(
                        copy,
                        Files.readString(unit)
                                .replace(
                                        "/opt/trigrep/trigrep",
                                        ROOT.resolve("trigrep").toString()));
                command.add(copy.toString());
            }
        }
        assertThat(run(command)).isEqualTo("");
    }

    @Tag("external") // drives docker-compose and promtool
    @Test
    void theRealValidatorsAcceptTheFiles(@TempDir Path dir) throws Exception {
        assertThat(run(List.of(
                        "docker-compose",
                        "-f",
                        ROOT.resolve("docker-compose.yml").toString(),
                        "config",
                        "-q")))
                .isEqualTo("");
        assertThat(run(List.of(
                        "promtool",
                        "check",
                        "config",
                        ROOT.resolve("deploy/prometheus/prometheus.yml").toString())))
                .contains("SUCCESS");
        assertThat(run(List.of(
                        "promtool",
                        "check",
                        "rules",
                        ROOT.resolve("deploy/prometheus/rules/trigrep.yml").toString())))
                .contains("SUCCESS: 15 rules found");
        // The validators do fail: a rule with a broken expression is refused.
        Path broken = dir.resolve("broken.yml");
        Files.writeString(
                broken, "groups:\n  - name: x\n    rules:\n      - record: x:y\n        expr: sum(rate(foo[5m])\n");
        Process p = new ProcessBuilder("promtool", "check", "rules", broken.toString())
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isNotZero();
    }

    /** Runs a validator; fails the test with its output unless it exits 0. Returns its output. */
    static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .directory(ROOT.toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s said:\n%s", command, out).isZero();
        return out.strip();
    }

    /**
     * Issue 15, item 8: in Kubernetes both sides run mutual TLS. Each workload's TRIGREP_TLS_* name
     * files of a mounted Secret that the kustomization generates from what deploy/make-certs.sh
     * writes, the backends' from the backend certificate and the frontends' from the frontend one;
     * and that backend certificate names every host in the frontend's --backends.
     */
    @Tag("external") // drives openssl (deploy/make-certs.sh)
    @Test
    void kubernetesRunsMutualTlsWithTheCertificatesMakeCertsWrites(@TempDir Path dir) throws Exception {
        Path k8s = ROOT.resolve("deploy/k8s");
        JsonNode kustomization = yaml(k8s.resolve("kustomization.yaml"));
        Map<String, Map<String, String>> secrets = new LinkedHashMap<>();
        for (JsonNode generator : kustomization.path("secretGenerator")) {
            Map<String, String> files = new LinkedHashMap<>();
            generator
                    .path("files")
                    .forEach(f -> files.put(
                            f.asText().substring(0, f.asText().indexOf('=')),
                            f.asText().substring(f.asText().indexOf('=') + 1)));
            secrets.put(generator.get("name").asText(), files);
        }
        Process make = new ProcessBuilder(
                        "bash",
                        ROOT.resolve("deploy/make-certs.sh").toString(),
                        dir.resolve("tls").toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(make.waitFor()).as(output).isZero();

        Map<String, String> certificateOf = new LinkedHashMap<>();
        List<String> backendsFlag = new ArrayList<>();
        for (String[] workload :
                new String[][] {{"backend.yaml", "StatefulSet", "backend"}, {"frontend.yaml", "Deployment", "frontend"}
                }) {
            JsonNode pod = null;
            for (JsonNode doc : yamlDocuments(k8s.resolve(workload[0]))) {
                if (doc != null && workload[1].equals(doc.path("kind").asText())) {
                    pod = doc.path("spec").path("template").path("spec");
                }
            }
            assertThat(pod).as(workload[0]).isNotNull();
            JsonNode container = pod.path("containers").get(0);
            if (workload[2].equals("frontend")) {
                List<String> args = words(container.get("args"));
                backendsFlag.addAll(
                        Arrays.asList(args.get(args.indexOf("--backends") + 1).split("[,|]")));
            }
            Map<String, String> env = new LinkedHashMap<>();
            container
                    .path("env")
                    .forEach(
                            e -> env.put(e.get("name").asText(), e.path("value").asText()));
            Map<String, String> mounts = new LinkedHashMap<>();
            container
                    .path("volumeMounts")
                    .forEach(m -> mounts.put(
                            m.get("name").asText(), m.get("mountPath").asText()));
            for (String variable : List.of("TRIGREP_TLS_CERT", "TRIGREP_TLS_KEY", "TRIGREP_TLS_CA")) {
                String file = env.get(variable);
                assertThat(file).as("%s sets %s", workload[0], variable).isNotNull();
                String volume = null;
                for (Map.Entry<String, String> m : mounts.entrySet()) {
                    if (file.startsWith(m.getValue() + "/")) {
                        volume = m.getKey();
                    }
                }
                assertThat(volume)
                        .as("%s: %s is on a mounted volume", workload[0], file)
                        .isNotNull();
                String secretName = null;
                for (JsonNode v : pod.path("volumes")) {
                    if (v.get("name").asText().equals(volume)) {
                        secretName = v.path("secret").path("secretName").asText(null);
                    }
                }
                assertThat(secrets)
                        .as("%s: volume %s is a generated Secret", workload[0], volume)
                        .containsKey(secretName);
                String key = file.substring(mounts.get(volume).length() + 1);
                String source = secrets.get(secretName).get(key);
                assertThat(source)
                        .as("%s: Secret %s has %s", workload[0], secretName, key)
                        .isNotNull();
                assertThat(source)
                        .as("%s comes from make-certs.sh's output", source)
                        .startsWith("tls/");
                assertThat(dir.resolve(source))
                        .as("make-certs.sh writes %s", source)
                        .exists();
                if (variable.equals("TRIGREP_TLS_CERT")) {
                    assertThat(source)
                            .as("%s presents its own certificate", workload[0])
                            .isEqualTo("tls/" + workload[2] + ".crt");
                    certificateOf.put(workload[2], source);
                }
            }
        }
        java.security.cert.X509Certificate backendCert;
        try (var in = Files.newInputStream(dir.resolve(certificateOf.get("backend")))) {
            backendCert = (java.security.cert.X509Certificate)
                    java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        List<String> names = new ArrayList<>();
        for (List<?> san : backendCert.getSubjectAlternativeNames()) {
            names.add(san.get(1).toString());
        }
        assertThat(backendCert.getExtendedKeyUsage())
                .as("the backend's /readyz pings itself with it")
                .contains("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(backendsFlag).isNotEmpty();
        for (String backend : backendsFlag) {
            String host = backend.substring(0, backend.lastIndexOf(':'));
            assertThat(names)
                    .as("the backend certificate names %s", host)
                    .anyMatch(n -> n.equals(host)
                            || n.startsWith("*.")
                                    && host.endsWith(n.substring(1))
                                    && host.indexOf('.') == host.length() - n.length() + 1);
        }
    }
}
