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

    @Test
    void aLineCutsSettersChainAndItsReaderSeesThem() {
        LineCut.Builder cut = new MessageBuilder().initRoot(LineCut.factory);
        LineCut.Builder chained = cut.setLine(4_096).setBytes(5_000_000);
        assertThat(chained).isSameAs(cut);
        LineCut.Reader reader = chained.asReader();
        assertThat(reader.getLine()).isEqualTo(4_096);
        assertThat(reader.getBytes()).isEqualTo(5_000_000);
        // both fields are UInt32 on the wire: the top bit survives as the int's sign
        LineCut.Reader high = cut.setLine(-1).setBytes(Integer.MIN_VALUE).asReader();
        assertThat(Integer.toUnsignedLong(high.getLine())).isEqualTo(0xffffffffL);
        assertThat(Integer.toUnsignedLong(high.getBytes())).isEqualTo(0x80000000L);
    }
}
