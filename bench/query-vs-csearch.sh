#!/usr/bin/env bash
# Query latency of trigrep against csearch (index-assisted) and rg (brute force), same files,
# same queries, same run. Prints per query the median seconds of each tool, each tool's count of
# matching lines, and the ratios trigrep/csearch and trigrep/rg.
#
#   bench/query-vs-csearch.sh CORPUS_DIR QUERIES_FILE [RUNS]
#
# CORPUS_DIR holds one folder per package. QUERIES_FILE has "class<TAB>regex" lines
# (bench/queries.txt). So that all three tools search exactly the same files, the corpus is first
# indexed by trigrep and the files it kept are hard-linked into a scratch corpus that every tool
# then uses. trigrep runs as one warm backend (1 shard); its client times each query from request
# to the done message (no JVM start-up). csearch and rg are timed by hyperfine, process start
# included, output sent to /dev/null.
set -euo pipefail
corpus="$(cd "${1:?usage: bench/query-vs-csearch.sh CORPUS_DIR QUERIES_FILE [RUNS]}" && pwd)"
queries="$(cd "$(dirname "${2:?QUERIES_FILE}")" && pwd)/$(basename "$2")"
runs="${3:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
for tool in cindex csearch rg hyperfine; do
  command -v "$tool" >/dev/null || { echo "$tool missing (apt-get install codesearch ripgrep hyperfine)" >&2; exit 2; }
done
work="$(mktemp -d)"
backend_pid=""
cleanup() { [ -n "$backend_pid" ] && kill "$backend_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export TRIGREP_JAVA_OPTS="${TRIGREP_JAVA_OPTS:--Xmx1g}"

echo "aligning file sets..." >&2
# shellcheck source=bench/aligned-corpus.sh
source "$root/bench/aligned-corpus.sh"
aligned_corpus "$corpus" "$work"

echo "indexing..." >&2
"$root/trigrep" index --shards 1 --out "$work/trigrep" "$work/corpus" > "$work/index.out" 2>/dev/null
CSEARCHINDEX="$work/csearchindex" cindex "$work/corpus" 2>/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$root/trigrep" backend --shard "$work/trigrep/shard-0" --port "$port" --verify startup > "$work/backend.log" 2>&1 &
backend_pid=$!
for _ in $(seq 100); do grep -q listening "$work/backend.log" && break; sleep 0.1; done

printf '%-9s %-34s %9s %9s %9s %9s %9s %9s %8s %8s\n' class query trigrep csearch rg n_trigrep n_csearch n_rg tg/cs tg/rg
while IFS=$'\t' read -r class query; do
  case "$class" in ''|'#'*) continue ;; esac
  read -r n_t t_t < <("$root/trigrep" search --backend "127.0.0.1:$port" --repeat "$runs" "$query" 2>/dev/null)
  competitors "$query" "$runs" "$work"
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
  flag=""; [ "$n_t" = "$n_c" ] && [ "$n_t" = "$n_r" ] || flag="  counts differ"
  printf '%-9s %-34s %9s %9s %9s %9s %9s %9s %8s %8s%s\n' "$class" "$query" "$t_t" "$t_c" "$t_r" "$n_t" "$n_c" "$n_r" \
    "$(ratio "$t_t" "$t_c")" "$(ratio "$t_t" "$t_r")" "$flag"
done < "$queries"
grep -E '^files|^index' "$work/index.out" | sed 's/^/# trigrep /'
