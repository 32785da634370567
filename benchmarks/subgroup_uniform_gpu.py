"""Runs the subgroup-uniform kernels that Tint rejects, on a real GPU, and checks their results.

    python -m benchmarks.subgroup_uniform_gpu        # needs a GPU with subgroup matrices (Dawn, Vulkan)

Each kernel of tests/fixtures/subgroup_uniform is compiled with Tint's
uniformity rule switched off, dispatched once, and C is compared with
NumPy's A @ B. Writes benchmarks/results/subgroup_uniform_gpu.json (or
$OUT/subgroup_uniform_gpu.json when OUT is set, as on the device machine).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from tests.fixtures.subgroup_uniform.kernels import KERNELS, source

from .common import machine

M, N, K = 16, 32, 64


def main() -> int:
    import wgpudawn as wgpu
    from wgpudawn.backends.dawn import extras

    extras.set_instance_extras(enable_toggles=["allow_unsafe_apis", "vulkan_enable_f16_on_nvidia"])
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    properties = extras.get_adapter_properties(adapter)
    configs = properties.get("subgroup_matrix_configs", [])
    device = adapter.request_device_sync(
        required_features=["subgroups", "chromium-experimental-subgroup-matrix", "shader-f16"])

    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    expected = a.astype(np.float32) @ b.astype(np.float32)

    results = {}
    for name in KERNELS:
        started = time.perf_counter()
        try:
            module = device.create_shader_module(code=source(name, suppress=True))
            pipeline = device.create_compute_pipeline(layout="auto", compute={"module": module, "entry_point": "main"})
            usage = wgpu.BufferUsage.STORAGE
            buffer_a = device.create_buffer_with_data(data=a.tobytes(), usage=usage)
            buffer_b = device.create_buffer_with_data(data=b.tobytes(), usage=usage)
            buffer_c = device.create_buffer(size=M * N * 4, usage=usage | wgpu.BufferUsage.COPY_SRC)
            bind_group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
                {"binding": 0, "resource": {"buffer": buffer_a}},
                {"binding": 1, "resource": {"buffer": buffer_b}},
                {"binding": 2, "resource": {"buffer": buffer_c}},
            ])
            encoder = device.create_command_encoder()
            compute = encoder.begin_compute_pass()
            compute.set_pipeline(pipeline)
            compute.set_bind_group(0, bind_group)
            compute.dispatch_workgroups(1, 1, 1)
            compute.end()
            device.queue.submit([encoder.finish()])
            got = np.frombuffer(device.queue.read_buffer(buffer_c), dtype=np.float32).reshape(M, N)
            error = float(np.max(np.abs(got - expected)))
            results[name] = {"correct": bool(error < 1e-2), "max_abs_error": error,
                             "seconds": round(time.perf_counter() - started, 4)}
        except Exception as failure:  # noqa: BLE001 - recorded, the next kernel still runs
            results[name] = {"correct": False, "error": f"{type(failure).__name__}: {failure}"[:500]}
        print(name, results[name], flush=True)

    info = adapter.info
    payload = {
        "benchmark": "subgroup_uniform_gpu",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {**machine(), "adapter": info.get("device", ""), "backend": info.get("backend_type", ""),
                    "driver": info.get("description", ""), "subgroup_matrix_configs": len(configs)},
        "figures": results,
        "notes": "C (16x32, f32) = A (16x64, f16) x B (64x32, f16), two subgroups of 32; Tint's "
                 "chromium.subgroup_matrix_uniformity switched off module-wide; compared with NumPy.",
    }
    out_dir = Path(os.environ["OUT"]) if os.environ.get("OUT") else Path(__file__).parent / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "subgroup_uniform_gpu.json").write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if all(r.get("correct") for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
