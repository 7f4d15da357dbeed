package io.trigrep.indexer.build;

import java.util.List;

/** One package read: its parts in read order. */
record ReadPackage(String name, List<SpooledPart> parts) {}
