package io.trigrep.frontend.http;

import io.trigrep.proto.GitRef;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a result's file is in a git repository package, as the API and the pages show it: its
 * branches, the first one's commit, and the link to the line on the code host that the
 * repository's template makes (empty when it has none). Texts decoded as {@link ShownText} does.
 */
record GitView(List<String> branches, String commit, String links) {
    static GitView of(GitRef.Reader git) {
        List<String> branches = new ArrayList<>();
        for (int i = 0; i < git.getBranches().size(); i++) {
            branches.add(ShownText.decode(ResultView.bytes(git.getBranches().get(i))));
        }
        return new GitView(
                branches,
                ShownText.decode(ResultView.bytes(git.getCommit())),
                ShownText.decode(ResultView.bytes(git.getLinks())));
    }

    /**
     * The template with {@code {repo}}, {@code {branch}}, {@code {commit}}, {@code {path}} and
     * {@code {line}} filled in (the path's segments percent-encoded); for a whole file
     * ({@code line} 0) the fragment that names a line is left out. Only http(s) links are made:
     * anything else is empty, so a template cannot make a page run script.
     */
    String url(String repo, String path, long line) {
        if (links.isEmpty() || !(links.startsWith("https://") || links.startsWith("http://"))) {
            return "";
        }
        String template = links;
        int hash = template.indexOf('#');
        if (line <= 0 && hash >= 0 && template.indexOf("{line}", hash) >= 0) {
            template = template.substring(0, hash);
        }
        return template.replace("{repo}", encode(repo))
                .replace("{branch}", branches.isEmpty() ? "" : encode(branches.get(0)))
                .replace("{commit}", encode(commit))
                .replace("{path}", encodePath(path))
                .replace("{line}", Long.toString(line));
    }

    private static String encodePath(String path) {
        StringBuilder out = new StringBuilder();
        for (String segment : path.split("/", -1)) {
            if (out.length() > 0) {
                out.append('/');
            }
            out.append(encode(segment));
        }
        return out.toString();
    }

    /** RFC 3986 unreserved characters as they are, every other byte of the UTF-8 as %XX. */
    private static String encode(String s) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }
}
