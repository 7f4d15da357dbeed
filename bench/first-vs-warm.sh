#!/usr/bin/env bash
# Whether a freshly started stack answers its first query as fast as a warm stack answers the
# same query, each asked for the first time. bench/first-queries.sh compares a stack's first ask
# with the same query asked again 20 s later: a warm stack at its very best, the query's own
# pages, caches and branches touched 20 s before. A warm stack a user meets has answered other
# queries since; this script measures that too, in the same stacks.
#
# One stack per QUERY (one backend per shard of INDEX_DIR and a frontend), started afresh; stack k
# asks the queries in turn starting with the k-th, then all of them once more in the same order,
# one ask every IDLE seconds (default 20; the first IDLE s after ready), each on a new connection
# and never from the frontend's cache. So each query is asked:
#   first    by the one stack that asks it right after ready (fresh JVMs, warmed by their warm-up),
#   warm     for the first time by the other stacks, which have answered 1 to N-1 queries before,
#   again    by every stack, a second time, N asks after its first.
# Prints, per query, first / the median of warm / the median of again, their ratios, the result
# counts (the same in every ask, or the script says so) and the CPU the JVMs' JIT compiler threads
# used during the first ask, and the medians of the two ratios over the queries; every ask's line
# goes to stderr. COLD=1 (as root) drops the page cache before each stack starts, as
# after a reboot. Needs at least two queries.
#
#   bench/first-vs-warm.sh INDEX_DIR QUERY QUERY [QUERY...]
set -euo pipefail
index="$(cd "${1:?usage: bench/first-vs-warm.sh INDEX_DIR QUERY QUERY [QUERY...]}" && pwd)"
shift
[ $# -ge 2 ] || { echo "usage: bench/first-vs-warm.sh INDEX_DIR QUERY QUERY [QUERY...]" >&2; exit 2; }
queries=("$@")
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
work="$(mktemp -d)"
trap 'stack_stop; rm -rf "$work"' EXIT
"$root/trigrep" index --help >/dev/null 2>&1   # build once, outside the timings
asks="$work/asks.tsv"
: > "$asks"

for k in "${!queries[@]}"; do
  if [ "${COLD:-0}" = 1 ]; then
    sync
    echo 3 > /proc/sys/vm/drop_caches || { echo "COLD=1 needs root to drop the page cache" >&2; exit 2; }
  fi
  started=$(date +%s.%N)
  stack_start "$index" "$work/stack-$k"
  echo "stack $k: ready $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s after the start" >&2
  # Appends one line per ask to $asks: stack, position, query index, ms, results, compilers' CPU s.
  python3 - "$STACK_URL" "$(IFS=,; echo "${STACK_PIDS[*]}")" "$k" "${queries[@]}" >> "$asks" <<'PY'
import http.client, json, os, sys, time, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
pids = sys.argv[2].split(",")
k = int(sys.argv[3])
queries = sys.argv[4:]
tick = os.sysconf("SC_CLK_TCK")
idle = float(os.environ.get("IDLE", "20"))

def compilers():
    """CPU seconds so far of the JIT compiler threads of the stack's JVMs."""
    total = 0
    for pid in pids:
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                if "Compiler" in open(f"/proc/{pid}/task/{t}/comm").read():
                    fields = open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()
                    total += int(fields[11]) + int(fields[12])
            except OSError:
                pass
    return total / tick

n = len(queries)
order = [(k + i) % n for i in range(n)] * 2
for position, q in enumerate(order):
    time.sleep(idle)
    c = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    c.connect()
    path = "/api/v1/search?" + urllib.parse.urlencode({"q": queries[q], "cache": "false"})
    jit = compilers()
    start = time.perf_counter()
    c.request("GET", path)
    answer = c.getresponse()
    body = answer.read()
    ms = (time.perf_counter() - start) * 1000
    jit = compilers() - jit
    c.close()
    if answer.status != 200:
        sys.exit("%s: HTTP %d: %s" % (queries[q], answer.status, body[:200]))
    print("%d\t%d\t%d\t%.1f\t%d\t%.2f" % (k, position, q, ms, json.loads(body)["total_results"], jit), flush=True)
PY
  stack_stop
done
echo "stack, position, query, ms, results, compilers' CPU s:" >&2
cat "$asks" >&2

python3 - "$asks" "${queries[@]}" <<'PY'
import statistics, sys
queries = sys.argv[2:]
n = len(queries)
rows = [line.split("\t") for line in open(sys.argv[1])]
first, warm, again, totals, jit = {}, {}, {}, {}, {}
for k, position, q, ms, total, cpu in rows:
    k, position, q, ms = int(k), int(position), int(q), float(ms)
    totals.setdefault(q, set()).add(int(total))
    if position == 0:
        first[q], jit[q] = ms, float(cpu)
    elif position < n:
        warm.setdefault(q, []).append(ms)
    else:
        again.setdefault(q, []).append(ms)
print("%-28s %9s %9s %9s %11s %12s %10s %s" % ("query", "first ms", "warm ms", "again ms", "first/warm",
                                               "first/again", "results", "compilers in the first, s"))
for q, text in enumerate(queries):
    w, a = statistics.median(warm[q]), statistics.median(again[q])
    counts = ",".join(str(t) for t in sorted(totals[q]))
    print("%-28s %9.1f %9.1f %9.1f %11.2f %12.2f %10s %.2f" % (text[:28], first[q], w, a, first[q] / w, first[q] / a,
                                                              counts if len(totals[q]) == 1 else "DIFFER " + counts, jit[q]))
ratios = [(first[q] / statistics.median(warm[q]), first[q] / statistics.median(again[q])) for q in range(n)]
print("median over the queries: first/warm %.2f, first/again %.2f" % (statistics.median(r[0] for r in ratios),
                                                                      statistics.median(r[1] for r in ratios)))
PY
