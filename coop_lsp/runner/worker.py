"""Child process that runs one kernel: `python -m coop_lsp.runner.worker JOB_DIR`.

Reads JOB_DIR/job.json and the input arrays (JOB_DIR/in_<g>_<b>.bin), creates
the device (Dawn through wgpudawn, or wgpu-native through wgpu), compiles,
dispatches once for the results, then warm-up and timed repetitions, and
writes JOB_DIR/out_<g>_<b>.bin and JOB_DIR/result.json. Before each step it
writes the step's name to JOB_DIR/stage, so that a parent that kills it after
a time-out can say where it hung.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

DAWN_INSTANCE_TOGGLES = ["allow_unsafe_apis", "vulkan_enable_f16_on_nvidia"]
DAWN_MATRIX_FEATURES = ["subgroups", "chromium-experimental-subgroup-matrix", "shader-f16"]


_T0 = time.perf_counter()


def _stage(job_dir: Path, name: str) -> None:
    (job_dir / "stage").write_text(name)
    print(f"[{time.perf_counter() - _T0:8.3f} s] {name}", file=sys.stderr, flush=True)


def pick_adapter(gpu_module, api: str, wanted: str):
    """The adapter whose identity (adapters.adapter_identities) is `wanted`: "uuid:..." or "index:N"."""
    from .adapters import list_adapters

    found = list_adapters(gpu_module, api)
    # "uuid:X,index:N": the UUID where the API tells it (Dawn), else the index (wgpu-native).
    for alternative in wanted.split(","):
        for identity, adapter in found:
            if alternative.strip() in (identity["uuid"] and f"uuid:{identity['uuid']}", f"index:{identity['index']}"):
                return adapter
    names = ", ".join(f"index:{i['index']} uuid:{i['uuid'] or '?'} ({i['device']})" for i, _ in found) or "none"
    raise RuntimeError(f"no {api} adapter is {wanted} (found: {names})")


def _open(job: dict):
    api = job["api"]
    wanted = set(job.get("features", []))
    if api == "dawn":
        import wgpudawn as gpu_module
        from wgpudawn.backends.dawn import extras

        extras.set_instance_extras(enable_toggles=DAWN_INSTANCE_TOGGLES)
        adapter = (pick_adapter(gpu_module, "dawn", job["adapter"]) if job.get("adapter") is not None
                   else gpu_module.gpu.request_adapter_sync(power_preference="high-performance"))
        if adapter is None:
            raise RuntimeError("Dawn found no adapter")
        available = set(adapter.features)
        missing = sorted(f for f in wanted if f not in available)
        if missing:
            raise RuntimeError(f"the Dawn adapter ({adapter.info.get('device', '?')}) lacks {', '.join(missing)}")
        features = sorted(wanted | ({"timestamp-query"} & available))
        toggles = ([] if job.get("robustness", True) else ["disable_robustness"]) + list(job.get("toggles", []))
        # Dawn rounds timestamps down to multiples of 2^16 ns by default (against
        # timing attacks in browsers); a kernel profiler needs them exact.
        device = extras.request_device_sync(adapter, required_features=features,
                                            required_limits=_largest_limits(adapter), enable_toggles=toggles,
                                            disable_toggles=["timestamp_quantization"])
        configs = []
        try:
            configs = extras.get_adapter_properties(adapter).get("subgroup_matrix_configs", [])
        except Exception:  # noqa: BLE001 - informational only
            pass
        return gpu_module, adapter, device, features, {"subgroup_matrix_configs": configs}
    import wgpu as gpu_module

    adapter = (pick_adapter(gpu_module, "wgpu", job["adapter"]) if job.get("adapter") is not None
               else gpu_module.gpu.request_adapter_sync(power_preference="high-performance"))
    if adapter is None:
        raise RuntimeError("wgpu-native found no adapter (on a CPU-only machine install mesa-vulkan-drivers)")
    available = set(adapter.features)
    aliases = {"subgroups": "subgroup"}
    features = set()
    for f in wanted:
        name = f if f in available else aliases.get(f, f)
        if name not in available:
            raise RuntimeError(f"the wgpu-native adapter ({adapter.info.get('device', '?')}) lacks {f}")
        features.add(name)
    features |= {"timestamp-query"} & available
    device = adapter.request_device_sync(required_features=sorted(features), required_limits=_largest_limits(adapter))
    return gpu_module, adapter, device, sorted(features), {}


# WebGPU's defaults (16 KiB of workgroup memory, 256 invocations) are far below
# what tiled matrix kernels use on real GPUs; a runner should offer what the
# adapter has, as a native program would get.
_RAISED_LIMITS = ("max-compute-workgroup-storage-size", "max-compute-invocations-per-workgroup",
                  "max-compute-workgroup-size-x", "max-compute-workgroup-size-y", "max-compute-workgroup-size-z",
                  "max-compute-workgroups-per-dimension", "max-storage-buffer-binding-size", "max-buffer-size",
                  "max-storage-buffers-per-shader-stage")


def _largest_limits(adapter) -> dict:
    limits = dict(adapter.limits)
    return {name: limits[name] for name in _RAISED_LIMITS if name in limits}


def run(job_dir: Path) -> dict:
    job = json.loads((job_dir / "job.json").read_text())
    _stage(job_dir, "opening the device")
    gpu_module, adapter, device, features, extra = _open(job)
    info = dict(adapter.info)
    result: dict = {"adapter": {k: str(v) for k, v in info.items()}, "features": features, **extra}
    # Written now so that a run killed later (time limit, signal, lost device) still names its adapter.
    (job_dir / "adapter.json").write_text(json.dumps(result["adapter"]))
    usage = gpu_module.BufferUsage
    if job["api"] == "dawn" and "subgroups" in features:
        result["subgroups"] = _subgroup_sizes(gpu_module, adapter, device, job)

    _stage(job_dir, "compiling the kernel")
    module = device.create_shader_module(code=job["code"])
    try:
        messages = module.get_compilation_info_sync()
        result["compilation"] = [{"severity": m.type, "line": m.line_num, "column": m.line_pos,
                                  "message": m.message} for m in getattr(messages, "messages", messages)]
    except Exception:  # noqa: BLE001 - not every backend reports them
        result["compilation"] = []

    _stage(job_dir, "creating the pipeline")
    entries, buffers, layout_entries = [], {}, {}
    for b in job["bindings"]:
        data = (job_dir / b["input"]).read_bytes()
        size = max(4, (len(data) + 3) // 4 * 4)
        data = data + bytes(size - len(data))
        # Canary bytes after the data (coop_lsp.runner.bounds): an out-of-bounds read sees them instead of
        # the driver's zeros, and an out-of-bounds write changes them.
        data += bytes([b.get("canary", 0)]) * int(b.get("padding", 0))
        size = len(data)
        if b["space"] == "uniform":
            flags = usage.UNIFORM | usage.COPY_DST
            kind = "uniform"
        else:
            flags = usage.STORAGE | usage.COPY_SRC | usage.COPY_DST
            kind = "read-only-storage" if b["access"] == "read" else "storage"
        buffer = device.create_buffer_with_data(data=data, usage=flags)
        buffers[(b["group"], b["binding"])] = buffer
        layout_entries.setdefault(b["group"], []).append(
            {"binding": b["binding"], "visibility": gpu_module.ShaderStage.COMPUTE, "buffer": {"type": kind}})
        entries.append((b["group"], {"binding": b["binding"], "resource": {"buffer": buffer, "offset": 0,
                                                                          "size": size}}))
    groups = max(layout_entries) + 1 if layout_entries else 0
    layouts = [device.create_bind_group_layout(entries=layout_entries.get(g, [])) for g in range(groups)]
    pipeline_layout = device.create_pipeline_layout(bind_group_layouts=layouts)
    compute = {"module": module, "entry_point": job["entry_point"]}
    if job.get("overrides"):
        compute["constants"] = job["overrides"]
    pipeline = device.create_compute_pipeline(layout=pipeline_layout, compute=compute)
    bind_groups = [device.create_bind_group(layout=layouts[g], entries=[e for gg, e in entries if gg == g])
                   for g in range(groups)]
    x, y, z = job["dispatch"]

    def encode_pass(encoder, timestamps=None):
        kwargs = {"timestamp_writes": timestamps} if timestamps else {}
        compute_pass = encoder.begin_compute_pass(**kwargs)
        compute_pass.set_pipeline(pipeline)
        for g, group in enumerate(bind_groups):
            compute_pass.set_bind_group(g, group)
        compute_pass.dispatch_workgroups(x, y, z)
        compute_pass.end()

    def batch(count: int, query_set=None):
        # One pass per dispatch: passes are ordered, so repetitions never overlap.
        encoder = device.create_command_encoder()
        for i in range(count):
            timestamps = None
            if query_set is not None:
                timestamps = {"query_set": query_set, "beginning_of_pass_write_index": 2 * i,
                              "end_of_pass_write_index": 2 * i + 1}
            encode_pass(encoder, timestamps)
        return encoder

    sync_buffer = device.create_buffer(size=4, usage=usage.COPY_SRC | usage.COPY_DST)

    def wait():
        # Mapping a buffer waits for everything submitted before it (wgpu 0.32's
        # on_submitted_work_done_sync fails with a cffi signature mismatch).
        device.queue.read_buffer(sync_buffer)

    def host_ms(passes: int, query_set=None) -> float:
        """The host clock around one submission of `passes` passes; they are recorded before the clock
        starts, since recording hundreds of passes from Python takes milliseconds the GPU never sees."""
        commands = batch(passes, query_set).finish()
        start = time.perf_counter()
        device.queue.submit([commands])
        wait()
        return (time.perf_counter() - start) * 1e3

    _stage(job_dir, "running the kernel")
    device.queue.submit([batch(1).finish()])
    wait()

    _stage(job_dir, "reading the results back")
    for b in job["bindings"]:
        if b.get("output"):
            data = device.queue.read_buffer(buffers[(b["group"], b["binding"])])
            (job_dir / b["output"]).write_bytes(bytes(data))

    _stage(job_dir, "timing the kernel")
    warmup = max(0, int(job.get("warmup", 0)))
    if warmup:
        device.queue.submit([batch(warmup).finish()])
        wait()
    reps = max(1, int(job.get("repetitions", 1)))
    use_timestamps = "timestamp-query" in features and job.get("timestamps", True)
    # The timed repetitions go back to back in one submission, as a real
    # workload would run, each pass between its own pair of timestamps.
    query_set = device.create_query_set(type="timestamp", count=2 * reps) if use_timestamps else None
    batch_ms = host_ms(reps, query_set)
    gpu_times = _resolve_timestamps(device, usage, query_set, reps) if use_timestamps else []
    result["gpu_ms"] = gpu_times

    # An independent measurement of the same dispatch: the host clock around a
    # batch long enough (about 50 ms) that submission and completion costs
    # vanish into it. It checks the timestamps, and stands in for them where
    # the adapter has none.
    estimate = statistics.median(gpu_times) if gpu_times else batch_ms / reps
    count = max(1, min(int(50.0 / max(estimate, 1e-3)), int(job.get("max_independent_dispatches", 2000))))
    result["independent"] = {"dispatches": count, "wall_ms": host_ms(count)}
    _stage(job_dir, "done")
    return result


def _subgroup_sizes(gpu_module, adapter, device, job: dict) -> dict:
    """The subgroup size Dawn's adapter runs a pipeline like the kernel's with (same workgroup size, same pin),
    read back from a probe that stores @builtin(subgroup_size); and the range the adapter reports."""
    out = {"range": {k: int(v) for k, v in dict(adapter.limits).items() if "subgroup" in k and str(v).isdigit()}}
    out["range"].update({k: int(v) for k, v in dict(adapter.info).items() if "subgroup" in k and str(v).isdigit()})
    pinned = job.get("subgroup_size")
    invocations = max(1, int(job.get("workgroup_invocations") or 64))
    code = ("enable subgroups;\n" + ("enable subgroup_size_control;\n" if pinned else "")
            + "@group(0) @binding(0) var<storage, read_write> seen: array<u32, 2>;\n"
            + f"@compute @workgroup_size({invocations})" + (f" @subgroup_size({pinned})" if pinned else "")
            + "\nfn main(@builtin(subgroup_size) size: u32, @builtin(local_invocation_index) i: u32) {\n"
            + "  if (i == 0u) { seen[0] = size; }\n  if (i == 0u) { seen[1] = 1u; }\n}\n")
    try:
        usage = gpu_module.BufferUsage
        buffer = device.create_buffer(size=8, usage=usage.STORAGE | usage.COPY_SRC)
        pipeline = device.create_compute_pipeline(layout="auto", compute={
            "module": device.create_shader_module(code=code), "entry_point": "main"})
        group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0),
                                         entries=[{"binding": 0, "resource": {"buffer": buffer}}])
        encoder = device.create_command_encoder()
        compute_pass = encoder.begin_compute_pass()
        compute_pass.set_pipeline(pipeline)
        compute_pass.set_bind_group(0, group)
        compute_pass.dispatch_workgroups(1, 1, 1)
        compute_pass.end()
        device.queue.submit([encoder.finish()])
        raw = bytes(device.queue.read_buffer(buffer))
        if int.from_bytes(raw[4:8], "little") == 1:
            out["used"] = int.from_bytes(raw[:4], "little")
    except Exception as error:  # noqa: BLE001 - informational: the kernel's own run decides the verdict
        out["probe_error"] = f"{type(error).__name__}: {error}"[:300]
    return out


def _resolve_timestamps(device, usage, query_set, reps: int) -> list[float]:
    resolve = device.create_buffer(size=16 * reps, usage=usage.QUERY_RESOLVE | usage.COPY_SRC)
    encoder = device.create_command_encoder()
    encoder.resolve_query_set(query_set, 0, 2 * reps, resolve, 0)
    device.queue.submit([encoder.finish()])
    raw = bytes(device.queue.read_buffer(resolve))
    values = [int.from_bytes(raw[8 * j:8 * j + 8], "little") for j in range(2 * reps)]
    times = [(values[2 * i + 1] - values[2 * i]) / 1e6 for i in range(reps)]
    # Some drivers write zeros (or go backwards) when the pass was too short to
    # measure; then the timestamps say nothing.
    return times if all(t > 0 for t in times) else []


def main() -> None:
    job_dir = Path(sys.argv[1])
    _die_with_parent()
    # Keep stdout free for nothing; drivers may print to it.
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        result = run(job_dir)
        result["ok"] = True
    except Exception as error:  # noqa: BLE001 - every failure goes to the parent as a report
        stage = (job_dir / "stage").read_text() if (job_dir / "stage").exists() else "starting"
        result = {"ok": False, "stage": stage, "error": f"{type(error).__name__}: {error}"}
    (job_dir / "result.json").write_text(json.dumps(result))


PARENT_ENV = "COOP_LSP_RUNNER_PARENT"


def _die_with_parent() -> None:
    """The worker leads its own process group so that a time-out kills all of it; the price is that a
    parent killed outright (SIGKILL, a crash, a server whose client vanished) takes nothing with it, and a
    hanging kernel would keep the CPU or GPU busy forever. So the worker watches for its parent's death."""
    import signal
    import threading

    parent = os.environ.get(PARENT_ENV)
    if not parent or os.getpgrp() != os.getpid():
        return  # started by hand: nothing to watch, and no group of our own to kill

    def watch() -> None:
        while os.getppid() == int(parent):
            time.sleep(0.25)
        os.killpg(0, signal.SIGKILL)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


if __name__ == "__main__":
    main()
