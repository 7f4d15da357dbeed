#!/usr/bin/env python3
"""Sends selective queries over HTTP for a while and prints their latency, as a user would feel it.

    bench/latency_sampler.py BASE_URL QUERIES_FILE SECONDS

QUERIES_FILE holds class<TAB>query lines (bench/queries.txt); only the `selective` class is sent,
round robin, each as GET /api/v1/search?q=...&cache=false (a fresh search, never a cached answer)
on one kept-alive connection, back to back, until SECONDS have passed. Prints one line:
"REQUESTS P50_MS P99_MS ERRORS DUPLICATES", where ERRORS counts answers other than 200 or marked
partial, and DUPLICATES answers holding one (package, path, line) twice. SIGTERM ends the run
early (after the request under way), with the same line.
"""
import http.client
import json
import signal
import statistics
import sys
import time
import urllib.parse


def main():
    base, queries_file, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    queries = []
    with open(queries_file, encoding="utf-8") as f:
        for line in f:
            if line.startswith("selective\t"):
                queries.append(line.rstrip("\n").split("\t", 1)[1])
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    times, errors, duplicates = [], 0, 0
    end = [time.monotonic() + seconds]
    signal.signal(signal.SIGTERM, lambda *_: end.__setitem__(0, 0))
    i = 0
    while time.monotonic() < end[0]:
        q = queries[i % len(queries)]
        i += 1
        path = "/api/v1/search?" + urllib.parse.urlencode({"q": q, "cache": "false", "per_page": "1000"})
        start = time.perf_counter()
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
            continue
        elapsed = time.perf_counter() - start
        if response.status != 200:
            errors += 1
            continue
        answer = json.loads(body)
        if answer.get("partial"):
            errors += 1
            continue
        seen = set()
        for r in answer.get("results", []):
            key = (r.get("package"), r.get("path"), r.get("line"))
            if key in seen:
                duplicates += 1
                break
            seen.add(key)
        times.append(elapsed)
    times.sort()
    p50 = statistics.median(times) * 1000 if times else float("nan")
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000 if times else float("nan")
    print(f"{len(times)} {p50:.1f} {p99:.1f} {errors} {duplicates}")


if __name__ == "__main__":
    main()
