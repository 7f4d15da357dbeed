#!/usr/bin/env bash
# trigrep on a git repository (issue 63) against cindex/csearch and git grep, same commits, same run.
#
#   bench/git-vs-cindex.sh REPO [RUNS]
#
# REPO is a git repository with history (this project's own, by default the caller's clone). A bare
# scratch clone gets three branches made from its history: main (its HEAD), mid (150 first-parent
# commits back) and old (300 back). Then, each timed as wall seconds, process start included:
#   - full index: trigrep of main alone and of main,mid,old (read from the object database, no
#     checkout) against cindex over a checkout of main and over checkouts of all three;
#   - queries: trigrep (a warm backend on the three-branch index, branch:main, timed from request to
#     done by its client) against git grep on main's commit and csearch over the main checkout
#     (medians of RUNS, each tool's count of matching lines);
#   - re-index (medians of RUNS): one commit on main touching three files, then ./trigrep update
#     of the repository, against the full three-branch index, and the update when nothing moved;
#     wall seconds, and each command's own "time" line (the work past the JVM's start and the
#     inputs' discovery);
#   - the same re-index in a resident `./trigrep sync --git LIST --every 1` (medians of RUNS): the
#     round that applies one commit on main touching three files (and its part past the fetch), a
#     round that adds the whole repository anew (a full index in the same warm process, past the
#     fetch), and a round when nothing moved, as the process reports them (JVM start not included).
set -euo pipefail
repo="$(cd "${1:?usage: bench/git-vs-cindex.sh REPO [RUNS]}" && pwd)"
runs="${2:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
for tool in cindex csearch git python3; do
  command -v "$tool" >/dev/null || { echo "$tool missing (apt-get install codesearch git python3)" >&2; exit 2; }
done
work="$(mktemp -d)"
backend_pid=""
sync_pid=""
cleanup() {
  for pid in $backend_pid $sync_pid; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Median wall seconds of RUNS runs of a command (after one warm-up run), and its output's line count.
timed() {
  python3 - "$runs" "$@" <<'PY'
import statistics, subprocess, sys, time
runs = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
times = []
for _ in range(runs):
    t = time.monotonic(); out = subprocess.run(cmd, capture_output=True).stdout; times.append(time.monotonic() - t)
print("%.4f %d" % (statistics.median(times), out.count(b"\n")))
PY
}
once() { local t; t=$(date +%s.%N); "$@" >/dev/null 2>&1; awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
# As once, keeping the command's output in the file named first.
logged() { local log="$1" t; shift; t=$(date +%s.%N); "$@" >"$log" 2>&1; awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
own() { awk '/^time / { print $2 }' "$1"; }

git clone -q --bare --no-hardlinks "$repo" "$work/repo.git"
head="$(git --git-dir="$work/repo.git" rev-parse HEAD)"
git --git-dir="$work/repo.git" branch -f main "$head"
git --git-dir="$work/repo.git" symbolic-ref HEAD refs/heads/main
git --git-dir="$work/repo.git" branch -f mid "$(git --git-dir="$work/repo.git" rev-parse --verify -q "main~150" || echo "$head")"
git --git-dir="$work/repo.git" branch -f old "$(git --git-dir="$work/repo.git" rev-parse --verify -q "main~300" || echo "$head")"
for b in main mid old; do
  mkdir -p "$work/checkout/$b"
  git --git-dir="$work/repo.git" archive "$b" | tar -x -C "$work/checkout/$b"
done
echo "# $(git --git-dir="$work/repo.git" rev-list --count main) commits; main $(git --git-dir="$work/repo.git" ls-tree -r main | wc -l) files, $(du -sh "$work/checkout/main" | cut -f1); three checkouts $(du -sh "$work/checkout" | cut -f1)"

"$root/trigrep" index --help >/dev/null 2>&1 # builds the launcher's modules once, outside the timings
export TRIGREP_INDEX_JAVA_OPTS="${TRIGREP_INDEX_JAVA_OPTS:-}"
t1=$(once "$root/trigrep" index --shards 1 --no-symbols --out "$work/t1" --git-cache "$work/cache" "$work/repo.git@main")
t3=$(logged "$work/t3.log" "$root/trigrep" index --shards 1 --no-symbols --out "$work/t3" --git-cache "$work/cache" "$work/repo.git@main,mid,old")
c1=$(once env CSEARCHINDEX="$work/cs1" cindex "$work/checkout/main")
c3=$(once env CSEARCHINDEX="$work/cs3" cindex "$work/checkout")
printf '%-34s %8s %8s\n' "full index (wall s)" trigrep cindex
printf '%-34s %8s %8s\n' "main" "$t1" "$c1"
printf '%-34s %8s %8s\n' "main, mid, old" "$t3" "$c3"
echo "# index bytes: trigrep main $(du -sb "$work/t1" | cut -f1), three branches $(du -sb "$work/t3" | cut -f1); cindex main $(stat -c %s "$work/cs1"), three $(stat -c %s "$work/cs3")"
grep -E '^files' <("$root/trigrep" segments --index "$work/t3" 2>/dev/null) || true

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$root/trigrep" backend --shard "$work/t3/shard-0" --port "$port" > "$work/backend.log" 2>&1 &
backend_pid=$!
for _ in $(seq 600); do grep -q listening "$work/backend.log" && break; sleep 0.2; done
printf '%-28s %9s %9s %9s %7s %7s %7s\n' query trigrep git_grep csearch n_tg n_gg n_cs
for q in 'GitRefs' 'ByteBuf\s+\w+' 'IOException' '(?i)generation' 'int\s+\w+\s*=\s*0;' 'TODO|FIXME'; do
  read -r n_t t_t < <("$root/trigrep" search --backend "127.0.0.1:$port" --repeat "$runs" "branch:main $q" 2>/dev/null | tail -1) || true
  ere="${q//\\s/[[:space:]]}"; ere="${ere//\\w/[[:alnum:]_]}"; flags=(-E); [[ "$q" == "(?i)"* ]] && { ere="${ere#(?i)}"; flags=(-E -i); }
  read -r t_g n_g < <(timed git --git-dir="$work/repo.git" grep -h "${flags[@]}" -e "$ere" main)
  read -r t_c n_c < <(timed env CSEARCHINDEX="$work/cs1" csearch -n "$q")
  printf '%-28s %9s %9s %9s %7s %7s %7s\n' "$q" "$t_t" "$t_g" "$t_c" "$n_t" "$n_g" "$n_c"
done

# Re-index, medians of RUNS, wall and own seconds: the full three-branch index into a fresh
# folder; then, after a first update, per run one commit on main touching three files and the
# update of the repository, and the update when nothing moved.
median() { python3 -c 'import statistics, sys; v = [float(x) for x in sys.argv[1:] if x]; print("%.2f" % statistics.median(v) if v else "-")' "$@"; }
edited=()
edit() {
  if [ ${#edited[@]} -eq 0 ]; then # three files spread over the tree
    mapfile -t edited < <(git -C "$work/wt" ls-files | grep -E '\.(c|h|java|md|py|go|rs)$' \
      | awk '{ f[NR] = $0 } END { s = int(NR / 3); if (s < 1) s = 1; for (i = 1; i <= NR && i <= 2 * s + 1; i += s) print f[i] }')
    [ ${#edited[@]} -eq 3 ] || { echo "fewer than three source files to edit" >&2; exit 1; }
  fi
  for f in "${edited[@]}"; do echo "bench edit $1 $(date +%s%N)" >> "$work/wt/$f"; done
  git -C "$work/wt" -c user.name=bench -c user.email=bench@example.org commit -qam "bench: three files ($1)"
}
update() { logged "$1" "$root/trigrep" update --index "$work/t3" --no-symbols --git-cache "$work/cache" --add "$work/repo.git@main,mid,old"; }
full_wall=(); full_own=(); moved_wall=(); moved_own=(); same_wall=(); same_own=()
for r in $(seq "$runs"); do
  rm -rf "$work/full"
  full_wall+=("$(logged "$work/full.log" "$root/trigrep" index --shards 1 --no-symbols --out "$work/full" --git-cache "$work/cache" "$work/repo.git@main,mid,old")")
  full_own+=("$(own "$work/full.log")")
done
git --git-dir="$work/repo.git" worktree add -q "$work/wt" main
edit first
first=$(update "$work/first.log")
for r in $(seq "$runs"); do
  edit "$r"
  moved_wall+=("$(update "$work/moved.log")"); moved_own+=("$(own "$work/moved.log")")
  same_wall+=("$(update "$work/same.log")"); same_own+=("$(own "$work/same.log")")
done
fw=$(median "${full_wall[@]}"); fo=$(median "${full_own[@]}")
mw=$(median "${moved_wall[@]}"); mo=$(median "${moved_own[@]}")
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? 100 * a / b : 0) }'; }
printf '%-34s %8s %8s\n' "re-index (s, medians of $runs)" wall own
printf '%-34s %8s %8s\n' "full index, three branches" "$fw" "$fo"
printf '%-34s %8s %8s  (%s %% of the full index wall, %s %% own)\n' "update, main moved (3 files)" "$mw" "$mo" \
  "$(percent "$mw" "$fw")" "$(percent "$mo" "$fo")"
printf '%-34s %8s %8s\n' "update, nothing moved" "$(median "${same_wall[@]}")" "$(median "${same_own[@]}")"
grep -E '^moved' "$work/moved.log" || true

# The resident sync: rounds every second on the index of the last full build; each run one commit,
# then the round that replaces the repository, and the last round before the next commit.
echo "file://$work/repo.git main,mid,old name=repo" > "$work/repos.txt"
"$root/trigrep" sync --index "$work/full" --git "$work/repos.txt" --git-cache "$work/sync-cache" --no-symbols \
  --wait-for-backends 0 --every 1 > "$work/sync.log" 2>&1 &
sync_pid=$!
# Waits for the first round from byte OFFSET of the log on that printed a line starting PREFIX
# ("replace    repo", "sync: up to date"...), and prints its seconds and its seconds fetching.
round() {
  python3 - "$work/sync.log" "$1" "$2" <<'PY'
import re, sys, time
log, offset, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
deadline = time.monotonic() + 600
while time.monotonic() < deadline:
    with open(log, "rb") as f:
        f.seek(offset)
        text = f.read().decode("utf-8", "replace")
    seen = False
    for line in text.splitlines():
        seen = seen or line.startswith(prefix)
        m = re.match(r"sync: round \d+ took ([0-9.]+) s \(fetching ([0-9.]+) s\), exit code (\d+)", line)
        if m and m.group(3) != "0":
            sys.exit(text)
        if m and seen:
            print(m.group(1), m.group(2)); sys.exit(0)
        if m:
            seen = False
    time.sleep(0.05)
sys.exit("no round in 600 s")
PY
}
round 0 "replace    repo" > /dev/null
sync_moved=(); sync_fetch=(); sync_index=(); sync_same=()
for r in $(seq "$runs"); do
  read -r same _ < <(round "$(stat -c %s "$work/sync.log")" "sync: up to date")
  sync_same+=("$same")
  offset=$(stat -c %s "$work/sync.log")
  edit "sync $r"
  read -r total fetching < <(round "$offset" "replace    repo")
  sync_moved+=("$total") sync_fetch+=("$fetching") sync_index+=("$(awk -v a="$total" -v b="$fetching" 'BEGIN { printf "%.3f", a - b }')")
done
# The full index in the same warm process: the repository dropped from the list (a one-file
# repository stands in: an empty list is refused), then listed again.
git init -q --bare "$work/tiny.git"
GIT_DIR="$work/tiny.git" git -c user.name=bench -c user.email=bench@example.org commit-tree -m tiny \
  "$(printf '100644 blob %s\tt.c\n' "$(echo 'int tiny;' | GIT_DIR="$work/tiny.git" git hash-object -w --stdin)" | GIT_DIR="$work/tiny.git" git mktree)" \
  | xargs -I{} git --git-dir="$work/tiny.git" update-ref refs/heads/main {}
git --git-dir="$work/tiny.git" symbolic-ref HEAD refs/heads/main
sync_full=()
for r in $(seq "$runs"); do
  offset=$(stat -c %s "$work/sync.log")
  echo "file://$work/tiny.git main name=tiny" > "$work/repos.txt"
  round "$offset" "remove     repo" > /dev/null
  offset=$(stat -c %s "$work/sync.log")
  echo "file://$work/repo.git main,mid,old name=repo" > "$work/repos.txt"
  read -r total fetching < <(round "$offset" "add        repo")
  sync_full+=("$(awk -v a="$total" -v b="$fetching" 'BEGIN { printf "%.3f", a - b }')")
done
kill "$sync_pid"; wait "$sync_pid" 2>/dev/null || true; sync_pid=""
sm=$(median "${sync_moved[@]}") si=$(median "${sync_index[@]}") sf=$(median "${sync_full[@]}")
printf '%-34s %8s  (%s %% of the full index wall, %s %% own)\n' "sync --every, main moved (round)" "$sm" \
  "$(percent "$sm" "$fw")" "$(percent "$sm" "$fo")"
printf '%-34s %8s  (%s %% of the full index wall, %s %% own, %s %% of the warm one below)\n' "  of it past the fetch" "$si" \
  "$(percent "$si" "$fw")" "$(percent "$si" "$fo")" "$(percent "$si" "$sf")"
printf '%-34s %8s\n' "sync --every, full index (add)" "$sf"
printf '%-34s %8s\n' "sync --every, nothing moved" "$(median "${sync_same[@]}")"
echo "# resident sync rounds: main moved ${sync_moved[*]} (fetching ${sync_fetch[*]}); full ${sync_full[*]}; nothing moved ${sync_same[*]}"
echo "# runs, wall: full ${full_wall[*]}; moved ${moved_wall[*]}; nothing moved ${same_wall[*]} (first update after the build: $first s)"
