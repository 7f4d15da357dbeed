package io.trigrep.frontend.http;

import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.fanout.ShardStatus;
import io.trigrep.frontend.query.QueryService;
import io.trigrep.frontend.query.StoredResult;
import io.trigrep.frontend.store.ResultIndex;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * A query's pages: still running, then its results by rank, grouped by package, or the list of
 * its packages, each with the summary, the views and the pager.
 */
final class ResultPages {
    static final int PER_PAGE = 10;
    static final int PACKAGES_PER_PAGE = 10;
    static final int PER_PACKAGE = 3;

    private final PageLayout layout;

    ResultPages(PageLayout layout) {
        this.layout = layout;
    }

    /** A query still running: a progress bar that app.js moves; without JavaScript the page reloads itself. */
    byte[] running(UiQuery q, QueryRun run) {
        Html h = new Html();
        PageLayout.head(h, q.query() + " · trigrep", q, true);
        h.raw("</header>");
        h.raw("<main id=\"main\" data-events=\"/api/v1/search/events?")
                .text(q.apiParameters())
                .raw("&amp;per_page=")
                .number(PER_PAGE)
                .raw(
                        "\"><section class=\"progress\" aria-live=\"polite\"><progress id=\"bar\" max=\"1\" value=\"0\"></progress>")
                .raw("<p id=\"progress-text\">Searching ")
                .number(run.statuses().size())
                .raw(" shards…</p>")
                .raw("<p id=\"progress-notice\" class=\"notice partial\" hidden></p></section>")
                .raw(
                        "<h2 class=\"best-title\" hidden>Best results so far</h2><ol id=\"best\" class=\"results\"></ol></main>");
        return layout.foot(h);
    }

    byte[] results(UiQuery q, QueryRun run) throws IOException {
        ResultIndex index = run.index();
        int total = index.size();
        int pages = Math.max(1, (total + PER_PAGE - 1) / PER_PAGE);
        int page = Math.min(q.page(), pages);
        Html h = new Html();
        PageLayout.head(h, q.query() + " · trigrep", q, false);
        h.raw("</header>");
        h.raw("<main id=\"main\" data-done>");
        summary(h, q, run, total);
        if (total == 0) {
            h.raw(
                    "<p class=\"empty\">No results. A regex is case-sensitive unless it starts with <code>(?i)</code>.</p>");
        }
        h.raw("<ol class=\"results\" start=\"")
                .number((long) (page - 1) * PER_PAGE + 1)
                .raw("\">");
        for (StoredResult r : QueryService.read(run, index.sorted((page - 1) * PER_PAGE, page * PER_PAGE))) {
            ResultItem.result(h, q, r);
        }
        h.raw("</ol>");
        pager(h, q, page, pages);
        h.raw("</main>");
        return layout.foot(h);
    }

    byte[] grouped(UiQuery q, QueryRun run) throws IOException {
        ResultIndex index = run.index();
        ResultIndex.Grouped grouped = index.grouped(PER_PACKAGE);
        int packages = grouped.packages().length;
        int pages = Math.max(1, (packages + PACKAGES_PER_PAGE - 1) / PACKAGES_PER_PAGE);
        int page = Math.min(q.page(), pages);
        Html h = new Html();
        PageLayout.head(h, q.query() + " · trigrep", q, false);
        h.raw("</header>");
        h.raw("<main id=\"main\" data-done>");
        summary(h, q, run, index.size());
        for (int i = (page - 1) * PACKAGES_PER_PAGE; i < Math.min(packages, page * PACKAGES_PER_PAGE); i++) {
            String name = index.packages().name(grouped.packages()[i]);
            int count = grouped.counts()[i];
            h.raw("<section class=\"package\"><h2>").text(name).raw("</h2><ol class=\"results\">");
            for (StoredResult r : QueryService.read(run, grouped.top()[i])) {
                ResultItem.result(h, q, r);
            }
            h.raw("</ol>");
            h.raw("<p class=\"more\"><a href=\"")
                    .text(q.inPackage(name).href("rank", 1))
                    .raw("\">show all ")
                    .count(count)
                    .raw(count == 1 ? " result" : " results")
                    .raw(" in this package</a></p></section>");
        }
        pager(h, q, page, pages);
        h.raw("</main>");
        return layout.foot(h);
    }

    byte[] packageList(UiQuery q, QueryRun run) {
        ResultIndex index = run.index();
        int[] counts = index.packageCounts();
        Html h = new Html();
        PageLayout.head(h, q.query() + " · trigrep", q, false);
        h.raw("</header>");
        h.raw("<main id=\"main\" data-done>");
        summary(h, q, run, index.size());
        h.raw("<ul class=\"package-list\">");
        for (int id : index.packagesByCount()) {
            String name = index.packages().name(id);
            h.raw("<li><a href=\"")
                    .text(q.inPackage(name).href("rank", 1))
                    .raw("\">")
                    .text(name)
                    .raw("</a> <span class=\"count\">")
                    .count(counts[id])
                    .raw("</span></li>");
        }
        h.raw("</ul></main>");
        return layout.foot(h);
    }

    private static void summary(Html h, UiQuery q, QueryRun run, int total) {
        int packages = 0;
        for (int c : run.index().packageCounts()) {
            packages += c > 0 ? 1 : 0;
        }
        h.raw("<nav class=\"views\" aria-label=\"Views\">");
        view(h, q, "rank", "by rank");
        view(h, q, "packages", "by package");
        view(h, q, "list", "packages (" + packages + ")");
        h.raw("</nav><p class=\"summary\"><span id=\"total\">")
                .count(total)
                .raw(total == 1 ? " result" : " results")
                .raw("</span> in ")
                .count(packages)
                .raw(packages == 1 ? " package" : " packages")
                .raw(String.format(Locale.ROOT, " · %.2f s", run.elapsedNanos() / 1e9))
                .raw("</p>");
        QueryRun.Capped capped = run.capped();
        if (capped != null && capped.reason().equals("count")) {
            h.raw(
                            "<div class=\"notice capped\" role=\"status\" id=\"capped\"><p>This query has more results than shown:"
                                    + " it keeps its first ")
                    .count(capped.limit())
                    .raw(
                            ", as its <code>count:</code> asks (one per shard at least), each shard's first in index order."
                                    + " Raise or drop its <code>count:</code> to see more.</p></div>");
        } else if (capped != null) {
            h.raw(
                    "<div class=\"notice capped\" role=\"status\" id=\"capped\"><p>This query has more results than shown: it stopped at ");
            if (capped.reason().equals("results")) {
                h.raw("the cap of ").count(capped.limit()).raw(" results");
            } else {
                h.raw("the cap of ").text(Html.bytes(capped.limit())).raw(" of results");
            }
            h.raw(
                    " per query, keeping each shard's first results in index order. Narrow it (a longer string, "
                            + "<code>package:</code>, <code>path:</code> or <code>filetype:</code>) to see them all.</p></div>");
        }
        List<ShardStatus> failed = run.failed();
        if (!failed.isEmpty()) {
            h.raw("<div class=\"notice partial\" role=\"status\" id=\"partial\"><p>")
                    .number(failed.size())
                    .raw(" of ")
                    .number(run.statuses().size())
                    .raw(" shards failed: these results are partial.</p><ul>");
            for (ShardStatus s : failed) {
                h.raw("<li>").text(s.shard()).raw(": ").text(s.reason()).raw("</li>");
            }
            h.raw("</ul></div>");
        }
    }

    private static void view(Html h, UiQuery q, String view, String label) {
        if (q.view().equals(view)) {
            h.raw("<span class=\"current\" aria-current=\"page\">").text(label).raw("</span>");
        } else {
            h.raw("<a href=\"").text(q.href(view, 1)).raw("\">").text(label).raw("</a>");
        }
    }

    private static void pager(Html h, UiQuery q, int page, int pages) {
        if (pages <= 1) {
            return;
        }
        h.raw("<nav class=\"pager\" aria-label=\"Pages\">");
        if (page > 1) {
            h.raw("<a rel=\"prev\" href=\"").text(q.href(q.view(), page - 1)).raw("\">← previous</a>");
        }
        int last = 0;
        for (int p = 1; p <= pages; p++) {
            if (p != 1 && p != pages && Math.abs(p - page) > 2) {
                continue;
            }
            if (p > last + 1) {
                h.raw("<span class=\"gap\">…</span>");
            }
            if (p == page) {
                h.raw("<span class=\"current\" aria-current=\"page\">")
                        .number(p)
                        .raw("</span>");
            } else {
                h.raw("<a href=\"")
                        .text(q.href(q.view(), p))
                        .raw("\">")
                        .number(p)
                        .raw("</a>");
            }
            last = p;
        }
        if (page < pages) {
            h.raw("<a rel=\"next\" href=\"").text(q.href(q.view(), page + 1)).raw("\">next →</a>");
        }
        h.raw("</nav>");
    }
}
