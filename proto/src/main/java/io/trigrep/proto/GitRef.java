package io.trigrep.proto;

import java.util.List;
import org.capnproto.SegmentBuilder;
import org.capnproto.SegmentReader;
import org.capnproto.StructBuilder;
import org.capnproto.StructReader;
import org.capnproto.Text;
import org.capnproto.TextList;

/** Binding for {@code struct GitRef}: where a result's file is in a git repository package. */
public final class GitRef {
    private GitRef() {}

    static final Layout.Slot BRANCHES = Layout.Slot.pointer(0, "branches", "List(Text)", 0);
    static final Layout.Slot COMMIT = Layout.Slot.pointer(1, "commit", "Text", 1);
    static final Layout.Slot LINKS = Layout.Slot.pointer(2, "links", "Text", 2);
    static final int POINTERS = 3;
    static final Layout.Struct LAYOUT =
            new Layout.Struct("GitRef", 0, POINTERS, null, List.of(BRANCHES, COMMIT, LINKS));

    public static final BindingFactory<Builder, Reader> factory =
            new BindingFactory<>(LAYOUT, Builder::new, Reader::new);

    /** Words a GitRef takes after its pointer: its three pointers, the branch list and the texts. */
    static int words(byte[][] branches, byte[] commit, byte[] links) {
        int words = POINTERS + branches.length;
        for (byte[] b : branches) {
            words += WordWriter.textWords(b.length);
        }
        return words + WordWriter.textWords(commit.length) + WordWriter.textWords(links.length);
    }

    /** Writes a GitRef's pointers and then its objects, in pointer order (the canonical layout). */
    static void write(WordWriter w, byte[][] branches, byte[] commit, byte[] links) {
        int listWords = branches.length;
        for (byte[] b : branches) {
            listWords += WordWriter.textWords(b.length);
        }
        // Offsets count from the word after each pointer.
        w.putLong(WordWriter.listOfPointers(branches.length) | ((long) (POINTERS - 1) << 2 & 0xffffffffL));
        w.putLong(WordWriter.textPointer(commit.length) | ((long) (POINTERS - 2 + listWords) << 2 & 0xffffffffL));
        w.putLong(WordWriter.textPointer(links.length)
                | ((long) (listWords + WordWriter.textWords(commit.length)) << 2 & 0xffffffffL));
        int target = branches.length;
        for (int i = 0; i < branches.length; i++) {
            w.putLong(WordWriter.textPointer(branches[i].length) | ((long) (target - (i + 1)) << 2 & 0xffffffffL));
            target += WordWriter.textWords(branches[i].length);
        }
        for (byte[] b : branches) {
            w.text(b, 0, b.length);
        }
        w.text(commit, 0, commit.length);
        w.text(links, 0, links.length);
    }

    public static final class Builder extends StructBuilder implements BindingFactory.Viewable<Reader> {
        Builder(SegmentBuilder segment, int data, int pointers, int dataSize, short pointerCount) {
            super(segment, data, pointers, dataSize, pointerCount);
        }

        @Override
        public Reader asReader() {
            return new Reader(segment, data, pointers, dataSize, pointerCount, Integer.MAX_VALUE);
        }

        public Builder setBranches(List<String> names) {
            TextList.Builder list = _initPointerField(TextList.factory, BRANCHES.index(), names.size());
            for (int i = 0; i < names.size(); i++) {
                list.set(i, Blobs.text(names.get(i)));
            }
            return this;
        }

        public Builder setCommit(String value) {
            _setPointerField(Text.factory, COMMIT.index(), Blobs.text(value));
            return this;
        }

        public Builder setLinks(String value) {
            _setPointerField(Text.factory, LINKS.index(), Blobs.text(value));
            return this;
        }
    }

    public static final class Reader extends StructReader {
        Reader(SegmentReader segment, int data, int pointers, int dataSize, short pointerCount, int nestingLimit) {
            super(segment, data, pointers, dataSize, pointerCount, nestingLimit);
        }

        public TextList.Reader getBranches() {
            return _getPointerField(TextList.factory, BRANCHES.index());
        }

        public Text.Reader getCommit() {
            return _getPointerField(Text.factory, COMMIT.index());
        }

        public Text.Reader getLinks() {
            return _getPointerField(Text.factory, LINKS.index());
        }
    }
}
