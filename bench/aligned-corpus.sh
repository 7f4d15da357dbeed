# Sourced by bench scripts: makes a scratch corpus holding exactly the files trigrep indexes, so
# that trigrep, csearch and rg all search the same files.
#
#   source bench/aligned-corpus.sh
#   aligned_corpus CORPUS_DIR WORK_DIR     fills WORK_DIR/corpus (hard links where it can)
#   competitors QUERY RUNS WORK_DIR        times csearch (index WORK_DIR/csearchindex) and rg over
#                                          WORK_DIR/corpus: sets t_c and t_r (median seconds, by
#                                          hyperfine, process start included, output to /dev/null)
#                                          and n_c and n_r (their matching lines); with COLD=1
#                                          each run starts with the page cache dropped (as root)
#   competitor_counts QUERY WORK_DIR       sets n_c and n_r alone
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

competitors() {
  local query="$1" runs="$2" work="$3" q warm=(--warmup 1)
  q="${query//\'/\'\\\'\'}"
  # COLD=1: no warm-up, the page cache dropped before every run (as root).
  [ "${COLD:-0}" = 1 ] && warm=(--prepare "sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches'")
  hyperfine -N --runs "$runs" "${warm[@]}" --export-json "$work/h.json" -i \
    "env CSEARCHINDEX=$work/csearchindex csearch -n '$q'" \
    "rg --no-config -uuu -n '$q' $work/corpus" >/dev/null 2>&1 || true
  read -r t_c t_r < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" ".join("%.4f" % x["median"] for x in r))' "$work/h.json")
  competitor_counts "$query" "$work"
}

competitor_counts() {
  local query="$1" work="$2"
  n_c=$(CSEARCHINDEX="$work/csearchindex" csearch -n "$query" | wc -l || true)
  n_r=$(rg --no-config -uuu -n "$query" "$work/corpus" | wc -l || true)
}
