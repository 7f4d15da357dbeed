-- wrk script for bench/load.sh: each request is the next line of a file of request paths
-- (already URL-encoded), each thread starting at its own line so that threads do not ask the
-- same query in step. At the end prints one machine-readable line:
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B non2xx=C connect=D read=E write=F timeout=G s2xx=H s429=I s5xx=J
-- non2xx is wrk's count of answers with a status of 400 or more (429 included); s2xx, s429 and
-- s5xx count answers by status, across threads. Latencies are of every answer, errors included.
--
--   wrk -t2 -c16 -d15s -s bench/load.lua http://127.0.0.1:PORT -- PATHS_FILE

local paths = {}
local next_path = 1
local thread_count = 0
local threads = {}
s2xx, s429, s5xx = 0, 0, 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_number", thread_count)
  threads[#threads + 1] = thread
end

function init(args)
  local file = assert(io.open(args[1], "r"), "bench/load.lua: cannot read the paths file " .. tostring(args[1]))
  for line in file:lines() do
    if line ~= "" then
      paths[#paths + 1] = line
    end
  end
  file:close()
  assert(#paths > 0, "bench/load.lua: no paths in " .. args[1])
  next_path = ((thread_number or 1) * 7) % #paths + 1
end

-- The well-behaved clients are many users behind one proxy (the frontend trusts 127.0.0.1 as
-- a proxy, bench/load.sh): each request names one of 64 users per thread in X-Forwarded-For, so
-- the per-client share counts users, not wrk's one source address.
local user = 0

function request()
  local path = paths[next_path]
  next_path = next_path % #paths + 1
  user = user % 64 + 1
  return wrk.format("GET", path, {["X-Forwarded-For"] = "10.0." .. (thread_number or 1) .. "." .. user})
end

function response(status, headers, body)
  if status >= 200 and status < 300 then
    s2xx = s2xx + 1
  elseif status == 429 then
    s429 = s429 + 1
  elseif status >= 500 then
    s5xx = s5xx + 1
  end
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  local ok, busy, failed = 0, 0, 0
  for _, thread in ipairs(threads) do
    ok = ok + thread:get("s2xx")
    busy = busy + thread:get("s429")
    failed = failed + thread:get("s5xx")
  end
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d connect=%d read=%d write=%d timeout=%d s2xx=%d s429=%d s5xx=%d\n",
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.status, e.connect, e.read, e.write, e.timeout, ok, busy, failed))
end
