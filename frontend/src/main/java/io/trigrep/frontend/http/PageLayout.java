package io.trigrep.frontend.http;

import io.trigrep.frontend.fanout.CorpusStatus;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What every page of the web UI shares: the head with the search form, the footer with the
 * corpus status, the syntax help, and the mark of a cut line.
 */
final class PageLayout {
    /** The corpus status for the footer (what is searchable, what was left out), as last refreshed: rendering never asks a backend. */
    private final Supplier<CorpusStatus.Snapshot> corpus;

    PageLayout(Supplier<CorpusStatus.Snapshot> corpus) {
        this.corpus = corpus;
    }

    /** Everything up to the search form; the caller closes the header, after what else it puts in it. */
    static void head(Html h, String title, UiQuery q, boolean refresh) {
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

    /** The footer, and the page's bytes. */
    byte[] foot(Html h) {
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
        StringBuilder line = new StringBuilder(
                String.format(Locale.ROOT, "%,d files (%s) searchable", now.files(), Html.bytes(now.bytes())));
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

    /** The query syntax and examples, on the search page and under a query error. */
    static void help(Html h) {
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
                        "<dt><code>main count:100</code></dt><dd>the first 100 results only, at once when there are many</dd>")
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

    /** The ellipsis where a line was cut, its full length in the title. */
    static void cutMark(Html h, long fullBytes) {
        h.raw("<span class=\"cut\" title=\"line cut: ").count(fullBytes).raw(" bytes\">…</span>");
    }
}
