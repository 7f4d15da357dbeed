#!/usr/bin/env bash
# Latency of the selective identifier mix while one replica is stopped or restarting, and how
# soon an answer comes once every replica of a shard is stopped. Starts two backends per shard of
# an index (both reading the same shard folder) and a frontend over them (--backends a|b,c|d),
# then, per round, runs wrk (bench/load.lua, cache off) for DURATION seconds in each state:
#   healthy     every replica up
#   stopped     replica 0 of shard 0 stopped (SIGSTOP) just before the run
#   restarting  that replica killed (SIGKILL) and started again just before the run
# and prints p50 and p99 of each, with p99 over the same round's healthy p99 (the machine's other
# load moves all three together: compare within a round). Last, it stops both replicas of the
# last shard and times ASKS single queries (curl): each must be partial, naming that shard.
#
#   bench/replicas.sh --index DIR [--connections 8] [--duration 15] [--runs 3] [--asks 5]
#                     [--queries FILE]
#
# Needs wrk and curl.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
index="" connections=8 duration=15 runs=3 asks=5
queries_file="$root/bench/queries.txt"
while [ $# -gt 0 ]; do
  case "$1" in
    --index) index="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --duration) duration="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --asks) asks="$2"; shift ;;
    --queries) queries_file="$2"; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "replicas.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$index" ] || { echo "usage: bench/replicas.sh --index DIR [options]; --help" >&2; exit 2; }
command -v wrk >/dev/null || { echo "replicas.sh: wrk missing (apt-get install wrk)" >&2; exit 2; }
index="$(cd "$index" && pwd)"
work="$(mktemp -d)"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
# Per shard, its two replicas' ports and pids: replica r of shard s at index s*2+r.
ports=() pids=() frontend_pid=""
cleanup() {
  local p
  for p in "${pids[@]}" $frontend_pid; do kill -CONT "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}" $frontend_pid; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

shards=("$index"/shard-*)
groups=()
for ((s = 0; s < ${#shards[@]}; s++)); do
  group=""
  for r in 0 1; do
    port=$(stack_free_port)
    stack_start_backend "${shards[$s]}" "$port" "$work/shard-$s-r$r.log"
    ports+=("$port")
    pids+=("$STACK_BACKEND_PID")
    group="$group${group:+|}127.0.0.1:$port"
  done
  groups+=("$group")
done
backends="$(IFS=,; echo "${groups[*]}")"
port=$(stack_free_port)
"$root/trigrep" frontend --backends "$backends" --data "$work/data" --port "$port" --min-free-bytes 0 \
  --trusted-proxies 127.0.0.1 >"$work/frontend.log" 2>&1 &
frontend_pid=$!
stack_wait_listening "$work/frontend.log"
STACK_URL="http://127.0.0.1:$port"
stack_wait_ready 120 || { echo "replicas.sh: frontend not ready, see $work/frontend.log" >&2; exit 1; }

mapfile -t selective < <(awk -F'\t' '$1 == "selective" { print $2 }' "$queries_file")
[ ${#selective[@]} -gt 0 ] || { echo "replicas.sh: no selective queries in $queries_file" >&2; exit 2; }
python3 - "$work/nocache.paths" "${selective[@]}" <<'PY'
import sys, urllib.parse
with open(sys.argv[1], "w") as f:
    for q in sys.argv[2:]:
        f.write("/api/v1/search?" + urllib.parse.urlencode({"q": q, "cache": "false"}) + "\n")
PY
# Warm-up: every query twice, each answer complete.
for _ in 1 2; do
  while read -r path; do
    curl -s --max-time 60 "$STACK_URL$path" >"$work/answer.json"
    grep -q '"failed":\[\]' "$work/answer.json" || { echo "replicas.sh: warm-up $path: $(head -c 300 "$work/answer.json")" >&2; exit 1; }
  done <"$work/nocache.paths"
done

# One wrk run: "p50_ms p99_ms requests non2xx".
run_wrk() {
  wrk -t2 -c"$connections" -d"${duration}s" --timeout 30s -s "$root/bench/load.lua" "$STACK_URL" -- "$work/nocache.paths" 2>&1 |
    awk '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                     printf "%s %s %s %s\n", v["p50_ms"], v["p99_ms"], v["requests"], v["non2xx"] }'
}
ops_port=$(stack_free_port)
echo "## ${#shards[@]} shards x 2 replicas, ${#selective[@]} selective queries, cache off, $connections connections, ${duration} s per run"
echo
echo "| round | state | p50 ms | p99 ms | p99 / healthy p99 | answers | non-2xx | shards failed | hedges | failovers |"
echo "|---|---|---|---|---|---|---|---|---|---|"
# The sum of a counter of the frontend's over its labels.
counter() { curl -s "$STACK_URL/metrics" | awk -v n="$1" '$1 ~ "^" n "({|$)" { s += $2 } END { printf "%d", s }'; }
# Runs wrk in state $2 of round $1 and prints its row; h99 is the round's healthy p99.
state() {
  local f0 h0 o0 p50 p99 n bad
  f0=$(counter trigrep_backend_failures_total) h0=$(counter trigrep_replica_hedges_sent_total)
  o0=$(counter trigrep_replica_failovers_total)
  read -r p50 p99 n bad <<<"$(run_wrk)"
  [ "$2" = healthy ] && h99="$p99"
  printf '| %d | %s | %s | %s | %s | %s | %s | %d | %d | %d |\n' "$1" "$2" "$p50" "$p99" \
    "$(awk -v a="$p99" -v b="$h99" 'BEGIN { printf "%.2f", a / b }')" "$n" "$bad" \
    $(($(counter trigrep_backend_failures_total) - f0)) $(($(counter trigrep_replica_hedges_sent_total) - h0)) \
    $(($(counter trigrep_replica_failovers_total) - o0))
}
for ((round = 1; round <= runs; round++)); do
  state "$round" healthy
  kill -STOP "${pids[0]}"
  state "$round" stopped
  kill -KILL "${pids[0]}"
  wait "${pids[0]}" 2>/dev/null || true
  "$root/trigrep" backend --shard "${shards[0]}" --port "${ports[0]}" --http-port "$ops_port" >"$work/restart-$round.log" 2>&1 &
  pids[0]=$!
  state "$round" restarting
  # The next round starts with every replica ready again.
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ops_port/readyz")" = 200 ]; do
    kill -0 "${pids[0]}" 2>/dev/null || { echo "replicas.sh: the restarted backend died, see $work/restart-$round.log" >&2; exit 1; }
    sleep 0.2
  done
done

echo
last=$(( ${#shards[@]} - 1 ))
kill -STOP "${pids[$((last * 2))]}" "${pids[$((last * 2 + 1))]}"
echo "## every replica of shard $last stopped: $asks single asks, one after another"
echo
echo "| ask | seconds | partial | failed shard: reason |"
echo "|---|---|---|---|"
path="$(head -n 1 "$work/nocache.paths")"
for ((i = 1; i <= asks; i++)); do
  t="$(curl -s -o "$work/answer.json" -w '%{time_total}' --max-time 60 "$STACK_URL$path")"
  python3 - "$work/answer.json" "$i" "$t" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
failed = d.get("shards", {}).get("failed", [])
why = "; ".join(f["shard"] + ": " + f.get("reason", "")[:120] for f in failed)
print(f"| {sys.argv[2]} | {float(sys.argv[3]):.3f} | {str(d.get('partial')).lower()} | {why} |")
PY
done
kill -CONT "${pids[$((last * 2))]}" "${pids[$((last * 2 + 1))]}"
