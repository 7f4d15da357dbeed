package io.trigrep.indexer.corpus;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Link templates of common code hosts, derived from a remote's URL. A template names a file's line
 * on its host with {@code {repo}} (the package name), {@code {branch}}, {@code {commit}},
 * {@code {path}} and {@code {line}}; an unknown host has none (empty).
 */
public final class LinkTemplates {
    private LinkTemplates() {}

    // https://host/owner/name(.git), ssh://git@host/owner/name, git@host:owner/name.git (not user input: a remote's
    // URL).
    private static final Pattern REMOTE =
            Pattern.compile("^(?:[a-z+]+://(?:[^@/]+@)?|[^@/]+@)([^/:]+)(?::\\d+)?[/:](.+?)(?:\\.git)?/?$");

    /** The template for a remote URL, or "" when its host is not one this knows (or the URL is null). */
    public static String forRemote(String url) {
        if (url == null) {
            return "";
        }
        Matcher m = REMOTE.matcher(url.trim());
        if (!m.matches()) {
            return "";
        }
        String host = m.group(1);
        String project = m.group(2);
        return switch (host) {
            case "github.com" -> "https://github.com/" + project + "/blob/{commit}/{path}#L{line}";
            case "gitlab.com" -> "https://gitlab.com/" + project + "/-/blob/{commit}/{path}#L{line}";
            case "codeberg.org" -> "https://codeberg.org/" + project + "/src/commit/{commit}/{path}#L{line}";
            case "bitbucket.org" -> "https://bitbucket.org/" + project + "/src/{commit}/{path}#lines-{line}";
            case "git.sr.ht" -> "https://git.sr.ht/" + project + "/tree/{commit}/item/{path}#L{line}";
            default -> "";
        };
    }
}
