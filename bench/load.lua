-- wrk script for bench/bench.py: POSTs the bodies of a file (one JSON document per line) in
-- turn, and prints one JSON line of results at the end.
local bodies = {}
local i = 0

init = function(args)
  for line in io.lines(args[1]) do
    bodies[#bodies + 1] = line
  end
  i = math.random(#bodies) - 1
end

request = function()
  i = i % #bodies + 1
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, bodies[i])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "p50_us": %.1f, "p99_us": %.1f, "non_2xx": %d, "socket_errors": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status,
    e.connect + e.read + e.write + e.timeout))
end
