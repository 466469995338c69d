-- wrk's `done`: the run's figures as one JSON line for bench/lib.mjs's load (latencies in µs).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"non2xx":%d,"errors":%d,"p50":%d,"p95":%d,"p99":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
