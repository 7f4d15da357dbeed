# Sourced by bench scripts: makes a scratch corpus holding exactly the files trigrep indexes, so
# that trigrep, csearch and rg all search the same files.
#
#   source bench/aligned-corpus.sh
#   aligned_corpus CORPUS_DIR WORK_DIR     fills WORK_DIR/corpus (hard links where it can)
#
# Needs $root (the repository) set by the caller.
aligned_corpus() {
  local corpus="$1" work="$2"
  "$root/trigrep" index --shards 1 --out "$work/first" "$corpus" >/dev/null 2>&1
  "$root/trigrep" files "$work/first/shard-0" > "$work/files.txt"
  mkdir -p "$work/corpus"
  (cd "$corpus" && tr '\n' '\0' < "$work/files.txt" | xargs -0 cp --parents -l -t "$work/corpus" 2>/dev/null) ||
    (cd "$corpus" && tr '\n' '\0' < "$work/files.txt" | xargs -0 cp --parents -t "$work/corpus")
  rm -rf "$work/first"
}
