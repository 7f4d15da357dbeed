package io.trigrep.frontend.query;

import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.Response;

/**
 * One result read back from a query's tee: its message, and for a {@code fileResults} message
 * (several matching lines of a file) which of its matches it is, with the message's lines indexed
 * once for all the results of the page that share it.
 *
 * @param file the message's lines and matches when it is a fileResults, else null
 * @param match which of {@code file}'s matches; 0 otherwise
 */
public record StoredResult(Response.Reader response, FileResultsIndex file, int match) {
    public Response.Which which() {
        return response.which();
    }
}
