#!/usr/bin/env bash
# Issue 15's probes, as a hostile user and an operator would run them, against a real stack
# (2 backends and a frontend on loopback over INDEX_DIR, built beforehand with ./trigrep index
# --shards 2). Prints one line per probe: what was done, what came back, and the figure.
#
#   bench/abuse.sh INDEX_DIR [SELECTIVE_QUERY]
#
# SELECTIVE_QUERY (default XCreateWindow) is a query with a few results, timed while the abuse
# runs. Needs curl and python3; the full-disk probe needs root (it mounts a 4 MiB tmpfs) and is
# left out otherwise; the TLS probe needs openssl.
set -euo pipefail
index="$(cd "${1:?usage: bench/abuse.sh INDEX_DIR [SELECTIVE_QUERY]}" && pwd)"
selective="${2:-XCreateWindow}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
mounted=""
source "$root/bench/stack.sh"
cleanup() {
  stack_stop
  [ -n "$mounted" ] && umount -l "$mounted" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 65536 2>/dev/null || true  # 2,200 client sockets in one process, and the frontend's cap below its limit

row() { printf '%-44s %-58s %s\n' "$1" "$2" "$3"; }
status() { curl -s -o "$work/body" -w '%{http_code}' "$@"; }
now() { date +%s.%N; }
ms() { python3 -c 'import sys; print("%.1f" % ((float(sys.argv[2]) - float(sys.argv[1])) * 1000))' "$1" "$2"; }
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
metric() { curl -s "$STACK_URL/metrics" | awk -v m="$1" 'index($0, m) == 1 { s += $NF } END { printf "%d", s }'; }

echo "starting the stack on $index..." >&2
stack_start "$index" "$work/stack" --verify startup
frontend_pid="${STACK_PIDS[${#STACK_PIDS[@]}-1]}"
row probe outcome figure
row "-----" "-------" "------"

# 1. Empty-match and full-scan flood: 40 clients (addresses 127.0.0.10-49) loop on x?, () and .
#    for 10 s while a cached selective query is timed from another address.
curl -s -o /dev/null "$STACK_URL/api/v1/search?q=$(enc "$selective")"
code=$(status "$STACK_URL/api/v1/search?q=$(enc 'x?')")
row "x? (matches the empty string)" "HTTP $code: $(head -c 90 "$work/body" | tr '\n' ' ')" ""
python3 - "$STACK_URL" "$selective" > "$work/flood.txt" <<'EOF'
import http.client, sys, threading, time, urllib.parse
url, selective = sys.argv[1], sys.argv[2]
host, port = url.split("//")[1].split(":")
codes, stop = {}, time.time() + 10
lock = threading.Lock()
def flood(i):
    q = ["x?", "()", "."][i % 3]
    while time.time() < stop:
        try:
            c = http.client.HTTPConnection(host, int(port), timeout=40, source_address=("127.0.0.%d" % (10 + i), 0))
            c.request("GET", "/api/v1/search?q=" + urllib.parse.quote(q, safe="") + "&cache=false")
            r = c.getresponse(); r.read(); c.close()
            with lock: codes[r.status] = codes.get(r.status, 0) + 1
        except Exception as e:
            with lock: codes[type(e).__name__] = codes.get(type(e).__name__, 0) + 1
threads = [threading.Thread(target=flood, args=(i,)) for i in range(40)]
for t in threads: t.start()
time.sleep(1)
times, mine = [], {}
while time.time() < stop:
    c = http.client.HTTPConnection(host, int(port), timeout=40, source_address=("127.0.0.2", 0))
    t0 = time.time()
    c.request("GET", "/api/v1/search?q=" + urllib.parse.quote(selective, safe=""))
    r = c.getresponse(); r.read(); c.close()
    times.append(time.time() - t0); mine[r.status] = mine.get(r.status, 0) + 1
    time.sleep(0.1)
for t in threads: t.join()
times.sort()
print("flood %s" % " ".join("%s:%d" % kv for kv in sorted(codes.items(), key=str)))
print("cached %s p50 %.1f ms max %.1f ms" % (" ".join("%s:%d" % kv for kv in sorted(mine.items())), 1000 * times[len(times) // 2], 1000 * times[-1]))
EOF
row "40 clients flood x?, (), . for 10 s" "$(sed -n 1p "$work/flood.txt")" ""
row "  a cached selective query meanwhile" "$(sed -n 2p "$work/flood.txt" | cut -d' ' -f1-2)" "$(sed -n 2p "$work/flood.txt" | cut -d' ' -f3-)"
row "  429s by reason" "$(curl -s "$STACK_URL/metrics" | grep -E '^trigrep_http_rejected_total' | sed 's/trigrep_http_rejected_total//' | tr '\n' ' ')" ""

# 2. q=. capped: says so, and the same deep page twice.
t0=$(now)
code=$(status "$STACK_URL/api/v1/search?q=.&cache=false&page=40")
t1=$(now)
cp "$work/body" "$work/page-a.json"
sed 's/"elapsed_seconds":[0-9.eE+-]*//' "$work/body" > "$work/page-a"
status "$STACK_URL/api/v1/search?q=.&cache=false&page=40" > /dev/null
sed -i 's/"elapsed_seconds":[0-9.eE+-]*//' "$work/body"
capped=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(d.get("capped")), d.get("total_results"))' "$work/page-a.json" 2>/dev/null || echo "?")
same=$(cmp -s "$work/page-a" "$work/body" && echo "identical" || echo "DIFFERENT")
row "q=. (every line), page 40, twice" "HTTP $code capped=$capped; pages (elapsed_seconds aside) $same" "$(ms "$t0" "$t1") ms"

# 3. Connections: 2,000 idle and 200 slowloris; /healthz meanwhile; how many the server closed.
python3 - "$STACK_URL" > "$work/conns.txt" <<'EOF'
import socket, sys, time, http.client
url = sys.argv[1]; host, port = url.split("//")[1].split(":"); port = int(port)
idle, slow = [], []
for i in range(2000):
    s = socket.socket(); s.settimeout(5)
    try: s.connect((host, port)); idle.append(s)
    except OSError: break
for i in range(200):
    s = socket.socket(); s.settimeout(5)
    try: s.connect((host, port)); s.send(b"GET /api/v1/search?q=a HTTP/1.1\r\nHost: x\r\n"); slow.append(s)
    except OSError: break
times, codes = [], {}
t_end = time.time() + 14
while time.time() < t_end:
    for s in slow:
        try: s.send(b"X-a: b\r\n")
        except OSError: pass
    c = http.client.HTTPConnection(host, port, timeout=10); t0 = time.time()
    try:
        c.request("GET", "/healthz"); r = c.getresponse(); r.read(); codes[r.status] = codes.get(r.status, 0) + 1
    except Exception as e: codes[type(e).__name__] = codes.get(type(e).__name__, 0) + 1
    times.append(time.time() - t0); c.close(); time.sleep(0.5)
def closed(socks):
    n = 0
    for s in socks:
        s.setblocking(False)
        try:
            while True:  # a 408 may come first, then the end
                if not s.recv(65536):
                    n += 1
                    break
        except BlockingIOError: pass
        except OSError: n += 1
    return n
times.sort()
print("opened %d idle, %d slowloris" % (len(idle), len(slow)))
print("healthz %s p50 %.1f ms max %.1f ms" % (" ".join("%s:%d" % kv for kv in codes.items()), 1000 * times[len(times) // 2], 1000 * times[-1]))
print("closed after 14 s: %d of %d slowloris, %d of %d idle" % (closed(slow), len(slow), closed(idle), len(idle)))
EOF
row "2,000 idle + 200 slowloris connections" "$(sed -n 1p "$work/conns.txt")" ""
row "  /healthz meanwhile" "$(sed -n 2p "$work/conns.txt" | cut -d' ' -f1-2)" "$(sed -n 2p "$work/conns.txt" | cut -d' ' -f3-)"
row "  slowloris closed by the request timeout" "$(sed -n 3p "$work/conns.txt")" ""

# 4. HTTP details: 414, 431, pipelining, syntax error, invalid UTF-8, no server paths.
long=$(python3 -c 'print("a" * 100000)')
row "100 KB URL" "HTTP $(status "$STACK_URL/api/v1/search?q=$long")" ""
row "100 KB header" "HTTP $(status -H "X-Big: $long" "$STACK_URL/healthz")" ""
code=$(status "$STACK_URL/api/v1/search?q=$(enc 'foo)')")
row "q=foo)" "HTTP $code: $(head -c 70 "$work/body")" ""
code=$(status "$STACK_URL/api/v1/search?q=%c0%af")
row "q=%c0%af (invalid UTF-8)" "HTTP $code: $(head -c 70 "$work/body")" ""
pipelined=$(python3 - "$STACK_URL" <<'EOF'
import socket, sys
host, port = sys.argv[1].split("//")[1].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"GET /api/v1/search?q=zzzqqqxxx HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
data = b""
while True:
    b = s.recv(65536)
    if not b: break
    data += b
parts = data.split(b"HTTP/1.1 ")[1:]
print("%d answers, first %s, second %s" % (len(parts), b"json" in parts[0][:400] and "search" or "?", parts[-1][:3].decode()))
EOF
)
row "two pipelined requests, second closes" "$pipelined" ""
paths=0
for q in 'foo)' 'x?' '%c0%af'; do
  status "$STACK_URL/api/v1/search?q=$q" > /dev/null
  grep -q -e "$index" -e "$work" "$work/body" && paths=$((paths + 1))
done
status "$STACK_URL/api/v1/file?package=nope&path=../../etc/passwd" > /dev/null
grep -q -e "$index" -e "$work" "$work/body" && paths=$((paths + 1))
row "error bodies naming a server path" "$paths of 4" ""
before=$(wc -l < "$work/stack/frontend.log")
python3 - "$STACK_URL" <<'EOF'
import socket, struct, sys, time
host, port = sys.argv[1].split("//")[1].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"GET /api/v1/search?q=return&cache=false HTTP/1.1\r\nHost: x\r\n\r\n")
time.sleep(0.2)
s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
s.close()
EOF
sleep 2
row "a client reset mid-answer" "$(($(wc -l < "$work/stack/frontend.log") - before)) log lines" ""

# 5. Partial answer, then the backend comes back: the next answer is complete.
full=$(curl -s "$STACK_URL/api/v1/search?q=return&cache=false" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("total_results"), d.get("partial"))')
backend_pid="${STACK_PIDS[1]}"
backend_addr="${STACK_BACKENDS[1]}"
kill "$backend_pid"; wait "$backend_pid" 2>/dev/null || true
partial=$(curl -s "$STACK_URL/api/v1/search?q=return&cache=false" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("total_results"), d.get("partial"))')
"$root/trigrep" backend --shard "$index/shard-1" --port "${backend_addr##*:}" > "$work/stack/shard-1-again.log" 2>&1 &
STACK_PIDS[1]=$!
stack_wait_listening "$work/stack/shard-1-again.log"
for _ in $(seq 240); do [ "$(curl -s -o /dev/null -w '%{http_code}' "$STACK_URL/readyz")" = 200 ] && break; sleep 0.25; done
sleep 11  # a partial answer is served for 10 s after it ended (frontend/API.md), then searched again
again=$(curl -s "$STACK_URL/api/v1/search?q=return" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("total_results"), d.get("partial"))')
row "return: complete / backend down / back" "total,partial: $full / $partial / $again" ""

# 6. A flipped byte in each shard file: the backend refuses it and names the file. On a small
#    shard of the repository's own test corpus, so that copying it for every file is quick.
"$root/trigrep" index --shards 1 --out "$work/small-index" "$root/source-backend/src/test/resources/corpus" > /dev/null 2>&1
mkdir -p "$work/flip"
for file in "$work/small-index"/shard-0/*; do
  name=$(basename "$file")
  [ -f "$file" ] || continue
  rm -rf "$work/flip/shard-0"; cp -r "$work/small-index/shard-0" "$work/flip/shard-0"
  size=$(stat -c %s "$work/flip/shard-0/$name")
  python3 -c 'import sys; p, at = sys.argv[1], int(sys.argv[2]); f = open(p, "r+b"); f.seek(at); b = f.read(1); f.seek(at); f.write(bytes([b[0] ^ 1])); f.close()' \
    "$work/flip/shard-0/$name" $((size / 2))
  port=$(stack_free_port)
  timeout 120 "$root/trigrep" backend --shard "$work/flip/shard-0" --port "$port" --verify startup > "$work/flip.log" 2>&1 &
  pid=$!
  verdict="served"
  for _ in $(seq 480); do
    if ! kill -0 "$pid" 2>/dev/null; then verdict="refused: $(grep -m1 -o "[^ ]*$name[^.]*" "$work/flip.log" | head -c 60)"; break; fi
    grep -q listening "$work/flip.log" && { verdict="served (listening)"; break; }
    sleep 0.25
  done
  kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  row "one flipped byte in $name" "$verdict" ""
done

# 7. A full disk under the frontend's data: 503 naming the frontend, no backend blamed, back after.
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$work/small"
  mount -t tmpfs -o size=4m tmpfs "$work/small" && mounted="$work/small"
  port=$(stack_free_port)
  "$root/trigrep" frontend --backends "$(IFS=,; echo "${STACK_BACKENDS[*]}")" --data "$work/small" --port "$port" \
    --min-free-bytes 0 > "$work/small-frontend.log" 2>&1 &
  small_pid=$!
  stack_wait_listening "$work/small-frontend.log"
  small_url="http://127.0.0.1:$port"
  for _ in $(seq 240); do [ "$(curl -s -o /dev/null -w '%{http_code}' "$small_url/readyz")" = 200 ] && break; sleep 0.25; done
  code=$(status "$small_url/api/v1/search?q=return&cache=false")
  blamed=$(curl -s "$small_url/metrics" | awk '/^trigrep_backend_failures_total/ { s += $NF } END { printf "%d", s }')
  disk=$(curl -s "$small_url/metrics" | awk '/^trigrep_frontend_disk_errors_total/ { s += $NF } END { printf "%d", s }')
  row "tee onto a full 4 MiB disk" "HTTP $code: $(head -c 60 "$work/body")" "backends blamed $blamed, disk errors $disk"
  mount -o remount,size=2g "$work/small"
  row "  same query once space is back" "HTTP $(status "$small_url/api/v1/search?q=return&cache=false")" ""
  kill "$small_pid"; wait "$small_pid" 2>/dev/null || true
else
  row "tee onto a full disk" "left out: mounting a tmpfs needs root" ""
fi

# 8. Mutual TLS: a client with another CA's certificate is refused.
if command -v openssl > /dev/null && [ -f "$root/deploy/make-certs.sh" ]; then
  bash "$root/deploy/make-certs.sh" "$work/tls-a" > /dev/null 2>&1
  bash "$root/deploy/make-certs.sh" "$work/tls-b" > /dev/null 2>&1
  port=$(stack_free_port)
  "$root/trigrep" backend --shard "$index/shard-0" --port "$port" --tls-cert "$work/tls-a/backend.crt" \
    --tls-key "$work/tls-a/backend.key" --tls-ca "$work/tls-a/ca.crt" > "$work/tls-backend.log" 2>&1 &
  tls_pid=$!
  stack_wait_listening "$work/tls-backend.log"
  good=$("$root/trigrep" search --backend "127.0.0.1:$port" --count --tls-cert "$work/tls-a/frontend.crt" \
    --tls-key "$work/tls-a/frontend.key" --tls-ca "$work/tls-a/ca.crt" "$selective" 2>&1 | tail -1 || true)
  bad=$("$root/trigrep" search --backend "127.0.0.1:$port" --count --tls-cert "$work/tls-b/frontend.crt" \
    --tls-key "$work/tls-b/frontend.key" --tls-ca "$work/tls-a/ca.crt" "$selective" 2>&1 | tail -1 | head -c 70 || true)
  plain=$("$root/trigrep" search --backend "127.0.0.1:$port" --count "$selective" 2>&1 | tail -1 | head -c 70 || true)
  row "mTLS: right certificate" "$good results" ""
  row "mTLS: another CA's certificate" "$bad" ""
  row "mTLS: plaintext client" "$plain" ""
  kill "$tls_pid"; wait "$tls_pid" 2>/dev/null || true
fi
row "frontend RSS (VmHWM)" "$(awk '/VmHWM/ { print $2, $3 }' "/proc/$frontend_pid/status")" ""
