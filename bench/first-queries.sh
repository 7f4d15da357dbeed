#!/usr/bin/env bash
# The first queries a freshly started stack answers, once its /readyz is green, with the default
# warm-up and with --warmup-ms 0: one backend per shard of INDEX and a frontend, started afresh
# (the shard's pages stay in the page cache; the JVMs start cold). Prints how long each stack took
# to be ready and, per query, the first fresh search (cache=false) and the five after it, each with
# the CPU seconds the JIT compiler threads of the stack's JVMs used meanwhile: compiling during a
# query means the warm-up did not run what the query runs (the other threads' CPU goes to the
# search and to the interpreter, which this does not tell apart). COLD=1
# (as root) drops the page cache before each stack starts, as after a reboot: the JVMs, the
# warm-up and the first queries then read the jars, the index and the files from the disk.
# RESTART=1 then restarts the default stack's first backend alone, behind the warm frontend, and
# asks the queries again from its ready. IDLE=S sends every ask S seconds after the one before
# (the first S seconds after ready, on a new connection each): on a virtual machine, memory left
# untouched for seconds is slower to read again (bench/src/main/java/io/trigrep/bench/
# IdleMemory.java), so the later asks, right after a pass over the same files, are otherwise a
# warm stack at its best, not a warm stack as a user who comes back after a while finds it.
# WARMUPS="default" starts only the default stack. Each ask also prints the CPU the backends'
# search threads used meanwhile (from /proc, per clock tick).
# bench/first-vs-warm.sh sets the first ask of a fresh stack against the same query asked for
# the first time by a warm one, and a full pass of other queries later, in the same stacks.
#
#   bench/first-queries.sh INDEX_DIR [QUERY...]
set -euo pipefail
index="$(cd "${1:?usage: bench/first-queries.sh INDEX_DIR [QUERY...]}" && pwd)"
shift
queries=("$@")
[ ${#queries[@]} -gt 0 ] || queries=("sqlite3_prepare_v2" "printf" "XML_ParserCreate" 'struct \w+_ops \{')
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
work="$(mktemp -d)"
trap 'stack_stop; rm -rf "$work"' EXIT
"$root/trigrep" index --help >/dev/null 2>&1   # build once, outside the timings

# Asks each query six times, fresh, and prints the times and the compilers' CPU meanwhile.
ask_queries() {
  python3 - "$STACK_URL" "$(IFS=,; echo "${STACK_PIDS[*]}")" "${queries[@]}" <<'PY'
import http.client, os, sys, time, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
pids = sys.argv[2].split(",")
tick = os.sysconf("SC_CLK_TCK")

def threads_cpu(name):
    """CPU seconds so far of the stack's threads whose name holds NAME."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for t in tasks:
            try:
                if name not in open(f"/proc/{pid}/task/{t}/comm").read():
                    continue
                fields = open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
    return total / tick

def compilers():
    """CPU seconds of the JIT compiler threads ("C1/C2 CompilerThre...") of the stack's JVMs so far."""
    return threads_cpu("Compiler")

def searchers():
    """CPU seconds of the backends' search threads ("trigrep-search-...") so far."""
    return threads_cpu("trigrep-search")

idle = float(os.environ.get("IDLE", "0"))
c = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
for q in sys.argv[3:]:
    xs, jit, search = [], [], []
    for i in range(6):
        if idle > 0:
            time.sleep(idle)
            c.close()
            c = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
            c.connect()
        before, searched = compilers(), searchers()
        s = time.perf_counter()
        c.request("GET", "/api/v1/search?cache=false&q=" + urllib.parse.quote(q))
        r = c.getresponse()
        r.read()
        xs.append(time.perf_counter() - s)
        jit.append(compilers() - before)
        search.append(searchers() - searched)
    print("  %-24s first %7.1f ms, then %s ms; JIT compilers' CPU %.2f, then %s s; search threads' CPU %.2f, then %s s" % (
        q, xs[0] * 1000, " ".join("%.1f" % (x * 1000) for x in xs[1:]), jit[0], " ".join("%.2f" % j for j in jit[1:]),
        search[0], " ".join("%.2f" % j for j in search[1:])))
PY
}

# Restarts the first backend alone, on its port, behind the running frontend, and waits until it
# has warmed up and the frontend is ready again: a rolling restart, as an operator's update does.
restart_backend() {
  local dir="$1" port="${STACK_BACKENDS[0]##*:}" shards log started
  shards=("$index"/shard-*)   # stack_start's order: the first backend serves the first shard
  log="$dir/restarted.log"
  kill "${STACK_PIDS[0]}"
  wait "${STACK_PIDS[0]}" 2>/dev/null || true
  started=$(date +%s.%N)
  stack_start_backend "${shards[0]}" "$port" "$log"
  STACK_PIDS[0]=$STACK_BACKEND_PID
  # The frontend's /readyz may still be green from before the kill: the backend's log says first
  # when it is done warming up.
  local deadline=$((SECONDS + 120))
  until grep -q "warmed up\|serving cold" "$log"; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "restarted backend not ready after 120 s, see $log:" >&2
      tail -n 20 "$log" >&2
      return 1
    fi
    sleep 0.05
  done
  stack_wait_ready $((deadline - SECONDS)) || { echo "frontend not ready again after 120 s" >&2; return 1; }
  echo "backend $(basename "${shards[0]}") restarted alone: ready $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s after its start"
}

for warm in ${WARMUPS:-default 0}; do
  if [ "$warm" = default ]; then unset TRIGREP_WARMUP_MS; else export TRIGREP_WARMUP_MS="$warm"; fi
  if [ "${COLD:-0}" = 1 ]; then
    sync
    echo 3 > /proc/sys/vm/drop_caches || { echo "COLD=1 needs root to drop the page cache" >&2; exit 2; }
  fi
  started=$(date +%s.%N)
  stack_start "$index" "$work/stack-$warm"
  ready=$(date +%s.%N)
  echo "--warmup-ms $warm: ready $(awk -v a="$started" -v b="$ready" 'BEGIN { printf "%.1f", b - a }') s after the start"
  ask_queries
  if [ "$warm" = default ] && [ "${RESTART:-0}" = 1 ]; then
    restart_backend "$work/stack-$warm"
    ask_queries
  fi
  stack_stop
done
