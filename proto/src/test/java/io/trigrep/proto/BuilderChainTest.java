package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Test;

/** The builders of the newer bindings chain their setters on one builder and read back what was set through asReader. */
class BuilderChainTest {
    @Test
    void aSymbolsSettersChainAndItsReaderSeesThem() {
        Symbol.Builder symbol = new MessageBuilder().initRoot(Symbol.factory);
        Symbol.Builder chained = symbol.setName("inflateInit2_")
                .setKind("function")
                .setScope("zlib")
                .setLanguage("C");
        assertThat(chained).isSameAs(symbol);
        Symbol.Reader reader = chained.asReader();
        assertThat(reader.getName().toString()).isEqualTo("inflateInit2_");
        assertThat(reader.getKind().toString()).isEqualTo("function");
        assertThat(reader.getScope().toString()).isEqualTo("zlib");
        assertThat(reader.getLanguage().toString()).isEqualTo("C");
    }

    @Test
    void aFileMatchsSettersChainAndItsReaderSeesThem() {
        FileMatch.Builder file = new MessageBuilder().initRoot(FileMatch.factory);
        FileMatch.Builder chained = file.setPackage("zlib_1.2.13.dfsg-1")
                .setPath("zutil.h")
                .setRanking(0.5f)
                .setBytes(6_783)
                .setLanguage("c");
        assertThat(chained).isSameAs(file);
        FileMatch.Reader reader = chained.asReader();
        assertThat(reader.getPackage().toString()).isEqualTo("zlib_1.2.13.dfsg-1");
        assertThat(reader.getPath().toString()).isEqualTo("zutil.h");
        assertThat(reader.getRanking()).isEqualTo(0.5f);
        assertThat(reader.getBytes()).isEqualTo(6_783);
        assertThat(reader.getLanguage().toString()).isEqualTo("c");
    }
}
