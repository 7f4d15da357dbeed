package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The hand-written bindings against the reference compiler: every struct's size, every field's
 * type and location, every union tag and enumerant must equal what {@code capnp compile -ocapnp}
 * prints for trigrep.capnp. A schema edit without a binding edit (or the reverse) fails here.
 */
@Tag("external") // drives capnp
class SchemaLayoutTest {
    static final List<Layout.Struct> BOUND = List.of(
            Request.LAYOUT,
            Heartbeat.LAYOUT,
            SearchRequest.LAYOUT,
            Filter.LAYOUT,
            FetchFile.LAYOUT,
            Response.LAYOUT,
            Result.LAYOUT,
            Range.LAYOUT,
            Progress.LAYOUT,
            Done.LAYOUT,
            Failure.LAYOUT,
            File.LAYOUT,
            LineCut.LAYOUT,
            Status.LAYOUT,
            Skipped.LAYOUT,
            FileMatch.LAYOUT,
            Symbol.LAYOUT,
            FileResults.LAYOUT,
            LineRun.LAYOUT,
            LineWindow.LAYOUT,
            LineMatch.LAYOUT,
            GitRef.LAYOUT);
    static final List<Layout.Enum> BOUND_ENUMS =
            List.of(Filter.Kind.LAYOUT, Done.Truncation.LAYOUT, Failure.Code.LAYOUT);

    private static final Pattern STRUCT =
            Pattern.compile("^\\s*struct (\\w+) @0x[0-9a-f]+ \\{  # (\\d+) bytes, (\\d+) ptrs$");
    private static final Pattern UNION = Pattern.compile("^\\s*union \\{  # tag bits \\[(\\d+), (\\d+)\\)$");
    private static final Pattern FIELD = Pattern.compile("^\\s*(\\w+) @(\\d+) :([\\w()]+);  # (.+)$");
    private static final Pattern ENUM = Pattern.compile("^\\s*enum (\\w+) @0x[0-9a-f]+ \\{$");
    private static final Pattern ENUMERANT = Pattern.compile("^\\s*(\\w+) @(\\d+);$");

    static Map<String, String> compiledStructs = new LinkedHashMap<>();
    static Map<String, List<String>> compiledEnums = new LinkedHashMap<>();

    @BeforeAll
    static void compileSchema() throws Exception {
        CapnpTool.Output out = CapnpTool.run(
                new byte[0],
                "compile",
                "-ocapnp",
                CapnpTool.SCHEMA.getFileName().toString());
        assertThat(out.exit()).as("capnp compile: %s", out.stderr()).isZero();
        String struct = null;
        StringBuilder fields = null;
        String enumName = null;
        for (String line : out.text().split("\n")) {
            Matcher m;
            if ((m = STRUCT.matcher(line)).matches()) {
                struct = m.group(1);
                fields = new StringBuilder(m.group(2) + " bytes, " + m.group(3) + " ptrs\n");
                compiledStructs.put(struct, "");
            } else if ((m = UNION.matcher(line)).matches()) {
                fields.append("union tag bits[")
                        .append(m.group(1))
                        .append(", ")
                        .append(m.group(2))
                        .append(")\n");
            } else if ((m = ENUM.matcher(line)).matches()) {
                enumName = m.group(1);
                compiledEnums.put(enumName, new ArrayList<>());
            } else if (enumName != null && (m = ENUMERANT.matcher(line)).matches()) {
                compiledEnums.get(enumName).add(m.group(1));
            } else if (enumName == null && (m = FIELD.matcher(line)).matches()) {
                fields.append(m.group(1))
                        .append(" @")
                        .append(m.group(2))
                        .append(" :")
                        .append(m.group(3))
                        .append(" ")
                        .append(m.group(4))
                        .append('\n');
            } else if (line.trim().equals("}")) {
                if (enumName != null) {
                    enumName = null;
                } else if (struct != null) {
                    compiledStructs.put(struct, compiledStructs.get(struct) + fields);
                    fields = new StringBuilder();
                }
            }
        }
    }

    private static String describe(Layout.Struct struct) {
        StringBuilder out = new StringBuilder(struct.dataBytes() + " bytes, " + struct.pointers() + " ptrs\n");
        if (struct.unionTag() != null) {
            Layout.Slot tag = struct.unionTag();
            out.append("union tag bits[")
                    .append(tag.bitOffset())
                    .append(", ")
                    .append(tag.bitOffset() + tag.bitWidth())
                    .append(")\n");
        }
        for (Layout.Slot slot : struct.slots()) {
            out.append(slot.name())
                    .append(" @")
                    .append(slot.ordinal())
                    .append(" :")
                    .append(slot.type())
                    .append(" ")
                    .append(slot.location())
                    .append('\n');
        }
        return out.toString();
    }

    @Test
    void everyStructOfTheSchemaIsBound() {
        assertThat(BOUND.stream().map(Layout.Struct::name))
                .containsExactlyInAnyOrderElementsOf(compiledStructs.keySet());
    }

    @Test
    void everyFieldSitsWhereTheCompilerPutsIt() {
        for (Layout.Struct struct : BOUND) {
            assertThat(describe(struct)).as("struct %s", struct.name()).isEqualTo(compiledStructs.get(struct.name()));
        }
    }

    @Test
    void everyEnumHasTheSchemaEnumerantsInOrder() {
        assertThat(BOUND_ENUMS.stream().map(Layout.Enum::name))
                .containsExactlyInAnyOrderElementsOf(compiledEnums.keySet());
        for (Layout.Enum e : BOUND_ENUMS) {
            assertThat(e.enumerants()).as("enum %s", e.name()).isEqualTo(compiledEnums.get(e.name()));
        }
    }

    @Test
    void javaEnumConstantsFollowTheEnumerants() {
        assertThat(javaNames(Filter.Kind.values())).isEqualTo(upper(Filter.Kind.LAYOUT));
        assertThat(javaNames(Done.Truncation.values())).isEqualTo(upper(Done.Truncation.LAYOUT));
        assertThat(javaNames(Failure.Code.values())).isEqualTo(upper(Failure.Code.LAYOUT));
        assertThat(javaNames(Response.Which.values()))
                .isEqualTo(Response.LAYOUT.slots().stream()
                        .map(s -> snake(s.name()))
                        .collect(Collectors.toList()));
        assertThat(javaNames(Request.Which.values()))
                .isEqualTo(Request.LAYOUT.slots().stream()
                        .map(s -> snake(s.name()))
                        .collect(Collectors.toList()));
    }

    private static List<String> javaNames(java.lang.Enum<?>[] values) {
        List<String> names = Arrays.stream(values).map(java.lang.Enum::name).collect(Collectors.toList());
        assertThat(names.remove(names.size() - 1)).isEqualTo("_NOT_IN_SCHEMA");
        return names;
    }

    private static List<String> upper(Layout.Enum e) {
        return e.enumerants().stream().map(SchemaLayoutTest::snake).collect(Collectors.toList());
    }

    private static String snake(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase();
    }
}
