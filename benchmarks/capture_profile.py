"""Captures the connected adapter on a GPU machine: Dawn's and Vulkan's matrix lists, and a device profile.

    python -m benchmarks.capture_profile NAME

Writes $OUT (or benchmarks/results/) /NAME.json (the profile) and
live_query_NAME.json (both raw answers and whether their lists agree).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from coop_lsp.devices.live import profile_from_dawn, run_query


def main() -> int:
    name = sys.argv[1] if len(sys.argv) > 1 else "connected"
    dawn = run_query("coop_lsp.devices.dawn_query", timeout_s=60)
    vulkan = run_query("coop_lsp.devices.vulkan_query", timeout_s=60)
    out = Path(os.environ["OUT"]) if os.environ.get("OUT") else Path(__file__).parent / "results"
    out.mkdir(parents=True, exist_ok=True)
    comparison = {}
    if dawn.problem is None:
        profile = profile_from_dawn(dawn.data, name)
        (out / f"{name}.json").write_text(json.dumps(profile.to_json(), indent=2) + "\n")
        dawn_set = {(c.component, c.result, c.m, c.n, c.k) for c in profile.configs}
        comparison["dawn"] = sorted(dawn_set)
        if vulkan.problem is None:
            for device in vulkan.data["devices"]:
                vulkan_set = {(c["a"], c["result"], c["m"], c["n"], c["k"]) for c in device["cooperative_matrix_khr"]
                              if c["scope"] == "subgroup" and c["a"] == c["b"]}
                comparison[device["name"]] = {
                    "vulkan_khr": sorted(vulkan_set),
                    "in_vulkan_not_dawn": sorted(vulkan_set - dawn_set),
                    "in_dawn_not_vulkan": sorted(dawn_set - vulkan_set),
                    "flexible_nv": len(device["cooperative_matrix2_nv"]),
                }
    record = {"dawn": dawn.data, "dawn_problem": dawn.problem, "vulkan": vulkan.data,
              "vulkan_problem": vulkan.problem, "comparison": comparison}
    (out / f"live_query_{name}.json").write_text(json.dumps(record, indent=2, default=str) + "\n")
    print(json.dumps(comparison, indent=1, default=str)[:3000])
    return 0 if dawn.problem is None else 1


if __name__ == "__main__":
    sys.exit(main())
