#!/usr/bin/env bash
# The heap a role needs, found by trying: for each SIZE, starts the stack (one backend per shard
# of INDEX_DIR and a frontend, bench/stack.sh) with ROLE's heap set to SIZE and the other role's
# at its default, runs the heaviest queries through HTTP with the cache off, each one after the
# other, and prints per query the HTTP status, results and time, then whether every process is
# still up, and per process its peak resident memory (VmHWM) and what the JVM itself counts
# (Native Memory Tracking: heap committed, class metadata, code, threads, GC structures, and
# "other", where direct buffers are). The smallest SIZE where every query answers 200 and
# nothing died is the floor.
#
#   bench/memory-floor.sh INDEX_DIR backend|frontend SIZE... [-- QUERY...]
#
# Default queries: `return` (about 670k results on the Debian corpus) and `.` (every line, up to
# the backends' --max-results each). The cache is bounded to 2 GB (STACK_CACHE_BYTES).
set -uo pipefail
index="$(cd "${1:?usage: bench/memory-floor.sh INDEX_DIR backend|frontend SIZE... [-- QUERY...]}" && pwd)"
role="${2:?role: backend or frontend}"
shift 2
sizes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sizes+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
queries=("$@")
[ ${#queries[@]} -gt 0 ] || queries=("return" ".")
root="$(cd "$(dirname "$0")/.." && pwd)"
export STACK_CACHE_BYTES="${STACK_CACHE_BYTES:-2000000000}"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
work="$(mktemp -d)"
trap 'stack_stop; rm -rf "$work"' EXIT
export TRIGREP_JAVA_OPTS="${TRIGREP_JAVA_OPTS:-} -XX:NativeMemoryTracking=summary"

# NMT's committed MiB of CATEGORY in the summary FILE (scale=MB).
nmt() { awk -v c="$2" '$0 ~ "^-  *"c" \\(" { sub(/.*committed=/, ""); sub(/MB.*/, ""); print $0 + 0 }' "$1"; }

for size in "${sizes[@]}"; do
  case "$role" in
    backend) export TRIGREP_BACKEND_HEAP="$size" ;;
    frontend) export TRIGREP_FRONTEND_HEAP="$size" ;;
    *) echo "role must be backend or frontend, got '$role'" >&2; exit 2 ;;
  esac
  rm -rf "$work"/*
  if ! stack_start "$index" "$work/stack"; then
    echo "$role heap $size: the stack did not start"
    stack_stop
    continue
  fi
  echo "== $role heap $size"
  for q in "${queries[@]}"; do
    rm -f "$work/answer.json"
    out="$(curl -s -o "$work/answer.json" -w '%{http_code} %{time_total}' -G "$STACK_URL/api/v1/search" \
      --data-urlencode "q=$q" --data-urlencode cache=false --data-urlencode per_page=1 --max-time 120)"
    total="$(grep -o '"total_results":[0-9]*' "$work/answer.json" | head -1 | cut -d: -f2)"
    partial="$(grep -o '"partial":[a-z]*' "$work/answer.json" | head -1 | cut -d: -f2)"
    error="$(grep -o '"error":"[^"]*' "$work/answer.json" | head -1 | cut -c10-)"
    printf '  %-12s HTTP %s in %6.2f s  results %-10s partial %-5s %s\n' "$q" "${out% *}" "${out#* }" "${total:--}" "${partial:--}" "$error"
  done
  names=()
  for ((i = 0; i < ${#STACK_PIDS[@]} - 1; i++)); do names+=("backend-$i"); done
  names+=(frontend)
  printf '  %-10s %5s %8s %8s %8s %6s %6s %5s %5s %5s %5s %6s\n' process alive "HWM MiB" "anon" "file" heap "class" meta code GC other "NMT"
  for ((i = 0; i < ${#STACK_PIDS[@]}; i++)); do
    pid="${STACK_PIDS[$i]}"
    if kill -0 "$pid" 2>/dev/null; then
      jcmd "$pid" VM.native_memory summary scale=MB >"$work/nmt.txt" 2>/dev/null
      st="/proc/$pid/status"
      printf '  %-10s %5s %8s %8s %8s %6s %6s %5s %5s %5s %5s %6s\n' "${names[$i]}" yes \
        "$(awk '/VmHWM/ {printf "%.0f", $2/1024}' "$st")" "$(awk '/RssAnon/ {printf "%.0f", $2/1024}' "$st")" \
        "$(awk '/RssFile/ {printf "%.0f", $2/1024}' "$st")" \
        "$(nmt "$work/nmt.txt" 'Java Heap')" "$(nmt "$work/nmt.txt" Class)" "$(nmt "$work/nmt.txt" Metaspace)" \
        "$(nmt "$work/nmt.txt" Code)" "$(nmt "$work/nmt.txt" GC)" "$(nmt "$work/nmt.txt" Other)" \
        "$(awk '/^Total:/ { sub(/.*committed=/, ""); sub(/MB.*/, ""); print $0 + 0 }' "$work/nmt.txt")"
    else
      printf '  %-10s %5s  (log: %s)\n' "${names[$i]}" no "$(grep -h -m1 -o 'OutOfMemoryError[^"]*' "$work"/stack/*.log | head -1)"
    fi
  done
  stack_stop
done
