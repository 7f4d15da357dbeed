package io.trigrep.frontend.http;

import io.trigrep.frontend.fanout.CorpusStatus;
import io.trigrep.frontend.fanout.QueryRun;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * The web UI's pages, rendered on the server so that they work without JavaScript: the search
 * page and the error pages here; a query's pages ({@link ResultPages}) and a file
 * ({@link FilePage}) in their own classes, all in one {@link PageLayout}. {@code app.js} adds live
 * progress on top.
 */
final class HtmlPages {
    private final PageLayout layout;
    private final ResultPages results;
    private final FilePage files;

    HtmlPages(Supplier<CorpusStatus.Snapshot> corpus) {
        this.layout = new PageLayout(corpus);
        this.results = new ResultPages(layout);
        this.files = new FilePage(layout);
    }

    byte[] home() {
        Html h = new Html();
        PageLayout.head(h, "trigrep: regex code search", null, false);
        h.raw("</header>");
        h.raw("<main id=\"main\" class=\"home\">");
        h.raw(
                "<p class=\"lead\">Search source code with regular expressions (RE2 syntax). Results stream in while the query runs.</p>");
        PageLayout.help(h);
        h.raw("</main>");
        return layout.foot(h);
    }

    byte[] queryError(UiQuery q, String message, int position) {
        Html h = new Html();
        PageLayout.head(h, q.query() + " · trigrep", q, false);
        h.raw("</header>");
        h.raw("<div class=\"error\" id=\"query-error\" role=\"alert\"><p>")
                .text(message)
                .raw("</p>");
        if (position > 0 && position <= q.query().length() + 1) {
            h.raw("<pre class=\"caret\">")
                    .text(q.query())
                    .raw("\n")
                    .text(" ".repeat(position - 1))
                    .raw("^</pre>");
        }
        h.raw("</div><main id=\"main\">");
        PageLayout.help(h);
        h.raw("</main>");
        return layout.foot(h);
    }

    /** A page that says what went wrong in words, with a way on: busy, every backend down, no such file. */
    byte[] notice(UiQuery q, String title, String message, String retryHref) {
        Html h = new Html();
        PageLayout.head(h, title + " · trigrep", q, false);
        h.raw("</header>");
        h.raw("<main id=\"main\"><div class=\"notice\" role=\"alert\"><h1>")
                .text(title)
                .raw("</h1><p>")
                .text(message)
                .raw("</p>");
        if (retryHref != null) {
            h.raw("<p><a class=\"button\" href=\"").text(retryHref).raw("\">Try again</a></p>");
        }
        h.raw("</div></main>");
        return layout.foot(h);
    }

    /** A query still running: see {@link ResultPages#running}. */
    byte[] running(UiQuery q, QueryRun run) {
        return results.running(q, run);
    }

    byte[] results(UiQuery q, QueryRun run) throws IOException {
        return results.results(q, run);
    }

    byte[] grouped(UiQuery q, QueryRun run) throws IOException {
        return results.grouped(q, run);
    }

    byte[] packageList(UiQuery q, QueryRun run) {
        return results.packageList(q, run);
    }

    /** A window of a file's lines: see {@link FilePage#file}. */
    byte[] file(String pkg, String path, FileView file, UiQuery back, long target, int windowLines) {
        return files.file(pkg, path, file, back, target, windowLines);
    }
}
