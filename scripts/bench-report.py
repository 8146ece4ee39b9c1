#!/usr/bin/env python3
"""Turn criterion's estimates (target/criterion) into the ratio tables of BENCHMARKS.md.

Each bench `<group>/<case>/<variant>` is compared with the floor of the same case measured in the
same run (`*_floor`). Usage: cargo bench --bench parse && python3 scripts/bench-report.py
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")


def mean_ns(path):
    with open(path) as f:
        return json.load(f)["mean"]["point_estimate"]


rows = {}
for meta in sorted(root.glob("*/*/new/benchmark.json")):
    with open(meta) as f:
        ids = json.load(f)
    group = ids["group_id"]
    case, _, variant = ids["function_id"].rpartition("/")
    rows.setdefault((group, case), {})[variant] = mean_ns(meta.parent / "estimates.json")

for group in sorted({g for g, _ in rows}):
    print(f"\n### {group}\n")
    print("| case | floor | measured | time | floor time | ratio |")
    print("|---|---|---|---|---|---|")
    for (g, case), variants in sorted(rows.items()):
        if g != group:
            continue
        floors = {k: v for k, v in variants.items() if k.endswith("_floor")}
        for floor_name, floor in floors.items():
            for name, t in variants.items():
                if name.endswith("_floor"):
                    continue
                print(f"| {case} | {floor_name} | {name} | {t:,.0f} ns | {floor:,.0f} ns | {t / floor:.2f}x |")
