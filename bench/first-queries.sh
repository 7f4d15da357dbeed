#!/usr/bin/env bash
# The first queries a freshly started stack answers, once its /readyz is green, with the default
# warm-up and with --warmup-ms 0: one backend per shard of INDEX and a frontend, started afresh
# (the shard's pages stay in the page cache; the JVMs start cold). Prints how long each stack took
# to be ready and, per query, the first fresh search (cache=false) and the five after it. COLD=1
# (as root) drops the page cache before each stack starts, as after a reboot: the JVMs, the
# warm-up and the first queries then read the jars, the index and the files from the disk.
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

for warm in default 0; do
  if [ "$warm" = default ]; then unset TRIGREP_WARMUP_MS; else export TRIGREP_WARMUP_MS="$warm"; fi
  if [ "${COLD:-0}" = 1 ]; then
    sync
    echo 3 > /proc/sys/vm/drop_caches || { echo "COLD=1 needs root to drop the page cache" >&2; exit 2; }
  fi
  started=$(date +%s.%N)
  stack_start "$index" "$work/stack-$warm"
  ready=$(date +%s.%N)
  echo "--warmup-ms $warm: ready $(awk -v a="$started" -v b="$ready" 'BEGIN { printf "%.1f", b - a }') s after the start"
  python3 - "$STACK_URL" "${queries[@]}" <<'PY'
import http.client, sys, time, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
c = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
for q in sys.argv[2:]:
    xs = []
    for i in range(6):
        s = time.perf_counter()
        c.request("GET", "/api/v1/search?cache=false&q=" + urllib.parse.quote(q))
        r = c.getresponse()
        r.read()
        xs.append(time.perf_counter() - s)
    print("  %-24s first %7.1f ms, then %s ms" % (q, xs[0] * 1000, " ".join("%.1f" % (x * 1000) for x in xs[1:])))
PY
  stack_stop
done
