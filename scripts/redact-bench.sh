#!/usr/bin/env bash
# Redaction's cost on a 200 000-event dump, measured in the same run: `explain FILE` with and
# without `--redact` (summary and JSON Lines output), each RUNS times, alternating, medians
# compared; and `gpu-events redact FILE` alone. Uses the dump of scripts/large-input.sh (made
# here when missing). Usage: scripts/redact-bench.sh [EVENTS] (default 200000; RUNS=5).
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-200000}"
dump="${TMPDIR:-/tmp}/gpu-events-large-${events}.json"
if [ ! -s "$dump" ]; then
  # large-input.sh writes the dump first; its jq comparison is not needed here.
  RUNS=0 bash scripts/large-input.sh "$events" > /dev/null || true
fi
cargo build --release --quiet -p gpu-events-cli
bin=target/release/gpu-events
echo "dump: $dump ($(du -h "$dump" | cut -f1), $events events)"
runs="${RUNS:-5}"
out="${TMPDIR:-/tmp}/gpu-events-redact-bench"
mkdir -p "$out"
measure() { # name, command...
  local name=$1; shift
  /usr/bin/time -a -o "$out/$name" -f "%e" "$@" > /dev/null 2>> "$out/stderr"
}
rm -f "$out"/*
for _ in $(seq "$runs"); do
  measure summary "$bin" explain "$dump" --summary -o json
  measure summary-redact "$bin" explain "$dump" --summary -o json --redact
  measure json "$bin" explain "$dump" -o json
  measure json-redact "$bin" explain "$dump" -o json --redact
  measure redact "$bin" redact "$dump"
  measure cat cat "$dump"
done
python3 - "$out" <<'PY'
import statistics, sys
out = sys.argv[1]
def med(name):
    runs = [float(x) for x in open(f"{out}/{name}").read().split()]
    return runs, statistics.median(runs)
for base in ["summary", "json"]:
    b, bm = med(base)
    r, rm = med(base + "-redact")
    print(f"explain {base:8} {bm:.2f} s  with --redact {rm:.2f} s  ratio {rm / bm:.2f}x  (runs {b} / {r})")
r, rm = med("redact")
c, cm = med("cat")
print(f"redact alone {rm:.2f} s, cat {cm:.2f} s (runs {r} / {c})")
PY
grep -m1 "redacted" "$out/stderr" || true
