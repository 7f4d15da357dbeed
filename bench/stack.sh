# Sourced by bench scripts: starts one backend per shard of an index and a frontend over them on
# loopback ports, and stops them when the calling script exits.
#
#   source bench/stack.sh
#   stack_start INDEX_DIR WORK_DIR [BACKEND_ARGS...]   sets STACK_URL, STACK_BACKENDS, STACK_PIDS
#
# Needs $root (the repository) set by the caller. Backends get BACKEND_ARGS (for instance a larger
# --max-results); the frontend keeps the cache in WORK_DIR/data, at most STACK_CACHE_BYTES of it
# (default 20 GB, so that nothing a benchmark asked for is evicted).

STACK_PIDS=()
STACK_BACKENDS=()
STACK_URL=""

stack_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

stack_stop() {
  local p
  for p in "${STACK_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${STACK_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  STACK_PIDS=()
  STACK_BACKENDS=()
}

# Waits until LOG says "listening", or fails naming the log.
stack_wait_listening() {
  local log="$1" _
  for _ in $(seq 240); do
    grep -q listening "$log" 2>/dev/null && return 0
    sleep 0.25
  done
  echo "stack: not listening after 60 s, see $log:" >&2
  tail -n 20 "$log" >&2
  return 1
}

# Starts a backend for SHARD on PORT, its output in LOG, and waits until it listens; its pid in
# STACK_BACKEND_PID.
stack_start_backend() {
  local shard="$1" port="$2" log="$3"
  shift 3
  "$root/trigrep" backend --shard "$shard" --port "$port" "$@" > "$log" 2>&1 &
  STACK_BACKEND_PID=$!
  stack_wait_listening "$log"
}

stack_start() {
  local index="$1" work="$2" shard port
  shift 2
  mkdir -p "$work"
  for shard in "$index"/shard-*; do
    port=$(stack_free_port)
    stack_start_backend "$shard" "$port" "$work/$(basename "$shard").log" "$@"
    STACK_PIDS+=("$STACK_BACKEND_PID")
    STACK_BACKENDS+=("127.0.0.1:$port")
  done
  port=$(stack_free_port)
  "$root/trigrep" frontend --backends "$(IFS=,; echo "${STACK_BACKENDS[*]}")" --data "$work/data" --port "$port" \
    --cache-bytes "${STACK_CACHE_BYTES:-20000000000}" --min-free-bytes 0 ${STACK_FRONTEND_ARGS:-} > "$work/frontend.log" 2>&1 &
  STACK_PIDS+=($!)
  stack_wait_listening "$work/frontend.log"
  STACK_URL="http://127.0.0.1:$port"
  # Backends verify their shard's checksums before they answer: on a busy machine that takes a while.
  stack_wait_ready 120 && return 0
  echo "stack: frontend not ready after 120 s, see $work/frontend.log" >&2
  return 1
}

# Waits up to SECONDS for the frontend at STACK_URL to say ready (/readyz 200), polling every
# 0.1 s (a bench times how long that took); fails when it does not.
stack_wait_ready() {
  local deadline=$((SECONDS + $1))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$STACK_URL/readyz")" = 200 ]; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}
