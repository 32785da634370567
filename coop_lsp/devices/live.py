"""The connected adapter, queried in child processes with time limits.

Each query (Dawn, wgpu-native, the Vulkan loader directly) runs in its own
process: a driver that crashes or hangs costs that query, never the linter
or the server.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from dataclasses import dataclass

from ..semantic.builtins.language import DIALECTS_BY_PRECEDENCE
from .profiles import VERSION, FORMAT, Profile, parse_profile

QUERY_TIMEOUT_S = 20.0


@dataclass
class QueryResult:
    source: str
    data: dict | None
    problem: str | None


def run_query(module: str, timeout_s: float = QUERY_TIMEOUT_S) -> QueryResult:
    try:
        completed = subprocess.run([sys.executable, "-m", module], capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return QueryResult(module, None, f"the query did not finish within {timeout_s:.0f} s (a hung driver?)")
    lines = [line for line in completed.stdout.splitlines() if line.startswith("{")]
    if completed.returncode != 0 or not lines:
        tail = (completed.stderr.strip().splitlines() or ["no output"])[-1]
        return QueryResult(module, None, f"the query process failed (exit {completed.returncode}): {tail}")
    try:
        data = json.loads(lines[-1])
    except json.JSONDecodeError as error:
        return QueryResult(module, None, f"the query printed something that is not JSON: {error}")
    if not data.get("available"):
        return QueryResult(module, data, data.get("reason", "not available"))
    return QueryResult(module, data, None)


def query_all() -> dict[str, QueryResult]:
    return {
        "dawn": run_query("coop_lsp.devices.dawn_query"),
        "vulkan": run_query("coop_lsp.devices.vulkan_query"),
        "wgpu": run_query("coop_lsp.devices.wgpu_query"),
    }


def profile_from_dawn(data: dict, name: str = "connected") -> Profile:
    """A captured profile from Dawn's answer."""
    info = data.get("info", {})
    features = data.get("features", [])
    configs = [{"component": c["component_type"], "result": c["result_component_type"], "m": c["m"], "n": c["n"],
                "k": c["k"], "subgroup_size": [c["min_subgroup_size"], c["max_subgroup_size"]]}
               for c in data.get("subgroup_matrix_configs", [])]
    sizes = [s for c in configs for s in c["subgroup_size"]] or [info.get("subgroup_min_size") or 4,
                                                              info.get("subgroup_max_size") or 128]
    raw = {
        "format": FORMAT, "version": VERSION, "name": name, "title": info.get("device") or "unknown adapter",
        "origin": "captured",
        "captured": {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                     "driver": info.get("description", ""), "api": info.get("backend_type", ""),
                     "tool": f"wgpudawn {data.get('wgpudawn', '')}"},
        "sources": ["coop-lint devices --save (Dawn through wgpudawn)"],
        # Dawn runs Tint's dialects anywhere; naga's (wgpu-native) only on Vulkan and Metal.
        "dialects": [d.name for d in DIALECTS_BY_PRECEDENCE
                     if d.compiler == "tint" or info.get("backend_type") in ("Vulkan", "Metal")],
        "subgroup_size": {"min": min(sizes), "max": max(sizes)},
        "features": features,
        "matrix_configs": configs,
    }
    return parse_profile(raw, "the connected adapter")


def connected_profile() -> tuple[Profile | None, str | None]:
    result = run_query("coop_lsp.devices.dawn_query")
    if result.problem is not None:
        return None, f"no adapter could be queried through Dawn: {result.problem}"
    return profile_from_dawn(result.data), None
