#!/usr/bin/env python3
"""Selective queries while heavy ones run, over the JSON API of a running frontend.

    bench/heavy_and_selective.py BASE_URL [SECONDS] [HEAVY_QUERY ...]

Four clients (one per heavy query; default "return", "struct", "static", "if \\(", queries that
match on most lines of a C corpus) search again and again with cache=false for SECONDS (default
15). One second in, a fifth client asks the selective queries of bench/queries.txt one after
another, cache=false, until half a second before the end. Each client sends its own
X-Forwarded-For, so start the frontend with --trusted-proxies 127.0.0.1 (bench/stack.sh's
STACK_FRONTEND_ARGS) or the per-client limit refuses the heavy ones. Prints the selective
queries' latency (p50, p90, max, ms) and the heavy queries' count and median seconds.
"""
import http.client
import statistics
import sys
import threading
import time
import urllib.parse

SELECTIVE = ["inflateInit2_", "XML_ParserCreate", "sd_bus_message_append_basic", "luaL_checkinteger",
             "sqlite3_prepare_v2"]


def get(conn, query, client):
    path = "/api/v1/search?" + urllib.parse.urlencode({"q": query, "cache": "false"})
    start = time.perf_counter()
    conn.request("GET", path, headers={"X-Forwarded-For": "10.2.%d.1" % client})
    answer = conn.getresponse()
    answer.read()
    return answer.status, time.perf_counter() - start


def main():
    url = urllib.parse.urlsplit(sys.argv[1])
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 15
    heavy = sys.argv[3:] or ["return", "struct", "static", "if \\("]
    end = time.time() + seconds
    heavy_done = []

    def heavy_client(k):
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
        while time.time() < end:
            heavy_done.append(get(conn, heavy[k], k))

    threads = [threading.Thread(target=heavy_client, args=(k,)) for k in range(len(heavy))]
    for t in threads:
        t.start()
    time.sleep(1.0)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    latencies, statuses, asked = [], set(), []
    began = time.time()
    i = 0
    while time.time() < end - 0.5:
        query = SELECTIVE[i % len(SELECTIVE)]
        at = time.time() - began
        status, seconds_taken = get(conn, query, 99)
        statuses.add(status)
        latencies.append(seconds_taken * 1000)
        asked.append((seconds_taken * 1000, at, query))
        i += 1
    for t in threads:
        t.join()
    latencies.sort()
    heavy_statuses = sorted({s for s, _ in heavy_done})
    print("selective while %d heavy run: n=%d p50 %.1f p90 %.1f p99 %.1f max %.1f ms, %d over 100 ms (statuses %s); "
          "heavy: %d done, median %.2f s (statuses %s)"
          % (len(heavy), len(latencies), latencies[len(latencies) // 2], latencies[int(0.9 * len(latencies))],
             latencies[int(0.99 * len(latencies))], latencies[-1], sum(1 for x in latencies if x >= 100),
             sorted(statuses), len(heavy_done),
             statistics.median(d for _, d in heavy_done) if heavy_done else float("nan"), heavy_statuses))
    # The slowest answers, with when they were asked: a tail that is one moment (a collection, a
    # burst of compilation) reads differently from one spread over the run.
    print("slowest: " + ", ".join("%.0f ms at %.1f s (%s)" % s for s in sorted(asked, reverse=True)[:5]))


if __name__ == "__main__":
    main()
