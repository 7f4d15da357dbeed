#!/usr/bin/env bash
# Streams about 5 million results through the frontend and reports: heap bytes per retained
# result, end-to-end time against the slowest backend's own time for the same query, and the
# time to render page 1 and page 10,000 of the finished query.
#
#   bench/frontend-5m.sh [RESULTS]
#
# Generates its own corpus (every line matches), indexes it into 3 shards, starts 3 backends and
# the frontend on loopback, and stops them at the end.
#
# PIN=1 runs the backends on CPU 0 and the frontend and the baseline client on CPU 1 (taskset),
# as if they had machines of their own: then the ratio says whether the frontend keeps up with
# the backends, rather than how much CPU it takes from them on a shared machine. The frontend
# runs G1 either way (on one CPU the JVM would pick the serial collector, whose heap report the
# heap figure below does not read).
set -euo pipefail
results="${1:-5000000}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
pids=()
backend_cpu=()
consumer_cpu=()
if [ "${PIN:-0}" = 1 ]; then
  backend_cpu=(taskset -c 0)
  consumer_cpu=(taskset -c 1)
fi
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

echo "generating $results matching lines..." >&2
python3 - "$work/corpus" "$results" <<'PY'
import os, sys
out, total = sys.argv[1], int(sys.argv[2])
packages, files = 30, 10
per_file = -(-total // (packages * files))
n = 0
for p in range(packages):
    d = os.path.join(out, f"pkg{p}_1.0")
    os.makedirs(d)
    for f in range(files):
        with open(os.path.join(d, f"file{f}.c"), "w") as fh:
            lines = min(per_file, total - n)
            fh.write("".join(f"int match_{n + i} = {i};\n" for i in range(lines)))
            n += lines
PY
"$root/trigrep" index --shards 3 --out "$work/shards" --max-file-bytes 16777216 "$work/corpus" >/dev/null 2>&1

backends=()
for s in 0 1 2; do
  port=$(free_port)
  "${backend_cpu[@]}" "$root/trigrep" backend --shard "$work/shards/shard-$s" --port "$port" --verify startup --max-results "$results" --deadline-ms 300000 \
    > "$work/backend-$s.log" 2>&1 &
  pids+=($!)
  backends+=("127.0.0.1:$port")
done
fport=$(free_port)
TRIGREP_JAVA_OPTS="${TRIGREP_JAVA_OPTS:--Xmx2g -XX:+UseG1GC}" "${consumer_cpu[@]}" "$root/trigrep" frontend --backends "$(IFS=,; echo "${backends[*]}")" \
  --data "$work/data" --port "$fport" --cache-bytes 20000000000 --min-free-bytes 0 > "$work/frontend.log" 2>&1 &
fpid=$!
pids+=($fpid)
for f in "$work"/backend-*.log "$work/frontend.log"; do
  for _ in $(seq 120); do grep -q listening "$f" && break; sleep 0.5; done
done
java_pid=$(pgrep -f "FrontendCommand.*$fport" | head -n 1)

# The same request the frontend sends: the query with 2 context lines on each side.
echo "backends' own time (each alone, then all three at once; same request, no frontend)..." >&2
slowest=0
for b in "${backends[@]}"; do
  t=$("${consumer_cpu[@]}" "$root/trigrep" search --backend "$b" --repeat 5 --context 2 'match_' | awk '{print $2}')
  slowest=$(awk -v a="$slowest" -v b="$t" 'BEGIN { print (b > a) ? b : a }')
done
# The fair baseline on a small machine: the three streams produced together, as for a fanned-out
# query, read and dropped by one client process.
together=$("${consumer_cpu[@]}" "$root/trigrep" search --backend "$(IFS=,; echo "${backends[*]}")" --repeat 5 --context 2 'match_' | awk '{print $2}')

heap() { jcmd "$java_pid" GC.run >/dev/null; sleep 1; jcmd "$java_pid" GC.heap_info | awk '/used/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub("K", "", v); print v * 1024; exit } }'; }
before=$(heap)
curl -s -o "$work/page0.json" "http://127.0.0.1:$fport/api/v1/search?q=match_"
# The first pages are answered before the full sort ends; a deep page waits for it, so the heap
# is measured with the sorted order in place and the sort's scratch gone.
curl -s -o /dev/null "http://127.0.0.1:$fport/api/v1/search?q=match_&page=100000"
after=$(heap)
# The first run above also warmed the frontend's JIT; time five fresh runs and take the median.
# The frontend's own /metrics, read around them, say how long each backend took to produce its
# stream within those runs: the slowest one's mean against the queries' mean is what the frontend
# added on top of the backends in the same runs.
sums() { curl -s "http://127.0.0.1:$fport/metrics" | grep -E '^trigrep_(backend|query)_duration_seconds_sum' | sort | awk '{ print $2 }' | paste -sd' '; }
sums_before=$(sums)
e2e=$(for _ in 1 2 3 4 5; do
  curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$fport/api/v1/search?q=match_&cache=false"
done | sort -n | sed -n 3p)
sums_after=$(sums)
read -r inrun_backend inrun_query < <(awk -v a="$sums_before" -v b="$sums_after" 'BEGIN {
  n = split(a, x, " "); split(b, y, " "); worst = 0
  for (i = 1; i < n; i++) { d = (y[i] - x[i]) / 5; if (d > worst) worst = d }
  printf "%.4f %.4f\n", worst, (y[n] - x[n]) / 5 }')
got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total_results"])' "$work/page0.json")
p1=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$fport/api/v1/search?q=match_&page=0")
p1=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$fport/api/v1/search?q=match_&page=0")
p10k=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$fport/api/v1/search?q=match_&page=10000")
p10k=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$fport/api/v1/search?q=match_&page=10000")
printf 'results through the frontend          %s\n' "$got"
printf 'heap retained per result (bytes)      %s\n' "$(awk -v a="$after" -v b="$before" -v n="$got" 'BEGIN { printf "%.1f", (a - b) / n }')"
printf 'end-to-end, median of 5 (s)           %s\n' "$e2e"
printf 'slowest backend alone, median of 5 (s) %s\n' "$slowest"
printf 'overhead vs the slowest alone         %s\n' "$(awk -v a="$e2e" -v b="$slowest" 'BEGIN { printf "%.2fx", a / b }')"
printf 'all three backends at once (s)        %s\n' "$together"
printf 'overhead vs all three at once        %s\n' "$(awk -v a="$e2e" -v b="$together" 'BEGIN { printf "%.2fx", a / b }')"
printf 'slowest backend within those runs (s) %s (mean, from the frontend'"'"'s /metrics)\n' "$inrun_backend"
printf 'query within those runs (s)           %s (mean)\n' "$inrun_query"
printf 'overhead vs the backends in the run   %s\n' "$(awk -v a="$inrun_query" -v b="$inrun_backend" 'BEGIN { printf "%.2fx", a / b }')"
printf 'page 0 of the finished query (s)      %s\n' "$p1"
printf 'page 10,000 of the finished query (s) %s\n' "$p10k"
