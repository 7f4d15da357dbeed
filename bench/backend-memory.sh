#!/usr/bin/env bash
# What a backend needs in memory per GB of index: indexes CORPUS into SHARDS shards, starts one
# backend per shard (with its metrics port), runs every query of bench/queries.txt through each
# twice, and prints per backend the shard's size on disk, the JVM heap in use after a full GC,
# the heap in use before that GC, and the resident set split into anonymous memory (heap, stacks, buffers) and
# file pages (the mmap'd shard, which the kernel may drop and re-read).
#
#   bench/backend-memory.sh CORPUS [SHARDS]
set -euo pipefail
corpus="$1"
shards="${2:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$root/trigrep" index --shards "$shards" --out "$work/shards" "$corpus" >/dev/null 2>&1
for ((i = 0; i < shards; i++)); do
  "$root/trigrep" backend --shard "$work/shards/shard-$i" --port 0 --http-port 0 --verify startup >"$work/backend-$i.log" 2>&1 &
  pids+=($!)
done
backends=()
for ((i = 0; i < shards; i++)); do
  until grep -q 'listening on' "$work/backend-$i.log"; do sleep 0.2; done
  backends+=("$(sed -E 's/.*listening on ([^ ]+).*/\1/' "$work/backend-$i.log")")
done
for round in 1 2; do
  grep -v '^#' "$root/bench/queries.txt" | cut -f2 | while read -r query; do
    for b in "${backends[@]}"; do
      "$root/trigrep" search --backend "$b" --count "$query" >>"$work/counts.txt" 2>&1 || echo "failed: $b $query" >&2
    done
  done
done
echo "$(wc -l <"$work/counts.txt") searches run"
printf '%-8s %12s %14s %12s %12s %12s\n' shard "shard MiB" "heap live MiB" "heap now MiB" "RSS anon MiB" "RSS file MiB"
for ((i = 0; i < shards; i++)); do
  pid="${pids[$i]}"
  jpid="$pid"
  peak="$(jstat -gc "$jpid" | awk 'NR==2 {printf "%.0f", ($3+$4+$6+$8)/1024}')"
  jcmd "$jpid" GC.run >/dev/null
  live="$(jstat -gc "$jpid" | awk 'NR==2 {printf "%.0f", ($3+$4+$6+$8)/1024}')"
  anon="$(awk '/RssAnon/ {printf "%.0f", $2/1024}' "/proc/$jpid/status")"
  file="$(awk '/RssFile/ {printf "%.0f", $2/1024}' "/proc/$jpid/status")"
  size="$(du -sm "$work/shards/shard-$i" | cut -f1)"
  printf '%-8s %12s %14s %12s %12s %12s\n' "shard-$i" "$size" "$live" "$peak" "$anon" "$file"
done
