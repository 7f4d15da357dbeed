package io.trigrep.indexer.symbols;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The file names ctags has a parser for, from its {@code --list-maps}: extensions ({@code *.c}) and
 * exact names ({@code Makefile}) in hash sets, the few other globs ({@code *.[68][68][kKsSxX]})
 * matched one by one, and templates of those names ({@code zconf.h.in}). A file it knows no language
 * for goes to ctags only when its content may name one ({@link SymbolExtractor#byContent}).
 */
final class CtagsLanguages {
    private final Set<String> extensions = new HashSet<>();
    private final Set<String> names = new HashSet<>();
    private final List<PathMatcher> globs = new ArrayList<>();

    /** From {@code --list-maps} lines: {@code LANGUAGE PATTERN…}. */
    CtagsLanguages(List<String> mapLines) {
        for (String line : mapLines) {
            // Trimmed first, so no empty piece leads; a trailing one cannot follow the trim.
            String[] words = line.trim().split("\\s+", -1);
            for (int i = 1; i < words.length; i++) {
                add(words[i]);
            }
        }
    }

    private void add(String pattern) {
        boolean wild = pattern.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
        if (!wild) {
            names.add(pattern);
        } else if (pattern.startsWith("*.")
                && pattern.indexOf('.', 2) < 0
                && pattern.substring(2).chars().noneMatch(c -> c == '*' || c == '?' || c == '[' || c == '{')) {
            extensions.add(pattern.substring(2));
        } else {
            globs.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern.replace("\\", "\\\\")));
        }
    }

    /** Runs {@code program --options=NONE MAPS… --list-maps}, with the maps {@link Ctags} runs with. */
    static CtagsLanguages of(String program) throws IOException {
        List<String> command = new ArrayList<>(List.of(program, "--options=NONE"));
        command.addAll(Ctags.MAPS);
        command.add("--list-maps");
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        p.getOutputStream().close();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(program + " --list-maps failed");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while asking ctags for its languages");
        }
        return new CtagsLanguages(text.lines().toList());
    }

    /**
     * Whether ctags picks a parser for a file named {@code fileName} (no folders): by its name, or,
     * as ctags does for a template ({@code config.h.in}, {@code Makefile.in}), by its name without
     * one trailing {@code .in}.
     */
    boolean knows(String fileName) {
        return matches(fileName)
                || (fileName.length() > 3
                        && fileName.endsWith(".in")
                        && matches(fileName.substring(0, fileName.length() - 3)));
    }

    private boolean matches(String fileName) {
        if (names.contains(fileName)) {
            return true;
        }
        int dot = fileName.lastIndexOf('.');
        if (dot >= 0 && extensions.contains(fileName.substring(dot + 1))) {
            return true;
        }
        if (globs.isEmpty() || fileName.isEmpty() || fileName.indexOf('\0') >= 0) {
            return false;
        }
        Path name;
        try {
            name = Path.of(fileName);
        } catch (InvalidPathException e) {
            return false;
        }
        for (PathMatcher glob : globs) {
            if (glob.matches(name)) {
                return true;
            }
        }
        return false;
    }
}
