#!/usr/bin/env bash
# A resident git sync over remotes a network away, one fetch at a time against several at once.
#
#   bench/git-sync-remote.sh REPO [COUNT] [DELAY_MS] [JOBS]
#
# REPO (this project's own clone, say) is cloned bare COUNT times (default 30) as remotes r1..rN,
# served by `git daemon` on loopback behind a proxy that holds every chunk DELAY_MS (default 25)
# in each direction: remotes about 2 x DELAY_MS away, as a code host is. For --git-jobs 1 and then
# JOBS (default 4), alternated twice: a fresh index, a resident `./trigrep sync --every 1` whose
# first round clones every remote, then rounds with nothing moved; then a commit pushed to each
# remote, and a new sync's first round, which fetches and re-indexes all of them. Prints each
# round's seconds as the sync reports them.
set -euo pipefail
repo="$(cd "${1:?usage: bench/git-sync-remote.sh REPO [COUNT] [DELAY_MS] [JOBS]}" && pwd)"
count="${2:-30}"
delay_ms="${3:-25}"
jobs="${4:-4}"
root="$(cd "$(dirname "$0")/.." && pwd)"
for tool in git python3; do
  command -v "$tool" >/dev/null || { echo "$tool missing" >&2; exit 2; }
done
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

mkdir -p "$work/remotes"
for r in $(seq "$count"); do
  git clone -q --bare --no-hardlinks "$repo" "$work/remotes/r$r.git"
done
daemon=$(free_port)
git daemon --export-all --reuseaddr --base-path="$work/remotes" --port="$daemon" --listen=127.0.0.1 2>/dev/null &
pids+=($!)
proxy=$(free_port)
python3 - "$proxy" "$daemon" "$delay_ms" <<'PY' &
import asyncio, sys
listen, target, delay = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) / 1000
async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            await asyncio.sleep(delay)
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()
async def handle(client_reader, client_writer):
    server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target)
    await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
async def main():
    async with await asyncio.start_server(handle, "127.0.0.1", listen) as server:
        await server.serve_forever()
asyncio.run(main())
PY
pids+=($!)
for _ in $(seq 100); do git ls-remote "git://127.0.0.1:$proxy/r1.git" >/dev/null 2>&1 && break; sleep 0.1; done
for r in $(seq "$count"); do echo "git://127.0.0.1:$proxy/r$r.git"; done > "$work/list.txt"
"$root/trigrep" index --help >/dev/null 2>&1 # builds the launcher's modules once, outside the timings

# Runs a resident sync with --git-jobs $1 until round $2 is reported; the log in $3.
rounds() {
  "$root/trigrep" sync --index "$work/idx" --git "$work/list.txt" --git-cache "$work/cache" --no-symbols \
    --wait-for-backends 0 --git-jobs "$1" --every 1 > "$3" 2>&1 &
  local pid=$!
  for _ in $(seq 3000); do grep -q "round $2 took" "$3" 2>/dev/null && break; sleep 0.2; done
  kill "$pid"; wait "$pid" 2>/dev/null || true
}
took() { grep -oE "round $1 took [0-9.]+" "$2" | awk '{ print $4 }' | tr '\n' ' '; }
printf '%-6s %12s %22s %12s\n' jobs "clone all" "nothing moved (3)" "all moved"
for j in 1 "$jobs" 1 "$jobs"; do
  rm -rf "$work/idx" "$work/cache" "$work/first"
  mkdir -p "$work/first/tiny_1.0" && echo 'int tiny;' > "$work/first/tiny_1.0/t.c"
  "$root/trigrep" index --shards 2 --no-symbols --out "$work/idx" "$work/first" >/dev/null 2>&1
  rounds "$j" 4 "$work/a.log"
  for r in $(seq "$count"); do # a commit on each remote's HEAD branch, made with plumbing
    g="$work/remotes/r$r.git"
    head=$(git --git-dir="$g" rev-parse HEAD)
    blob=$(echo "bench $r $(date +%s%N)" | git --git-dir="$g" hash-object -w --stdin)
    tree=$( (git --git-dir="$g" ls-tree HEAD | grep -v $'\tBENCH_EDIT$'; printf '100644 blob %s\tBENCH_EDIT\n' "$blob") | git --git-dir="$g" mktree)
    commit=$(git --git-dir="$g" -c user.name=bench -c user.email=bench@example.org commit-tree "$tree" -p "$head" -m bench)
    git --git-dir="$g" update-ref HEAD "$commit"
  done
  rounds "$j" 1 "$work/b.log"
  printf '%-6s %12s %22s %12s\n' "$j" "$(took 1 "$work/a.log")" "$(took '[234]' "$work/a.log")" "$(took 1 "$work/b.log")"
done
