#!/usr/bin/env bash
# Java 25's ahead-of-time cache (JEP 483, 514, 515) against the plain warm-up: ready time and the
# first queries of fresh stacks (bench/ready.sh), in the same run.
#
#   bench/aot-vs-warmup.sh INDEX_DIR SELECTIVE HEAVY [RUNS]
#
# Trains one cache per role: a stack on Java 25 with -XX:AOTCacheOutput answers its warm-up and
# SELECTIVE and HEAVY a few times, then stops, which writes the caches. Then bench/ready.sh runs
# three ways, RUNS rounds each: Java 17 with the default warm-up; Java 25 with the caches and no
# warm-up; Java 25 with the caches and the default warm-up. The cache needs a class path of jars,
# so the modules' jars and their dependencies are copied into a scratch folder first.
set -euo pipefail
index="$(cd "${1:?usage: bench/aot-vs-warmup.sh INDEX_DIR SELECTIVE HEAVY [RUNS]}" && pwd)"
selective="${2:?selective query}"
heavy="${3:?heavy query}"
runs="${4:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
jdk25="${JDK25:-$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -n 1)}"
[ -x "$jdk25/bin/java" ] || { echo "no Java 25 found: set JDK25" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$root" && mvn -q -B -ntp -DskipTests package)
mkdir -p "$work/lib"
cp "$root"/{proto,indexer,re2j,simd,source-backend,frontend}/target/trigrep-*-SNAPSHOT.jar "$work/lib/"
tr ':' '\n' < "$root/frontend/target/classpath.txt" | grep '\.jar$' | xargs -I{} cp {} "$work/lib/"
classpath="$(ls "$work"/lib/*.jar | tr '\n' ':')"

# Training: each role writes its cache when it exits.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
train() {
  local pids=() backends=() shard port fport url
  for shard in "$index"/shard-*; do
    port=$(free_port)
    TRIGREP_BACKEND_JAVA_OPTS="-XX:AOTCacheOutput=$work/backend-$(basename "$shard").aot" \
      "$root/trigrep" backend --shard "$shard" --port "$port" > "$work/train-$(basename "$shard").log" 2>&1 &
    pids+=($!)
    backends+=("127.0.0.1:$port")
  done
  fport=$(free_port)
  url="http://127.0.0.1:$fport"
  TRIGREP_FRONTEND_JAVA_OPTS="-XX:AOTCacheOutput=$work/frontend.aot" \
    "$root/trigrep" frontend --backends "$(IFS=,; echo "${backends[*]}")" --data "$work/data" --port "$fport" \
    > "$work/train-frontend.log" 2>&1 &
  pids+=($!)
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz")" = 200 ]; do sleep 0.2; done
  for _ in 1 2 3; do
    curl -s -o /dev/null -G "$url/api/v1/search" --data-urlencode "q=$selective" --data-urlencode cache=false
    curl -s -o /dev/null -G "$url/api/v1/search" --data-urlencode "q=$heavy" --data-urlencode cache=false
  done
  kill "${pids[@]}"
  wait "${pids[@]}" 2>/dev/null || true
}
export TRIGREP_CLASSPATH="$classpath"
PATH="$jdk25/bin:$PATH" train
ls "$work"/*.aot > /dev/null

echo "== Java 17, warm-up (default)"
unset TRIGREP_CLASSPATH
"$root/bench/ready.sh" "$index" "$selective" "$heavy" "$runs"
export TRIGREP_CLASSPATH="$classpath"
# One backend cache per shard would need the launcher to pick it: the first shard's serves all.
aot_backend="-XX:AOTCache=$(ls "$work"/backend-*.aot | head -n 1)"
echo "== Java 25, AOT cache, no warm-up"
PATH="$jdk25/bin:$PATH" TRIGREP_BACKEND_JAVA_OPTS="$aot_backend" \
  TRIGREP_FRONTEND_JAVA_OPTS="-XX:AOTCache=$work/frontend.aot" WARMUP_MS=0 \
  "$root/bench/ready.sh" "$index" "$selective" "$heavy" "$runs"
echo "== Java 25, AOT cache, warm-up (default)"
PATH="$jdk25/bin:$PATH" TRIGREP_BACKEND_JAVA_OPTS="$aot_backend" \
  TRIGREP_FRONTEND_JAVA_OPTS="-XX:AOTCache=$work/frontend.aot" \
  "$root/bench/ready.sh" "$index" "$selective" "$heavy" "$runs"
