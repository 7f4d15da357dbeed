package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java file of every module, main and test, declares a package under {@code io.trigrep}
 * and sits in the folder of that package: no class placed in a library's package to reach its
 * package-private members (issue 17), which breaks silently on an upgrade and is illegal under the
 * module system. Code taken from elsewhere is vendored under our own package (re2j/, see its
 * NOTICE). It lives in proto's tests because proto is built first; it reads the whole tree.
 */
class OwnPackagesTest {
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

    @Test
    void everySourceFileIsInTrigrepsOwnPackages() throws IOException {
        Path root = repositoryRoot();
        assertThat(javaFiles(root)).as("Java files found under %s", root).hasSizeGreaterThan(100);
        assertThat(foreignPackages(root)).isEmpty();
    }

    @Test
    void aClassInALibrarysPackageIsCaught(@TempDir Path root) throws IOException {
        write(
                root.resolve("source-backend/src/main/java/com/google/re2j/CompiledProgram.java"),
                "package com.google.re2j;\n\npublic final class CompiledProgram {}\n");
        write(
                root.resolve("proto/src/test/java/org/capnproto/TraversalBudget.java"),
                "package org.capnproto;\nclass TraversalBudget {}\n");
        write(
                root.resolve("proto/src/main/java/io/trigrep/proto/Fine.java"),
                "package io.trigrep.proto;\nclass Fine {}\n");
        write(
                root.resolve("proto/src/main/java/io/trigrep/Misplaced.java"),
                "package io.trigrep.proto;\nclass Misplaced {}\n");
        write(root.resolve("proto/src/main/java/Default.java"), "class Default {}\n");
        write(
                root.resolve("proto/src/main/java/io/trigrepx/Lookalike.java"),
                "package io.trigrepx;\nclass Lookalike {}\n");
        write(
                root.resolve("proto/target/generated-sources/org/x/Generated.java"),
                "package org.x;\nclass Generated {}\n");

        assertThat(foreignPackages(root))
                .containsExactlyInAnyOrder(
                        "source-backend/src/main/java/com/google/re2j/CompiledProgram.java: package com.google.re2j",
                        "proto/src/test/java/org/capnproto/TraversalBudget.java: package org.capnproto",
                        "proto/src/main/java/io/trigrep/Misplaced.java: package io.trigrep.proto is not its folder io.trigrep",
                        "proto/src/main/java/Default.java: no package declaration",
                        "proto/src/main/java/io/trigrepx/Lookalike.java: package io.trigrepx");
    }

    /** The files under {@code root} that break the rule, each with what is wrong, relative to root. */
    static List<String> foreignPackages(Path root) throws IOException {
        return javaFiles(root).stream()
                .map(file -> problem(root, file))
                .filter(p -> p != null)
                .sorted()
                .toList();
    }

    private static String problem(Path root, Path file) {
        String relative = root.relativize(file).toString().replace('\\', '/');
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        Matcher m = PACKAGE.matcher(text);
        if (!m.find()) {
            return relative + ": no package declaration";
        }
        String pkg = m.group(1);
        if (!pkg.equals("io.trigrep") && !pkg.startsWith("io.trigrep.")) {
            return relative + ": package " + pkg;
        }
        // The folder below src/<set>/java/ must spell the package: a file cannot claim one it is not in.
        String folder = relative.replaceFirst("^.*?/src/[^/]+/java/", "");
        folder = folder.contains("/")
                ? folder.substring(0, folder.lastIndexOf('/')).replace('/', '.')
                : "";
        return folder.equals(pkg) ? null : relative + ": package " + pkg + " is not its folder " + folder;
    }

    /** Every .java file in a module's src/ folder (main, test, any other set); build output is not ours to check. */
    private static List<Path> javaFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> {
                        String r = "/" + root.relativize(f).toString().replace('\\', '/');
                        return r.contains("/src/") && !r.contains("/target/") && !r.contains("/.git/");
                    })
                    .toList();
        }
    }

    /** The folder of the parent pom: surefire runs each module's tests in the module's folder. */
    private static Path repositoryRoot() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom)
                    && Files.readString(pom).contains("<artifactId>trigrep-parent</artifactId>")
                    && Files.isDirectory(dir.resolve("proto"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no trigrep-parent pom.xml above " + Path.of("").toAbsolutePath());
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
