package io.trigrep.indexer.symbols;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * ctags' kind and language names ("function", "C"), numbered as first seen: tags are spilled with
 * these numbers and the writer turns the ones a shard uses into its KindTable. ctags has a few
 * hundred of them, so this stays small whatever the corpus. Thread-safe.
 */
final class Labels {
    private final HashMap<String, Integer> ids = new HashMap<>();
    private final List<String> labels = new ArrayList<>();

    synchronized int id(String label) {
        Integer id = ids.get(label);
        if (id == null) {
            id = labels.size();
            ids.put(label, id);
            labels.add(label);
        }
        return id;
    }

    synchronized String label(int id) {
        return labels.get(id);
    }

    synchronized int size() {
        return labels.size();
    }
}
