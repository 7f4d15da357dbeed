package io.trigrep.backend.search;

import io.trigrep.indexer.segments.Segment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/** The package names of a search's segments in UTF-8, each read once and shared by its tasks. */
final class PackageNames {
    private final List<Segment> segments;
    /** Per segment, by package id; null until first asked for. */
    private final List<AtomicReferenceArray<byte[]>> names;

    PackageNames(List<Segment> segments) {
        this.segments = segments;
        List<AtomicReferenceArray<byte[]>> names = new ArrayList<>(segments.size());
        for (Segment s : segments) {
            names.add(new AtomicReferenceArray<>(s.shard().docs().packageCount()));
        }
        this.names = names;
    }

    /** The name of package {@code packageId} of segment {@code segment}. */
    byte[] get(int segment, int packageId) throws Exception {
        AtomicReferenceArray<byte[]> ofSegment = names.get(segment);
        byte[] name = ofSegment.get(packageId);
        if (name == null) {
            name = segments.get(segment).shard().docs().packageName(packageId).getBytes(StandardCharsets.UTF_8);
            ofSegment.set(packageId, name);
        }
        return name;
    }
}
