package io.trigrep.indexer.corpus;

/** Normalises paths from folders and archive entries to the '/'-separated relative form the index stores. */
final class Paths2 {
    private Paths2() {}

    /** Drops "./" segments and repeated slashes; keeps ".." and leading "/" so the filter can reject them. */
    static String normalize(String raw) {
        String path = raw.replace('\\', '/');
        boolean absolute = path.startsWith("/");
        StringBuilder out = new StringBuilder(path.length());
        for (String part : path.split("/", -1)) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (out.length() > 0) {
                out.append('/');
            }
            out.append(part);
        }
        return absolute ? "/" + out : out.toString();
    }
}
