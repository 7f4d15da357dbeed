/**
 * The wire contract between frontend and source backends: bindings for {@code trigrep.capnp} and
 * the stream framing. This comment is the one description of the bytes on the wire.
 *
 * <h2>Conversation</h2>
 * A frontend opens a TCP connection and sends framed {@link io.trigrep.proto.Request}s, one at a
 * time: the next only after the last message of the previous answer. For {@code search} the
 * backend answers with framed {@link io.trigrep.proto.Response} messages: any number of
 * {@code result} and {@code progress}, then exactly one {@code done} or {@code error}.
 * {@code fetchFile} is answered by one {@code file} or {@code error}; {@code ping} by one
 * {@code status}. The connection stays open for the next request; the backend closes it after a
 * malformed request, a request sent before the previous answer ended, or 30 s without a request.
 * A frontend may close at any time; the backend then stops the work.
 *
 * <h2>Framing (standard Cap'n Proto stream encoding, little-endian)</h2>
 * <pre>
 * offset  width      field
 * 0       4          S - 1, where S is the number of segments (uint32)
 * 4       4 * S      size of each segment in 8-byte words (uint32 each)
 * ...     0 or 4     zero padding to a multiple of 8 bytes
 * ...     8 * sum    the segments, in order
 * </pre>
 * The segment table therefore takes {@code ((4 + 4S) + 7) & ~7} bytes: 8 for one segment, 16
 * for two or three. Segment 0 starts with the root pointer. The frame length is known from the
 * table alone, which is what {@link io.trigrep.proto.FrameDecoder} and
 * {@link io.trigrep.proto.Framing#frameLength} rely on.
 *
 * <h2>Limits ({@link io.trigrep.proto.FrameLimits#DEFAULT})</h2>
 * <ul>
 *   <li>at most 512 segments per frame, and at most 64 MiB per frame, table included. A table
 *       that announces more is refused as soon as the table has arrived, before any body byte is
 *       awaited or any buffer is sized from it;
 *   <li>segment 0 must not be empty;
 *   <li>a reader follows pointers at most 16 levels deep, and reads at most
 *       {@code max(1024, 8 * words)} words in all (so pointers that share a target cannot amplify
 *       a small frame into a large amount of work);
 *   <li>{@link io.trigrep.proto.Messages#response} and {@link io.trigrep.proto.Messages#request}
 *       check every pointer of every field known to the schema once, up front; a bad one is a
 *       {@link io.trigrep.proto.MalformedMessageException} naming the problem.
 * </ul>
 *
 * <h2>Worked example: a progress message</h2>
 * {@code (progress = (filesSearched = 1, candidateFiles = 2, totalFiles = 3, results = 4))},
 * one segment of 7 words, 64 bytes framed:
 * <pre>
 * 00 00 00 00 07 00 00 00   table: 1 segment, 7 words
 * 00 00 00 00 01 00 01 00   root: struct pointer, offset 0, 1 data word, 1 pointer  (Response)
 * 01 00 00 00 00 00 00 00   Response data: union tag 1 = progress
 * 00 00 00 00 04 00 00 00   Response pointer 0: struct, offset 0, 4 data words     (Progress)
 * 01 00 00 00 00 00 00 00   filesSearched  = 1
 * 02 00 00 00 00 00 00 00   candidateFiles = 2
 * 03 00 00 00 00 00 00 00   totalFiles     = 3
 * 04 00 00 00 00 00 00 00   results        = 4
 * </pre>
 * A typical result (a package and path of about 20 bytes each, a 30-byte matching line, two
 * context lines of about 20 bytes on each side, one match range) frames to 320 bytes for 167
 * bytes of text: 10 words of fixed structure, one pointer per context line, each text rounded up
 * to whole words with its NUL, and two words for the range list.
 *
 * <h2>Writers</h2>
 * {@link io.trigrep.proto.ResultWriter} writes {@code result} messages without a builder and
 * without allocating, byte-identical to what {@code capnp encode} produces; everything else goes
 * through the runtime's {@code MessageBuilder} and {@link io.trigrep.proto.Framing#write}.
 *
 * <h2>Schema evolution</h2>
 * Version 1 is {@code trigrep.capnp} as committed. Fields and union members are only added,
 * with new ordinals; readers map unknown union members and enumerants to {@code _NOT_IN_SCHEMA}.
 * The bindings are written by hand (no {@code capnpc-java} here); {@code SchemaLayoutTest} checks
 * every offset against {@code capnp compile -ocapnp}.
 */
package io.trigrep.proto;
