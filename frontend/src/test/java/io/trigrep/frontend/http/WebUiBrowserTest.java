package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.frontend.fanout.FanOut;
import java.io.File;
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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web UI in Debian's headless Chromium, driven through its chromedriver: a real frontend over
 * three real backends on loopback, serving the test corpus plus copies of one of its packages.
 * A second frontend also fans out to a peer that never answers, so a query there stays running
 * (and its progress page on screen) until the test cancels it. Screenshots go to
 * target/screenshots/.
 */
@Tag("external") // drives Chromium and chromedriver
@Tag("integration")
class WebUiBrowserTest {
    static final Path SCREENSHOTS = Path.of("target/screenshots");
    /** No trigram to narrow it down: a full scan, with results in every copy of the corpus. */
    static final String SLOW_QUERY = "\\w+\\s*\\(\\s*\\w+\\s*,\\s*\\w+";

    static final int BULK_COPIES = 40;

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    /** A peer that accepts and never answers: it holds a query running until the test cancels it. */
    static Gate gate;

    static FanOut gatedFanOut;
    static FrontendServer gatedFrontend;
    static String gatedBase;
    static FanOut partialFanOut;
    static FrontendServer partialFrontend;
    static String base;
    static String partialBase;
    static WebDriver browser;
    static WebDriverWait wait;
    /** Issue 13: a backend over a generated file of about 30 MB and a file with a line of 10 KB. */
    static LoopbackCluster bigCluster;
    /** Issue 18: the test corpus indexed with its definitions (universal-ctags), for sym: queries. */
    static LoopbackCluster symbolCluster;

    static String bigBase;
    static int bigLines;

    @BeforeAll
    static void start() throws Exception {
        Path corpus = dir.resolve("corpus");
        copy(HttpApiTest.CORPUS, corpus);
        // Copies of a real package under other names: pages of results and packages to look at.
        for (int i = 0; i < BULK_COPIES; i++) {
            copy(HttpApiTest.CORPUS.resolve("zlib_1.2.13.dfsg-1"), corpus.resolve(String.format("bulk%03d_1.0", i)));
        }
        cluster = new LoopbackCluster(corpus, dir, 3);
        Path huge = Files.createDirectories(dir.resolve("big-corpus/huge_1.0"));
        try (var out = new java.io.BufferedWriter(Files.newBufferedWriter(huge.resolve("table.txt")), 1 << 20)) {
            long written = 0;
            while (written < 30_000_000) {
                String row = String.format(
                        "entry %07d: key=%08x value=the quick brown fox jumps over the lazy dog%n",
                        ++bigLines, bigLines * 2654435761L & 0xffffffffL);
                out.write(row);
                written += row.length();
            }
        }
        Files.writeString(
                huge.resolve("generated.js"),
                "before();\n" + "x".repeat(5000) + "long_line_needle" + "y".repeat(5000) + "\nafter();\n");
        bigCluster = new LoopbackCluster(dir.resolve("big-corpus"), dir.resolve("big"), 1);
        symbolCluster = new LoopbackCluster(
                HttpApiTest.CORPUS,
                dir.resolve("symbols"),
                io.trigrep.indexer.build.IndexBuilder.Options.defaults(1)
                        .withSymbols(io.trigrep.indexer.build.SymbolChoice.extract(
                                io.trigrep.indexer.symbols.SymbolExtractor.start(
                                        new io.trigrep.indexer.symbols.SymbolExtractor.Config(
                                                "ctags", 1, Duration.ofSeconds(30))))));
        bigBase = bigCluster.base;
        base = cluster.base;
        List<InetSocketAddress> addresses = cluster.addresses;

        // The same backends and one more that refuses every connection: a partial answer.
        List<InetSocketAddress> withDead = new ArrayList<>(addresses);
        try (ServerSocket closed = new ServerSocket(0)) {
            withDead.add(new InetSocketAddress("127.0.0.1", closed.getLocalPort()));
        }
        partialFanOut = new FanOut(withDead, dir.resolve("data-partial"), 2);
        partialFrontend = new FrontendServer(partialFanOut, 8);
        partialBase =
                "http://127.0.0.1:" + partialFrontend.start("127.0.0.1", 0).getPort();

        // The same backends and one more behind a held gate: a query there runs until the test says
        // it is over (the gated backend answers pings, so it is slow, not given up as stopped).
        gate = new Gate(addresses.get(0));
        gate.hold();
        List<InetSocketAddress> withGate = new ArrayList<>(addresses);
        withGate.add(gate.address());
        gatedFanOut = new FanOut(withGate, dir.resolve("data-gated"), 2);
        gatedFrontend = new FrontendServer(gatedFanOut, 8);
        gatedBase = "http://127.0.0.1:" + gatedFrontend.start("127.0.0.1", 0).getPort();

        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        // The flags keep Chromium off the network this machine does not have, and root-safe.
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,900",
                "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium")));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        wait = new WebDriverWait(browser, PATIENCE, Duration.ofMillis(20));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        for (AutoCloseable c : new AutoCloseable[] {gatedFrontend, gatedFanOut, gate, partialFrontend, partialFanOut}) {
            if (c != null) {
                c.close();
            }
        }
        if (cluster != null) {
            cluster.close();
        }
        if (bigCluster != null) {
            bigCluster.close();
        }
        if (symbolCluster != null) {
            symbolCluster.close();
        }
    }

    @BeforeEach
    void blank() {
        browser.get("about:blank");
    }

    @Test
    void searchPageFocusesTheBoxAndSlashFocusesItAgain() throws Exception {
        browser.get(base + "/");
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("q");
        assertThat(browser.findElement(By.cssSelector(".help")).getText())
                .contains("package:", "-package:", "path:", "-path:", "filetype:", "case:no", "(?i)");
        assertThat(browser.findElements(By.cssSelector(".examples a"))).isNotEmpty();
        screenshot("search-page");

        browser.findElement(By.cssSelector("footer")).click();
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isNotEqualTo("q");
        browser.findElement(By.tagName("body")).sendKeys("/");
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("q");
    }

    @Test
    void aTypedQueryShowsProgressThenHighlightedResults() throws Exception {
        // On the gated frontend the query runs until the test cancels it: the progress page is
        // what the browser gets, whatever the speed of the machine.
        browser.get(gatedBase + "/");
        WebElement box = browser.findElement(By.id("q"));
        box.sendKeys(SLOW_QUERY + Keys.ENTER);
        WebElement bar = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("bar")));
        assertThat(bar.getTagName()).isEqualTo("progress");
        assertThat(browser.getCurrentUrl()).contains("/search?q=");
        // Files and shards counted out of their totals: the three real backends answer, the gate does not.
        wait.until(ExpectedConditions.textMatches(
                By.id("progress-text"),
                java.util.regex.Pattern.compile(
                        "[\\d,]+ of [\\d,]+ files searched · 3 of 4 shards answered · [\\d,]+ results so far")));
        // The best results so far, their matches marked from the ranges in the event stream.
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#best .result .l.hit mark")));
        // Read in one go: the list is redrawn with every progress event.
        @SuppressWarnings("unchecked")
        List<String> best = (List<String>) ((JavascriptExecutor) browser)
                .executeScript(
                        "return [...document.querySelectorAll('#best .result .l.hit mark')].map(m => m.textContent)");
        assertThat(best).isNotEmpty().allMatch(m -> m.matches("(?s)\\w+\\s*\\(\\s*\\w+\\s*,\\s*\\w+"));
        screenshot("progress");

        // Cancelled, the query is done: app.js swaps in the finished first page, which says a shard failed.
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> cancel = http.send(
                HttpRequest.newBuilder(URI.create(gatedBase + "/api/v1/queries/cancel?q=" + enc(SLOW_QUERY)))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(cancel.statusCode()).isEqualTo(200);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        assertThat(browser.findElement(By.id("partial")).getText())
                .contains("1 of 4 shards failed")
                .contains("cancelled");
        checkResults();

        // The same query on the frontend whose backends all answer: the page to look at.
        browser.get(base + "/search?q=" + enc(SLOW_QUERY));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        assertThat(browser.findElements(By.id("partial"))).isEmpty();
        checkResults();
        screenshot("results");

        // The same page on a phone: nothing wider than the screen but the code blocks, which scroll.
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        try {
            Object overflow = ((JavascriptExecutor) browser)
                    .executeScript(
                            "return document.documentElement.scrollWidth - document.documentElement.clientWidth");
            Object wide = ((JavascriptExecutor) browser)
                    .executeScript(
                            "const w = document.documentElement.clientWidth; return [...document.querySelectorAll('*')]"
                                    + ".filter(e => e.getBoundingClientRect().right > w + 0.5).slice(0, 8)"
                                    + ".map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join('; ')");
            assertThat(((Number) overflow).intValue())
                    .as("wider than the screen: %s", wide)
                    .isLessThanOrEqualTo(0);
            screenshot("results-phone");
        } finally {
            browser.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 900));
        }
    }

    @Test
    void pageTwoAndTheBackButton() {
        browser.get(base + "/search?q=" + enc("return"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        String firstOnPageOne =
                browser.findElement(By.cssSelector(".result .loc")).getText();
        browser.findElement(By.cssSelector(".pager a[href$='page=2']")).click();
        wait.until(ExpectedConditions.urlContains("page=2"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("ol.results[start='11']")));
        assertThat(browser.findElement(By.cssSelector(".pager .current")).getText())
                .isEqualTo("2");
        assertThat(browser.findElement(By.cssSelector(".result .loc")).getText())
                .isNotEqualTo(firstOnPageOne);

        browser.navigate().back();
        wait.until(ExpectedConditions.not(ExpectedConditions.urlContains("page=2")));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("ol.results[start='1']")));
        assertThat(browser.findElement(By.cssSelector(".result .loc")).getText())
                .isEqualTo(firstOnPageOne);
        assertThat(browser.findElement(By.id("q")).getAttribute("value")).isEqualTo("return");
    }

    @Test
    void thePerPackageViewLinksToAllResultsOfAPackage() throws Exception {
        browser.get(base + "/search?q=" + enc("return"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        browser.findElement(By.linkText("by package")).click();
        wait.until(ExpectedConditions.urlContains("view=packages"));
        List<WebElement> packages = browser.findElements(By.cssSelector("section.package"));
        assertThat(packages).isNotEmpty();
        assertThat(packages.get(0).findElements(By.cssSelector(".result")).size())
                .isBetween(1, ResultPages.PER_PACKAGE);
        screenshot("packages");

        String name = packages.get(0).findElement(By.tagName("h2")).getText();
        WebElement all = packages.get(0).findElement(By.cssSelector(".more a"));
        int count = Integer.parseInt(all.getText().replaceAll("\\D", ""));
        all.click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        assertThat(browser.findElement(By.id("q")).getAttribute("value")).startsWith("return package:^");
        assertThat(browser.findElement(By.id("total")).getText())
                .isEqualTo(count + (count == 1 ? " result" : " results"));
        for (WebElement pkg : browser.findElements(By.cssSelector(".result .loc .pkg"))) {
            assertThat(pkg.getText()).isEqualTo(name);
        }

        browser.findElement(By.partialLinkText("packages (")).click();
        wait.until(ExpectedConditions.urlContains("view=list"));
        assertThat(browser.findElements(By.cssSelector(".package-list li"))).hasSize(1);
    }

    @Test
    void aResultOpensTheFileAtItsLine() throws Exception {
        browser.get(base + "/search?q=" + enc("adler32_combine_"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        WebElement loc = browser.findElement(By.cssSelector(".result .loc"));
        String line = loc.findElement(By.cssSelector(".lno")).getText();
        String hit =
                browser.findElement(By.cssSelector(".result .l.hit")).getText().replaceFirst("^\\d+", "");
        loc.click();
        wait.until(ExpectedConditions.urlContains("/show?"));
        assertThat(browser.getCurrentUrl()).endsWith("#L" + line);
        WebElement target = browser.findElement(By.id("L" + line));
        assertThat(((JavascriptExecutor) browser).executeScript("return document.querySelector(':target').id"))
                .isEqualTo("L" + line);
        assertThat(target.getText().replaceFirst("^\\d+", "")).isEqualTo(hit);
        assertThat(target.getCssValue("background-color")).isNotIn("rgba(0, 0, 0, 0)", "transparent");
        screenshot("file-view");

        browser.findElement(By.partialLinkText("back to the results")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        assertThat(browser.findElement(By.id("q")).getAttribute("value")).isEqualTo("adler32_combine_");
    }

    @Test
    void aThirtyMegabyteFileOpensAtALineNearItsEnd() throws Exception {
        int line = bigLines - 7;
        long started = System.nanoTime();
        browser.get(bigBase + "/show?package=huge_1.0&path=table.txt&line=" + line + "#L" + line);
        WebElement target = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("L" + line)));
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf(
                "issue 13: the file view opened line %,d of a %,d-line file of %,d bytes in %d ms%n",
                line, bigLines, Files.size(dir.resolve("big-corpus/huge_1.0/table.txt")), millis);
        assertThat(target.getText())
                .isEqualTo(line
                        + String.format(
                                "entry %07d: key=%08x value=the quick brown fox jumps over the lazy dog",
                                line, line * 2654435761L & 0xffffffffL));
        assertThat(target.getCssValue("background-color")).isNotIn("rgba(0, 0, 0, 0)", "transparent");
        assertThat(((JavascriptExecutor) browser).executeScript("return document.querySelector(':target').id"))
                .isEqualTo("L" + line);
        // On screen, below the sticky header: the browser scrolled to it.
        assertThat((Boolean) ((JavascriptExecutor) browser)
                        .executeScript(
                                "const r = arguments[0].getBoundingClientRect();"
                                        + " return r.top >= document.querySelector('header.bar').getBoundingClientRect().bottom - 1 && r.bottom <= innerHeight;",
                                target))
                .isTrue();
        assertThat(browser.findElements(By.cssSelector("pre.file .l"))).hasSizeLessThanOrEqualTo(WebUi.WINDOW_LINES);
        assertThat(browser.findElement(By.cssSelector("nav.window")).getText())
                .contains("of " + String.format("%,d", bigLines));
        screenshot("big-file-view");
        // The window before, by its link; the raw bytes, by theirs.
        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0)");
        browser.findElement(By.cssSelector("nav.window a[rel=prev]")).click();
        wait.until(ExpectedConditions.urlContains("from="));
        assertThat(browser.findElements(By.id("L" + line))).isEmpty();
        assertThat(browser.findElement(By.cssSelector("nav.window a.raw")).getAttribute("href"))
                .endsWith("/raw?package=huge_1.0&path=table.txt");
    }

    @Test
    void aCutLineShowsEllipsesOnTheResultsPageAndInTheLiveView() throws Exception {
        browser.get(bigBase + "/search?q=long_line_needle");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        WebElement hit = browser.findElement(By.cssSelector(".result .l.hit"));
        List<WebElement> cuts = hit.findElements(By.cssSelector(".cut"));
        assertThat(cuts).hasSize(2);
        assertThat(cuts.get(0).getAttribute("title")).isEqualTo("line cut: 10,016 bytes");
        assertThat(cuts.get(0).getText()).isEqualTo("…");
        assertThat(hit.findElement(By.tagName("mark")).getText()).isEqualTo("long_line_needle");
        screenshot("cut-line");
        // app.js draws the best results of a running query from the events' JSON: the same markup.
        String json = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(bigBase + "/api/v1/search?q=long_line_needle"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        Object live = ((JavascriptExecutor) browser)
                .executeScript(
                        "return resultItem(JSON.parse(arguments[0]).results[0]).querySelector('.l.hit').innerHTML",
                        json);
        assertThat(live).isEqualTo(hit.getAttribute("innerHTML"));
    }

    @Test
    void anInvalidRegexShowsItsMessageAndPosition() {
        browser.get(base + "/");
        browser.findElement(By.id("q")).sendKeys("foo(bar" + Keys.ENTER);
        WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("query-error")));
        assertThat(error.getText()).containsIgnoringCase("missing closing )");
        assertThat(error.findElement(By.cssSelector(".caret")).getText())
                .startsWith("foo(bar\n")
                .endsWith("^");
        assertThat(browser.getPageSource()).doesNotContain("Exception", "\tat ");
    }

    @Test
    void markupInAFileIsShownAsTextAndRunsNothing() {
        browser.get(base + "/search?q=" + enc("alert(1)") + "&mode=literal");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        assertThat(browser.findElement(By.cssSelector("#literal")).isSelected()).isTrue();
        WebElement hit = browser.findElement(By.cssSelector(".result .l.hit"));
        assertThat(hit.getText()).contains("<script>alert(1)</script>");
        assertThat(hit.findElement(By.tagName("mark")).getText()).isEqualTo("alert(1)");
        assertThat(browser.findElements(By.cssSelector("main script"))).isEmpty();
        assertThat(ExpectedConditions.alertIsPresent().apply(browser)).isNull();

        // The file view shows it as text too.
        browser.findElement(By.cssSelector(".result .loc")).click();
        wait.until(ExpectedConditions.urlContains("/show?"));
        assertThat(browser.findElement(By.cssSelector("pre.file")).getText()).contains("<script>alert(1)</script>");
        assertThat(browser.findElements(By.cssSelector("main script"))).isEmpty();
        assertThat(ExpectedConditions.alertIsPresent().apply(browser)).isNull();
    }

    @Test
    void aFailedShardIsNamedInANotice() {
        browser.get(partialBase + "/search?q=" + enc("return"));
        WebElement notice = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("partial")));
        assertThat(notice.getText()).contains("1 of 4 shards failed").contains("cannot connect");
        assertThat(browser.findElements(By.cssSelector(".result"))).isNotEmpty();
    }

    /** Issue 18: filters alone list files by name, each linked to the file view, with language and size. */
    @Test
    void aFileNameSearchShowsAFileList() throws Exception {
        browser.get(base + "/");
        browser.findElement(By.id("q")).sendKeys("path:^zutil\\.[ch]$ package:^zlib" + Keys.ENTER);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        List<WebElement> files = browser.findElements(By.cssSelector(".result.file"));
        assertThat(files).hasSize(2);
        List<String> paths = new ArrayList<>();
        for (WebElement file : files) {
            paths.add(file.findElement(By.cssSelector(".loc .path")).getText());
            assertThat(file.findElement(By.cssSelector(".meta .lang")).getText())
                    .isEqualTo("c");
            assertThat(file.findElement(By.cssSelector(".meta .size")).getText())
                    .matches("[\\d.]+ (B|KiB)");
            assertThat(file.findElements(By.cssSelector("pre.ctx")))
                    .as("a file result shows no lines")
                    .isEmpty();
        }
        assertThat(paths).containsExactlyInAnyOrder("zutil.c", "zutil.h");
        screenshot("file-list");
        files.get(0).findElement(By.cssSelector(".loc")).click();
        wait.until(ExpectedConditions.urlContains("/show?"));
        assertThat(browser.findElements(By.cssSelector("pre.file .l"))).isNotEmpty();
    }

    /** Issue 18: a sym: query shows each definition's line with its kind, the name marked, first the function. */
    @Test
    void aSymbolSearchShowsDefinitionsWithTheirKind() throws Exception {
        browser.get(symbolCluster.base + "/");
        browser.findElement(By.id("q")).sendKeys("sym:^adler32_combine" + Keys.ENTER);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        List<WebElement> results = browser.findElements(By.cssSelector(".result"));
        assertThat(results).isNotEmpty();
        for (WebElement result : results) {
            assertThat(result.findElement(By.cssSelector(".loc .kind")).getText())
                    .isNotBlank();
            assertThat(result.findElement(By.cssSelector(".l.hit mark")).getText())
                    .startsWith("adler32_combine");
        }
        assertThat(results.get(0).findElement(By.cssSelector(".loc .kind")).getText())
                .isEqualTo("function");
        screenshot("symbols");
    }

    /**
     * Issue 18: a sym: operand of a boolean query shows its definitions' lines, with their kind and
     * the name marked, beside the regex operand's lines; the help says how.
     */
    @Test
    void aSymOperandShowsItsDefinitionsBesideTheRegexLines() throws Exception {
        browser.get(symbolCluster.base + "/");
        assertThat(browser.findElement(By.cssSelector(".help")).getText())
                .contains("sym:^inflateInit2_$ AND deflate")
                .contains("side by side means AND");
        browser.findElement(By.id("q")).sendKeys("sym:^adler32_combine_$ AND BASE" + Keys.ENTER);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        List<WebElement> results = browser.findElements(By.cssSelector(".result"));
        int definitions = 0;
        for (WebElement result : results) {
            List<WebElement> kind = result.findElements(By.cssSelector(".loc .kind"));
            List<WebElement> marks = result.findElements(By.cssSelector(".l.hit mark"));
            assertThat(marks).isNotEmpty();
            if (kind.isEmpty()) {
                assertThat(marks.get(0).getText()).isEqualTo("BASE");
            } else {
                definitions++;
                assertThat(marks.stream().map(WebElement::getText)).contains("adler32_combine_");
            }
        }
        assertThat(definitions).isEqualTo(1);
        assertThat(results).hasSizeGreaterThan(1);
        // The definition asked for by name comes first, above #define BASE (which ctags also finds).
        assertThat(results.get(0).findElements(By.cssSelector(".loc .kind"))).hasSize(1);
        screenshot("sym-operand");
    }

    /** Issue 18: a boolean query shows the lines of its positive operands, in files that lack the negated one. */
    @Test
    void aBooleanQueryShowsTheLinesOfItsPositiveOperands() throws Exception {
        String query = "(adler32_combine OR crc32_combine) AND NOT zmemcpy";
        browser.get(base + "/search?q=" + enc(query));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-done]")));
        List<WebElement> marks = browser.findElements(By.cssSelector(".result .l.hit mark"));
        assertThat(marks).isNotEmpty();
        for (WebElement mark : marks) {
            assertThat(mark.getText()).isIn("adler32_combine", "crc32_combine");
        }
        // Files that hold zmemcpy are left out, whatever else they hold.
        HttpResponse<String> api = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(base + "/api/v1/search?per_page=1000&q=" + enc(query)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        com.fasterxml.jackson.databind.JsonNode answer =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(api.body());
        for (com.fasterxml.jackson.databind.JsonNode r : answer.get("results")) {
            HttpResponse<String> file = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(base + "/api/v1/file/raw?package="
                                            + enc(r.get("package").asText()) + "&path="
                                            + enc(r.get("path").asText())))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(file.body()).contains("_combine").doesNotContain("zmemcpy");
        }
        assertThat(browser.findElement(By.id("q")).getAttribute("value")).isEqualTo(query);
        screenshot("boolean");
        browser.get(base + "/");
        assertThat(browser.findElement(By.cssSelector(".help")).getText())
                .contains("a AND b")
                .contains("files by name");
    }

    /** Results of {@link #SLOW_QUERY}: every mark a match of it, a summary and a pager. */
    private static void checkResults() {
        List<WebElement> marks = browser.findElements(By.cssSelector(".result .l.hit mark"));
        assertThat(marks).isNotEmpty();
        for (WebElement mark : marks) {
            assertThat(mark.getText()).matches("(?s)\\w+\\s*\\(\\s*\\w+\\s*,\\s*\\w+");
        }
        assertThat(browser.findElement(By.cssSelector(".summary")).getText())
                .containsPattern("[\\d,]+ results in \\d+ packages");
        assertThat(browser.findElements(By.cssSelector(".pager a"))).isNotEmpty();
    }

    private static void screenshot(String name) throws Exception {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
        assertThat(png.length).isGreaterThan(1000);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
