package io.trigrep.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.query.ParsedQuery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/** {@code rg} (ripgrep, a real peer) as a second truth for ground-truth tests. */
public final class Ripgrep {
    private Ripgrep() {}

    /**
     * The files of {@code files} (package/path to file) that {@code spec}'s filters accept, as
     * the backend's own filter sees them: what a ground truth is computed over.
     */
    public static List<Path> accepted(io.trigrep.query.CompiledQuery spec, java.util.Map<String, Path> files)
            throws Exception {
        List<Path> accepted = new ArrayList<>();
        for (var file : files.entrySet()) {
            String name = file.getKey();
            int slash = name.indexOf('/');
            String path = name.substring(slash + 1);
            byte[] bytes = java.nio.file.Files.readAllBytes(file.getValue());
            if (spec.accepts(
                    name.substring(0, slash),
                    path,
                    io.trigrep.indexer.filetype.FileType.detect(path, java.nio.ByteBuffer.wrap(bytes)))) {
                accepted.add(file.getValue());
            }
        }
        return accepted;
    }

    /**
     * The "file:line" of every line rg matches in exactly {@code files} (each under {@code root},
     * named relative to it), given the parsed query's pattern, literal mode and case folding;
     * {@code extra} flags go first (for instance {@code -a} to read every file as text).
     */
    public static TreeSet<String> matchingLines(ParsedQuery parsed, List<Path> files, Path root, String... extra)
            throws Exception {
        TreeSet<String> out = new TreeSet<>();
        if (files.isEmpty()) {
            return out;
        }
        List<String> command =
                new ArrayList<>(List.of("rg", "--no-config", "-n", "--no-heading", "-H", "-uuu", "--color", "never"));
        command.addAll(List.of(extra));
        if (parsed.literal()) {
            command.add("-F");
        }
        if (parsed.caseInsensitive()) {
            command.add("-i");
        }
        command.add("-e");
        command.add(parsed.pattern());
        for (Path p : files) {
            command.add(p.toString());
        }
        Process process = new ProcessBuilder(command).start();
        byte[] stdout = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("rg exit (0 = found, 1 = none)").isIn(0, 1);
        String prefix = root.toString() + "/";
        // Paths are ASCII; matched lines may be Latin-1, which ISO-8859-1 decodes without loss.
        for (String line : new String(stdout, StandardCharsets.ISO_8859_1).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String rest = line.substring(prefix.length());
            int colon = rest.indexOf(':');
            int second = rest.indexOf(':', colon + 1);
            out.add(rest.substring(0, colon) + ":" + rest.substring(colon + 1, second));
        }
        return out;
    }
}
