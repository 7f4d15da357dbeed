package io.trigrep.proto;

import java.io.IOException;

/** Bytes that are not a well-formed trigrep message: a bad segment table, a frame over the limits, a pointer out of bounds. */
public final class MalformedMessageException extends IOException {
    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String message) {
        super(message);
    }

    public MalformedMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
