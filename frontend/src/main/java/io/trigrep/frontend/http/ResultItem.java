package io.trigrep.frontend.http;

import io.trigrep.frontend.query.StoredResult;
import io.trigrep.proto.FileMatch;
import io.trigrep.proto.Response;
import java.util.Locale;

/**
 * The markup of one result in a list: a line with its context and marked matches, or a whole
 * file. {@code app.js} renders the best results so far with the same markup.
 */
final class ResultItem {
    private ResultItem() {}

    /** One result of either kind. */
    static void result(Html h, UiQuery q, StoredResult stored) {
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
        return (v < 10 ? String.format(Locale.ROOT, "%.1f", v) : String.valueOf(Math.round(v))) + " " + units[u];
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
            PageLayout.cutMark(h, r.contextCut.bytes());
        }
        marked(h, r.context, r.ranges);
        if (r.contextCut != null && r.contextCut.end() < r.contextCut.bytes()) {
            PageLayout.cutMark(h, r.contextCut.bytes());
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
            PageLayout.cutMark(h, cut.bytes()); // the matching line of another result, shown around its match
        }
        h.text(text);
        if (cut != null && cut.end() < cut.bytes()) {
            PageLayout.cutMark(h, cut.bytes());
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
