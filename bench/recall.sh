#!/usr/bin/env bash
# Recall: for each query, the matching lines trigrep answers over HTTP against the matching lines
# `rg -uuu -a` finds in every NUL-free regular file of the same corpus (VCS folders and files over
# the size cap left out, as trigrep leaves them out). The difference is expected to be 0.
#
#   bench/recall.sh CORPUS_DIR QUERIES_FILE [SHARDS]
#
# CORPUS_DIR holds one folder per package (a one-package tree is a folder holding one folder).
# QUERIES_FILE has one regex per line, or "class<TAB>regex" lines (bench/queries.txt); a line
# that starts with '# ' is a comment (so '#include' is a query). The corpus is indexed into SHARDS shards (default 2), one backend per shard
# and the frontend are started on loopback, and each query is asked once through
# /api/v1/search (cache off). Prints the index summary's skipped files by reason, then a table.
# trigrep indexes with its defaults; MAX_FILE_BYTES (default 67108864, trigrep's default cap)
# is the size above which rg skips a file too (trigrep reports such files as too large).
set -euo pipefail
corpus="$(cd "${1:?usage: bench/recall.sh CORPUS_DIR QUERIES_FILE [SHARDS]}" && pwd)"
queries="$(cd "$(dirname "${2:?QUERIES_FILE}")" && pwd)/$(basename "$2")"
shards="${3:-2}"
cap="${MAX_FILE_BYTES:-67108864}"
root="$(cd "$(dirname "$0")/.." && pwd)"
for tool in rg curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool missing (apt-get install ripgrep curl python3)" >&2; exit 2; }
done
work="$(mktemp -d)"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
trap 'stack_stop; rm -rf "$work"' EXIT
export TRIGREP_JAVA_OPTS="${TRIGREP_JAVA_OPTS:--Xmx2g}"

echo "indexing $corpus into $shards shards..." >&2
"$root/trigrep" index --shards "$shards" --out "$work/index" "$corpus" > "$work/index.out" 2> "$work/index.err" ||
  { tail -n 20 "$work/index.err" >&2; exit 1; }
stack_start "$work/index" "$work/stack" --max-results 100000000 --deadline-ms 600000

rg_args=(--no-config -uuu -a --no-messages --max-filesize "$cap")
for vcs in .git .svn .hg .bzr CVS _darcs; do rg_args+=(-g "!$vcs"); done
echo "listing files with a NUL byte..." >&2
rg "${rg_args[@]}" -l --null '(?-u:\x00)' "$corpus" > "$work/nul-files" || true

sed 's/^/# /' "$work/index.out"
python3 - "$queries" "$corpus" "$STACK_URL" "$work/nul-files" "${rg_args[@]}" <<'PY'
import json, subprocess, sys, time, urllib.parse, urllib.request
queries_file, corpus, url, nul_file, *rg_args = sys.argv[1:]
nul = set(p for p in open(nul_file, "rb").read().split(b"\0") if p)
print("%-44s %12s %12s %10s  %s" % ("query", "trigrep", "rg", "difference", "note"))
total_diff = 0
for raw in open(queries_file, encoding="utf-8"):
    line = raw.rstrip("\n")
    if not line.strip() or line == "#" or line.startswith("# "):
        continue
    query = line.split("\t", 1)[1] if "\t" in line else line
    started = time.monotonic()
    with urllib.request.urlopen(url + "/api/v1/search?" + urllib.parse.urlencode(
            {"q": query, "per_page": 1, "cache": "false"}), timeout=900) as response:
        answer = json.load(response)
    seconds = time.monotonic() - started
    out = subprocess.run(["rg", *rg_args, "-c", "--null", "-e", query, corpus], capture_output=True)
    if out.returncode not in (0, 1):
        print("%-44s rg failed: %s" % (query, out.stderr.decode(errors="replace").strip()[:80]))
        continue
    rg_lines = 0
    for record in out.stdout.split(b"\n"):
        if record:
            path, _, count = record.partition(b"\0")
            if path not in nul:
                rg_lines += int(count)
    n = answer.get("total_results", 0)
    notes = []
    if answer.get("partial"):
        notes.append("PARTIAL " + json.dumps(answer.get("shards", {}).get("failed")))
    if answer.get("capped"):
        notes.append("capped: " + str(answer.get("capped")))
    notes.append("%.2f s over HTTP" % seconds)
    total_diff += abs(n - rg_lines)
    print("%-44s %12d %12d %10d  %s" % (query[:44], n, rg_lines, n - rg_lines, "; ".join(notes)))
print("# sum of |difference|: %d" % total_diff)
PY
