package io.trigrep.frontend.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Writes a corpus, the same for the same seed, with every shape of file the coverage rule must
 * keep searchable, and the few it must leave out. One package ({@link #TREE}) is a kernel-like
 * tree larger than a shard's share; ten small packages of skewed sizes sit beside it.
 */
final class GeneratedCorpus {
    static final String TREE = "linux_6.1";
    static final int BIG_FILE_BYTES = 20 << 20;
    static final String BIG_FILE = "drivers/gpu/amd/asic_reg/gc_offset.h";

    private static final String[] WORDS = {
        "alpha", "beta", "gamma", "delta", "error", "value", "count", "buffer", "size", "index", "window", "table",
        "node", "list", "state", "the", "lock", "page", "queue", "device"
    };
    private static final String[] HEADERS = {"stdio", "stdlib", "string", "errno", "unistd", "zlib", "assert"};

    private GeneratedCorpus() {}

    static void write(Path root, long seed) throws IOException {
        Random random = new Random(seed);
        Path tree = root.resolve(TREE);
        bigHeader(tree.resolve(BIG_FILE), random);
        for (int i = 0; i < 200; i++) {
            write(
                    tree.resolve(String.format("src/file%03d.c", i)),
                    cFile(random, 400).getBytes(StandardCharsets.UTF_8));
        }
        for (int i = 0; i < 20; i++) {
            write(
                    tree.resolve("src/include/module_" + i + ".h"),
                    defines(random, 120).getBytes(StandardCharsets.UTF_8));
        }
        write(tree.resolve("web/app.min.js"), minified(random, 100_000).getBytes(StandardCharsets.UTF_8));
        write(tree.resolve("data/random.txt"), randomText(random, 1_300, 100).getBytes(StandardCharsets.US_ASCII));
        write(
                tree.resolve("docs/latin1.txt"),
                ("café au lait\r\nnaïve approach\r\nUniversität Stuttgart\r\n"
                                + "crlf line 1 in Latin-1\r\nCopyright (C) 2021 Jérôme\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
        write(
                tree.resolve("docs/bom.txt"),
                ("\uFEFFbyte order mark first line\ncafé in UTF-8\nCAFÉ uppercase\nthe end\n")
                        .getBytes(StandardCharsets.UTF_8));
        write(
                tree.resolve("docs/crlf.c"),
                ("#include <stdio.h>\r\nint main(void)\r\n{\r\n    printf(\"crlf line %d\\n\", 2);\r\n"
                                + "    return 0;\r\n}\r\n")
                        .getBytes(StandardCharsets.UTF_8));
        write(tree.resolve("docs/nonl.txt"), "first line\nno final newline".getBytes(StandardCharsets.UTF_8));
        write(tree.resolve("docs/empty.txt"), new byte[0]);
        byte[] mixed = concat(
                "café; ".getBytes(StandardCharsets.UTF_8),
                "caf\u00e9; and the rest\n".getBytes(StandardCharsets.ISO_8859_1));
        write(tree.resolve("docs/mixed.txt"), mixed);
        // Left out, each for its reason: a NUL byte, a VCS folder, a symlink.
        write(tree.resolve("bin/blob.bin"), "printf return\0binary".getBytes(StandardCharsets.UTF_8));
        write(tree.resolve(".git/config"), "[core]\nprintf = return\n".getBytes(StandardCharsets.UTF_8));
        Files.createSymbolicLink(tree.resolve("src/link.c"), Path.of("file000.c"));
        for (int p = 0; p < 10; p++) {
            Path pkg = root.resolve("small_" + p + "_1.0");
            int files = 2 + p * p / 3;
            for (int f = 0; f < files; f++) {
                write(
                        pkg.resolve("lib/part" + f + ".c"),
                        cFile(random, 50 + 40 * p).getBytes(StandardCharsets.UTF_8));
            }
            write(
                    pkg.resolve("README"),
                    ("the small package " + p + "\nCopyright (C) 2019 the authors\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A 20 MiB generated register header: long table lines, a define now and then, two needles near the end. */
    private static void bigHeader(Path file, Random random) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            long written = 0;
            int line = 0;
            StringBuilder text = new StringBuilder();
            while (written < BIG_FILE_BYTES - 4096) {
                text.setLength(0);
                line++;
                if (line % 50 == 0) {
                    text.append("#define regGC_")
                            .append(WORDS[random.nextInt(WORDS.length)].toUpperCase())
                            .append('_')
                            .append(line)
                            .append(" 0x")
                            .append(Integer.toHexString(random.nextInt(0x10000)))
                            .append('\n');
                } else if (line == 10_001) {
                    text.append("#define mmGRBM_STATUS 0x2004\n#define mmGRBM_STATUS2 0x2002\n");
                } else {
                    text.append("static const u32 gc_table_").append(line).append("[] = {");
                    while (text.length() < 2000) {
                        text.append(String.format(" 0x%08x,", random.nextInt()));
                    }
                    text.append(" };\n");
                }
                byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
                out.write(bytes);
                written += bytes.length;
            }
            byte[] tail = new byte[(int) (BIG_FILE_BYTES - written)];
            java.util.Arrays.fill(tail, (byte) ' ');
            tail[0] = '/';
            tail[1] = '*';
            tail[tail.length - 4] = '*';
            tail[tail.length - 3] = '/';
            tail[tail.length - 2] = ' ';
            tail[tail.length - 1] = '\n';
            out.write(tail);
        }
    }

    private static String cFile(Random random, int lines) {
        StringBuilder out = new StringBuilder();
        out.append("/* Copyright (C) 20").append(10 + random.nextInt(15)).append(" the authors */\n");
        for (int i = 0; i < 3; i++) {
            out.append("#include <")
                    .append(HEADERS[random.nextInt(HEADERS.length)])
                    .append(".h>\n");
        }
        out.append('\n');
        int n = 0;
        while (n < lines) {
            String w = WORDS[random.nextInt(WORDS.length)];
            int id = random.nextInt(1000);
            switch (random.nextInt(10)) {
                case 0 ->
                    out.append("static int func_").append(id).append("(int a, int b)\n{\n    return a + b;\n}\n\n");
                case 1 ->
                    out.append("int ")
                            .append(w)
                            .append('_')
                            .append(id)
                            .append(" = ")
                            .append(random.nextInt(100))
                            .append(";\n");
                case 2 -> out.append("    printf(\"value %d\\n\", ").append(w).append(");\n");
                case 3 ->
                    out.append("    ptr = ")
                            .append(random.nextBoolean() ? "malloc" : "calloc")
                            .append("(")
                            .append(w)
                            .append("_size);\n");
                case 4 ->
                    out.append("#define ")
                            .append(w.toUpperCase())
                            .append('_')
                            .append(id)
                            .append(String.format(" 0x%x\n", random.nextInt()));
                case 5 -> out.append("    if (err) return ").append(w).append(";\n");
                case 6 ->
                    out.append("// TODO: ")
                            .append(w)
                            .append(" since ")
                            .append(String.format(
                                    "%04d-%02d-%02d",
                                    2000 + random.nextInt(25), 1 + random.nextInt(12), 1 + random.nextInt(28)))
                            .append('\n');
                case 7 -> out.append("    struct ").append(w).append(" *p = calloc(1, sizeof(*p));\n");
                case 8 ->
                    out.append("/* the ")
                            .append(w)
                            .append(" of the ")
                            .append(WORDS[random.nextInt(WORDS.length)])
                            .append(" */\n");
                default -> out.append("int main(void)\n{\n    return 0;\n}\n");
            }
            n++;
        }
        return out.toString();
    }

    private static String defines(Random random, int lines) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            out.append("#define ")
                    .append(WORDS[random.nextInt(WORDS.length)].toUpperCase())
                    .append("_MASK_")
                    .append(i)
                    .append(String.format(" 0x%08x\n", random.nextInt()));
        }
        return out.toString();
    }

    /** One line of {@code bytes} minified JavaScript, without a final newline, a needle in the middle. */
    private static String minified(Random random, int bytes) {
        StringBuilder out = new StringBuilder();
        boolean needle = false;
        while (out.length() < bytes) {
            String w = WORDS[random.nextInt(WORDS.length)];
            out.append("var ")
                    .append(w)
                    .append(random.nextInt(100))
                    .append("=function(a,b){return a+b};window.")
                    .append(w)
                    .append('=')
                    .append(random.nextInt(1000))
                    .append(';');
            if (!needle && out.length() > bytes * 3 / 5) {
                out.append("var needle_in_minified=1;");
                needle = true;
            }
        }
        return out.toString();
    }

    /** Random printable ASCII: about as many distinct trigrams as characters, up to ~100,000. */
    private static String randomText(Random random, int lines, int width) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            for (int j = 0; j < width; j++) {
                out.append((char) ('!' + random.nextInt('~' - '!' + 1)));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }
}
