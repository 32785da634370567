"""Child process: asks wgpu-native (PyPI `wgpu`) for the adapter's features, limits and subgroup sizes.

wgpu-native lists its cooperative-matrix feature but cannot enable it from
Python (shared/design.md); the feature's presence is still reported.
"""

from __future__ import annotations

import json
import sys


def query() -> dict:
    try:
        import wgpu
    except ImportError as error:
        return {"available": False, "reason": f"the wgpu package is not installed ({error})"}
    try:
        adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    except Exception as error:  # noqa: BLE001 - reported to the parent
        return {"available": False, "reason": str(error).splitlines()[0]}
    if adapter is None:
        return {"available": False, "reason": "wgpu-native found no adapter"}
    info = dict(adapter.info)
    return {"available": True, "wgpu": getattr(wgpu, "__version__", "unknown"), "info": info,
            "features": sorted(str(f) for f in adapter.features), "limits": dict(adapter.limits)}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(query(), default=str) + "\n")
