package io.trigrep.frontend.http;

/** The file view: a window of a file's lines, as the web UI shows it. */
final class FilePage {
    private final PageLayout layout;

    FilePage(PageLayout layout) {
        this.layout = layout;
    }

    /**
     * A window of a file's lines, numbered and linkable, the target line marked; each cut line ends
     * in an ellipsis with its full length. Links page to the previous and next windows, the start
     * and the end, and to the raw bytes.
     */
    byte[] file(String pkg, String path, FileView file, UiQuery back, long target, int windowLines) {
        Html h = new Html();
        PageLayout.head(h, pkg + "/" + path + " · trigrep", back, false);
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
                PageLayout.cutMark(h, file.full[i]);
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
        return layout.foot(h);
    }
}
