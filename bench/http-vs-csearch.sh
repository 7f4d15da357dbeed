#!/usr/bin/env bash
# Query latency as a user of the JSON API feels it: each query timed end to end over HTTP
# (request to last byte, a fresh search every time) through a frontend and one backend per shard,
# next to the same backends asked directly (./trigrep search --rounds-on-input, no frontend),
# csearch and rg (process start included, output to /dev/null), on the same files, in the same
# run. The four take turns, one run each per round (bench/interleaved_timer.py), so that the
# machine's drift, and what each run leaves in the caches for the next, fall on all alike. The
# direct column sends each backend the frontend's own request (context lines, its share of the
# result cap), so the difference is the frontend's cost. Prints per query the
# median seconds of each, the counts of matching lines, the frontend's cost (HTTP minus direct, in
# ms), and the ratios HTTP/csearch and HTTP/rg.
#
#   bench/http-vs-csearch.sh CORPUS_DIR QUERIES_FILE [RUNS] [SHARDS]
#
# QUERIES_FILE has "class<TAB>regex" lines (bench/queries.txt). RUNS (rounds) defaults to 5. SHARDS defaults to 2. Every
# result is kept: the frontend's and backends' result caps are raised above any corpus here, so a
# query with a million matches is teed and counted whole. Warm: each tool runs once before it is
# timed. COLD=1 (as root): no warm-up, and the page cache is dropped before every run of HTTP,
# direct, csearch and rg, so each reads its index and the files from the disk (the JVMs stay warm,
# as a running service's do).
set -euo pipefail
corpus="$(cd "${1:?usage: bench/http-vs-csearch.sh CORPUS_DIR QUERIES_FILE [RUNS] [SHARDS]}" && pwd)"
queries="$(cd "$(dirname "${2:?QUERIES_FILE}")" && pwd)/$(basename "$2")"
runs="${3:-5}"
shards="${4:-2}"
root="$(cd "$(dirname "$0")/.." && pwd)"
for tool in cindex csearch rg curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool missing (apt-get install codesearch ripgrep curl python3)" >&2; exit 2; }
done
if [ "${COLD:-0}" = 1 ] && ! [ -w /proc/sys/vm/drop_caches ]; then
  echo "COLD=1 needs root to drop the page cache" >&2; exit 2
fi
work="$(mktemp -d)"
export STACK_FRONTEND_ARGS="${STACK_FRONTEND_ARGS:---max-query-results 1000000000 --max-expensive-queries 4}"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
# shellcheck source=bench/aligned-corpus.sh
source "$root/bench/aligned-corpus.sh"
cleanup() { stack_stop; rm -rf "$work"; }
trap cleanup EXIT

echo "aligning file sets..." >&2
aligned_corpus "$corpus" "$work"
echo "indexing..." >&2
"$root/trigrep" index --shards "$shards" --out "$work/trigrep" "$work/corpus" > "$work/index.out" 2>/dev/null
CSEARCHINDEX="$work/csearchindex" cindex "$work/corpus" 2>/dev/null
stack_start "$work/trigrep" "$work/stack" --max-results 1000000000 --verify startup
backends="$(IFS=,; echo "${STACK_BACKENDS[*]}")"
share=$(( 1000000000 / shards ))

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '%-9s %-30s %8s %8s %8s %8s %9s %9s %9s %8s %8s %8s\n' \
  class query http direct csearch rg n_http n_csearch n_rg fe_ms http/cs http/rg
while IFS=$'\t' read -r class query; do
  case "$class" in ''|'#'*) continue ;; esac
  # HTTP, csearch, rg and the backends asked directly are timed in turn, round after round
  # (bench/interleaved_timer.py): the VM's speed drifts over minutes, and tools timed in blocks one
  # after the other compared the minutes as much as the tools. The direct request is the frontend's
  # own: two context lines, and its share of the result cap (so each backend searches in doc order,
  # as the frontend's capped requests do). Timed back to back instead, before and after the other
  # tools' rounds (as this script did up to e4732a6), the direct column never followed a run of rg
  # or csearch, while every HTTP request did.
  read -r t_h t_c t_r n_h t_d n_d < <(python3 "$root/bench/interleaved_timer.py" "$STACK_URL" "$query" "$runs" \
    "$work/csearchindex" "$work/corpus" "$root/trigrep" search --backend "$backends" --context 2 \
    --max-results "$share" --rounds-on-input "$query")
  fe="$(awk -v a="$t_h" -v b="$t_d" 'BEGIN { printf "%.1f", (a - b) * 1000 }')"
  competitor_counts "$query" "$work"
  flag=""; [ "$n_h" = "$n_d" ] && [ "$n_h" = "$n_r" ] || flag="  counts differ"
  printf '%-9s %-30s %8s %8s %8s %8s %9s %9s %9s %8s %8s %8s%s\n' "$class" "$query" "$t_h" "$t_d" "$t_c" "$t_r" \
    "$n_h" "$n_c" "$n_r" "$fe" "$(ratio "$t_h" "$t_c")" "$(ratio "$t_h" "$t_r")" "$flag"
done < "$queries"
grep -E '^files|^index' "$work/index.out" | sed 's/^/# trigrep /'
if [ "${COLD:-0}" = 1 ]; then
  echo "# $shards backends and the frontend on this machine; cold page cache: medians of $runs rounds (HTTP, direct, csearch and rg in turn), each run after dropping the page cache"
else
  echo "# $shards backends and the frontend on this machine; medians of $runs rounds after warm-up (HTTP, direct, csearch and rg in turn)"
fi
