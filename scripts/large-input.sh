#!/usr/bin/env bash
# Generate a 200 000-event `kubectl get events -o json` dump and compare, in the same run,
# `gpu-events explain --summary -o json` with jq computing only the reason histogram.
# Usage: scripts/large-input.sh [EVENTS] (default 200000; RUNS=3 runs of each, medians compared).
# The dump is kept in $TMPDIR and reused (delete it to regenerate). Needs python3, jq, GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-200000}"
dump="${TMPDIR:-/tmp}/gpu-events-large-${events}.json"

if [ ! -s "$dump" ]; then
python3 - "$events" "$dump" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
reasons = [
    ("FailedScheduling", "Warning", "default-scheduler", "0/36 nodes are available: 3 node(s) were unschedulable, 33 Insufficient nvidia.com/gpu. preemption: 0/36 nodes are available: 36 No preemption victims found for incoming pod."),
    ("UnexpectedAdmissionError", "Warning", "kubelet", "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 4, Available: 0, which is unexpected"),
    ("Pulled", "Normal", "kubelet", "Container image \"nvcr.io/nvidia/cuda:12.4.0-base\" already present on machine"),
    ("BackOff", "Warning", "kubelet", "Back-off restarting failed container main in pod train-0_ml(5f0c2a10-aaaa-4b1e-8c3d-00000000a001)"),
    ("FailedCreatePodSandBox", "Warning", "kubelet", "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured"),
]
with open(path, "w") as out:
    out.write('{\n    "apiVersion": "v1",\n    "items": [\n')
    for i in range(n):
        reason, type_, component, message = reasons[i % len(reasons)]
        event = {
            "apiVersion": "v1", "count": 1 + i % 7, "eventTime": None,
            "firstTimestamp": "2026-11-30T05:40:05Z", "lastTimestamp": "2026-11-30T06:03:48Z",
            "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": f"train-{i % 5000}", "namespace": f"ns-{i % 50}", "uid": f"5f0c2a10-aaaa-4b1e-8c3d-{i:012d}"},
            "kind": "Event", "message": message,
            "metadata": {"creationTimestamp": "2026-11-30T05:40:05Z", "name": f"train-{i % 5000}.{i:016x}", "namespace": f"ns-{i % 50}", "resourceVersion": str(1000000 + i), "uid": f"7c1f0a52-1111-4a6e-9d51-{i:012d}"},
            "reason": reason, "reportingComponent": component, "reportingInstance": "node-a",
            "source": {"component": component, "host": "node-a"}, "type": type_,
        }
        text = json.dumps(event, indent=4)
        out.write("        " + text.replace("\n", "\n        ") + (",\n" if i + 1 < n else "\n"))
    out.write('    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')
PY
fi

cargo build --release --quiet -p gpu-events-cli
bin=target/release/gpu-events
echo "dump: $dump ($(du -h "$dump" | cut -f1), $events events)"
# Each command three times, alternating, so both see the same machine; the median counts.
runs="${RUNS:-3}"
for i in $(seq "$runs"); do
  /usr/bin/time -o /tmp/gpu-events-time.$i -f "%e %M" "$bin" explain "$dump" --summary -o json > /tmp/gpu-events-summary.json
  /usr/bin/time -o /tmp/jq-time.$i -f "%e %M" jq -c '[.items[].reason] | group_by(.) | map({(.[0]): length}) | add' "$dump" > /tmp/jq-summary.json
done
python3 - "$runs" <<'PY'
import statistics, sys
runs = int(sys.argv[1])
def read(name):
    rows = [open(f"/tmp/{name}-time.{i}").read().split() for i in range(1, runs + 1)]
    return [float(r[0]) for r in rows], max(int(r[1]) for r in rows)
ours, ours_rss = read("gpu-events")
jq, jq_rss = read("jq")
print(f"gpu-events: runs {ours} s, median {statistics.median(ours):.2f} s, peak RSS {ours_rss / 1024:.1f} MB")
print(f"jq:         runs {jq} s, median {statistics.median(jq):.2f} s, peak RSS {jq_rss / 1024:.1f} MB")
print(f"ratio: {statistics.median(jq) / statistics.median(ours):.1f}x faster, {jq_rss / ours_rss:.0f}x less memory")
PY
echo "gpu-events byReason: $(python3 -c 'import json;print(json.load(open("/tmp/gpu-events-summary.json"))["byReason"])')"
echo "jq         byReason: $(cat /tmp/jq-summary.json)"
