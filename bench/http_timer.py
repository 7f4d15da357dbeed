#!/usr/bin/env python3
"""Times one query end to end over HTTP, as a program on the JSON API would see it.

    bench/http_timer.py BASE_URL QUERY RUNS [PER_PAGE]

Each run is GET /api/v1/search?q=QUERY&cache=false (a fresh search every time, never a cached
answer) on one kept-alive connection, timed from sending the request to the last byte of the
answer. After one warm-up run, prints "MEDIAN_SECONDS TOTAL_RESULTS" (TOTAL_RESULTS of the last
run). A refusal (429) is retried after its Retry-After; any other non-200 answer stops the script.
With COLD=1 in the environment (as root) there is no warm-up run, and the page cache is dropped
(sync, then 3 > /proc/sys/vm/drop_caches) before every run: the backends read the index and the
files from the disk, as after a reboot, while the JVMs stay warm.
"""
import http.client
import json
import os
import statistics
import sys
import time
import urllib.parse


def main():
    base, query, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    per_page = sys.argv[4] if len(sys.argv) > 4 else "10"
    search = Search(base, query, per_page)
    cold = os.environ.get("COLD") == "1"
    times = []
    for run in range(0 if cold else -1, runs):
        if cold:
            drop_page_cache()
        elapsed = search.once()
        if run >= 0:
            times.append(elapsed)
    print("%.4f %d" % (statistics.median(times), search.total))


class Search:
    """One query asked again and again on one kept-alive connection; bench/interleaved_timer.py uses it too."""

    def __init__(self, base, query, per_page="10"):
        url = urllib.parse.urlsplit(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
        self.query = query
        self.path = "/api/v1/search?" + urllib.parse.urlencode({"q": query, "cache": "false", "per_page": per_page})
        self.total = None

    def once(self):
        """Seconds from sending the request to the answer's last byte; a 429 is waited out and asked again, untimed."""
        while True:
            start = time.perf_counter()
            self.conn.request("GET", self.path)
            answer = self.conn.getresponse()
            body = answer.read()
            elapsed = time.perf_counter() - start
            if answer.status == 429:
                time.sleep(float(answer.getheader("Retry-After", "1")))
                continue
            break
        if answer.status != 200:
            sys.exit("http_timer: %s answered %d: %s" % (self.query, answer.status, body[:300].decode("utf-8", "replace")))
        page = json.loads(body)
        if page.get("status") != "done" or page.get("partial"):
            sys.exit("http_timer: %s did not finish whole: %s" % (self.query, body[:300].decode("utf-8", "replace")))
        self.total = page["total_results"]
        return elapsed


def drop_page_cache():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


if __name__ == "__main__":
    main()
