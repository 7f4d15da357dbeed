package io.trigrep.query;

/** A query that cannot be run, with what is wrong and where (1-based character position, 0 when none applies). */
public final class QueryException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int position;

    public QueryException(String message, int position) {
        super(message);
        this.position = position;
    }

    public int position() {
        return position;
    }
}
