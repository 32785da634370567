"""Dumps what Dawn reports about the adapter: info, features, limits, subgroup matrix configs.

    python -m benchmarks.adapter_properties      # on a machine with a GPU

Raw material for device profiles; writes $OUT/adapter_dawn.json or
benchmarks/results/adapter_dawn.json.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path


def main() -> None:
    import wgpudawn as wgpu
    from wgpudawn.backends.dawn import extras

    extras.set_instance_extras(enable_toggles=["allow_unsafe_apis", "vulkan_enable_f16_on_nvidia"])
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    properties = extras.get_adapter_properties(adapter)
    payload = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "wgpudawn": getattr(wgpu, "__version__", "unknown"),
        "info": {k: v for k, v in dict(adapter.info).items()},
        "features": sorted(str(f) for f in adapter.features),
        "limits": {k: v for k, v in dict(adapter.limits).items()},
        "properties": json.loads(json.dumps(properties, default=str)),
    }
    out_dir = Path(os.environ["OUT"]) if os.environ.get("OUT") else Path(__file__).parent / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "adapter_dawn.json").write_text(json.dumps(payload, indent=2) + "\n")
    print(json.dumps(payload["info"]), len(payload["properties"].get("subgroup_matrix_configs", [])), "configs")


if __name__ == "__main__":
    main()
