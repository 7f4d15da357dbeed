package io.trigrep.indexer.build;

import io.trigrep.indexer.segments.Generation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which segments of a shard to fold together. Tiered: a segment's level is
 * {@code floor(log_factor(liveBytes / floorBytes))} (segments under {@code floorBytes} are level
 * 0), and once a level holds {@code factor} segments they become one, a level up. Each level
 * then holds fewer than {@code factor} segments after a merge, so a shard of B bytes has at most
 * about {@code (factor - 1) * log_factor(B / floorBytes)} segments; and every byte is rewritten
 * about once per level it climbs, log times over its life, never on each update. A segment with
 * more than half its docs deleted is rewritten on its own as well, so deletes do not pile up in
 * large segments that no level ever merges.
 */
record MergePolicy(int factor, long floorBytes) {
    static final MergePolicy DEFAULT = new MergePolicy(4, 4L << 20);

    MergePolicy {
        if (factor < 2 || floorBytes < 1) {
            throw new IllegalArgumentException(
                    "factor must be >= 2 and floorBytes >= 1, got " + factor + ", " + floorBytes);
        }
    }

    int level(long bytes) {
        int level = 0;
        for (long b = Math.max(bytes, 1) / floorBytes; b >= factor; b /= factor) {
            level++;
        }
        return level;
    }

    /** Groups of positions in {@code segments} to merge, each into one segment; oldest first within each. */
    List<List<Integer>> choose(List<Generation.SegmentEntry> segments) {
        Map<Integer, List<Integer>> byLevel = new TreeMap<>();
        for (int i = 0; i < segments.size(); i++) {
            byLevel.computeIfAbsent(level(segments.get(i).liveBytes()), l -> new ArrayList<>())
                    .add(i);
        }
        List<List<Integer>> groups = new ArrayList<>();
        boolean[] taken = new boolean[segments.size()];
        for (List<Integer> level : byLevel.values()) {
            if (level.size() >= factor) {
                groups.add(level);
                for (int i : level) {
                    taken[i] = true;
                }
            }
        }
        for (int i = 0; i < segments.size(); i++) {
            Generation.SegmentEntry s = segments.get(i);
            if (!taken[i] && s.deleted() * 2L > s.docs()) {
                groups.add(List.of(i));
            }
        }
        return groups;
    }

    /** One group of every segment, when there is more than one or any has deletes: a full merge. */
    static List<List<Integer>> all(List<Generation.SegmentEntry> segments) {
        boolean deletes = segments.stream().anyMatch(s -> s.deleted() > 0);
        if (segments.size() < 2 && !deletes) {
            return List.of();
        }
        List<Integer> every = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            every.add(i);
        }
        return List.of(every);
    }
}
