#!/usr/bin/env bash
# Before and after a change, as a user of the JSON API feels it: two stacks on the same index, one
# run from each checkout, asked the same queries in turn (A, B, B, A, ... so that drift and caches
# fall on both alike). Prints per query the median seconds of each, B/A and whether both counted
# the same results; the last line is the median of the ratios. Build both checkouts first
# (`mvn -q -o package -DskipTests` in each).
#
#   bench/ab-http.sh CHECKOUT_A CHECKOUT_B INDEX_DIR QUERIES_FILE... [-- RUNS]
#
# QUERIES_FILE has "class<TAB>query" lines (bench/queries.txt, bench/queries-symbols.txt). RUNS
# (rounds) defaults to 7. Warm: one untimed run of each first; the caches are off (cache=false).
set -euo pipefail
usage="usage: bench/ab-http.sh CHECKOUT_A CHECKOUT_B INDEX_DIR QUERIES_FILE... [-- RUNS]"
a="$(cd "${1:?$usage}" && pwd)"
b="$(cd "${2:?$usage}" && pwd)"
index="$(cd "${3:?$usage}" && pwd)"
shift 3
files=()
runs=7
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then runs="${2:?$usage}"; break; fi
  files+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")")
  shift
done
[ ${#files[@]} -gt 0 ] || { echo "$usage" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
source "$here/stack.sh"
trap 'stack_stop; rm -rf "$work"' EXIT

export TRIGREP_SKIP_BUILD=1
root="$a" stack_start "$index" "$work/a"
url_a="$STACK_URL"
STACK_BACKENDS=()
root="$b" stack_start "$index" "$work/b"
url_b="$STACK_URL"

grep -hv '^#' "${files[@]}" | cut -f2 | grep -v '^$' | python3 -c '
import statistics, sys
sys.path.insert(0, sys.argv[1])
from http_timer import Search
url_a, url_b, runs = sys.argv[2], sys.argv[3], int(sys.argv[4])
ratios = []
print("%-40s %9s %9s %6s %s" % ("query", "A s", "B s", "B/A", "same count"))
for query in (line.rstrip("\n") for line in sys.stdin):
    sa, sb = Search(url_a, query), Search(url_b, query)
    sa.once(); sb.once()
    ta, tb = [], []
    for r in range(runs):
        first, second = ((sa, ta), (sb, tb)) if r % 2 == 0 else ((sb, tb), (sa, ta))
        first[1].append(first[0].once())
        second[1].append(second[0].once())
    ma, mb = statistics.median(ta), statistics.median(tb)
    ratios.append(mb / ma)
    print("%-40s %9.4f %9.4f %6.2f %s" % (query[:40], ma, mb, mb / ma, "yes" if sa.total == sb.total else "NO %d %d" % (sa.total, sb.total)))
print("median B/A over %d queries: %.3f" % (len(ratios), statistics.median(ratios)))
' "$here" "$url_a" "$url_b" "$runs"
