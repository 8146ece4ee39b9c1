#!/usr/bin/env bash
# Memory of `gpu-events export` (issue #6), against the testkit API double in another process:
#  A. a 200 000-event initial list, exported once each;
#  B. 100 events/s (half new, half repeats) for 10 minutes (MINUTES=10); EVENT_TTL=120 makes the
#     API double expire Events 120 s after their last write (as --event-ttl), MARK_TTL=3m sets the
#     exporter's markTtl, so the marks reach their plateau inside the run.
# CASES=B runs B alone. Prints peak and sampled RSS of the exporter alone (the server's memory is
# not counted), and the marks held (the dedupe_marks gauge).
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES="${MINUTES:-10}"
EVENTS="${EVENTS:-200000}"
CASES="${CASES:-AB}"
EVENT_TTL="${EVENT_TTL:-}"
MARK_TTL="${MARK_TTL:-}"
METRICS_PORT="${METRICS_PORT:-19464}"
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

if [[ $CASES == *A* ]]; then
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
fi

[[ $CASES == *B* ]] || exit 0
echo "== B: 100 events/s for $MINUTES minutes (event TTL ${EVENT_TTL:-none} s, markTtl ${MARK_TTL:-default})"
ttl_args=(); [ -n "$EVENT_TTL" ] && ttl_args=(--event-ttl "${EVENT_TTL}s")
mark_args=(); [ -n "$MARK_TTL" ] && mark_args=(--mark-ttl "$MARK_TTL")
"$serve" --events 0 --rate 100 "${ttl_args[@]}" --kubeconfig "$work/kubeconfig-b" > "$work/serve-b.log" &
while [ ! -f "$work/kubeconfig-b" ]; do sleep 1; done
KUBECONFIG="$work/kubeconfig-b" "$bin" export --sink "file:$work/b.jsonl" --state "$work/b.state" \
  --metrics-addr "127.0.0.1:$METRICS_PORT" "${mark_args[@]}" &
exporter=$!
marks() { curl -s "127.0.0.1:$METRICS_PORT/metrics" | awk '/^gpu_events_export_dedupe_marks / {print $2}'; }
echo "minute rss_kB records marks"
for minute in $(seq 1 "$MINUTES"); do
  sleep 60
  echo "$minute $(rss $exporter) $(lines "$work/b.jsonl") $(marks)"
done
echo "peak RSS $(hwm $exporter) kB"
kill -TERM $exporter; wait $exporter || true
