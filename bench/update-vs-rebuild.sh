#!/usr/bin/env bash
# What an update costs against a full rebuild, on one corpus, in the same run (issue 16):
#
#   bench/update-vs-rebuild.sh CORPUS_DIR [RUNS] [SHARDS] [UPDATES]
#
# 1. `./trigrep index` of CORPUS_DIR (one folder per package), RUNS times: the median wall time.
# 2. Replacing one mid-sized package (the package of median size, given a new version: a hard-linked
#    copy named NAME_VERSION+bench1) with `./trigrep update --no-merge`, RUNS times on a fresh copy
#    of the index: the median, and its ratio to the rebuild (goal: under 5 %). The same with the
#    tiered merge update runs by default.
# 3. UPDATES (default 100) random updates in a row (replace a random package with a new version,
#    1 in 5 a removal of a random package, 1 in 5 the re-adding of a removed one), each with the
#    default tiered merge: segments per shard and the index's bytes on disk every 10 updates, then
#    after `./trigrep merge`, then after `./trigrep merge --rebalance` (with each shard's bytes).
#    Timings are wall clock, JVM start included, page cache warm.
# SYMBOLS=0 adds --no-symbols everywhere (the default extracts definitions when ctags is present).
set -euo pipefail
corpus="${1:?usage: bench/update-vs-rebuild.sh CORPUS_DIR [RUNS] [SHARDS] [UPDATES]}"
runs="${2:-3}"
shards="${3:-2}"
updates="${4:-100}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export TRIGREP_JAVA_OPTS="${TRIGREP_JAVA_OPTS:--Xmx512m}"
symbols=()
[ "${SYMBOLS:-1}" = 0 ] && symbols=(--no-symbols)
"$root/trigrep" index --help >/dev/null 2>&1   # build once, outside the timings

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
seconds() { local s; s=$(date +%s.%N); "$@" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }; echo "$(date +%s.%N) - $s" | bc; }

# The packages by size; the median one is replaced.
mapfile -t packages < <(du -sb "$corpus"/*/ | sort -n | awk '{print $2}')
mid="${packages[$(( ${#packages[@]} / 2 ))]%/}"
mid_name="$(basename "$mid")"
mkdir -p "$work/new"
cp -al "$mid" "$work/new/${mid_name}+bench1"
echo "corpus $corpus: ${#packages[@]} packages, $(du -sb "$corpus" | cut -f1) bytes; replaced: $mid_name ($(du -sb "$mid" | cut -f1) bytes)"

for i in $(seq "$runs"); do
  rm -rf "$work/index"
  sync
  seconds "$root/trigrep" index --shards "$shards" --out "$work/index" "${symbols[@]}" "$corpus" >>"$work/rebuild"
done
for i in $(seq "$runs"); do
  rm -rf "$work/copy"; cp -a "$work/index" "$work/copy"; sync
  seconds "$root/trigrep" update --index "$work/copy" --no-merge "${symbols[@]}" --add "$work/new" >>"$work/update"
  grep -q "replaced   1" "$work/out" || { echo "the update did not replace $mid_name:" >&2; cat "$work/out" >&2; exit 1; }
  rm -rf "$work/copy"; cp -a "$work/index" "$work/copy"; sync
  seconds "$root/trigrep" update --index "$work/copy" "${symbols[@]}" --add "$work/new" >>"$work/update-merge"
done
rebuild=$(median <"$work/rebuild")
update=$(median <"$work/update")
update_merge=$(median <"$work/update-merge")
printf '%-42s %10s %10s\n' "" "median s" "of rebuild"
printf '%-42s %10.2f %10s\n' "full rebuild (index)" "$rebuild" "100 %"
printf '%-42s %10.2f %9.1f %%\n' "replace one package, --no-merge" "$update" "$(echo "100 * $update / $rebuild" | bc -l)"
printf '%-42s %10.2f %9.1f %%\n' "replace one package, tiered merge" "$update_merge" "$(echo "100 * $update_merge / $rebuild" | bc -l)"

[ "$updates" -gt 0 ] || exit 0
echo
echo "$updates random updates (tiered merge after each), from the fresh index:"
rm -rf "$work/copy"; cp -a "$work/index" "$work/copy"
removed=()
RANDOM=42
printf '%8s %10s %14s %12s\n' "updates" "segments" "bytes on disk" "update s"
for u in $(seq "$updates"); do
  roll=$((RANDOM % 5))
  if [ "$roll" = 0 ] && [ "${#packages[@]}" -gt 2 ]; then
    victim="$(basename "${packages[$((RANDOM % ${#packages[@]}))]%/}")"
    key="${victim%%_*}"
    args=(--remove "$key")
    removed+=("$victim")
  else
    if [ "$roll" = 1 ] && [ "${#removed[@]}" -gt 0 ]; then
      pick="${removed[$((RANDOM % ${#removed[@]}))]}"
    else
      pick="$(basename "${packages[$((RANDOM % ${#packages[@]}))]%/}")"
    fi
    rm -rf "$work/in"; mkdir -p "$work/in"
    cp -al "$corpus/$pick" "$work/in/${pick}+u$u"
    args=(--add "$work/in")
  fi
  t=$(seconds "$root/trigrep" update --index "$work/copy" "${symbols[@]}" "${args[@]}")
  echo "$t" >>"$work/many"
  if [ $((u % 10)) = 0 ]; then
    segs=$("$root/trigrep" segments --index "$work/copy" | awk '$1 ~ /^shard-/ {printf "%s%s", sep, $2; sep="/"}')
    printf '%8d %10s %14d %12.2f\n' "$u" "$segs" "$(du -sb "$work/copy" | cut -f1)" "$t"
  fi
done
echo "median update: $(median <"$work/many") s"
before=$(du -sb "$work/copy" | cut -f1)
t=$(seconds "$root/trigrep" merge --index "$work/copy" "${symbols[@]}")
segs=$("$root/trigrep" segments --index "$work/copy" | awk '$1 ~ /^shard-/ {printf "%s%s", sep, $2; sep="/"}')
printf 'after merge (%.1f s): segments %s, bytes on disk %d (before %d)\n' "$t" "$segs" "$(du -sb "$work/copy" | cut -f1)" "$before"
"$root/trigrep" segments --index "$work/copy"
t=$(seconds "$root/trigrep" merge --index "$work/copy" --rebalance "${symbols[@]}")
printf 'after merge --rebalance (%.1f s):\n' "$t"
"$root/trigrep" segments --index "$work/copy"
