-- wrk script for bench/load.sh: each request is the next line of a file of request paths
-- (already URL-encoded), each thread starting at its own line so that threads do not ask the
-- same query in step. At the end prints one machine-readable line:
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B non2xx=C connect=D read=E write=F timeout=G
-- non2xx is wrk's count of answers with a status of 400 or more (429 included).
--
--   wrk -t2 -c16 -d15s -s bench/load.lua http://127.0.0.1:PORT -- PATHS_FILE

local paths = {}
local next_path = 1
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_number", thread_count)
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

function request()
  local path = paths[next_path]
  next_path = next_path % #paths + 1
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.status, e.connect, e.read, e.write, e.timeout))
end
