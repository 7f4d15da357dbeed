#!/usr/bin/env bash
# What the frontend adds to a query, back to back, away from any competing tool: a stack of one
# backend per shard of INDEX and a frontend over them (bench/stack.sh, shaped as
# bench/http-vs-csearch.sh starts it). Per query: the backends asked directly with the frontend's
# own request (./trigrep search: two context lines, each backend's share of the result cap),
# median of RUNS; then RUNS fresh searches over HTTP (bench/http_timer.py: cache=false, one
# kept-alive connection, after one not timed), median; then the backends directly again. Prints the
# results, both medians, the mean of the two direct ones, and the frontend's cost (HTTP minus
# direct). bench/http-vs-csearch.sh times both HTTP
# and the backends directly between runs of csearch and rg, which fill both cores and the caches
# just before each request; this one times them on a quiet machine.
#
#   bench/frontend-cost.sh INDEX_DIR [RUNS] [QUERY...]
#
# RUNS defaults to 30; the queries to the selective ones of bench/queries.txt and one with no match.
set -euo pipefail
index="$(cd "${1:?usage: bench/frontend-cost.sh INDEX_DIR [RUNS] [QUERY...]}" && pwd)"
runs="${2:-30}"
shift $(( $# >= 2 ? 2 : 1 ))
root="$(cd "$(dirname "$0")/.." && pwd)"
queries=("$@")
if [ ${#queries[@]} -eq 0 ]; then
  mapfile -t queries < <(awk -F'\t' '$1 == "selective" { print $2 }' "$root/bench/queries.txt")
  queries+=("zzqxjv_no_such_thing")
fi
export STACK_FRONTEND_ARGS="${STACK_FRONTEND_ARGS:---max-query-results 1000000000 --max-expensive-queries 4}"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
work="$(mktemp -d)"
trap 'stack_stop; rm -rf "$work"' EXIT
"$root/trigrep" index --help >/dev/null 2>&1   # build once, outside the timings
stack_start "$index" "$work" --max-results 1000000000 --verify startup
backends="$(IFS=,; echo "${STACK_BACKENDS[*]}")"
share=$(( 1000000000 / ${#STACK_BACKENDS[@]} ))

direct() { "$root/trigrep" search --backend "$backends" --context 2 --max-results "$share" --repeat "$runs" "$1" 2>/dev/null | awk '{ print $2 }'; }
# Prints "MEDIAN_SECONDS TOTAL_RESULTS" (bench/http_timer.py).
http() { python3 "$root/bench/http_timer.py" "$STACK_URL" "$1" "$runs"; }

printf '%-34s %9s %10s %10s %12s\n' query results http_ms direct_ms frontend_ms
for q in "${queries[@]}"; do
  d1=$(direct "$q")
  read -r h n < <(http "$q")
  d2=$(direct "$q")
  awk -v q="$q" -v n="$n" -v h="$h" -v a="$d1" -v b="$d2" \
    'BEGIN { d = (a + b) / 2; printf "%-34s %9d %10.2f %10.2f %12.2f\n", q, n, h * 1000, d * 1000, (h - d) * 1000 }'
done
echo "# ${#STACK_BACKENDS[@]} backends and the frontend on this machine; medians of $runs, back to back; direct: the mean of two medians"
