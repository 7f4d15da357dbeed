#!/usr/bin/env bash
# Re-indexing a large git repository after one small commit (issue 63), against its full index.
#
#   bench/git-update-large.sh TREE [RUNS] [INDEX_ARGS...]
#
# TREE is a source tree (for instance the Linux kernel of Debian's linux-source-6.1). It becomes
# one commit of a new bare repository on branch main, packed as a fetched clone would be. Then,
# each timed as wall seconds with the process start, and the command's own `time` line:
#   - the full index of main (2 shards; INDEX_ARGS, for instance --no-symbols, go to index and
#     update alike);
#   - RUNS times (default 3): a commit touching three files (made with plumbing, no checkout),
#     then `./trigrep update --add REPO@main`, which re-reads only the paths that changed.
# Prints each run and the medians' share of the full index.
set -euo pipefail
tree="$(cd "${1:?usage: bench/git-update-large.sh TREE [RUNS] [INDEX_ARGS...]}" && pwd)"
runs="${2:-3}"
shift $(( $# < 2 ? $# : 2 ))
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GIT_DIR="$work/repo.git"
git init -q --bare "$GIT_DIR"
git symbolic-ref HEAD refs/heads/main
GIT_WORK_TREE="$tree" GIT_INDEX_FILE="$work/index" git -c core.bare=false add -A -f .
GIT_WORK_TREE="$tree" GIT_INDEX_FILE="$work/index" git -c core.bare=false -c user.name=bench \
  -c user.email=bench@localhost commit -q -m base
git repack -a -d -q
paths=($(git ls-tree -r --name-only main | grep -E '\.(c|h|py|go|java|rs)$' | awk 'NR % 997 == 1' | head -n 3))
echo "# $(git ls-tree -r main | wc -l) files; each commit touches ${paths[*]}"

timed() { # LOG COMMAND...: wall seconds, and the command's own time line
  local log="$1" s
  shift
  s=$(date +%s.%N)
  "$@" > "$log" 2>&1
  awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'
  printf ' %s\n' "$(awk '/^time/ { print $2 }' "$log")"
}
move() {
  local n p sha
  n=$(date +%s%N)
  GIT_INDEX_FILE="$work/index.move" git read-tree main
  for p in "${paths[@]}"; do
    sha=$({ git cat-file blob "main:$p"; echo "/* edit $n */"; } | git hash-object -w --stdin)
    GIT_INDEX_FILE="$work/index.move" git update-index --cacheinfo "100644,$sha,$p"
  done
  git update-ref refs/heads/main "$(git -c user.name=bench -c user.email=bench@localhost commit-tree \
    "$(GIT_INDEX_FILE="$work/index.move" git write-tree)" -p main -m "edit $n")"
}

"$root/trigrep" index --help > /dev/null 2>&1 # builds the launcher's modules outside the timings
read -r full_wall full_own < <(timed "$work/full.log" "$root/trigrep" index --shards 2 --out "$work/idx" "$@" "$GIT_DIR@main")
echo "full index: $full_wall s wall, $full_own s own"
walls=() owns=()
for i in $(seq "$runs"); do
  move
  read -r w o < <(timed "$work/update.log" "$root/trigrep" update --index "$work/idx" "$@" --add "$GIT_DIR@main")
  grep -q '3 changed paths re-read' "$work/update.log" || { cat "$work/update.log" >&2; exit 1; }
  echo "update $i: $w s wall, $o s own"
  walls+=("$w") owns+=("$o")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mw=$(median "${walls[@]}") mo=$(median "${owns[@]}")
awk -v w="$mw" -v o="$mo" -v fw="$full_wall" -v fo="$full_own" \
  'BEGIN { printf "update median: %.2f s wall (%.1f %% of the full index), %.2f s own (%.1f %%)\n", w, 100 * w / fw, o, 100 * o / fo }'
