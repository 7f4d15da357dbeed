package io.trigrep.proto;

import java.nio.ByteBuffer;
import org.capnproto.Data;
import org.capnproto.MessageBuilder;
import org.capnproto.MessageReader;
import org.capnproto.StructList;
import org.capnproto.Text;
import org.capnproto.TextList;

/**
 * Entry points for reading and writing whole messages. Reading validates the message once, up
 * front: every pointer of every field the schema knows is followed and bounds-checked, so the
 * caller's later accesses cannot fail on hostile bytes.
 */
public final class Messages {
    private Messages() {}

    /** Words in a new builder's first segment: a typical result with context fits in one segment. */
    private static final int FIRST_SEGMENT_WORDS = 128;

    public static MessageBuilder newBuilder() {
        return new MessageBuilder(FIRST_SEGMENT_WORDS);
    }

    public static Request.Reader request(MessageReader message) throws MalformedMessageException {
        try {
            Request.Reader request = message.getRoot(Request.factory);
            switch (request.which()) {
                case SEARCH -> searchRequest(request.getSearch());
                case FETCH_FILE -> {
                    FetchFile.Reader fetch = request.getFetchFile();
                    text(fetch.getPackage());
                    text(fetch.getPath());
                }
                case PING, _NOT_IN_SCHEMA -> { }
            }
            return request;
        } catch (RuntimeException e) {
            throw malformed("Request", e);
        }
    }

    public static Response.Reader response(MessageReader message) throws MalformedMessageException {
        try {
            Response.Reader response = message.getRoot(Response.factory);
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
                }
                case STATUS -> text(response.getStatus().getShard());
                case _NOT_IN_SCHEMA -> { }
            }
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
            throw new IndexOutOfBoundsException("blob [" + offset + ", " + ((long) offset + size) + ") outside its segment of " + buffer.capacity() + " bytes");
        }
    }
}
