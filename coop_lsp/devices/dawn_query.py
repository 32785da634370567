"""Child process: asks Dawn (wgpudawn) for the adapter's info, features, limits and subgroup matrix configs.

Prints one JSON object; run through coop_lsp.devices.live with a timeout.
"""

from __future__ import annotations

import json
import os
import sys


def query() -> dict:
    try:
        import wgpudawn
        from wgpudawn.backends.dawn import extras
    except ImportError as error:
        return {"available": False, "reason": f"wgpudawn is not installed ({error})"}
    extras.set_instance_extras(enable_toggles=["allow_unsafe_apis", "vulkan_enable_f16_on_nvidia"])
    try:
        adapter = wgpudawn.gpu.request_adapter_sync(power_preference="high-performance")
    except Exception as error:  # noqa: BLE001 - reported to the parent
        return {"available": False, "reason": str(error).splitlines()[0]}
    info = dict(adapter.info)
    if info.get("backend_type") == "Null":
        return {"available": False, "reason": "only Dawn's Null backend: no GPU adapter"}
    properties = extras.get_adapter_properties(adapter)
    return {
        "available": True,
        "wgpudawn": getattr(wgpudawn, "__version__", "unknown"),
        "info": info,
        "features": sorted(str(f) for f in adapter.features),
        "limits": dict(adapter.limits),
        "subgroup_matrix_configs": properties.get("subgroup_matrix_configs", []),
    }


if __name__ == "__main__":
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # Dawn prints to stdout
    channel.write(json.dumps(query(), default=str) + "\n")
    channel.flush()
