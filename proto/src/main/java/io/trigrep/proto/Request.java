package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;

/** Binding for {@code struct Request}: the one message a frontend sends on a connection. */
public final class Request {
    private Request() {}

    public enum Which {
        SEARCH,
        FETCH_FILE,
        PING,
        HEARTBEAT,
        _NOT_IN_SCHEMA
    }

    static final Layout.Slot TAG = Layout.Slot.data(-1, "(union)", "UInt16", 0, 16);
    static final Layout.Slot SEARCH =
            Layout.Slot.pointer(0, "search", "SearchRequest", 0).inUnion(0);
    static final Layout.Slot FETCH_FILE =
            Layout.Slot.pointer(1, "fetchFile", "FetchFile", 0).inUnion(1);
    static final Layout.Slot PING = Layout.Slot.data(2, "ping", "Void", 0, 0).inUnion(2);
    static final Layout.Slot HEARTBEAT =
            Layout.Slot.pointer(3, "heartbeat", "Heartbeat", 0).inUnion(3);
    static final Layout.Struct LAYOUT =
            new Layout.Struct("Request", 8, 1, TAG, List.of(SEARCH, FETCH_FILE, PING, HEARTBEAT));

    public static final BindingFactory<Builder, Reader> factory =
            new BindingFactory<>(LAYOUT, Builder::new, Reader::new);

    public static final class Builder extends StructBuilder implements BindingFactory.Viewable<Reader> {
        Builder(SegmentBuilder segment, int data, int pointers, int dataSize, short pointerCount) {
            super(segment, data, pointers, dataSize, pointerCount);
        }

        @Override
        public Reader asReader() {
            return new Reader(segment, data, pointers, dataSize, pointerCount, Integer.MAX_VALUE);
        }

        public SearchRequest.Builder initSearch() {
            _setShortField(TAG.index(), (short) SEARCH.unionTag());
            return _initPointerField(SearchRequest.factory, SEARCH.index(), 0);
        }

        public FetchFile.Builder initFetchFile() {
            _setShortField(TAG.index(), (short) FETCH_FILE.unionTag());
            return _initPointerField(FetchFile.factory, FETCH_FILE.index(), 0);
        }

        public Heartbeat.Builder initHeartbeat() {
            _setShortField(TAG.index(), (short) HEARTBEAT.unionTag());
            return _initPointerField(Heartbeat.factory, HEARTBEAT.index(), 0);
        }

        public Builder setPing() {
            _setShortField(TAG.index(), (short) PING.unionTag());
            _clearPointerField(SEARCH.index());
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public Which which() {
            return Enums.of(Which.values(), _getShortField(TAG.index()));
        }

        public SearchRequest.Reader getSearch() {
            expect(Which.SEARCH);
            return _getPointerField(SearchRequest.factory, SEARCH.index());
        }

        public FetchFile.Reader getFetchFile() {
            expect(Which.FETCH_FILE);
            return _getPointerField(FetchFile.factory, FETCH_FILE.index());
        }

        public Heartbeat.Reader getHeartbeat() {
            expect(Which.HEARTBEAT);
            return _getPointerField(Heartbeat.factory, HEARTBEAT.index());
        }

        private void expect(Which member) {
            Which actual = which();
            if (actual != member) {
                throw new IllegalStateException("Request holds " + actual + ", not " + member);
            }
        }
    }
}
