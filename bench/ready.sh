#!/usr/bin/env bash
# Time to ready and the first queries after it, as a user meets a freshly started stack.
#
#   bench/ready.sh INDEX_DIR SELECTIVE HEAVY [RUNS]
#
# Each of RUNS (default 5) rounds starts one backend per shard of INDEX_DIR and a frontend, all
# at once, and times from the start until each backend's /readyz and then the frontend's answer
# 200. Then, over HTTP with the cache off, it asks SELECTIVE (a selective identifier) once and
# HEAVY (a result-heavy query) six times: the first ask against the warm time, the median of the
# 4th to 6th (the 2nd and 3rd still run code the JIT is compiling).
# Prints one line per round, then the medians: the slowest backend's ready time, the frontend's
# lag behind it, the first SELECTIVE, the first HEAVY against the median of its warm asks.
# COLD=1 (as root) drops the page cache before each round. WARMUP_MS sets --warmup-ms of every
# role (unset: the default); BACKEND_WARMUP_MS and FRONTEND_WARMUP_MS set one role's. Needs curl.
set -euo pipefail
index="$(cd "${1:?usage: bench/ready.sh INDEX_DIR SELECTIVE HEAVY [RUNS]}" && pwd)"
selective="${2:?selective query}"
heavy="${3:?heavy query}"
runs="${4:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
pids=()
stop() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
trap 'stop; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
now() { date +%s.%N; }
status() { curl -s -o /dev/null -w '%{http_code}' "$1" || true; }
# Seconds one uncached search takes over HTTP.
ask() {
  curl -s -o /dev/null -w '%{time_total}' -G "$1/api/v1/search" --data-urlencode "q=$2" --data-urlencode cache=false
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
bwarmup=() fwarmup=()
backend_ms="${BACKEND_WARMUP_MS:-${WARMUP_MS:-}}"
frontend_ms="${FRONTEND_WARMUP_MS:-${WARMUP_MS:-}}"
[ -n "$backend_ms" ] && bwarmup=(--warmup-ms "$backend_ms")
[ -n "$frontend_ms" ] && fwarmup=(--warmup-ms "$frontend_ms")

TRIGREP_SKIP_BUILD="" "$root/trigrep" backend --help > /dev/null # builds once, outside the timings
TRIGREP_SKIP_BUILD="" "$root/trigrep" frontend --help > /dev/null
export TRIGREP_SKIP_BUILD=1

printf '%-4s %9s %9s %11s %9s %9s\n' run backends frontend+ selective heavy warm >&2
for ((r = 1; r <= runs; r++)); do
  [ -n "${COLD:-}" ] && { sync; echo 3 > /proc/sys/vm/drop_caches; }
  rm -rf "$work/data"
  backends=() ops=()
  start=$(now)
  for shard in "$index"/shard-*; do
    port=$(free_port) http=$(free_port)
    "$root/trigrep" backend --shard "$shard" --port "$port" --http-port "$http" "${bwarmup[@]}" \
      > "$work/$(basename "$shard").log" 2>&1 &
    pids+=($!)
    backends+=("127.0.0.1:$port")
    ops+=("http://127.0.0.1:$http/readyz")
  done
  fport=$(free_port)
  url="http://127.0.0.1:$fport"
  "$root/trigrep" frontend --backends "$(IFS=,; echo "${backends[*]}")" --data "$work/data" --port "$fport" \
    "${fwarmup[@]}" > "$work/frontend.log" 2>&1 &
  pids+=($!)
  backends_ready="" frontend_ready=""
  deadline=$((SECONDS + 300))
  while [ -z "$frontend_ready" ]; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "round $r: not ready in 300 s, see $work" >&2; exit 1; }
    if [ -z "$backends_ready" ]; then
      all=1
      for o in "${ops[@]}"; do [ "$(status "$o")" = 200 ] || all=""; done
      [ -n "$all" ] && backends_ready=$(echo "$(now) - $start" | bc)
    fi
    [ -n "$backends_ready" ] && [ "$(status "$url/readyz")" = 200 ] && frontend_ready=$(echo "$(now) - $start" | bc)
    sleep 0.05
  done
  first_selective=$(ask "$url" "$selective")
  first_heavy=$(ask "$url" "$heavy")
  for _ in 2 3; do ask "$url" "$heavy" > /dev/null; done
  warm=$(for _ in 4 5 6; do ask "$url" "$heavy"; echo; done | median)
  stop
  printf '%-4s %9.2f %9.2f %11.4f %9.4f %9.4f\n' "$r" "$backends_ready" \
    "$(echo "$frontend_ready - $backends_ready" | bc)" "$first_selective" "$first_heavy" "$warm" | tee -a "$work/rows" >&2
done
awk '{ print $2 }' "$work/rows" | median | xargs printf 'median ready (slowest backend)  %.2f s\n'
awk '{ print $3 }' "$work/rows" | median | xargs printf 'median frontend after it        %.2f s\n'
awk '{ print $4 * 1000 }' "$work/rows" | median | xargs printf 'median first selective          %.1f ms\n'
awk '{ print $5 / $6 }' "$work/rows" | median | xargs printf 'median first heavy / warm heavy %.2f\n'
