package io.trigrep.proto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.capnproto.Data;
import org.capnproto.MessageBuilder;
import org.capnproto.StructList;
import org.capnproto.Text;
import org.capnproto.TextList;

/**
 * Entry points for reading and writing whole messages. Reading validates the message once, up
 * front: every pointer of every field the schema knows is followed and bounds-checked, and a
 * message whose fields would take more than the traversal budget (8 words read per word of
 * frame) to read is refused, so the caller's later accesses (each field read once more, at
 * least) cannot fail on hostile bytes.
 */
public final class Messages {
    private Messages() {}

    /** Words in a new builder's first segment: a typical result with context fits in one segment. */
    private static final int FIRST_SEGMENT_WORDS = 128;

    public static MessageBuilder newBuilder() {
        return new MessageBuilder(FIRST_SEGMENT_WORDS);
    }

    /** A ping request: a backend answers it with one status message. */
    public static MessageBuilder ping() {
        MessageBuilder ping = newBuilder();
        ping.initRoot(Request.factory).setPing();
        return ping;
    }

    /**
     * A ping from frontend {@code frontend} (non-zero) that has learnt generation {@code known} of
     * the backend it goes to (0: none yet).
     */
    public static MessageBuilder heartbeat(long frontend, long known) {
        MessageBuilder heartbeat = newBuilder();
        heartbeat
                .initRoot(Request.factory)
                .initHeartbeat()
                .setFrontend(frontend)
                .setKnown(known);
        return heartbeat;
    }

    /** {@code Response.Which.values()} clones its array on every call. */
    private static final Response.Which[] RESPONSE_KINDS = Response.Which.values();

    /**
     * Which member of the Response union a framed message holds, read straight from the bytes
     * without building a reader: for consumers that only count or route messages (a single
     * segment is assumed, as every writer here produces; anything else is reported as malformed).
     *
     * @param frame the whole frame, from position to limit
     */
    public static Response.Which peekResponse(ByteBuffer frame) throws MalformedMessageException {
        // The frontend peeks at every frame: no duplicate when the caller's view is little-endian already.
        ByteBuffer le = frame.order() == ByteOrder.LITTLE_ENDIAN
                ? frame
                : frame.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int base = le.position();
        if (le.remaining() < 24 || le.getInt(base) != 0) {
            throw new MalformedMessageException("cannot peek: not a single-segment frame of at least 3 words");
        }
        long root = le.getLong(base + 8);
        int offset = (int) root >> 2;
        int dataWords = (int) (root >>> 32) & 0xffff;
        if ((root & 3) != 0 || dataWords < 1 || base + 16 + 8L * offset + 2 > le.limit() || offset < 0) {
            throw new MalformedMessageException("cannot peek: root is not a struct with a data section");
        }
        short tag = le.getShort(base + 16 + 8 * offset);
        return tag >= 0 && tag < RESPONSE_KINDS.length - 1 ? RESPONSE_KINDS[tag] : Response.Which._NOT_IN_SCHEMA;
    }

    public static Request.Reader request(FramedMessage message) throws MalformedMessageException {
        try {
            Request.Reader request = message.root(Request.factory);
            switch (request.which()) {
                case SEARCH -> searchRequest(request.getSearch());
                case FETCH_FILE -> {
                    FetchFile.Reader fetch = request.getFetchFile();
                    text(fetch.getPackage());
                    text(fetch.getPath());
                }
                case HEARTBEAT -> request.getHeartbeat();
                case PING, _NOT_IN_SCHEMA -> {}
            }
            message.refillBudget();
            return request;
        } catch (RuntimeException e) {
            throw malformed("Request", e);
        }
    }

    public static Response.Reader response(FramedMessage message) throws MalformedMessageException {
        try {
            Response.Reader response = message.root(Response.factory);
            switch (response.which()) {
                case RESULT -> result(response.getResult());
                case PROGRESS -> response.getProgress();
                case DONE -> response.getDone();
                case ERROR -> text(response.getError().getMessage());
                case FILE -> {
                    File.Reader file = response.getFile();
                    text(file.getPackage());
                    text(file.getPath());
                    data(file.getContent());
                    StructList.Reader<LineCut.Reader> cuts = file.getCuts();
                    for (int i = 0; i < cuts.size(); i++) {
                        cuts.get(i);
                    }
                }
                case STATUS -> {
                    Status.Reader status = response.getStatus();
                    text(status.getShard());
                    StructList.Reader<Skipped.Reader> skipped = status.getSkipped();
                    for (int i = 0; i < skipped.size(); i++) {
                        text(skipped.get(i).getReason());
                    }
                }
                case FILE_MATCH -> {
                    FileMatch.Reader file = response.getFileMatch();
                    text(file.getPackage());
                    text(file.getPath());
                    text(file.getLanguage());
                }
                case FILE_RESULTS -> fileResults(response.getFileResults());
                case _NOT_IN_SCHEMA -> {}
            }
            // The walk above read every pointer once; the consumer gets the whole budget again.
            message.refillBudget();
            return response;
        } catch (RuntimeException e) {
            throw malformed("Response", e);
        }
    }

    private static MalformedMessageException malformed(String root, RuntimeException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new MalformedMessageException("malformed " + root + " message: " + why, e);
    }

    private static void searchRequest(SearchRequest.Reader search) {
        text(search.getQuery());
        text(search.getPattern());
        StructList.Reader<Filter.Reader> filters = search.getFilters();
        for (int i = 0; i < filters.size(); i++) {
            text(filters.get(i).getValue());
        }
    }

    private static void result(Result.Reader result) {
        text(result.getPackage());
        text(result.getPath());
        text(result.getContext());
        texts(result.getBefore());
        texts(result.getAfter());
        StructList.Reader<Range.Reader> ranges = result.getRanges();
        for (int i = 0; i < ranges.size(); i++) {
            ranges.get(i);
        }
        result.getBeforeBytes();
        result.getAfterBytes();
        if (result.hasSymbol()) {
            symbol(result.getSymbol());
        }
    }

    private static void fileResults(FileResults.Reader file) {
        text(file.getPackage());
        text(file.getPath());
        data(file.getLines());
        StructList.Reader<LineRun.Reader> runs = file.getRuns();
        for (int i = 0; i < runs.size(); i++) {
            runs.get(i);
        }
        StructList.Reader<LineWindow.Reader> windows = file.getWindows();
        for (int i = 0; i < windows.size(); i++) {
            windows.get(i);
        }
        StructList.Reader<LineMatch.Reader> matches = file.getMatches();
        for (int i = 0; i < matches.size(); i++) {
            LineMatch.Reader match = matches.get(i);
            if (match.hasSymbol()) {
                symbol(match.getSymbol());
            }
        }
        StructList.Reader<Range.Reader> ranges = file.getRanges();
        for (int i = 0; i < ranges.size(); i++) {
            ranges.get(i);
        }
    }

    private static void symbol(Symbol.Reader symbol) {
        text(symbol.getName());
        text(symbol.getKind());
        text(symbol.getScope());
        text(symbol.getLanguage());
    }

    private static void texts(TextList.Reader list) {
        for (int i = 0; i < list.size(); i++) {
            text(list.get(i));
        }
    }

    /** The runtime checks the terminating NUL but not where the blob starts; check the whole span. */
    private static void text(Text.Reader text) {
        span(text.buffer, text.offset, text.size + (text.size > 0 || text.buffer.capacity() > 0 ? 1 : 0));
    }

    private static void data(Data.Reader data) {
        span(data.buffer, data.offset, data.size);
    }

    private static void span(ByteBuffer buffer, int offset, int size) {
        if (offset < 0 || size < 0 || (long) offset + size > buffer.capacity()) {
            throw new IndexOutOfBoundsException("blob [" + offset + ", " + ((long) offset + size)
                    + ") outside its segment of " + buffer.capacity() + " bytes");
        }
    }
}
