package io.trigrep.proto;

/**
 * What {@link FrameDecoder} passes down the pipeline instead of a frame when the bytes cannot be
 * framed. The stream is unusable after it: the handler answers with an error and closes.
 */
public record MalformedFrame(String reason) {}
