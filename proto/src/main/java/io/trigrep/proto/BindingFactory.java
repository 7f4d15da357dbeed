package io.trigrep.proto;

import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructFactory;
import org.capnproto.StructList;
import org.capnproto.StructReader;
import org.capnproto.StructSize;

/**
 * The runtime's struct factory for one hand-written binding: what {@code capnpc-java} would emit as
 * a nested {@code Factory} class per struct, written once and parameterised by constructors.
 */
public final class BindingFactory<B extends StructBuilder, R extends StructReader> extends StructFactory<B, R> {
    interface BuilderConstructor<B> {
        B construct(SegmentBuilder segment, int data, int pointers, int dataSize, short pointerCount);
    }

    interface ReaderConstructor<R> {
        R construct(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit);
    }

    interface Viewable<R> {
        R asReader();
    }

    private final Layout.Struct layout;
    private final StructSize size;
    private final BuilderConstructor<B> builders;
    private final ReaderConstructor<R> readers;
    private final StructList.Factory<B, R> listFactory;

    BindingFactory(Layout.Struct layout, BuilderConstructor<B> builders, ReaderConstructor<R> readers) {
        this.layout = layout;
        this.size = layout.size();
        this.builders = builders;
        this.readers = readers;
        this.listFactory = new StructList.Factory<>(this);
    }

    Layout.Struct layout() {
        return layout;
    }

    /** The factory for {@code List(ThisStruct)} fields. */
    public StructList.Factory<B, R> listFactory() {
        return listFactory;
    }

    @Override
    public R constructReader(
            SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
        return readers.construct(segment, data, pointers, dataSize, pointerCount, nestingLimit);
    }

    @Override
    public B constructBuilder(SegmentBuilder segment, int data, int pointers, int dataSize, short pointerCount) {
        return builders.construct(segment, data, pointers, dataSize, pointerCount);
    }

    @Override
    public StructSize structSize() {
        return size;
    }

    @Override
    @SuppressWarnings("unchecked")
    public R asReader(B builder) {
        return ((Viewable<R>) builder).asReader();
    }
}
