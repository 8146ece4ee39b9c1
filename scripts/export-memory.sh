#!/usr/bin/env bash
# Memory of `gpu-events export` (issue #6), against the testkit API double in another process:
#  A. a 200 000-event initial list, exported once each;
#  B. 100 events/s (half new, half repeats) for 10 minutes (MINUTES=10).
# Prints peak and sampled RSS of the exporter alone; the server's memory is not counted.
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES="${MINUTES:-10}"
EVENTS="${EVENTS:-200000}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cargo build --release --quiet -p gpu-events-cli
cargo build --release --quiet -p gpu-events-testkit --example serve
bin=target/release/gpu-events
serve=target/release/examples/serve

rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
hwm() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }
# Lines of a JSON Lines sink, rotated files included.
lines() { cat "$1" "$1".* 2>/dev/null | wc -l; }

echo "== A: initial list of $EVENTS events"
"$serve" --events "$EVENTS" --rate 0 --kubeconfig "$work/kubeconfig-a" > "$work/serve-a.log" &
while [ ! -f "$work/kubeconfig-a" ]; do sleep 1; done
start=$(date +%s.%N)
KUBECONFIG="$work/kubeconfig-a" "$bin" export --sink "file:$work/a.jsonl" --state "$work/a.state" &
exporter=$!
while [ "$(lines "$work/a.jsonl")" -lt "$EVENTS" ]; do sleep 0.5; done
end=$(date +%s.%N)
peak_a=$(hwm $exporter)
kill -TERM $exporter; wait $exporter || true
size=$(cat "$work"/a.jsonl* | wc -c | awk '{print int($1/1024)}')
printf 'records %s in %.1f s, peak RSS %s kB (output %s kB)\n' "$(lines "$work/a.jsonl")" "$(echo "$end - $start" | bc)" "$peak_a" "$size"
kill %1 2>/dev/null || true; wait 2>/dev/null || true

echo "== B: 100 events/s for $MINUTES minutes"
"$serve" --events 0 --rate 100 --kubeconfig "$work/kubeconfig-b" > "$work/serve-b.log" &
while [ ! -f "$work/kubeconfig-b" ]; do sleep 1; done
KUBECONFIG="$work/kubeconfig-b" "$bin" export --sink "file:$work/b.jsonl" --state "$work/b.state" &
exporter=$!
echo "minute rss_kB records"
for minute in $(seq 1 "$MINUTES"); do
  sleep 60
  echo "$minute $(rss $exporter) $(lines "$work/b.jsonl")"
done
echo "peak RSS $(hwm $exporter) kB"
kill -TERM $exporter; wait $exporter || true
