#!/usr/bin/env bash
# Many users at once, over HTTP on loopback, bounded in time: wrk (bench/load.lua) against a stack
# of one backend per shard and a frontend (bench/stack.sh), with a mix of selective queries (the
# "selective" lines of the queries file, plus one query that matches nothing), the cache off
# (cache=false: every request searches) and on (every request is a cache hit after a warm-up).
# Prints per mix and connection count every run and the median of the runs: answers/s (all, and
# those with a 2xx status), p50 and p99 latency of every answer, answers with status 429 (too
# busy) and 5xx, socket errors (timeouts after 10 s included); and the resident
# memory of every process before and after (VmRSS, VmHWM, and RssAnon/RssFile: the backends map
# their shard, so file pages are page cache, not heap), next to the caps the launcher gave the JVM.
#
# With --abuse, an abusive client joins from another source address (127.0.0.3, bench/abuser.py):
# expensive queries (., [a-z]+, x?) with the cache off, several at once, and a flood of
# connections that send half a request. The well-behaved clients (wrk, from 127.0.0.1) run the
# cache-off mix with and without it, alternately, and their figures are printed side by side.
#
#   bench/load.sh [--index DIR | CORPUS] [--connections 16,64] [--duration 15] [--runs 3]
#                 [--shards 2] [--abuse] [--abuse-queries 4] [--abuse-flood 500] [--queries FILE]
#                 [--abuse-only]
#
# Without --index, CORPUS is indexed into a temporary folder first. The machine's other load
# shows in the figures: compare runs of one invocation, not across invocations.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
index="" corpus="" connections="16,64" duration=15 runs=3 shards=2 abuse=0 abuse_queries=4 abuse_flood=500 mixes=1
queries_file="$root/bench/queries.txt"
while [ $# -gt 0 ]; do
  case "$1" in
    --index) index="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --duration) duration="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --shards) shards="$2"; shift ;;
    --abuse) abuse=1 ;;
    --abuse-only) abuse=1; mixes=0 ;;
    --abuse-queries) abuse_queries="$2"; shift ;;
    --abuse-flood) abuse_flood="$2"; shift ;;
    --queries) queries_file="$2"; shift ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "load.sh: unknown option $1" >&2; exit 2 ;;
    *) corpus="$1" ;;
  esac
  shift
done
[ -n "$index" ] || [ -n "$corpus" ] || { echo "usage: bench/load.sh [--index DIR | CORPUS] [options]; --help" >&2; exit 2; }
command -v wrk >/dev/null || { echo "load.sh: wrk missing (apt-get install wrk)" >&2; exit 2; }
[[ "$duration" =~ ^[1-9][0-9]*$ && "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "load.sh: --duration and --runs take a number" >&2; exit 2; }

work="$(mktemp -d)"
export STACK_CACHE_BYTES="${STACK_CACHE_BYTES:-2000000000}"
# wrk's connections stand for many users behind a proxy on 127.0.0.1 (bench/load.lua); the abuser
# (127.0.0.3) is one client of its own.
export STACK_FRONTEND_ARGS="${STACK_FRONTEND_ARGS:---trusted-proxies 127.0.0.1}"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
abuser_pid=""
cleanup() {
  [ -n "$abuser_pid" ] && kill "$abuser_pid" 2>/dev/null
  stack_stop
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if [ -z "$index" ]; then
  echo "indexing $corpus into $shards shards..." >&2
  "$root/trigrep" index --shards "$shards" --out "$work/index" "$corpus" >"$work/index.out" 2>"$work/index.err" ||
    { tail -n 20 "$work/index.err" >&2; exit 1; }
  index="$work/index"
fi
index="$(cd "$index" && pwd)"
echo "starting $(ls -d "$index"/shard-* | wc -l) backends and the frontend..." >&2
stack_start "$index" "$work/stack"

# The request paths of each mix, URL-encoded.
mapfile -t selective < <(awk -F'\t' '$1 == "selective" { print $2 }' "$queries_file")
[ ${#selective[@]} -gt 0 ] || { echo "load.sh: no selective queries in $queries_file" >&2; exit 2; }
selective+=("zq_no_such_identifier_xq")
python3 - "$work" "${selective[@]}" <<'PY'
import sys, urllib.parse
work, queries = sys.argv[1], sys.argv[2:]
for name, extra in (("nocache", {"cache": "false"}), ("cache", {})):
    with open(f"{work}/{name}.paths", "w") as f:
        for q in queries:
            f.write("/api/v1/search?" + urllib.parse.urlencode({"q": q, **extra}) + "\n")
PY

# Warm-up: every query once, and checked: a query with no match must answer 200 with 0 results.
while read -r path; do
  code="$(curl -s -o "$work/answer.json" -w '%{http_code}' --max-time 60 "$STACK_URL$path" || true)"
  [ "$code" = 200 ] || { echo "load.sh: warm-up $path answered $code: $(head -c 300 "$work/answer.json")" >&2; exit 1; }
done < <(cat "$work/nocache.paths" "$work/cache.paths" "$work/nocache.paths")
grep -q '"total_results":0' "$work/answer.json" || { echo "load.sh: the no-match query did not answer 0 results" >&2; exit 1; }

names=()
for ((i = 0; i < ${#STACK_PIDS[@]} - 1; i++)); do names+=("backend-$i"); done
names+=(frontend)
logs=("$work"/stack/shard-*.log "$work/stack/frontend.log")
# JVM caps from the command line: -Xmx and -XX:MaxDirectMemorySize (last one wins, as in the JVM).
cap() { tr '\0' '\n' <"/proc/$1/cmdline" | sed -n "s/^$2//p" | tail -1; }
memory_table() {
  echo "| process | VmRSS MiB | VmHWM MiB | RssAnon MiB | RssFile MiB | -Xmx | MaxDirectMemorySize |"
  echo "|---|---|---|---|---|---|---|"
  local i pid st
  for ((i = 0; i < ${#STACK_PIDS[@]}; i++)); do
    pid="${STACK_PIDS[$i]}" st="/proc/${STACK_PIDS[$i]}/status"
    if [ -r "$st" ]; then
      echo "| ${names[$i]} | $(awk '/^VmRSS/ {printf "%.0f", $2/1024}' "$st") | $(awk '/^VmHWM/ {printf "%.0f", $2/1024}' "$st") |" \
        "$(awk '/^RssAnon/ {printf "%.0f", $2/1024}' "$st") | $(awk '/^RssFile/ {printf "%.0f", $2/1024}' "$st") |" \
        "$(cap "$pid" -Xmx) | $(cap "$pid" -XX:MaxDirectMemorySize=) |"
    else
      echo "| ${names[$i]} | exited: $(grep -h -v '^\s*at ' "${logs[$i]}" | tail -n 1 | tr '|' '/' | cut -c1-120) | | | | | |"
    fi
  done
}
echo
echo "## memory before (after the warm-up)"
memory_table

# One wrk run: prints its RESULT line's fields as "rps ok_rps p50 p99 n429 n5xx socket_errors requests".
run_wrk() {
  local conns="$1" paths="$2" line
  line="$(wrk -t2 -c"$conns" -d"${duration}s" --timeout 10s -s "$root/bench/load.lua" "$STACK_URL" -- "$paths" 2>&1 | grep '^RESULT' || true)"
  [ -n "$line" ] || { echo "0 0 nan nan 0 0 0 0"; return; }
  # No answer within the run (every request slower than it): no latency to speak of, not 0 ms.
  awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
         if (v["requests"] == 0) { v["p50_ms"] = "nan"; v["p99_ms"] = "nan" }
         printf "%s %.1f %s %s %s %s %d %s\n", v["rps"], v["s2xx"] / v["seconds"], v["p50_ms"], v["p99_ms"], v["s429"], v["s5xx"],
           v["connect"] + v["read"] + v["write"] + v["timeout"], v["requests"] }' <<<"$line"
}

# Median of each column of the lines on stdin.
medians() {
  python3 -c '
import sys, statistics
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
cols = [[x for x in c if x == x] for c in zip(*rows)]
print(" ".join("%g" % statistics.median(c) if c else "nan" for c in cols))'
}

row() { # LABEL "rps ok_rps p50 p99 n429 n5xx sock requests"
  local label="$1" rps ok p50 p99 busy failed sock n
  read -r rps ok p50 p99 busy failed sock n <<<"$2"
  if [ "$p50" = nan ]; then
    printf '| %s | %.0f | %.0f | - | - | %s | %s | %s | %s (none answered within the run) |\n' "$label" "$rps" "$ok" "${busy%.*}" "${failed%.*}" \
      "${sock%.*}" "${n%.*}"
  else
    printf '| %s | %.0f | %.0f | %.1f | %.1f | %s | %s | %s | %s |\n' "$label" "$rps" "$ok" "$p50" "$p99" "${busy%.*}" "${failed%.*}" "${sock%.*}" "${n%.*}"
  fi
}
header() {
  echo "| $1 | answers/s | 2xx/s | p50 ms | p99 ms | 429 | 5xx | socket errors | answers |"
  echo "|---|---|---|---|---|---|---|---|---|"
}

IFS=',' read -r -a conn_list <<<"$connections"
if [ "$mixes" -eq 1 ]; then
  echo
  echo "## well-behaved clients: ${#selective[@]} selective queries (one with no match), ${duration} s per run, $runs runs, median last"
  header "mix, connections, run"
fi
mix_list=(nocache cache)
[ "$mixes" -eq 1 ] || mix_list=()
for mix in "${mix_list[@]}"; do
  label="cache off"; [ "$mix" = cache ] && label="cache on"
  for c in "${conn_list[@]}"; do
    : >"$work/runs.txt"
    for ((r = 1; r <= runs; r++)); do
      result="$(run_wrk "$c" "$work/$mix.paths")"
      echo "$result" >>"$work/runs.txt"
      row "$label, $c, run $r" "$result"
    done
    row "**$label, $c, median**" "$(medians <"$work/runs.txt")"
  done
done

if [ "$abuse" -eq 1 ]; then
  echo
  echo "## with an abusive client from 127.0.0.3: $abuse_queries expensive searches at once (., [a-z]+, x?; cache off) and $abuse_flood half-open connections"
  header "cache off, connections, abuser, run"
  for c in "${conn_list[@]}"; do
    : >"$work/without.txt"
    : >"$work/with.txt"
    for ((r = 1; r <= runs; r++)); do
      result="$(run_wrk "$c" "$work/nocache.paths")"
      echo "$result" >>"$work/without.txt"
      row "$c, without, run $r" "$result"
      python3 "$root/bench/abuser.py" "$STACK_URL" 127.0.0.3 $((duration + 5)) "$abuse_queries" "$abuse_flood" >"$work/abuser.txt" 2>&1 &
      abuser_pid=$!
      sleep 3
      result="$(run_wrk "$c" "$work/nocache.paths")"
      echo "$result" >>"$work/with.txt"
      row "$c, with, run $r" "$result"
      wait "$abuser_pid" || true
      abuser_pid=""
      echo "|  abuser, run $r: $(tr '|' '/' <"$work/abuser.txt" | tail -1) | | | | | | | | |"
      # Let the abuser's last searches end before the next run without it.
      sleep 2
    done
    row "**$c, without, median**" "$(medians <"$work/without.txt")"
    row "**$c, with, median**" "$(medians <"$work/with.txt")"
  done
fi

echo
echo "## memory after"
memory_table
