package io.trigrep.frontend.http;

import io.trigrep.frontend.fanout.CorpusStatus;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.fanout.ShardStatus;
import io.trigrep.frontend.query.QueryService;
import io.trigrep.frontend.query.StoredResult;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.proto.FileMatch;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The web UI's pages, rendered on the server so that they work without JavaScript: the search
 * page, a page of results (by rank, grouped by package, or the list of packages), a query still
 * running, a file, and the error pages. {@code app.js} adds live progress on top; it renders the
 * best results so far with the same markup as {@link #result}.
 */
final class HtmlPages {
    static final int PER_PAGE = 10;
    static final int PACKAGES_PER_PAGE = 10;
    static final int PER_PACKAGE = 3;

    /** The corpus status for the footer (what is searchable, what was left out), as last refreshed: rendering never asks a backend. */
    private final Supplier<CorpusStatus.Snapshot> corpus;

    HtmlPages(Supplier<CorpusStatus.Snapshot> corpus) {
        this.corpus = corpus;
    }

    /** What a results page shows: the query, its mode, the view and the page (from 1, as people count). */
    record UiQuery(String query, boolean literal, String view, int page) {
        static final List<String> VIEWS = List.of("rank", "packages", "list");

        String href(String view, int page) {
            return "/search?q=" + Html.url(query) + (literal ? "&mode=literal" : "")
                    + (view.equals("rank") ? "" : "&view=" + view) + (page > 1 ? "&page=" + page : "");
        }

        /** The same query narrowed to one package: {@code package:} takes a regex, so the name is quoted. */
        UiQuery inPackage(String pkg) {
            StringBuilder quoted = new StringBuilder("^");
            for (int i = 0; i < pkg.length(); i++) {
                char c = pkg.charAt(i);
                if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
                    quoted.append('\\');
                }
                quoted.append(c);
            }
            return new UiQuery(query + " package:" + quoted + "$", literal, "rank", 1);
        }

        String apiParameters() {
            return "q=" + Html.url(query) + "&match_mode=" + (literal ? "literal" : "regexp");
        }
    }

    byte[] home() {
        Html h = new Html();
        head(h, "trigrep: regex code search", null, false);
        h.raw("</header>");
        h.raw("<main id=\"main\" class=\"home\">");
        h.raw(
                "<p class=\"lead\">Search source code with regular expressions (RE2 syntax). Results stream in while the query runs.</p>");
        help(h);
        h.raw("</main>");
        return foot(h);
    }

    byte[] queryError(UiQuery q, String message, int position) {
        Html h = new Html();
        head(h, q.query() + " · trigrep", q, false);
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
        help(h);
        h.raw("</main>");
        return foot(h);
    }

    /** A page that says what went wrong in words, with a way on: busy, every backend down, no such file. */
    byte[] notice(UiQuery q, String title, String message, String retryHref) {
        Html h = new Html();
        head(h, title + " · trigrep", q, false);
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
        return foot(h);
    }

    /** A query still running: a progress bar that app.js moves; without JavaScript the page reloads itself. */
    byte[] running(UiQuery q, QueryRun run) {
        Html h = new Html();
        head(h, q.query() + " · trigrep", q, true);
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
        return foot(h);
    }

    byte[] results(UiQuery q, QueryRun run) throws IOException {
        ResultIndex index = run.index();
        int total = index.size();
        int pages = Math.max(1, (total + PER_PAGE - 1) / PER_PAGE);
        int page = Math.min(q.page(), pages);
        Html h = new Html();
        head(h, q.query() + " · trigrep", q, false);
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
            result(h, q, r);
        }
        h.raw("</ol>");
        pager(h, q, page, pages);
        h.raw("</main>");
        return foot(h);
    }

    byte[] grouped(UiQuery q, QueryRun run) throws IOException {
        ResultIndex index = run.index();
        ResultIndex.Grouped grouped = index.grouped(PER_PACKAGE);
        int packages = grouped.packages().length;
        int pages = Math.max(1, (packages + PACKAGES_PER_PAGE - 1) / PACKAGES_PER_PAGE);
        int page = Math.min(q.page(), pages);
        Html h = new Html();
        head(h, q.query() + " · trigrep", q, false);
        h.raw("</header>");
        h.raw("<main id=\"main\" data-done>");
        summary(h, q, run, index.size());
        for (int i = (page - 1) * PACKAGES_PER_PAGE; i < Math.min(packages, page * PACKAGES_PER_PAGE); i++) {
            String name = index.packages().name(grouped.packages()[i]);
            int count = grouped.counts()[i];
            h.raw("<section class=\"package\"><h2>").text(name).raw("</h2><ol class=\"results\">");
            for (StoredResult r : QueryService.read(run, grouped.top()[i])) {
                result(h, q, r);
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
        return foot(h);
    }

    byte[] packageList(UiQuery q, QueryRun run) {
        ResultIndex index = run.index();
        int[] counts = index.packageCounts();
        Html h = new Html();
        head(h, q.query() + " · trigrep", q, false);
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
        return foot(h);
    }

    /**
     * A window of a file's lines, numbered and linkable, the target line marked; each cut line ends
     * in an ellipsis with its full length. Links page to the previous and next windows, the start
     * and the end, and to the raw bytes.
     */
    byte[] file(String pkg, String path, FileView file, UiQuery back, long target, int windowLines) {
        Html h = new Html();
        head(h, pkg + "/" + path + " · trigrep", back, false);
        // Inside the sticky header: the way back and the file's name stay in sight however far down the line is.
        h.raw("<nav class=\"crumbs\">");
        if (back != null) {
            h.raw("<a href=\"").text(back.href("rank", 1)).raw("\">← back to the results</a> · ");
        }
        h.raw("<span class=\"pkg\">")
                .text(pkg)
                .raw("</span>/<span class=\"path\">")
                .text(path)
                .raw("</span></nav></header>");
        h.raw("<main id=\"main\" class=\"file-view\">");
        String self = "/show?package=" + Html.url(pkg) + "&path=" + Html.url(path)
                + (back == null ? "" : "&" + back.apiParameters().replace("match_mode=", "mode="));
        String raw = "/raw?package=" + Html.url(pkg) + "&path=" + Html.url(path);
        long last = file.firstLine + file.lines() - 1;
        boolean whole = file.firstLine == 1 && last >= file.totalLines;
        h.raw("<nav class=\"window\" aria-label=\"Lines\"><span class=\"span\">");
        if (file.lines() == 0) {
            h.raw("no lines here");
        } else {
            h.raw("lines ").count(file.firstLine).raw("–").count(last);
        }
        h.raw(" of ")
                .count(file.totalLines)
                .raw(" · ")
                .text(Html.bytes(file.totalBytes))
                .raw("</span>");
        if (!whole) {
            if (file.firstLine > 1) {
                h.raw(" <a href=\"").text(self + "&from=1").raw("\">start</a>");
                h.raw(" <a rel=\"prev\" href=\"")
                        .text(self + "&from=" + Math.max(1, file.firstLine - windowLines))
                        .raw("\">← previous</a>");
            }
            if (last < file.totalLines) {
                h.raw(" <a rel=\"next\" href=\"")
                        .text(self + "&from=" + (last + 1))
                        .raw("\">next →</a>");
                h.raw(" <a href=\"")
                        .text(self + "&from=" + Math.max(1, file.totalLines - windowLines + 1))
                        .raw("\">end</a>");
            }
        }
        h.raw(" <a class=\"raw\" href=\"").text(raw).raw("\">raw</a></nav>");
        h.raw("<pre class=\"file\">");
        for (int i = 0; i < file.lines(); i++) {
            long line = file.firstLine + i;
            h.raw(line == target ? "<span class=\"l target\" id=\"L" : "<span class=\"l\" id=\"L")
                    .number(line)
                    .raw("\"><a class=\"n\" href=\"#L")
                    .number(line)
                    .raw("\">")
                    .number(line)
                    .raw("</a>")
                    .text(ShownText.decode(file.content, file.starts[i], file.ends[i]));
            if (file.cut(i)) {
                cutMark(h, file.full[i]);
                h.raw("<span class=\"cut-note\"> line cut at ")
                        .count(file.ends[i] - file.starts[i])
                        .raw(" of ")
                        .count(file.full[i])
                        .raw(" bytes: <a href=\"")
                        .text(raw)
                        .raw("\">raw file</a></span>");
            }
            h.raw("\n</span>");
        }
        h.raw("</pre></main>");
        return foot(h);
    }

    /** The ellipsis where a line was cut, its full length in the title. */
    private static void cutMark(Html h, long fullBytes) {
        h.raw("<span class=\"cut\" title=\"line cut: ").count(fullBytes).raw(" bytes\">…</span>");
    }

    /** Everything up to the search form; the caller closes the header, after what else it puts in it. */
    private static void head(Html h, String title, UiQuery q, boolean refresh) {
        h.raw("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .raw("<title>")
                .text(title)
                .raw("</title>")
                .raw(
                        "<link rel=\"stylesheet\" href=\"/static/style.css\"><script src=\"/static/app.js\" defer></script>");
        if (refresh) {
            h.raw("<noscript><meta http-equiv=\"refresh\" content=\"1\"></noscript>");
        }
        h.raw("</head><body><header class=\"bar\"><a class=\"logo\" href=\"/\">trigrep</a>")
                .raw("<form class=\"search\" action=\"/search\" method=\"get\" role=\"search\">")
                .raw(
                        "<input id=\"q\" type=\"search\" name=\"q\" aria-label=\"Search query\" placeholder=\"regex, e.g. inflateInit2?_\"")
                .raw(" autocomplete=\"off\" autocapitalize=\"off\" spellcheck=\"false\" required value=\"")
                .text(q == null ? "" : q.query())
                .raw("\"")
                .raw(q == null ? " autofocus" : "")
                .raw(">")
                .raw("<label class=\"mode\" title=\"Take the query literally: no regex metacharacters\">")
                .raw("<input id=\"literal\" type=\"checkbox\" name=\"mode\" value=\"literal\"")
                .raw(q != null && q.literal() ? " checked" : "")
                .raw("> literal</label><button type=\"submit\">Search</button></form>");
    }

    private byte[] foot(Html h) {
        h.raw(
                        "<footer><a href=\"/\">trigrep</a> · regex code search · <a href=\"/api/v1/search?q=inflate&amp;per_page=1\">JSON API</a>")
                .raw(" · press <kbd>/</kbd> to search");
        CorpusStatus.Snapshot now = corpus.get();
        String line = corpusLine(now);
        if (line != null) {
            h.raw("<p id=\"corpus\"><a href=\"/api/v1/status\">").text(line).raw("</a></p>");
        }
        String generations = generationLine(now);
        if (generations != null) {
            h.raw("<p id=\"generations\">").text(generations).raw("</p>");
        }
        h.raw("</footer></body></html>\n");
        return h.bytes();
    }

    /** The footer's line: files and bytes searchable, and what was left out, why; null before the first status arrived. */
    static String corpusLine(CorpusStatus.Snapshot now) {
        if (now == null) {
            return null;
        }
        StringBuilder line = new StringBuilder(String.format(
                java.util.Locale.ROOT, "%,d files (%s) searchable", now.files(), Html.bytes(now.bytes())));
        long down = now.shards().stream().filter(s -> !s.reachable()).count();
        if (down > 0) {
            line.append(String.format(
                    Locale.ROOT,
                    " (%d of %d shards unreachable)",
                    down,
                    now.shards().size()));
        }
        if (now.skipped().isEmpty()) {
            line.append(" · none left out that the index reports");
        } else {
            line.append(" · left out:");
            String separator = " ";
            for (CorpusStatus.Skip k : now.skipped()) {
                line.append(separator)
                        .append(String.format(
                                Locale.ROOT,
                                "%,d %s (%s)",
                                k.files(),
                                k.reason().replace('_', ' '),
                                Html.bytes(k.bytes())));
                separator = ", ";
            }
        }
        return line.toString();
    }

    /**
     * The footer's second line: which generation of its index each shard serves, as its status
     * said (a cached answer is never one of an older generation); null before any shard said.
     */
    static String generationLine(CorpusStatus.Snapshot now) {
        if (now == null || now.shards().stream().allMatch(s -> s.generation() == 0)) {
            return null;
        }
        StringBuilder line = new StringBuilder("index generation:");
        String separator = " ";
        for (CorpusStatus.Shard s : now.shards()) {
            line.append(separator)
                    .append(s.name().isEmpty() ? s.backend() : s.name())
                    .append(' ')
                    .append(s.generation() == 0 ? "unknown" : Long.toString(s.generation()));
            separator = ", ";
        }
        return line.toString();
    }

    private static void help(Html h) {
        h.raw("<section class=\"help\"><h2>Syntax</h2><dl>")
                .raw("<dt><code>foo\\w+bar</code></dt><dd>an RE2 regular expression, case-sensitive</dd>")
                .raw("<dt><code>(?i)foo</code> or <code>case:no</code></dt><dd>ignore case</dd>")
                .raw(
                        "<dt><code>package:zlib</code> <code>-package:linux</code></dt><dd>only, or not, packages matching a regex</dd>")
                .raw(
                        "<dt><code>repo:^trigrep$</code> <code>branch:main</code> <code>-branch:old</code></dt><dd>git repositories"
                                + " (<code>repo:</code> is <code>package:</code>: a repository is a package); files on, or not on, a"
                                + " branch or tag by its exact name</dd>")
                .raw(
                        "<dt><code>path:\\.c$</code> <code>-path:test</code></dt><dd>only, or not, paths matching a regex</dd>")
                .raw(
                        "<dt><code>filetype:go</code> <code>-filetype:c</code></dt><dd>by language: c, c++, go, java, python, rust, shell, perl, ruby, php, js, ts</dd>")
                .raw(
                        "<dt><code>a AND b</code> <code>a OR b</code> <code>NOT a</code></dt><dd>files that match the combination of regexes,"
                                + " in upper case; <code>( )</code> group: <code>(malloc\\( OR calloc\\() AND NOT free\\(</code>. The lines shown"
                                + " are those of the operands not under a NOT</dd>")
                .raw(
                        "<dt><code>path:Makefile\\.am$</code> alone</dt><dd>files by name (a filter with no pattern): a file list</dd>")
                .raw(
                        "<dt><code>sym:^inflateInit2_$</code></dt><dd>definitions (functions, types, macros, ...) whose name matches,"
                                + " as universal-ctags found them; a plain query also ranks the line defining a matching name first</dd>")
                .raw(
                        "<dt><code>sym:^inflateInit2_$ AND deflate</code></dt><dd><code>sym:</code> as an operand: files defining"
                                + " a matching name, combined with regexes or other <code>sym:</code>s by AND, OR, NOT and"
                                + " <code>( )</code>; side by side means AND (<code>sym:^adler32 BASE</code>). Its lines are the"
                                + " definitions', marked as for <code>sym:</code> alone</dd>")
                .raw(
                        "<dt>literal</dt><dd>tick it to search the text as typed, metacharacters and all (AND, OR and NOT too)</dd></dl>")
                .raw("<h2>Examples</h2><ul class=\"examples\">");
        for (String example : List.of(
                "inflateInit2_",
                "ByteBuf\\s+write\\w+",
                "class \\w+Decoder filetype:java",
                "(?i)utf-?8 path:\\.h$",
                "TODO|FIXME -path:test",
                "class \\w+Decoder AND NOT decodeLast",
                "path:Decoder\\.java$",
                "sym:^ByteBuf$",
                "sym:Decoder$ AND NOT decodeLast")) {
            h.raw("<li><a href=\"/search?q=")
                    .text(Html.url(example))
                    .raw("\"><code>")
                    .text(example)
                    .raw("</code></a></li>");
        }
        h.raw("</ul></section>");
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
                .raw(String.format(java.util.Locale.ROOT, " · %.2f s", run.elapsedNanos() / 1e9))
                .raw("</p>");
        QueryRun.Capped capped = run.capped();
        if (capped != null) {
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

    /** One result of either kind. */
    private static void result(Html h, UiQuery q, StoredResult stored) {
        if (stored.which() == Response.Which.FILE_MATCH) {
            file(h, q, stored.response().getFileMatch());
        } else {
            result(h, q, ResultView.of(stored));
        }
    }

    /** A whole file: its location, linked to the file view, with its language and size; a list of these is a file list. */
    private static void file(Html h, UiQuery q, FileMatch.Reader f) {
        String pkg = ShownText.decode(ResultView.bytes(f.getPackage()));
        String path = ShownText.decode(ResultView.bytes(f.getPath()));
        String language = f.getLanguage().toString();
        GitView git = f.hasGit() ? GitView.of(f.getGit()) : null;
        h.raw("<li class=\"result file\"><a class=\"loc\" href=\"/show?package=")
                .text(Html.url(pkg))
                .raw("&amp;path=")
                .text(Html.url(path))
                .raw(branchParameter(git))
                .raw("&amp;")
                .text(q.apiParameters().replace("match_mode=", "mode="))
                .raw("\"><span class=\"pkg\">")
                .text(pkg)
                .raw("</span>/<span class=\"path\">")
                .text(path)
                .raw("</span></a> <span class=\"meta\">");
        if (!language.isEmpty()) {
            h.raw("<span class=\"lang\">").text(language).raw("</span> · ");
        }
        h.raw("<span class=\"size\">").text(size(f.getBytes())).raw("</span></span>");
        gitLinks(h, git, pkg, path, 0);
        h.raw("</li>");
    }

    /** {@code &branch=NAME} for the file view of a repository's file (its first branch), or nothing. */
    private static String branchParameter(GitView git) {
        return git == null || git.branches().isEmpty()
                ? ""
                : "&amp;branch=" + Html.url(git.branches().get(0));
    }

    /** A repository file's branches, its commit, and the link to the line on the code host when the repository has one. */
    private static void gitLinks(Html h, GitView git, String pkg, String path, long line) {
        if (git == null) {
            return;
        }
        h.raw(" <span class=\"git\"><span class=\"branches\">")
                .text(String.join(", ", git.branches()))
                .raw("</span> @ <span class=\"commit\">")
                .text(git.commit().length() > 12 ? git.commit().substring(0, 12) : git.commit())
                .raw("</span>");
        String url = git.url(pkg, path, line);
        if (!url.isEmpty()) {
            h.raw(" <a class=\"host\" rel=\"nofollow\" href=\"").text(url).raw("\">on the code host</a>");
        }
        h.raw("</span>");
    }

    /** A file size as people read it: 812 B, 4.1 KiB, 12 MiB. */
    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return (v < 10 ? String.format(java.util.Locale.ROOT, "%.1f", v) : String.valueOf(Math.round(v))) + " "
                + units[u];
    }

    /** One line result: its location, linked to the file view at its line, and its lines with the matches marked. */
    private static void result(Html h, UiQuery q, ResultView r) {
        long line = r.line;
        h.raw("<li class=\"result\"><a class=\"loc\" href=\"/show?package=")
                .text(Html.url(r.pkg))
                .raw("&amp;path=")
                .text(Html.url(r.path))
                .raw(branchParameter(r.git))
                .raw("&amp;")
                .text(q.apiParameters().replace("match_mode=", "mode="))
                .raw("&amp;line=")
                .number(line)
                .raw("#L")
                .number(line)
                .raw("\"><span class=\"pkg\">")
                .text(r.pkg)
                .raw("</span>/<span class=\"path\">")
                .text(r.path)
                .raw("</span>:<span class=\"lno\">")
                .number(line)
                .raw("</span>");
        if (r.symbol != null) {
            // A definition line (of sym: alone or a sym: operand): its kind, and its scope when ctags gave one.
            h.raw(" <span class=\"kind\">").text(r.symbol[1]).raw("</span>");
            if (!r.symbol[2].isEmpty()) {
                h.raw(" <span class=\"scope\">in ").text(r.symbol[2]).raw("</span>");
            }
        }
        h.raw("</a>");
        gitLinks(h, r.git, r.pkg, r.path, line);
        h.raw("<pre class=\"ctx\">");
        for (int i = 0; i < r.before.length; i++) {
            contextLine(h, line - r.before.length + i, r.before[i], r.beforeCuts[i]);
        }
        h.raw("<span class=\"l hit\"><span class=\"n\">").number(line).raw("</span>");
        if (r.contextCut != null && r.contextCut.start() > 0) {
            cutMark(h, r.contextCut.bytes());
        }
        marked(h, r.context, r.ranges);
        if (r.contextCut != null && r.contextCut.end() < r.contextCut.bytes()) {
            cutMark(h, r.contextCut.bytes());
        }
        h.raw("\n</span>");
        for (int i = 0; i < r.after.length; i++) {
            contextLine(h, line + 1 + i, r.after[i], r.afterCuts[i]);
        }
        h.raw("</pre></li>");
    }

    private static void contextLine(Html h, long number, String text, ResultView.Cut cut) {
        h.raw("<span class=\"l\"><span class=\"n\">").number(number).raw("</span>");
        if (cut != null && cut.start() > 0) {
            cutMark(h, cut.bytes()); // the matching line of another result, shown around its match
        }
        h.text(text);
        if (cut != null && cut.end() < cut.bytes()) {
            cutMark(h, cut.bytes());
        }
        h.raw("\n</span>");
    }

    /**
     * The line with each match in a mark. Ranges are byte offsets into the line as the backend
     * sent it (checked by {@link ResultView}), so the line is cut at those bytes and each piece
     * decoded on its own: offsets stay exact even when the file was not valid UTF-8.
     */
    static void marked(Html h, byte[] bytes, int[] ranges) {
        int done = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            int start = ranges[i];
            int end = ranges[i + 1];
            if (start < done || start >= end) {
                continue; // overlapping or empty: nothing to mark
            }
            h.text(ShownText.decode(bytes, done, start))
                    .raw("<mark>")
                    .text(ShownText.decode(bytes, start, end))
                    .raw("</mark>");
            done = end;
        }
        h.text(ShownText.decode(bytes, done, bytes.length));
    }
}
