#!/usr/bin/env bash
# Read your writes on a real index (issue 62): whether any answer sent after `./trigrep update`
# returned still shows what it removed, or misses what it added, and what the wait costs.
#
#   bench/read-your-writes.sh INDEX_DIR PACKAGE_DIR [ROUNDS]
#
# Copies INDEX_DIR and serves the copy (one backend per shard and a frontend, bench/stack.sh,
# cache on). PACKAGE_DIR is one unpacked package the index holds (NAME_VERSION). Two clients ask
# `PATTERN package:^NAME_VERSION$` back to back (a word of the package's first file), so most
# answers come from the cache. Then ROUNDS rounds (default 50), each `update --remove NAME` then
# `update --add PACKAGE_DIR`, first with the default wait for the backends and then with
# `--wait-for-backends 0` (the behaviour before the wait), PAUSE seconds (default 1) after each
# update. Prints, per mode, the median update
# wall time and, of the answers sent between an update's return and the next update's start, how
# many contradict it.
set -euo pipefail
index="${1:?usage: bench/read-your-writes.sh INDEX_DIR PACKAGE_DIR [ROUNDS]}"
package="$(cd "${2:?usage: bench/read-your-writes.sh INDEX_DIR PACKAGE_DIR [ROUNDS]}" && pwd)"
rounds="${3:-50}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
trap 'stack_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
full="$(basename "$package")"
name="${full%%_*}"
cp -a "$index" "$work/index"
stack_start "$work/index" "$work/stack"
word="$(grep -rhoE '[A-Za-z_][A-Za-z0-9_]{7,}' "$package" 2>/dev/null | head -n 1 || true)"
echo "# $full, query '$word package:^$full\$', $rounds rounds per mode"
printf '%-22s %12s %14s %12s\n' mode "update p50 s" contradictions answers

for mode in wait nowait; do
  wait_flag=()
  [ "$mode" = nowait ] && wait_flag=(--wait-for-backends 0)
  events="$work/events-$mode"
  : > "$events"
  python3 - "$STACK_URL" "$word" "$full" "$events" "$work/answers-$mode" <<'PY' &
import json, sys, threading, time, urllib.parse, urllib.request
base, word, full, events, out = sys.argv[1:]
q = urllib.parse.quote(word + " package:^" + full.replace("+", "\\+").replace(".", "\\.") + "$")
stop = time.time() + 3600
answers = []
lock = threading.Lock()
def client():
    while time.time() < stop:
        sent = time.time()
        try:
            body = json.load(urllib.request.urlopen(base + "/api/v1/search?per_page=1&q=" + q, timeout=30))
        except Exception:
            continue
        with lock:
            answers.append((sent, len(body.get("results", [])) > 0, bool(body.get("partial"))))
        if open(events).read().endswith("end\n"):
            break
threads = [threading.Thread(target=client) for _ in range(2)]
for t in threads: t.start()
for t in threads: t.join()
with open(out, "w") as f:
    for sent, present, partial in answers:
        f.write("%.6f %d %d\n" % (sent, present, partial))
PY
  client=$!
  times=()
  for _ in $(seq "$rounds"); do
    for change in remove add; do
      t0=$(date +%s.%N)
      echo "start $t0" >> "$events"
      if [ "$change" = remove ]; then
        "$root/trigrep" update --index "$work/index" "${wait_flag[@]}" --no-merge --remove "$name" >>"$work/updates.log" 2>&1
      else
        "$root/trigrep" update --index "$work/index" "${wait_flag[@]}" --no-merge --add "$package" >>"$work/updates.log" 2>&1
      fi
      # The wall clock, as the clients' time.time(), when the update returned.
      echo "$change $(date +%s.%N)" >> "$events"
      sleep "${PAUSE:-1}" # the clients ask the settled index this long before the next update
      times+=("$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')")
    done
  done
  echo end >> "$events"
  wait "$client"
  python3 - "$events" "$work/answers-$mode" "$mode" "${times[@]}" <<'PY'
import statistics, sys
events, answers, mode, times = sys.argv[1], sys.argv[2], sys.argv[3], [float(t) for t in sys.argv[4:]]
changes = [(float(t), c) for c, t in (l.split() for l in open(events) if l.strip() != "end")]
bad = total = 0
for line in open(answers):
    sent, present, partial = line.split()
    sent = float(sent); present = present == "1"
    last = [c for t, c in changes if t < sent]
    # Only answers sent after an update returned and before the next began: during one, either
    # state is right.
    if not last or last[-1] == "start":
        continue
    total += 1
    state = last[-1]
    if (state == "remove" and present) or (state == "add" and not present and partial == "0"):
        bad += 1
print("%-22s %12.3f %14d %12d" % (mode, statistics.median(times), bad, total))
PY
done
