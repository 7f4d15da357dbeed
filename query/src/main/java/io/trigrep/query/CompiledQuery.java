package io.trigrep.query;

import io.trigrep.indexer.filetype.FileType;
import io.trigrep.query.plan.Planner;
import io.trigrep.query.plan.Query;
import io.trigrep.re2j.Pattern;
import io.trigrep.re2j.PatternSyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.IntUnaryOperator;

/**
 * A query made ready to run: patterns compiled by RE2J (linear time, whatever the input), the
 * trigram plan and the compiled filters. The limits it runs under are the backend's.
 *
 * <p>{@code pattern} finds the lines shown. For a boolean query it is the alternation of the
 * operands whose lines are shown, and {@code operands} holds the condition a file must meet
 * first; when no operand's lines are shown it is null and matching files are results of their
 * own. For a file-name query ({@link ParsedQuery#filesOnly}) it is null too: no content is read.
 * For a symbol query it is null, {@code symbolNames} matches the names, and {@code plan} is the
 * trigram plan of that regex over names (the shard's symbol index), not over contents. A boolean
 * query's {@code sym:} operands are in its plan as {@link Query.Defines}.
 */
@SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
public record CompiledQuery(
        ParsedQuery query,
        Pattern pattern,
        byte[] literal,
        byte[] foldedLiteral,
        Query plan,
        List<Pattern> packages,
        List<Pattern> notPackages,
        List<Pattern> paths,
        List<Pattern> notPaths,
        EnumSet<FileType> fileTypes,
        EnumSet<FileType> notFileTypes,
        Operands operands,
        Pattern symbolNames) {
    /** RE2J programs larger than this are refused: they would be slow on every line of every file. */
    public static final int MAX_PROGRAM_SIZE = 20_000;

    /** The start of the refusal of a regex that matches the empty string. */
    public static final String EMPTY_MATCH = "the regex matches the empty string, so every line of every file";

    /** The query compiled, or the first problem in it, placed where it stands. */
    public static CompiledQuery of(ParsedQuery query) throws QueryException {
        int flags = Pattern.MULTILINE | (query.caseInsensitive() ? Pattern.CASE_INSENSITIVE : 0);
        Pattern pattern = null;
        byte[] literal = null;
        byte[] foldedLiteral = null;
        Query plan;
        Operands operands = null;
        Pattern names = null;
        if (query.isBoolean()) {
            operands = operands(query, flags);
            pattern = shownLines(query, operands, flags);
            plan = plan(query.condition(), operands);
            literal = shownLiteral(operands);
        } else if (query.filesOnly()) {
            plan = Query.ALL;
        } else if (query.isSymbolQuery()) {
            // The plan is over names, not contents: the shard's symbol index answers it.
            ParsedQuery.Operand symbol = query.symbol();
            names = names(symbol, query.caseInsensitive());
            plan = Planner.plan(symbol.regex(), false, query.caseInsensitive());
        } else {
            String source = query.literal() ? Pattern.quote(query.pattern()) : query.pattern();
            pattern = checked(compile(source, flags, query::rawIndex, ""), query.literal(), query.patternOffset());
            literal = query.literal() && !query.caseInsensitive()
                    ? query.pattern().getBytes(StandardCharsets.UTF_8)
                    : null;
            foldedLiteral = foldedLiteral(query);
            plan = Planner.plan(query.pattern(), query.literal(), query.caseInsensitive());
        }
        List<Pattern> packages = new ArrayList<>();
        List<Pattern> notPackages = new ArrayList<>();
        List<Pattern> paths = new ArrayList<>();
        List<Pattern> notPaths = new ArrayList<>();
        EnumSet<FileType> types = EnumSet.noneOf(FileType.class);
        EnumSet<FileType> notTypes = EnumSet.noneOf(FileType.class);
        for (ParsedQuery.Filter f : query.filters()) {
            int at = query.raw().indexOf(f.value());
            switch (f.kind()) {
                case PACKAGE ->
                    (f.negated() ? notPackages : packages).add(compile(f.value(), 0, from(at), "package: "));
                case PATH -> (f.negated() ? notPaths : paths).add(compile(f.value(), 0, from(at), "path: "));
                case BRANCH -> {
                    // Matched by name against each repository's branches: acceptsBranches.
                }
                case FILETYPE -> {
                    FileType type = FileType.byName(f.value());
                    if (type == null) {
                        throw new QueryException("unknown filetype '" + f.value() + "'", at + 1);
                    }
                    (f.negated() ? notTypes : types).add(type);
                }
            }
        }
        return new CompiledQuery(
                query,
                pattern,
                literal,
                foldedLiteral,
                plan,
                packages,
                notPackages,
                paths,
                notPaths,
                types,
                notTypes,
                operands,
                names);
    }

    /** A {@code sym:} regex compiled for names, as RE2J runs it on each candidate name: refused where it stands when it would match every name. */
    private static Pattern names(ParsedQuery.Operand symbol, boolean caseInsensitive) throws QueryException {
        Pattern names =
                compile(symbol.regex(), caseInsensitive ? Pattern.CASE_INSENSITIVE : 0, from(symbol.offset()), "sym: ");
        if (names.programSize() > MAX_PROGRAM_SIZE) {
            throw new QueryException(
                    "sym: regex too complex: program size " + names.programSize(), symbol.offset() + 1);
        }
        if (names.matcher("").find()) {
            throw new QueryException(
                    "sym: the regex matches the empty string, so every name: make part of it required",
                    symbol.offset() + 1);
        }
        return names;
    }

    /** {@code pattern} if it is within the size limit and (unless a literal) cannot match the empty string. */
    private static Pattern checked(Pattern pattern, boolean literal, int offset) throws QueryException {
        if (pattern.programSize() > MAX_PROGRAM_SIZE) {
            throw new QueryException(
                    "regex too complex: program size " + pattern.programSize() + ", the limit is " + MAX_PROGRAM_SIZE,
                    offset + 1);
        }
        if (!literal && pattern.matcher("").find()) {
            // grep's semantics: a line matches when the regex matches within it, so a regex that
            // matches the empty string matches every line of every file (x?, (), a*, ^, $): an
            // answer of the whole corpus that nobody asked for, streamed to the deadline. Refused
            // here, where every client's query is checked (HTTP API, web UI, ./trigrep search).
            // An operand of a boolean query likewise: it would hold for every file.
            throw new QueryException(EMPTY_MATCH + ": make part of it required (x, not x?; a+, not a*)", offset + 1);
        }
        return pattern;
    }

    private static Operands operands(ParsedQuery query, int flags) throws QueryException {
        List<Pattern> patterns = new ArrayList<>();
        List<Query> plans = new ArrayList<>();
        List<Optional<byte[]>> literals = new ArrayList<>();
        List<Boolean> symbols = new ArrayList<>();
        for (ParsedQuery.Operand o : query.operands()) {
            symbols.add(o.sym());
            patterns.add(
                    o.sym()
                            ? names(o, query.caseInsensitive())
                            : checked(compile(o.regex(), flags, from(o.offset()), ""), false, o.offset()));
            plans.add(Planner.plan(o.regex(), false, query.caseInsensitive()));
            boolean literal = !o.sym() && !query.caseInsensitive() && !QueryParser.hasMetacharacters(o.regex());
            literals.add(literal ? Optional.of(o.regex().getBytes(StandardCharsets.UTF_8)) : Optional.empty());
        }
        boolean[] positive = new boolean[patterns.size()];
        query.condition().positives(positive, false);
        List<Boolean> shown = new ArrayList<>();
        for (boolean p : positive) {
            shown.add(p);
        }
        return new Operands(query.condition(), patterns, plans, shown, literals, symbols);
    }

    /** The bytes of the one regex operand whose lines are shown, when it is a literal: those lines are found as a literal query's are. */
    private static byte[] shownLiteral(Operands operands) {
        byte[] only = null;
        for (int i = 0; i < operands.size(); i++) {
            if (operands.shown().get(i) && !operands.sym(i)) {
                if (only != null || operands.literals().get(i).isEmpty()) {
                    return null;
                }
                only = operands.literals().get(i).get();
            }
        }
        return only;
    }

    /**
     * The alternation of the regex operands whose lines are shown, or null when there is none
     * (a shown {@code sym:} operand's lines are its definitions', found in the symbol index).
     */
    private static Pattern shownLines(ParsedQuery query, Operands operands, int flags) throws QueryException {
        StringBuilder alternation = new StringBuilder();
        for (int i = 0; i < operands.size(); i++) {
            if (operands.shown().get(i) && !operands.sym(i)) {
                alternation
                        .append(alternation.length() == 0 ? "" : "|")
                        .append("(?:")
                        .append(query.operands().get(i).regex())
                        .append(')');
            }
        }
        if (alternation.length() == 0) {
            return null;
        }
        return checked(
                compile(alternation.toString(), flags, from(query.patternOffset()), ""), false, query.patternOffset());
    }

    /**
     * Candidates for a condition: AND and OR of the operands' plans, a {@code sym:} operand's
     * being the files that define a matching name; a NOT narrows nothing (a file lacking its
     * operand has no trigram to show for it).
     */
    private static Query plan(Condition condition, Operands operands) {
        if (condition instanceof Condition.Operand o) {
            return operands.sym(o.index())
                    ? new Query.Defines(o.index())
                    : operands.plans().get(o.index());
        }
        if (condition instanceof Condition.Not) {
            return Query.ALL;
        }
        boolean and = condition instanceof Condition.And;
        List<Condition> parts = and ? ((Condition.And) condition).operands() : ((Condition.Or) condition).operands();
        List<Query> plans = new ArrayList<>();
        for (Condition c : parts) {
            plans.add(plan(c, operands));
        }
        return and ? Query.allOf(plans) : Query.anyOf(plans);
    }

    /** For a case-insensitive query that is an ASCII literal ({@code (?i)abc}, {@code abc case:no}): its lower case. */
    private static byte[] foldedLiteral(ParsedQuery query) {
        if (!query.caseInsensitive()) {
            return null;
        }
        String text = query.pattern();
        if (!query.literal()) {
            if (!text.startsWith("(?i)") || QueryParser.hasMetacharacters(text.substring(4))) {
                return null;
            }
            text = text.substring(4);
        }
        if (text.isEmpty()) {
            return null;
        }
        byte[] out = new byte[text.length()];
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80 || c == '\n') {
                return null;
            }
            out[i] = (byte) (c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        return out;
    }

    /** {@code regex} compiled; a syntax error placed in the raw query by {@code at} (index in regex to index in raw). */
    private static Pattern compile(String regex, int flags, IntUnaryOperator at, String what) throws QueryException {
        try {
            return Pattern.compile(regex, flags);
        } catch (PatternSyntaxException e) {
            int close = unmatchedClose(regex);
            if (close >= 0) {
                // RE2J reports a ')' without its '(' as "internal error: stack underflow".
                throw new QueryException(what + "unexpected ) without a matching (", at.applyAsInt(close) + 1);
            }
            if (e.getDescription().startsWith("internal error")) {
                throw new QueryException(what + "invalid regex", at.applyAsInt(0) + 1);
            }
            String fragment = withoutFlags(e.getPattern(), regex);
            throw new QueryException(
                    what
                            + e.getDescription()
                            + (fragment == null || fragment.equals(regex) ? "" : ": `" + fragment + "`"),
                    at.applyAsInt(index(regex, e.getDescription(), fragment)) + 1);
        } catch (RuntimeException e) {
            throw new QueryException(what + "invalid regex: " + e.getMessage(), at.applyAsInt(0) + 1);
        }
    }

    /** Index of the first ')' that closes no group (escapes and character classes skipped), or -1. */
    static int unmatchedClose(String regex) {
        int depth = 0;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                // A class ends at the first ']' that is not its first member (nor escaped).
                int j = i + 1;
                if (j < regex.length() && regex.charAt(j) == '^') {
                    j++;
                }
                if (j < regex.length() && regex.charAt(j) == ']') {
                    j++;
                }
                while (j < regex.length() && regex.charAt(j) != ']') {
                    j += regex.charAt(j) == '\\' ? 2 : 1;
                }
                i = j;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth < 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The fragment RE2J reports, without the flag groups ({@code (?m)}, {@code (?i)}) its compile
     * puts before a whole regex: the user wrote none of them.
     */
    private static String withoutFlags(String fragment, String regex) {
        if (fragment == null || !fragment.endsWith(regex)) {
            return fragment;
        }
        String prefix = fragment.substring(0, fragment.length() - regex.length());
        while (prefix.startsWith("(?i)") || prefix.startsWith("(?s)") || prefix.startsWith("(?m)")) {
            prefix = prefix.substring(4);
        }
        return prefix.isEmpty() ? regex : fragment;
    }

    /** Characters of a regex starting at {@code offset} in the raw query (-1: none, placed at its start). */
    private static IntUnaryOperator from(int offset) {
        return i -> Math.max(0, offset) + i;
    }

    /** RE2J names the offending text, not its index: its index in the regex, or the unclosed group's. */
    private static int index(String regex, String description, String fragment) {
        if ("missing closing )".equals(description)) {
            int depth = 0;
            int open = -1;
            for (int i = regex.length() - 1; i >= 0; i--) {
                char c = regex.charAt(i);
                if (c == ')') {
                    depth++;
                } else if (c == '(' && (i == 0 || regex.charAt(i - 1) != '\\')) {
                    if (depth == 0) {
                        open = i;
                        break;
                    }
                    depth--;
                }
            }
            return Math.max(open, 0);
        }
        if (fragment != null && !fragment.equals(regex)) {
            return Math.max(regex.indexOf(fragment), 0);
        }
        return 0;
    }

    /** Whether the doc with this package, path and type passes every filter. */
    public boolean accepts(String packageName, String path, FileType type) {
        for (Pattern p : packages) {
            if (!p.matcher(packageName).find()) {
                return false;
            }
        }
        for (Pattern p : notPackages) {
            if (p.matcher(packageName).find()) {
                return false;
            }
        }
        for (Pattern p : paths) {
            if (!p.matcher(path).find()) {
                return false;
            }
        }
        for (Pattern p : notPaths) {
            if (p.matcher(path).find()) {
                return false;
            }
        }
        if (!fileTypes.isEmpty() && !fileTypes.contains(type)) {
            return false;
        }
        return !notFileTypes.contains(type);
    }

    /**
     * True when no trigram can be required of a matching file (the plan is {@link Query#ALL}):
     * every file passing the filters is read. What the frontend admits as an expensive query.
     */
    public boolean fullScan() {
        return plan instanceof Query.All && !query.filesOnly() && !query.isSymbolQuery();
    }

    /** Whether the query has a {@code branch:} filter: only then are a file's branch names needed. */
    public boolean filtersBranches() {
        for (ParsedQuery.Filter f : query.filters()) {
            if (f.kind() == ParsedQuery.Kind.BRANCH) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a file held by the branches {@code branches} passes the query's {@code branch:} filters:
     * each {@code branch:NAME} needs NAME among them (so no file of a package that is not a repository
     * passes one), each {@code -branch:NAME} needs it absent.
     */
    public boolean acceptsBranches(List<String> branches) {
        for (ParsedQuery.Filter f : query.filters()) {
            if (f.kind() == ParsedQuery.Kind.BRANCH && branches.contains(f.value()) == f.negated()) {
                return false;
            }
        }
        return true;
    }

    public boolean hasFilters() {
        return !query.filters().isEmpty();
    }
}
