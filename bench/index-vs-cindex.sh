#!/usr/bin/env bash
# Indexes one corpus with trigrep and with cindex (Debian package codesearch) in the same run,
# RUNS times each, and prints medians and ratios: wall time, peak RSS, index size (without and
# with contents), files and bytes indexed, and how evenly trigrep's shards share the bytes.
#
#   bench/index-vs-cindex.sh CORPUS_DIR [RUNS] [SHARDS]
#
# CORPUS_DIR holds one folder per package (indexer/fetch-debian-sources.sh --unpack makes one
# from bench/debian-packages.txt; a one-package tree is a folder holding that one folder). SHARDS
# defaults to 1. COLD=1 drops the page cache (echo 3 > /proc/sys/vm/drop_caches, as root) before
# every run of either tool, so both read the corpus from disk. trigrep runs with TRIGREP_JAVA_OPTS
# (default -Xmx512m), so the heap bound is part of the measurement. SYMBOLS=0 adds --no-symbols:
# cindex extracts no definitions, so that run compares like with like; the default (SYMBOLS=1)
# is what ./trigrep index does, ctags included when it is installed.
set -euo pipefail
corpus="${1:?usage: bench/index-vs-cindex.sh CORPUS_DIR [RUNS] [SHARDS]}"
runs="${2:-3}"
shards="${3:-1}"
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v cindex >/dev/null || { echo "cindex missing: apt-get install codesearch" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export TRIGREP_JAVA_OPTS="${TRIGREP_JAVA_OPTS:--Xmx512m}"
"$root/trigrep" index --help >/dev/null 2>&1   # build once, outside the timings

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
settle() {
  sync
  if [ "${COLD:-0}" = 1 ]; then
    echo 3 > /proc/sys/vm/drop_caches || { echo "COLD=1 needs root to drop the page cache" >&2; exit 2; }
  fi
}

for i in $(seq "$runs"); do
  rm -rf "$work/trigrep" "$work/csearchindex"
  settle
  /usr/bin/time -f "%e %M" -o "$work/t.$i" "$root/trigrep" index --shards "$shards" --out "$work/trigrep" \
    $( [ "${SYMBOLS:-1}" = 0 ] && echo --no-symbols ) "$corpus" \
    >"$work/trigrep.out" 2>"$work/trigrep.err" || { cat "$work/trigrep.err" >&2; exit 1; }
  settle
  CSEARCHINDEX="$work/csearchindex" /usr/bin/time -f "%e %M" -o "$work/c.$i" cindex "$corpus" >/dev/null 2>"$work/cindex.err"
done

t_wall=$(for i in $(seq "$runs"); do cut -d' ' -f1 "$work/t.$i"; done | median)
c_wall=$(for i in $(seq "$runs"); do cut -d' ' -f1 "$work/c.$i"; done | median)
t_rss=$(for i in $(seq "$runs"); do cut -d' ' -f2 "$work/t.$i"; done | median)
c_rss=$(for i in $(seq "$runs"); do cut -d' ' -f2 "$work/c.$i"; done | median)
t_index=0
t_all=0
shard_bytes=()
for shard in "$work"/trigrep/shard-*; do
  content=$(stat -c %s "$shard/contents.tgc")
  t_index=$(( t_index + $(stat -c %s "$shard/trigrams.tgi") + $(stat -c %s "$shard/docs.tgd") ))
  t_all=$(( t_all + $(stat -c %s "$shard/trigrams.tgi") + $(stat -c %s "$shard/docs.tgd") + content ))
  shard_bytes+=("$content")
done
c_index=$(stat -c %s "$work/csearchindex")
t_files=$(sed -n 's/^files *\([0-9,]*\) indexed.*/\1/p' "$work/trigrep.out" | tr -d ,)
t_bytes=$(sed -n 's/^files *[0-9,]* indexed (\([0-9,]*\) bytes.*/\1/p' "$work/trigrep.out" | tr -d ,)
c_files=$(CSEARCHINDEX="$work/csearchindex" csearch -l '' | wc -l)
c_bytes=$(sed -n 's/.* \([0-9]*\) data bytes.*/\1/p' "$work/cindex.err" | tail -n 1)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
cache="warm page cache"; [ "${COLD:-0}" = 1 ] && cache="cold page cache"
printf '%-34s %16s %16s %8s\n' "corpus: $(basename "$corpus") ($runs runs, $shards shards, $cache)" trigrep cindex ratio
printf '%-34s %16s %16s %8s\n' "wall time, median (s)" "$t_wall" "$c_wall" "$(ratio "$t_wall" "$c_wall")"
printf '%-34s %16s %16s %8s\n' "peak RSS, median (KiB)" "$t_rss" "$c_rss" "$(ratio "$t_rss" "$c_rss")"
printf '%-34s %16s %16s %8s\n' "index without contents (bytes)" "$t_index" "$c_index" "$(ratio "$t_index" "$c_index")"
printf '%-34s %16s %16s %8s\n' "index with contents (bytes)" "$t_all" "$c_index" "-"
printf '%-34s %16s %16s %8s\n' "files indexed" "$t_files" "$c_files" "$(ratio "$t_files" "$c_files")"
printf '%-34s %16s %16s %8s\n' "bytes indexed" "$t_bytes" "$c_bytes" "$(ratio "$t_bytes" "$c_bytes")"
printf '%s\n' "${shard_bytes[@]}" | awk '{ b[NR] = $1; sum += $1 } END {
  mean = sum / NR; worst = 0
  for (i = 1; i <= NR; i++) { d = (b[i] - mean) / mean * 100; if (d < 0) d = -d; if (d > worst) worst = d; line = line " " b[i] }
  printf "content bytes per shard:%s (worst %.2f%% from the mean)\n", line, worst }'
sed -n '/^files/,/^shards/p' "$work/trigrep.out" | grep -v '^shards' | sed 's/^/trigrep: /'
echo "trigrep heap limit: $TRIGREP_JAVA_OPTS (peak RSS also counts mapped spool and shard files)"
