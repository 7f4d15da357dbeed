#!/usr/bin/env bash
# From a push to an answer over HTTP: how long a commit takes to be found, through a resident
# `./trigrep sync --git` and the web API, against what a csearch user does to find it (pull the
# checkout, run cindex again, csearch), in the same run.
#
#   bench/git-push-to-search.sh REPO [RUNS] [EVERY]
#
# REPO (this project's own clone, say) is cloned bare as the remote; its HEAD becomes branch main.
# trigrep indexes it (2 shards, --no-symbols), serves it (a backend per shard and a frontend,
# bench/stack.sh) and keeps it in step with `sync --git LIST --every EVERY` (default 1); cindex
# indexes a checkout. RUNS times (default 5): a commit adding a file with a word found nowhere
# else, made in the remote with plumbing; then the seconds until /api/v1/search finds the word
# (the sync's wait for its round included), and then the seconds of `git pull` + `cindex` +
# `csearch` over the checkout. Prints each run (with the time of the sync's round that applied the
# commit: the rest of the first column is the wait for that round to start and for the serving
# backends to switch) and the medians.
set -euo pipefail
repo="$(cd "${1:?usage: bench/git-push-to-search.sh REPO [RUNS] [EVERY]}" && pwd)"
runs="${2:-5}"
every="${3:-1}"
root="$(cd "$(dirname "$0")/.." && pwd)"
for tool in cindex csearch git curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool missing (apt-get install codesearch git curl python3)" >&2; exit 2; }
done
work="$(mktemp -d)"
sync_pid=""
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
cleanup() {
  if [ -n "$sync_pid" ]; then kill "$sync_pid" 2>/dev/null || true; wait "$sync_pid" 2>/dev/null || true; fi
  stack_stop
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q --bare --no-hardlinks "$repo" "$work/repo.git"
git --git-dir="$work/repo.git" branch -f main "$(git --git-dir="$work/repo.git" rev-parse HEAD)"
git --git-dir="$work/repo.git" symbolic-ref HEAD refs/heads/main
git clone -q "$work/repo.git" "$work/checkout"
CSEARCHINDEX="$work/csearch.idx" cindex "$work/checkout" 2>/dev/null
"$root/trigrep" index --shards 2 --no-symbols --out "$work/idx" --git-cache "$work/cache" "$work/repo.git@main" >/dev/null 2>&1
stack_start "$work/idx" "$work/stack"
echo "file://$work/repo.git main name=repo" > "$work/repos.txt"
"$root/trigrep" sync --index "$work/idx" --git "$work/repos.txt" --git-cache "$work/cache" --no-symbols \
  --every "$every" > "$work/sync.log" 2>&1 &
sync_pid=$!
for _ in $(seq 600); do grep -q "round 1 took" "$work/sync.log" && break; sleep 0.2; done

# Seconds until COMMAND (run again every 20 ms) succeeds.
until_found() {
  python3 - "$@" <<'PY'
import subprocess, sys, time
t = time.monotonic()
while subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
    if time.monotonic() - t > 600:
        sys.exit("not found in 600 s")
    time.sleep(0.02)
print("%.3f" % (time.monotonic() - t))
PY
}
found_over_http() { curl -sf "$STACK_URL/api/v1/search?per_page=1&q=$1" | grep -q "\"path\""; }
export -f found_over_http
export STACK_URL
median() { python3 -c 'import statistics, sys; print("%.3f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

# The seconds of the sync round that replaced the repository last.
applied_round() { awk '/^replace +repo/ { seen = 1 } seen && /round [0-9]+ took/ { t = $5; seen = 0 } END { print t }' "$work/sync.log"; }
printf '%-4s %16s %12s %22s\n' run "trigrep (HTTP)" "its round" "git pull+cindex+csearch"
tg=(); rd=(); cs=()
for r in $(seq "$runs"); do
  word="benchpush$(date +%s%N)"
  g="$work/repo.git"
  blob=$(printf 'int %s;\n' "$word" | git --git-dir="$g" hash-object -w --stdin)
  tree=$( (git --git-dir="$g" ls-tree main; printf '100644 blob %s\tbench_%s.c\n' "$blob" "$r") | git --git-dir="$g" mktree)
  commit=$(git --git-dir="$g" -c user.name=bench -c user.email=bench@example.org commit-tree "$tree" -p main -m "bench $r")
  git --git-dir="$g" update-ref refs/heads/main "$commit"
  t=$(until_found bash -c "found_over_http $word")
  c=$(until_found bash -c "git -C '$work/checkout' pull -q && CSEARCHINDEX='$work/csearch.idx' cindex '$work/checkout' && CSEARCHINDEX='$work/csearch.idx' csearch -l $word | grep -q bench_")
  a=$(applied_round)
  tg+=("$t"); rd+=("$a"); cs+=("$c")
  printf '%-4s %16s %12s %22s\n' "$r" "$t" "$a" "$c"
done
printf '%-4s %16s %12s %22s\n' median "$(median "${tg[@]}")" "$(median "${rd[@]}")" "$(median "${cs[@]}")"
