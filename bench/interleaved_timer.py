#!/usr/bin/env python3
"""Times one query end to end over HTTP, csearch and rg in turn, round after round.

    bench/interleaved_timer.py BASE_URL QUERY RUNS CSEARCHINDEX CORPUS_DIR [DIRECT_COMMAND...]

Each round times one HTTP search (bench/http_timer.py's: GET /api/v1/search, cache off, request
to last byte, one kept-alive connection), one `csearch -n QUERY` and one `rg --no-config -uuu -n
QUERY CORPUS_DIR` (process start included, output to /dev/null, as hyperfine -N runs them), the
order rotating from round to round. A VM's speed drifts by a fifth over minutes: tools timed one
after the other in blocks compared the minute as much as the tools, while here every tool sees
every minute. After one warm-up run of each, prints "HTTP CSEARCH RG TOTAL_RESULTS": median
seconds of each over RUNS rounds, and the HTTP answer's count. With COLD=1 (as root) there is no
warm-up and the page cache is dropped before every run.

Given DIRECT_COMMAND (`./trigrep search --backend A,B --rounds-on-input ... QUERY`: the backends
asked directly, on connections it keeps), that command takes its turn too, one line written to it
per round and its answer "RESULTS SECONDS" read back, and the line ends with "DIRECT
DIRECT_RESULTS": its median and count. Timed in the same rounds, the backends' own time and the
HTTP one follow the same runs of csearch and rg, which fill both cores and the caches, so their
difference is the frontend's alone.
"""
import os
import statistics
import subprocess
import sys
import time

from http_timer import Search, drop_page_cache


def main():
    base, query, runs, index, corpus = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    cold = os.environ.get("COLD") == "1"
    search = Search(base, query)
    env = dict(os.environ, CSEARCHINDEX=index)
    tools = [
        ("http", search.once),
        ("csearch", lambda: process(["csearch", "-n", query], env)),
        ("rg", lambda: process(["rg", "--no-config", "-uuu", "-n", query, corpus], env)),
    ]
    direct = Direct(sys.argv[6:]) if len(sys.argv) > 6 else None
    if direct:
        tools.append(("direct", direct.once))
    times = {name: [] for name, _ in tools}
    for run in range(0 if cold else -1, runs):
        for k in range(len(tools)):
            name, timed = tools[(max(run, 0) + k) % len(tools)]
            if cold:
                drop_page_cache()
            elapsed = timed()
            if run >= 0:
                times[name].append(elapsed)
    medians = [statistics.median(times[name]) for name in ("http", "csearch", "rg")]
    line = "%.4f %.4f %.4f %d" % tuple(medians + [search.total])
    if direct:
        line += " %.4f %d" % (statistics.median(times["direct"]), direct.results)
        direct.close()
    print(line)


class Direct:
    """The backends asked directly by a command that runs one search per line it reads and answers each at once."""

    def __init__(self, args):
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.results = None

    def once(self):
        """The command's own seconds for one search (its client's time, without this pipe's)."""
        self.process.stdin.write("\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().split()
        if len(answer) != 2:
            sys.exit("interleaved_timer: the direct command answered %r" % answer)
        self.results = int(answer[0])
        return float(answer[1])

    def close(self):
        self.process.stdin.close()
        if self.process.wait() != 0:
            sys.exit("interleaved_timer: the direct command exited %d" % self.process.returncode)


def process(args, env):
    """Seconds one run of {@code args} takes, start to exit, its output thrown away; grep's exit 1 (no match) is fine."""
    start = time.perf_counter()
    done = subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if done.returncode > 1:
        sys.exit("interleaved_timer: %s exited %d" % (args[0], done.returncode))
    return elapsed


if __name__ == "__main__":
    main()
