#!/usr/bin/env bash
# Query latency while an index changes under the backends serving it (issue 16), in one run:
#
#   bench/latency-during-update.sh INDEX_DIR CORPUS_DIR [SECONDS]
#
# Copies INDEX_DIR (built by ./trigrep index from CORPUS_DIR) and serves the copy (one backend per
# shard and a frontend, bench/stack.sh). bench/latency_sampler.py then sends the selective
# queries of bench/queries.txt, fresh searches back to back, in three phases:
#   idle    nothing else runs, for SECONDS (default 30)
#   update  a loop of `./trigrep update` (each replacing a random package of CORPUS_DIR with a new
#           version, tiered merge included) runs at the same time, for SECONDS
#   merge   `./trigrep merge` (every shard's segments into one) runs; the phase lasts as long
# and prints, per phase, the requests answered, p50 and p99 in ms, errors (non-200 or partial)
# and answers with a duplicate line. Updates and the merge run under `nice -n 10` (NICE to change
# it), as deploy/systemd's sync unit runs them: on a machine shared with the backends an update
# should give way to queries.
set -euo pipefail
index="${1:?usage: bench/latency-during-update.sh INDEX_DIR CORPUS_DIR [SECONDS]}"
corpus="${2:?usage: bench/latency-during-update.sh INDEX_DIR CORPUS_DIR [SECONDS]}"
seconds="${3:-30}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
trap 'stack_stop; rm -rf "$work"' EXIT
cp -a "$index" "$work/index"
sync
stack_start "$work/index" "$work/stack"
queries="$root/bench/queries.txt"
"$root/bench/latency_sampler.py" "$STACK_URL" "$queries" 5 >/dev/null   # warm-up

mapfile -t packages < <(ls "$corpus")
printf '%-8s %9s %8s %8s %7s %11s %12s\n' phase requests "p50 ms" "p99 ms" errors duplicates generation
generation() { "$root/trigrep" segments --index "$work/index" | sed -n 's/^generation \([0-9]*\).*/\1/p'; }
row() { read -r n p50 p99 errors dups <"$work/sample"; printf '%-8s %9s %8s %8s %7s %11s %12s\n' "$1" "$n" "$p50" "$p99" "$errors" "$dups" "$(generation)"; }

"$root/bench/latency_sampler.py" "$STACK_URL" "$queries" "$seconds" >"$work/sample"
row idle

"$root/bench/latency_sampler.py" "$STACK_URL" "$queries" "$seconds" >"$work/sample" &
sampler=$!
u=0
while kill -0 "$sampler" 2>/dev/null; do
  u=$((u + 1))
  pick="${packages[$((RANDOM % ${#packages[@]}))]}"
  rm -rf "$work/in"; mkdir -p "$work/in"
  cp -al "$corpus/$pick" "$work/in/${pick}+u$u"
  nice -n "${NICE:-10}" "$root/trigrep" update --index "$work/index" --add "$work/in" >/dev/null 2>"$work/update.err" \
    || { cat "$work/update.err" >&2; exit 1; }
done
wait "$sampler"
row "update"
echo "  ($u updates)"

"$root/bench/latency_sampler.py" "$STACK_URL" "$queries" 100000 >"$work/sample" &
sampler=$!
start=$(date +%s.%N)
nice -n "${NICE:-10}" "$root/trigrep" merge --index "$work/index" >/dev/null 2>"$work/merge.err" || { cat "$work/merge.err" >&2; exit 1; }
merge_seconds=$(echo "$(date +%s.%N) - $start" | bc)
kill -TERM "$sampler" 2>/dev/null || true
wait "$sampler" || true
row merge
printf '  (merge took %.1f s)\n' "$merge_seconds"
