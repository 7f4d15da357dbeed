#!/usr/bin/env python3
"""The abusive client of bench/load.sh: from its own source address (e.g. 127.0.0.3; Linux routes
all of 127/8 to the loopback), for SECONDS, it keeps QUERIES expensive searches running at once
(cache off, each waiting for its answer) and holds FLOOD connections open that send half a
request and then nothing (slowloris), opening a new one whenever the server closes one. At the
end it prints one line: what its searches got, and how many flood connections it opened.

  bench/abuser.py URL SOURCE_ADDRESS SECONDS QUERIES FLOOD [REGEX...]
"""
import http.client
import socket
import sys
import threading
import time
import urllib.parse
from collections import Counter

url, source, seconds, queries, flood = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
regexes = sys.argv[6:] or [".", "[a-z]+", "x?"]
host, port = urllib.parse.urlsplit(url).hostname, urllib.parse.urlsplit(url).port
end = time.monotonic() + seconds
lock = threading.Lock()
statuses = Counter()
opened = [0]


def search(worker):
    i = worker
    while time.monotonic() < end:
        q = regexes[i % len(regexes)]
        i += 1
        path = "/api/v1/search?" + urllib.parse.urlencode({"q": q, "cache": "false", "per_page": "1"})
        try:
            c = http.client.HTTPConnection(host, port, timeout=max(1.0, end - time.monotonic()) + 60,
                                           source_address=(source, 0))
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            status = str(r.status)
            c.close()
        except Exception as e:  # the server may close or refuse: that is what is measured
            status = type(e).__name__
            time.sleep(0.1)
        with lock:
            statuses[status] += 1


def hold():
    held = []
    while time.monotonic() < end:
        alive = []
        for s in held:
            try:
                if s.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b"":
                    s.close()
                    continue
            except BlockingIOError:
                pass
            except OSError:
                s.close()
                continue
            alive.append(s)
        held = alive
        while len(held) < flood and time.monotonic() < end:
            try:
                s = socket.create_connection((host, port), timeout=2, source_address=(source, 0))
                s.sendall(b"GET /api/v1/search?q=x HTTP/1.1\r\nHost: abuser\r\n")
                held.append(s)
                opened[0] += 1
            except OSError:
                time.sleep(0.05)
                break
        time.sleep(0.2)
    for s in held:
        s.close()


threads = [threading.Thread(target=search, args=(w,)) for w in range(queries)]
if flood > 0:
    threads.append(threading.Thread(target=hold))
for t in threads:
    t.start()
for t in threads:
    t.join()
print("ABUSER searches=%s flood_connections_opened=%d" % (dict(sorted(statuses.items())), opened[0]))
