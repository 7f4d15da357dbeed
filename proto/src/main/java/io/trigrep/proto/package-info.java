/**
 * The wire contract between frontend and source backends: bindings for {@code trigrep.capnp} and
 * the stream framing. This comment is the one description of the bytes on the wire.
 *
 * <h2>Conversation</h2>
 * A frontend opens a TCP connection and sends framed {@link io.trigrep.proto.Request}s, one at a
 * time: the next only after the last message of the previous answer. For {@code search} the
 * backend answers with framed {@link io.trigrep.proto.Response} messages: any number of
 * results ({@code result}, or {@code fileResults} when the request set {@code fileResults}, and
 * {@code fileMatch}) and {@code progress}, then exactly one {@code done} or {@code error}.
 * {@code fetchFile} is answered by one {@code file} or {@code error}; {@code ping} and
 * {@code heartbeat} (a ping naming the frontend and the generation it has learnt of this backend)
 * by one {@code status}. The connection stays open for the next request; the backend closes it after a
 * malformed request, a request sent before the previous answer ended, or 30 s without a request.
 * A frontend may close at any time; the backend then stops the work.
 * With mutual TLS ({@link io.trigrep.proto.Tls}) the same bytes travel inside a TLS session: the
 * backend requires a client certificate signed by its CA before it reads a request.
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
 * context lines of about 20 bytes on each side, one match range) frames to 344 bytes for 167
 * bytes of text: 13 words of fixed structure (root, Response, Result's 2 data words and 8
 * pointers), one pointer per context line, each text rounded up to whole words with its NUL, and
 * two words for the range list. The two cut-length lists are null pointers unless a context line
 * was cut.
 *
 * <h2>Long lines (Result, since version 2)</h2>
 * Files of any shape are indexed (minified JavaScript, generated tables: lines of megabytes), so a
 * result never carries a whole long line. {@link io.trigrep.proto.ResultWriter#MAX_LINE_BYTES}
 * (400) bounds every line of a result:
 * <ul>
 *   <li>a context line ({@code before}, {@code after}) longer than that is cut to its prefix of
 *       at most 400 bytes; {@code beforeBytes} / {@code afterBytes} then hold the full length of
 *       every line of that list (one UInt32 each, in order); the list is empty (a null pointer)
 *       when none of its lines was cut;
 *   <li>the matching line, when longer, is cut to a window of at most 400 bytes that starts 100
 *       bytes ({@code MAX_LINE_BYTES / 4}) before the first match, moved left so the window ends
 *       no later than the line does; {@code contextStart} is the window's offset in the full line
 *       and {@code lineBytes} the full line's length (written for every result by trigrep;
 *       {@code 0} from older writers, meaning "not cut"). The window was cut at the start when
 *       {@code contextStart > 0} and at the end when {@code contextStart + len(context) < lineBytes};
 *   <li>cuts never split a well-formed UTF-8 sequence: a window's start moves right, its end left,
 *       by at most 3 bytes, off a continuation byte that belongs to a complete sequence; next to
 *       bytes that are not UTF-8 (Latin-1 text, say) any byte is a boundary;
 *   <li>{@code ranges} are clipped to the window and shifted into it (offsets into
 *       {@code context} as sent); ranges wholly outside it are not sent. So a line with a million
 *       matches sends those in its window, at most a few hundred.
 * </ul>
 * Example: a 65-byte line of 40 {@code a}, {@code MATCH}, 20 {@code b}, with a window of 16 bytes
 * (ResultWriterTest uses 16 for brevity): {@code context = "aaaaMATCHbbbbbbb", contextStart = 36,
 * lineBytes = 65}, the match {@code [40, 45)} sent as {@code (start = 4, end = 9)}.
 *
 * <h2>Results by file (FileResults, since version 3)</h2>
 * A search request with {@code fileResults} set is answered with {@code fileResults} messages in
 * place of {@code result}s: each holds matching lines of one file, and every line it shows (a
 * match's line or one of its context lines) once. On a result-heavy query most lines are context
 * to several matches, and most files have several: sending each once, with the package and path
 * once per message, cut the bytes streamed by about two thirds (see BENCHMARKS.md). Older
 * backends ignore the field and send {@code result}s; readers take both.
 * <ul>
 *   <li>{@code lines} (Data) is the shown lines in file order, each followed by one {@code
 * }
 *       (no line holds one: lines are split at {@code
 * }; a {@code
 * } before it stays);
 *   <li>{@code runs} numbers them: each run is {@code first} (1-based) and {@code count}
 *       consecutive lines, the runs in order, covering {@code lines};
 *   <li>{@code windows} lists the lines shown cut, by index in {@code lines}, with the byte
 *       offset in the full line where the shown text starts and the full line's length. Cuts are
 *       made as for Result (above): a context line to its prefix, a matching line to its window
 *       around its first match. A line that is one match's line and another's context is shown
 *       once, as the matching line's window;
 *   <li>{@code matches}, in file order: the matching line's index in {@code lines}, the ranking,
 *       how many ranges are this match's, and {@code before} / {@code after}, how many lines just
 *       before and after it in {@code lines} are its context; a sym: query's {@code symbol};
 *   <li>{@code ranges} holds every match's ranges, match after match, as byte offsets into that
 *       match's shown line (clipped to its window as for Result).
 * </ul>
 * A file with many matches comes as several messages, each self-contained (its own package,
 * path and lines; a context line at the boundary is in both): the writer ends a message once its
 * lines reach 32 KiB or it holds 1,024 matches, so a page that shows one match reads a bounded
 * message. Readers clamp what contradicts the message (an index past its lines, counts past its
 * lists; {@link io.trigrep.proto.FileResultsIndex}).
 * <p>Example: package {@code zlib}, path {@code a.c}, a file {@code "int x;\nx++;\n"}, one
 * match on line 2 ({@code x}, bytes {@code [0, 1)}) with one line of context, ranking 0.5; one
 * segment of 24 words, 200 bytes framed (FileResultsWriterTest checks these bytes):
 * <pre>
 * 00 00 00 00 18 00 00 00   table: 1 segment, 24 words
 * 00 00 00 00 01 00 01 00   root: struct, 1 data word, 1 pointer               (Response)
 * 07 00 00 00 00 00 00 00   Response data: union tag 7 = fileResults
 * 00 00 00 00 00 00 08 00   Response pointer: struct, 0 data words, 8 pointers (FileResults)
 * 1d 00 00 00 2a 00 00 00   package: list of 5 bytes at word 11
 * 1d 00 00 00 22 00 00 00   path: list of 4 bytes at word 12
 * 1d 00 00 00 62 00 00 00   lines: list of 12 bytes at word 13
 * 21 00 00 00 0f 00 00 00   runs: composite list of 1 word at word 15
 * 25 00 00 00 07 00 00 00   windows: composite list of 0 words at word 17
 * 25 00 00 00 1f 00 00 00   matches: composite list of 3 words at word 18
 * 31 00 00 00 0f 00 00 00   ranges: composite list of 1 word at word 22
 * 00 00 00 00 00 00 00 00   git: null (not a git repository package)
 * 7a 6c 69 62 00 00 00 00   "zlib" NUL
 * 61 2e 63 00 00 00 00 00   "a.c" NUL
 * 69 6e 74 20 78 3b 0a 78   "int x;
 * " "x
 * 2b 2b 3b 0a 00 00 00 00   ++;
 * ", padding
 * 04 00 00 00 01 00 00 00   runs tag: 1 element of 1 data word
 * 01 00 00 00 02 00 00 00   run: first 1, count 2
 * 00 00 00 00 02 00 00 00   windows tag: 0 elements of 2 data words
 * 04 00 00 00 02 00 01 00   matches tag: 1 element of 2 data words, 1 pointer
 * 01 00 00 00 00 00 00 3f   match: line index 1, ranking 0.5
 * 01 00 00 00 01 00 00 00   1 range, 1 line before, 0 after
 * 00 00 00 00 00 00 00 00   symbol: null
 * 04 00 00 00 01 00 00 00   ranges tag: 1 element of 1 data word
 * 00 00 00 00 01 00 00 00   range [0, 1)
 * </pre>
 *
 * <h2>Git repositories (GitRef, since version 4)</h2>
 * A result whose package is a git repository carries {@code git}: {@code branches}, the indexed
 * branches (or tags) that hold this content at this path, in the order they were indexed in (a
 * file the same on two branches is one result naming both); {@code commit}, the commit of the first
 * of them (40 hex digits); {@code links}, the repository's link template, in which {@code {repo}},
 * {@code {branch}}, {@code {commit}}, {@code {path}} and {@code {line}} stand for the package, the
 * first branch, the commit, the path and a line number (empty: no code host). For any other
 * package {@code git} is null. The writers put the GitRef last, after every other object of the
 * message: its three pointers, the branch list's pointers, the branch names, the commit and the
 * template, each text NUL-terminated and padded to a word. A {@code branch} filter keeps the files
 * of repository packages that the named branch holds (files of other packages never match it).
 *
 * <h2>Files (FetchFile / File)</h2>
 * A {@code fetchFile} with only package and path asks for the whole file (older frontends); a
 * backend refuses, with {@code badRequest}, a whole file whose answer would not fit in a frame.
 * With {@code firstLine}, {@code maxLines} or {@code maxLineBytes} set it asks for a window of
 * lines: the answer's {@code content} is those lines, each with its newline (a last line without
 * one has none), each longer than {@code maxLineBytes} cut to a prefix as above and listed in
 * {@code cuts} with its full length; {@code firstLine} is the window's first line (a window past
 * the end is empty), {@code totalLines} and {@code totalBytes} describe the whole file.
 * Lines end at {@code \n}; a {@code \r} before it stays part of the line. With
 * {@code byteCount > 0} it asks for the raw bytes {@code [byteOffset, byteOffset + byteCount)},
 * clamped to the file ({@code firstLine} and {@code totalLines} 0 in the answer: lines are not
 * counted for a byte range), at most 32 MiB: a client streams a file of any size in pieces,
 * each frame small.
 *
 * <h2>Writers</h2>
 * {@link io.trigrep.proto.ResultWriter} writes {@code result} messages without a builder and
 * without allocating, byte-identical to what {@code capnp encode} produces;
 * {@link io.trigrep.proto.FileResultsWriter} writes {@code fileResults} the same way, its objects
 * in field order; everything else goes through the runtime's {@code MessageBuilder} and
 * {@link io.trigrep.proto.Framing#write}.
 *
 * <h2>Schema evolution</h2>
 * Version 1 is {@code trigrep.capnp} as first committed. Version 2 added the cut
 * fields of Result ({@code contextStart}, {@code lineBytes}, {@code beforeBytes},
 * {@code afterBytes}), windows and byte ranges to FetchFile and File (with LineCut), and
 * {@code skipped} to Status (with Skipped). Version 3 added
 * {@code SearchRequest.fileResults} and the {@code fileResults} member (FileResults, LineRun,
 * LineWindow, LineMatch). Version 4 added {@code git} (a GitRef: the file's branches,
 * the first one's commit and the repository's link template) to Result, FileResults and
 * FileMatch, and the filter kind {@code branch}. Fields and union members are only added,
 * with new ordinals; readers map unknown union members and enumerants to {@code _NOT_IN_SCHEMA}.
 * The bindings are written by hand (no {@code capnpc-java} here); {@code SchemaLayoutTest} checks
 * every offset against {@code capnp compile -ocapnp}.
 */
package io.trigrep.proto;
