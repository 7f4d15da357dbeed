import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.Symbols;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Prints every definition the shards hold, one a line: package/path, line, name, kind, language,
 * scope, tab-separated (bench/symbols-vs-ctags.sh compares them with ctags' own).
 * Usage: java -cp indexer/target/classes bench/SymbolsDump.java SHARD_FOLDER...
 */
public final class SymbolsDump {
    public static void main(String[] args) throws Exception {
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        for (String folder : args) {
            Shard shard = Shard.open(Path.of(folder));
            Symbols symbols = Symbols.open(Path.of(folder));
            if (!symbols.present()) {
                throw new IllegalStateException(folder + " has no symbols: " + symbols.absentReason());
            }
            DocTable docs = shard.docs();
            for (int doc = 0; doc < docs.docCount(); doc++) {
                String path = docs.packageName(docs.packageId(doc)) + "/" + docs.path(doc);
                for (int s = symbols.firstOfDoc(doc); s < symbols.endOfDoc(doc); s++) {
                    out.append(path).append('\t').append(Integer.toString(symbols.line(s))).append('\t')
                            .append(symbols.name(symbols.nameId(s))).append('\t').append(symbols.kind(s))
                            .append('\t').append(symbols.language(s)).append('\t').append(symbols.scope(s))
                            .append('\n');
                }
            }
        }
        out.flush();
    }
}
