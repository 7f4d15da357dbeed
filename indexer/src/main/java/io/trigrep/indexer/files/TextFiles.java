package io.trigrep.indexer.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Small text files an operator hands the indexer (a list of remotes, a token file), read whole
 * but never past a bound: a file that never ends ({@code /dev/zero}, a pipe) or that is not text
 * is an error naming it, not an exhausted heap.
 */
public final class TextFiles {
    private TextFiles() {}

    /** {@code file} as UTF-8 text of at most {@code maxBytes} bytes. */
    public static String read(Path file, int maxBytes) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(maxBytes + 1);
        }
        if (bytes.length > maxBytes) {
            throw new IOException(file + ": over " + maxBytes + " bytes, too large for what it holds");
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IOException(file + ": not UTF-8 text", e);
        }
    }
}
