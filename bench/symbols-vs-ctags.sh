#!/usr/bin/env bash
# Compares the definitions an index holds (sym: search's answers) with what one ctags process
# finds over the same files, read from the corpus on disk with the options the indexer runs ctags
# with. Prints both counts and the lines only one side has (at most 20 each), and, for a sample of
# names, each side's definitions of them; exits 1 when the two differ.
#
#   bench/symbols-vs-ctags.sh INDEX_DIR CORPUS_DIR [SAMPLE]
#
# INDEX_DIR holds shard-0 … shard-N-1, built by ./trigrep index from CORPUS_DIR (one folder per
# package, so that a file's package/path is its path under CORPUS_DIR). SAMPLE (default 200)
# names are drawn from ctags' answer with a fixed seed. KEEP=DIR keeps both sides' lists there
# (ctags.tsv, index.tsv, missing, extra).
set -euo pipefail
index="${1:?usage: bench/symbols-vs-ctags.sh INDEX_DIR CORPUS_DIR [SAMPLE]}"
corpus="${2:?usage: bench/symbols-vs-ctags.sh INDEX_DIR CORPUS_DIR [SAMPLE]}"
sample="${3:-200}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$work"/*.tsv "$work"/missing "$work"/extra "$KEEP"/; fi; rm -rf "$work"' EXIT
shards=("$index"/shard-*)

"$root/trigrep" files "${shards[@]}" > "$work/files" 2>/dev/null
# The classes are built for the launcher's Java (25 or newer): JAVA_HOME's or one under /usr/lib/jvm.
java=java
for home in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
  v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release" 2>/dev/null || true)"
  if [ "${v:-0}" -ge 25 ]; then java="$home/bin/java"; break; fi
done
"$java" -cp "$root/indexer/target/classes" "$root/bench/SymbolsDump.java" "${shards[@]}" > "$work/index.tsv"
# The same options as the indexer's ctags (Ctags.MAPS and Ctags.options), one process, every file.
(cd "$corpus" && ctags --options=NONE --map-D=-.d --output-format=json --fields=NnKlsF -o - -L - \
  < "$work/files" 2>/dev/null) | python3 -c '
import json, sys
out = sys.stdout
for raw in sys.stdin.buffer:
    t = json.loads(raw.decode("utf-8", "replace"))
    if t.get("_type") != "tag":
        continue
    out.write("\t".join([t["path"], str(t["line"]), t["name"], t.get("kind", ""), t.get("language", ""), t.get("scope", "")]) + "\n")
' > "$work/ctags.tsv"
LC_ALL=C sort -o "$work/index.tsv" "$work/index.tsv"
LC_ALL=C sort -o "$work/ctags.tsv" "$work/ctags.tsv"
LC_ALL=C comm -23 "$work/ctags.tsv" "$work/index.tsv" > "$work/missing"
LC_ALL=C comm -13 "$work/ctags.tsv" "$work/index.tsv" > "$work/extra"
echo "files in the index:              $(wc -l < "$work/files")"
echo "definitions by ctags:            $(wc -l < "$work/ctags.tsv")"
echo "definitions in the index:        $(wc -l < "$work/index.tsv")"
echo "by ctags, not in the index:      $(wc -l < "$work/missing")"
echo "in the index, not by ctags:      $(wc -l < "$work/extra")"
head -n 20 "$work/missing" | sed 's/^/  missing: /'
head -n 20 "$work/extra" | sed 's/^/  extra:   /'
# A sample of names: every definition of each, as either side lists them.
cut -f3 "$work/ctags.tsv" | LC_ALL=C sort -u | awk -v n="$sample" 'BEGIN { srand(60) } { a[NR] = $0 } END {
  for (i = 1; i <= n && NR > 0; i++) print a[int(rand() * NR) + 1] }' | LC_ALL=C sort -u > "$work/names"
awk -F'\t' 'NR == FNR { want[$0] = 1; next } ($3 in want)' "$work/names" "$work/ctags.tsv" > "$work/sample.ctags"
awk -F'\t' 'NR == FNR { want[$0] = 1; next } ($3 in want)' "$work/names" "$work/index.tsv" > "$work/sample.index"
echo "sample: $(wc -l < "$work/names") names, $(wc -l < "$work/sample.ctags") definitions by ctags," \
  "$(wc -l < "$work/sample.index") in the index, equal: $(cmp -s "$work/sample.ctags" "$work/sample.index" && echo yes || echo no)"
[ -s "$work/missing" ] || [ -s "$work/extra" ] && exit 1
exit 0
