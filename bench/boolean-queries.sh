#!/usr/bin/env bash
# Boolean, sym: and file-name queries as a user of the JSON API feels them (issue 18): each
# query timed end to end over HTTP next to each of its operands alone (bench/queries-symbols.txt:
# a sym: query next to its name as a plain query), in the same run, through a
# frontend and one backend per shard. A boolean query of selective operands should cost about its
# most selective operand plus the check of the others on that operand's files. File-name queries
# (a line with no operands) are timed alone.
#
#   bench/boolean-queries.sh INDEX_DIR [QUERIES_FILE] [RUNS]
#
# INDEX_DIR is what ./trigrep index --out wrote. QUERIES_FILE (default bench/queries-boolean.txt)
# has "query<TAB>operand<TAB>operand..." lines. Prints per query the median seconds over HTTP, its
# result count, the fastest operand's median and count, and the ratio query/fastest operand.
# Warm: a pass over every query and operand first, and each runs once more before it is timed.
# For A AND NOT B the operand to compare with is A: candidates are A's files, and B is checked in
# each of them (a NOT narrows nothing), so a fast B alone says little.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
index="$(cd "${1:?usage: bench/boolean-queries.sh INDEX_DIR [QUERIES_FILE] [RUNS]}" && pwd)"
queries="${2:-$root/bench/queries-boolean.txt}"
runs="${3:-5}"
for tool in curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool missing" >&2; exit 2; }
done
work="$(mktemp -d)"
export STACK_FRONTEND_ARGS="${STACK_FRONTEND_ARGS:---max-query-results 1000000000 --max-expensive-queries 4}"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
cleanup() { stack_stop; rm -rf "$work"; }
trap cleanup EXIT
stack_start "$index" "$work/stack" --max-results 1000000000

# Warm-up: every query and operand a few times, untimed, so no row pays for JIT-compiling code a
# later row's query shares (boolean conditions, file results, symbol lookups).
while IFS=$'\t' read -r -a fields; do
  case "${fields[0]:-}" in ''|'#'*) continue ;; esac
  for q in "${fields[@]}"; do python3 "$root/bench/http_timer.py" "$STACK_URL" "$q" 2 >/dev/null; done
done < "$queries"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
printf '%-58s %8s %9s   %-24s %8s %9s %6s\n' query http n fastest_operand its_http its_n ratio
while IFS=$'\t' read -r -a fields; do
  query="${fields[0]:-}"
  case "$query" in ''|'#'*) continue ;; esac
  read -r t_q n_q < <(python3 "$root/bench/http_timer.py" "$STACK_URL" "$query" "$runs")
  best_t=""; best_n=""; best_op="-"
  for op in "${fields[@]:1}"; do
    read -r t_o n_o < <(python3 "$root/bench/http_timer.py" "$STACK_URL" "$op" "$runs")
    if [ -z "$best_t" ] || awk -v a="$t_o" -v b="$best_t" 'BEGIN { exit !(a < b) }'; then
      best_t="$t_o"; best_n="$n_o"; best_op="$op"
    fi
  done
  printf '%-58s %8s %9s   %-24s %8s %9s %6s\n' "$query" "$t_q" "$n_q" "$best_op" "${best_t:--}" "${best_n:--}" \
    "$( [ -n "$best_t" ] && ratio "$t_q" "$best_t" || echo -)"
done < "$queries"
echo "# ${#STACK_BACKENDS[@]} backends and the frontend on this machine; medians of $runs fresh searches (cache=false) after one warm-up"
