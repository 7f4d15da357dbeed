package io.trigrep.backend.search;

/**
 * How much a definition of each ctags kind is worth to someone who searched its name: the types
 * and functions a name usually means first, then macros and prototypes, variables and members,
 * and last the names local to a function.
 */
final class SymbolKinds {
    private SymbolKinds() {}

    static float weight(String kind) {
        return switch (kind) {
            case "function",
                    "method",
                    "class",
                    "struct",
                    "union",
                    "enum",
                    "interface",
                    "typedef",
                    "type",
                    "namespace",
                    "module",
                    "package",
                    "trait",
                    "impl",
                    "subroutine",
                    "procedure" -> 1.0f;
            case "macro", "define" -> 0.9f;
            case "prototype", "externvar", "variable", "constant", "alias" -> 0.8f;
            case "member", "field", "enumerator", "property", "enumConstant" -> 0.7f;
            case "local", "parameter", "label" -> 0.4f;
            default -> 0.6f;
        };
    }
}
