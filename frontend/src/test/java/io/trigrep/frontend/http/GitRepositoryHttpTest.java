package io.trigrep.frontend.http;

import static io.trigrep.indexer.corpus.GitFixture.file;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.corpus.GitFixture;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 63 through HTTP: a repository indexed at two branches; the JSON API and the web UI name
 * each result's branches and commit and link it to the code host, branch: narrows, and the file
 * view takes a branch.
 */
@Tag("integration")
class GitRepositoryHttpTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    static String main;
    static String dev;

    @BeforeAll
    static void start() throws Exception {
        try (GitFixture repo = GitFixture.bare(dir.resolve("proj.git"))) {
            Map<String, GitFixture.Entry> tree = new LinkedHashMap<>();
            tree.put("README", file("a readme\n"));
            tree.put("src/util.c", file("int util(void) { return 1; }\n"));
            main = repo.commit("main", tree);
            tree.put("src/util.c", file("int util(void) { return 2; }\n"));
            dev = repo.commit("dev", tree);
            repo.headAt("main");
            repo.origin("git@github.com:example/proj.git");
        }
        cluster = new LoopbackCluster(
                Path.of(dir.resolve("proj.git") + "@main,dev"),
                dir,
                IndexBuilder.Options.defaults(2).withSymbols(SymbolChoice.none("test")));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(cluster.base + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static List<String> search(String query) throws Exception {
        HttpResponse<String> response =
                get("/api/v1/search?per_page=100&q=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        for (JsonNode r : JSON.readTree(response.body()).get("results")) {
            JsonNode git = r.get("git");
            out.add(r.get("package").asText() + "/" + r.get("path").asText() + ":" + r.get("line") + " "
                    + git.get("branches") + " " + git.get("commit").asText() + " "
                    + git.get("url").asText());
        }
        out.sort(null);
        return out;
    }

    private static String link(String commit, String path, int line) {
        return "https://github.com/example/proj/blob/" + commit + "/" + path + "#L" + line;
    }

    @Test
    void resultsNameTheirBranchesAndCommitAndLinkToTheCodeHost() throws Exception {
        assertThat(search("util|readme"))
                .containsExactly(
                        "proj/README:1 [\"main\",\"dev\"] " + main + " " + link(main, "README", 1),
                        "proj/src/util.c:1 [\"dev\"] " + dev + " " + link(dev, "src/util.c", 1),
                        "proj/src/util.c:1 [\"main\"] " + main + " " + link(main, "src/util.c", 1));
    }

    @Test
    void branchAndRepoFilterTheResults() throws Exception {
        assertThat(search("return branch:dev"))
                .containsExactly("proj/src/util.c:1 [\"dev\"] " + dev + " " + link(dev, "src/util.c", 1));
        assertThat(search("return -branch:dev repo:^proj$"))
                .containsExactly("proj/src/util.c:1 [\"main\"] " + main + " " + link(main, "src/util.c", 1));
        assertThat(search("return repo:^other$")).isEmpty();
    }

    @Test
    void theFileViewTakesABranch() throws Exception {
        JsonNode onDev = JSON.readTree(
                get("/api/v1/file?package=proj&path=src/util.c&branch=dev").body());
        assertThat(onDev.get("content").asText()).isEqualTo("int util(void) { return 2; }\n");
        JsonNode onMain = JSON.readTree(
                get("/api/v1/file?package=proj&path=src/util.c&branch=main").body());
        assertThat(onMain.get("content").asText()).isEqualTo("int util(void) { return 1; }\n");
        assertThat(get("/api/v1/file?package=proj&path=src/util.c&branch=nosuch")
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    void theWebUiLinksToTheCodeHostNextToItsOwnView() throws Exception {
        String page = get("/search?q=return+branch%3Adev").body();
        assertThat(page)
                .contains("href=\"" + link(dev, "src/util.c", 1) + "\"")
                .contains("/show?package=proj&amp;path=src%2Futil.c&amp;branch=dev");
        assertThat(get("/show?package=proj&path=src/util.c&branch=dev&line=1").body())
                .contains("return 2;");
    }
}
