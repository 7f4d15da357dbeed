package io.trigrep.indexer.filetype;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The language of a file, from its name or its shebang line. The ordinal is stored in the doc
 * table (one byte): constants are only ever appended, never reordered or removed.
 */
public enum FileType {
    UNKNOWN(List.of(), List.of(), List.of()),
    C(List.of("c", "h"), List.of(), List.of()),
    CPP(
            List.of("cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "tcc", "inl"),
            List.of(),
            List.of("c++", "cxx")),
    GO(List.of("go"), List.of(), List.of("golang")),
    JAVA(List.of("java"), List.of(), List.of()),
    PYTHON(
            List.of("py", "pyw", "pyi", "pyx", "pxd"),
            List.of("python", "python2", "python3", "pypy", "pypy3"),
            List.of("py")),
    RUST(List.of("rs"), List.of(), List.of("rs")),
    SHELL(
            List.of("sh", "bash", "zsh", "ksh", "dash"),
            List.of("sh", "bash", "zsh", "ksh", "dash", "ash"),
            List.of("sh", "bash")),
    PERL(List.of("pl", "pm", "t", "pod", "xs"), List.of("perl", "perl5"), List.of("pl")),
    RUBY(List.of("rb", "rake", "gemspec", "ru"), List.of("ruby"), List.of("rb")),
    PHP(List.of("php", "php3", "php4", "php5", "phtml", "inc"), List.of("php"), List.of()),
    JAVASCRIPT(List.of("js", "mjs", "cjs", "jsx"), List.of("node", "nodejs"), List.of("js")),
    TYPESCRIPT(List.of("ts", "tsx", "mts", "cts"), List.of("ts-node", "deno"), List.of("ts")),
    KOTLIN(List.of("kt", "kts"), List.of(), List.of()),
    SCALA(List.of("scala", "sc"), List.of("scala"), List.of()),
    CSHARP(List.of("cs"), List.of(), List.of("c#", "cs")),
    OBJECTIVE_C(List.of("m", "mm"), List.of(), List.of("objc", "objective-c")),
    SWIFT(List.of("swift"), List.of(), List.of()),
    HASKELL(List.of("hs", "lhs"), List.of("runhaskell", "runghc"), List.of("hs")),
    OCAML(List.of("ml", "mli"), List.of("ocaml"), List.of()),
    LUA(List.of("lua"), List.of("lua", "luajit"), List.of()),
    TCL(List.of("tcl", "tk"), List.of("tclsh", "wish"), List.of()),
    AWK(List.of("awk"), List.of("awk", "gawk", "mawk"), List.of()),
    R(List.of("r"), List.of("rscript"), List.of()),
    SQL(List.of("sql"), List.of(), List.of()),
    HTML(List.of("html", "htm", "xhtml"), List.of(), List.of()),
    CSS(List.of("css", "scss", "sass", "less"), List.of(), List.of()),
    XML(List.of("xml", "xsd", "xsl", "xslt", "svg", "pom"), List.of(), List.of()),
    JSON(List.of("json"), List.of(), List.of()),
    YAML(List.of("yaml", "yml"), List.of(), List.of()),
    TOML(List.of("toml"), List.of(), List.of()),
    MARKDOWN(List.of("md", "markdown"), List.of(), List.of("md")),
    RESTRUCTUREDTEXT(List.of("rst"), List.of(), List.of("rst")),
    TEX(List.of("tex", "sty", "cls", "ltx"), List.of(), List.of("latex")),
    MAKEFILE(List.of("mk", "mak"), List.of("make"), List.of("make")),
    CMAKE(List.of("cmake"), List.of(), List.of()),
    AUTOCONF(List.of("ac", "am", "m4"), List.of(), List.of("m4", "automake")),
    ASSEMBLY(List.of("s", "asm"), List.of(), List.of("asm")),
    FORTRAN(List.of("f", "for", "f77", "f90", "f95", "f03", "f08"), List.of(), List.of()),
    PASCAL(List.of("pas", "pp", "lpr", "dpr"), List.of(), List.of("delphi")),
    LISP(
            List.of("lisp", "lsp", "cl", "el", "scm", "ss", "rkt", "clj", "cljs"),
            List.of("sbcl", "clisp", "guile", "racket"),
            List.of("elisp", "scheme", "clojure")),
    ERLANG(List.of("erl", "hrl"), List.of("escript"), List.of()),
    ELIXIR(List.of("ex", "exs"), List.of("elixir"), List.of()),
    D(List.of("d", "di"), List.of(), List.of("dlang")),
    VALA(List.of("vala", "vapi"), List.of(), List.of()),
    PROTOBUF(List.of("proto"), List.of(), List.of("proto")),
    DOCKERFILE(List.of("dockerfile"), List.of(), List.of("docker")),
    VIMSCRIPT(List.of("vim"), List.of(), List.of("vim")),
    GROOVY(List.of("groovy", "gradle"), List.of("groovy"), List.of()),
    DART(List.of("dart"), List.of(), List.of()),
    JULIA(List.of("jl"), List.of("julia"), List.of()),
    ZIG(List.of("zig"), List.of(), List.of()),
    NIM(List.of("nim"), List.of(), List.of()),
    ADA(List.of("adb", "ads", "ada"), List.of(), List.of()),
    COBOL(List.of("cob", "cbl", "cpy"), List.of(), List.of()),
    PROLOG(List.of("pro", "prolog"), List.of("swipl"), List.of()),
    VERILOG(List.of("v", "sv", "svh", "vh"), List.of(), List.of("systemverilog")),
    VHDL(List.of("vhd", "vhdl"), List.of(), List.of());

    private static final Map<String, FileType> BY_EXTENSION = new HashMap<>();
    private static final Map<String, FileType> BY_INTERPRETER = new HashMap<>();
    private static final Map<String, FileType> BY_NAME = new HashMap<>();
    private static final Map<String, FileType> BY_FILE_NAME = Map.of(
            "makefile",
            MAKEFILE,
            "gnumakefile",
            MAKEFILE,
            "cmakelists.txt",
            CMAKE,
            "dockerfile",
            DOCKERFILE,
            "rakefile",
            RUBY,
            "gemfile",
            RUBY,
            "configure.ac",
            AUTOCONF,
            "sconstruct",
            PYTHON,
            "build.gradle",
            GROOVY);

    static {
        for (FileType type : values()) {
            for (String e : type.extensions) {
                BY_EXTENSION.putIfAbsent(e, type);
            }
            for (String i : type.interpreters) {
                BY_INTERPRETER.putIfAbsent(i, type);
            }
            BY_NAME.put(type.name().toLowerCase(Locale.ROOT).replace("_", ""), type);
            BY_NAME.put(type.name().toLowerCase(Locale.ROOT), type);
            for (String alias : type.aliases) {
                BY_NAME.put(alias, type);
            }
        }
        BY_NAME.remove("unknown");
    }

    // Unmodifiable (List.of): Java has no immutable list type for the check to see.
    @SuppressWarnings("ImmutableEnumChecker")
    private final List<String> extensions;

    @SuppressWarnings("ImmutableEnumChecker")
    private final List<String> interpreters;

    @SuppressWarnings("ImmutableEnumChecker")
    private final List<String> aliases;

    FileType(List<String> extensions, List<String> interpreters, List<String> aliases) {
        this.extensions = extensions;
        this.interpreters = interpreters;
        this.aliases = aliases;
    }

    /** The name users type after {@code filetype:}. */
    public String displayName() {
        return name().toLowerCase(Locale.ROOT).replace("_", "-");
    }

    /** This type's id in a shard's doc table (see {@link #ofId}). */
    @SuppressWarnings(
            "EnumOrdinal") // the id is the ordinal by design: FORMAT.md's FileType, constants only ever appended
    public int id() {
        return ordinal();
    }

    public static FileType ofId(int id) {
        FileType[] all = values();
        return id >= 0 && id < all.length ? all[id] : UNKNOWN;
    }

    /** The type a user means by {@code filetype:NAME}, or null when there is none by that name. */
    public static FileType byName(String name) {
        return BY_NAME.get(name.toLowerCase(Locale.ROOT));
    }

    /** Detects the type from the file name, then (for files without a known extension) from a {@code #!} line. */
    public static FileType detect(String path, ByteBuffer content) {
        int slash = path.lastIndexOf('/');
        String name = path.substring(slash + 1).toLowerCase(Locale.ROOT);
        FileType byFileName = BY_FILE_NAME.get(name);
        if (byFileName != null) {
            return byFileName;
        }
        int dot = name.lastIndexOf('.');
        if (dot > 0 && dot < name.length() - 1) {
            FileType byExtension = BY_EXTENSION.get(name.substring(dot + 1));
            if (byExtension != null) {
                return byExtension;
            }
        }
        if (name.startsWith("makefile") || name.endsWith(".mk")) {
            return MAKEFILE;
        }
        return shebang(content);
    }

    private static FileType shebang(ByteBuffer content) {
        if (content.remaining() < 3
                || content.get(content.position()) != '#'
                || content.get(content.position() + 1) != '!') {
            return UNKNOWN;
        }
        int end = content.position() + 2;
        int limit = Math.min(content.limit(), content.position() + 256);
        while (end < limit && content.get(end) != '\n') {
            end++;
        }
        byte[] line = new byte[end - content.position() - 2];
        content.duplicate().position(content.position() + 2).get(line);
        String[] words = new String(line, StandardCharsets.UTF_8).trim().split("\\s+", -1);
        if (words.length == 0 || words[0].isEmpty()) {
            return UNKNOWN;
        }
        String interpreter = words[0].substring(words[0].lastIndexOf('/') + 1);
        if (interpreter.equals("env")) {
            int i = 1;
            while (i < words.length && words[i].startsWith("-")) {
                i++;
            }
            if (i == words.length) {
                return UNKNOWN;
            }
            interpreter = words[i];
        }
        FileType type = BY_INTERPRETER.get(interpreter.toLowerCase(Locale.ROOT));
        if (type == null) {
            // python3.11, perl5.36, ruby3.1: strip a version suffix.
            type = BY_INTERPRETER.get(interpreter.toLowerCase(Locale.ROOT).replaceAll("[0-9.]+$", ""));
        }
        return type == null ? UNKNOWN : type;
    }
}
