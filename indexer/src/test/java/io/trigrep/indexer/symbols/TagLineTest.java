package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TagLineTest {
    @Test
    void readsTheKeptFieldsAndSkipsTheRest() {
        TagLine t = new TagLine()
                .parse(
                        "{\"_type\": \"tag\", \"name\": \"a\\\"b\\\\c\\u00e9\", \"path\": \"x.c\", \"language\": \"C\","
                                + " \"line\": 42, \"kind\": \"member\", \"file\": true, \"scope\": \"S\", \"scopeKind\": \"struct\"}");
        assertThat(t.type).isEqualTo("tag");
        assertThat(t.name()).isEqualTo("a\"b\\cé");
        assertThat(t.line).isEqualTo(42);
        assertThat(t.kind).isEqualTo("member");
        assertThat(t.language).isEqualTo("C");
        assertThat(t.scope()).isEqualTo("S");
        t.parse("{\"_type\": \"error\", \"message\": \"bad\", \"fatal\": true}");
        assertThat(t.name()).isNull();
        assertThat(t.message).isEqualTo("bad");
        assertThat(t.fatal).isTrue();
    }

    @Test
    void malformedLinesAreRefusedWithTheLine() {
        assertThatThrownBy(() -> new TagLine().parse("{\"name\": \"unterminated"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends early")
                .hasMessageContaining("unterminated");
        assertThatThrownBy(() -> new TagLine().parse("{\"line\": x}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected a number");
    }

    @Test
    void fileNamesAreEscapedForTheCommandLine() {
        assertThat(Ctags.jsonString("a\"b\\c\nd")).isEqualTo("\"a\\\"b\\\\c\\u000ad\"");
    }
}
