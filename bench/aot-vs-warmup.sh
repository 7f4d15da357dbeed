#!/usr/bin/env bash
# The launcher's ahead-of-time caches against none, and the caches without the warm-up: ready time
# and the first queries of fresh stacks (bench/ready.sh), rounds alternated in the same run.
#
#   bench/aot-vs-warmup.sh INDEX_DIR SELECTIVE HEAVY [RUNS]
#
# Removes the checkout's caches, records them with one stack (its stop writes them), then runs
# RUNS rounds of three bench/ready.sh stacks: TRIGREP_AOT=0 ("none"), the caches ("aot"), the
# caches and WARMUP_MS=0 ("aot-cold"). Prints each stack's line of bench/ready.sh (backends ready,
# frontend after them, first selective, first heavy, warm heavy; seconds) prefixed with its label,
# then the medians of each.
set -euo pipefail
index="$(cd "${1:?usage: bench/aot-vs-warmup.sh INDEX_DIR SELECTIVE HEAVY [RUNS]}" && pwd)"
selective="${2:?selective query}"
heavy="${3:?heavy query}"
runs="${4:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
lines="$(mktemp)"
trap 'rm -f "$lines"' EXIT

rm -rf "$root/target/aot"
"$root/bench/ready.sh" "$index" "$selective" "$heavy" 1 > /dev/null 2>&1
ls "$root"/target/aot/backend-*.aot "$root"/target/aot/frontend-*.aot > /dev/null

round() { # LABEL [ENV...]: one stack, its line
  local label="$1"
  shift
  env "$@" "$root/bench/ready.sh" "$index" "$selective" "$heavy" 1 2>&1 | awk -v l="$label" '$1 == "1" { $1 = l; print }'
}
for ((r = 1; r <= runs; r++)); do
  round none TRIGREP_AOT=0 | tee -a "$lines"
  round aot | tee -a "$lines"
  round aot-cold WARMUP_MS=0 | tee -a "$lines"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for label in none aot aot-cold; do
  printf '%-8s ready %s s, frontend +%s s, first selective %s s, first heavy %s s, warm heavy %s s\n' "$label" \
    "$(awk -v l="$label" '$1 == l { print $2 }' "$lines" | median)" \
    "$(awk -v l="$label" '$1 == l { print $3 }' "$lines" | median)" \
    "$(awk -v l="$label" '$1 == l { print $4 }' "$lines" | median)" \
    "$(awk -v l="$label" '$1 == l { print $5 }' "$lines" | median)" \
    "$(awk -v l="$label" '$1 == l { print $6 }' "$lines" | median)"
done
