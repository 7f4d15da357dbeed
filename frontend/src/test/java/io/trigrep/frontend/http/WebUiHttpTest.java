package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.frontend.fanout.FanOut;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI's pages as a browser without JavaScript gets them: server-rendered results,
 * escaping, errors as pages with words, a running query that reloads itself, 429 when busy.
 */
@Tag("integration")
class WebUiHttpTest {
    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    static String base;
    static final HttpClient http =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeAll
    static void start() throws Exception {
        cluster = new LoopbackCluster(HttpApiTest.CORPUS, dir, 2);
        base = cluster.base;
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    static HttpResponse<String> get(String root, String pathAndQuery, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(root + pathAndQuery));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void theFirstPageOfResultsIsRenderedOnTheServer() throws Exception {
        HttpResponse<String> page = get(base, "/search?q=return");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("content-security-policy").orElse(""))
                .contains("script-src 'self'");
        String html = page.body();
        assertThat(html)
                .contains("main id=\"main\" data-done")
                .contains("<li class=\"result\">")
                .contains("<mark>return</mark>")
                .contains("href=\"/search?q=return&amp;page=2\"")
                .contains("href=\"/search?q=return&amp;view=packages\"")
                .doesNotContain("http-equiv=\"refresh\"");
        assertThat(html.split("<li class=\"result\">", -1)).hasSize(ResultPages.PER_PAGE + 1);

        String two = get(base, "/search?q=return&page=2").body();
        assertThat(two)
                .contains("<ol class=\"results\" start=\"11\">")
                .contains("<span class=\"current\" aria-current=\"page\">2</span>");
        assertThat(get(base, "/search?q=return&view=packages").body())
                .contains("<section class=\"package\">")
                .contains("show all ");
        assertThat(get(base, "/search?q=return&view=list").body())
                .contains("<ul class=\"package-list\">")
                .contains("package%3A%5Ezlib_1%5C.2%5C.13%5C.dfsg-1%24");
        // A page past the end shows the last one; a page that is not a number is refused, by name (issue 62).
        assertThat(get(base, "/search?q=return&page=999999").statusCode()).isEqualTo(200);
        HttpResponse<String> zebra = get(base, "/search?q=return&page=zebra");
        assertThat(zebra.statusCode()).isEqualTo(400);
        assertThat(zebra.body()).contains("page must be an integer");
    }

    @Test
    void everythingFromOutsideIsEscaped() throws Exception {
        String results =
                get(base, "/search?q=" + q("alert(1)") + "&mode=literal").body();
        assertThat(results)
                .contains("&lt;script&gt;<mark>alert(1)</mark>&lt;/script&gt;")
                .doesNotContain("<script>alert");
        assertThat(results).contains("id=\"literal\" type=\"checkbox\" name=\"mode\" value=\"literal\" checked");

        String hostile = "\"><script>x()</script>";
        String page = get(base, "/search?q=" + q(hostile) + "&mode=literal").body();
        assertThat(page)
                .contains("value=\"&quot;&gt;&lt;script&gt;x()&lt;/script&gt;\"")
                .doesNotContain("<script>x()");

        String file = get(base, "/show?package=synthetic_1.0&path=web/index.html&q=" + q(hostile))
                .body();
        assertThat(file)
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;")
                .doesNotContain("<script>alert")
                .doesNotContain("<script>x()");
    }

    @Test
    void errorsArePagesWithWordsNotStackTraces() throws Exception {
        HttpResponse<String> bad = get(base, "/search?q=" + q("foo(bar"));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body())
                .contains("id=\"query-error\"")
                .contains("missing closing )")
                .contains("<pre class=\"caret\">foo(bar\n   ^</pre>")
                .doesNotContain("Exception");

        HttpResponse<String> blank = get(base, "/search?q=+");
        assertThat(blank.statusCode()).isEqualTo(302);
        assertThat(blank.headers().firstValue("location")).hasValue("/");

        assertThat(get(base, "/show?package=..&path=x").statusCode()).isEqualTo(400);
        assertThat(get(base, "/show?package=zlib_1.2.13.dfsg-1&path=../../etc/passwd")
                        .statusCode())
                .isEqualTo(400);
        HttpResponse<String> missing = get(base, "/show?package=zlib_1.2.13.dfsg-1&path=no/such.c");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("No such file");
    }

    @Test
    void theFileViewNumbersAndAnchorsEveryLine() throws Exception {
        Path source = HttpApiTest.CORPUS.resolve("zlib_1.2.13.dfsg-1/adler32.c");
        List<String> lines = Files.readAllLines(source);
        String page = get(base, "/show?package=zlib_1.2.13.dfsg-1&path=adler32.c&q=adler")
                .body();
        assertThat(page)
                .contains("<span class=\"l\" id=\"L1\"><a class=\"n\" href=\"#L1\">1</a>")
                .contains("id=\"L" + lines.size() + "\"")
                .doesNotContain("id=\"L" + (lines.size() + 1) + "\"")
                .contains("href=\"/search?q=adler\">← back to the results</a>");
    }

    @Test
    void staticAssetsAreRevalidatedByETag() throws Exception {
        HttpResponse<String> js = get(base, "/static/app.js");
        assertThat(js.statusCode()).isEqualTo(200);
        assertThat(js.headers().firstValue("content-type")).hasValue("text/javascript; charset=utf-8");
        String etag = js.headers().firstValue("etag").orElseThrow();
        assertThat(etag).as("weak: gzip and plain bytes share it").startsWith("W/\"");
        assertThat(js.headers().firstValue("vary")).hasValue("accept-encoding");
        String opaque = etag.substring(2);
        for (String ifNoneMatch : List.of(etag, opaque, "*", "\"other\", " + etag, "W/\"x\",W/" + opaque)) {
            assertThat(get(base, "/static/app.js", "If-None-Match", ifNoneMatch).statusCode())
                    .as(ifNoneMatch)
                    .isEqualTo(304);
        }
        assertThat(get(base, "/static/app.js", "If-None-Match", "\"other\"").statusCode())
                .isEqualTo(200);
        assertThat(get(base, "/static/style.css").body()).contains("mark");
        assertThat(get(base, "/static/nope.js").statusCode()).isEqualTo(404);
        HttpResponse<String> home = get(base, "/");
        assertThat(home.body()).contains("autofocus").contains("<form class=\"search\" action=\"/search\"");
    }

    /** A backend that accepts and never answers keeps a query running for as long as the test needs. */
    @Test
    void aRunningQueryReloadsItselfWithoutJavaScriptAndTheExcessGets429() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            List<Socket> held = new ArrayList<>();
            Thread accept = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept());
                    }
                } catch (Exception ignored) {
                    // closed at the end of the test
                }
            });
            accept.setDaemon(true);
            accept.start();
            List<InetSocketAddress> withSilent = List.of(
                    cluster.fanOut.backends().get(0), new InetSocketAddress("127.0.0.1", silent.getLocalPort()));
            try (FanOut slow = new FanOut(withSilent, dir.resolve("data-slow"), 1);
                    FrontendServer server = new FrontendServer(slow, 1)) {
                String root = "http://127.0.0.1:" + server.start("127.0.0.1", 0).getPort();
                HttpResponse<String> running = get(root, "/search?q=return");
                assertThat(running.statusCode()).isEqualTo(200);
                assertThat(running.body())
                        .contains("<noscript><meta http-equiv=\"refresh\" content=\"1\"></noscript>")
                        .contains(
                                "data-events=\"/api/v1/search/events?q=return&amp;match_mode=regexp&amp;per_page=10\"")
                        .contains("<progress id=\"bar\"");

                // The one query slot, held by an event stream: a search page now is 429, with a way to try again.
                HttpResponse<Stream<String>> events = http.send(
                        HttpRequest.newBuilder(URI.create(root + "/api/v1/search/events?q=return"))
                                .build(),
                        HttpResponse.BodyHandlers.ofLines());
                Iterator<String> lines = events.body().iterator();
                assertThat(lines.next()).isEqualTo("event: progress");
                HttpResponse<String> busy = get(root, "/search?q=int");
                assertThat(busy.statusCode()).isEqualTo(429);
                assertThat(busy.headers().firstValue("retry-after")).hasValue("1");
                assertThat(busy.body()).contains("Too busy right now").contains("href=\"/search?q=int\">Try again</a>");

                http.send(
                        HttpRequest.newBuilder(URI.create(root + "/api/v1/queries/cancel?q=return"))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                while (lines.hasNext()) {
                    lines.next();
                }
                // Cancelled, the query is done and partial: the same URL now renders results and says a shard failed.
                String done = get(root, "/search?q=return").body();
                assertThat(done)
                        .contains("data-done")
                        .contains("1 of 2 shards failed")
                        .contains("cancelled")
                        .doesNotContain("http-equiv=\"refresh\"");
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }
}
