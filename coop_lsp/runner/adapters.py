"""Every adapter of a host, each with a stable identity, so that a run can be sent to one GPU of several.

    python -m coop_lsp.runner.adapters     # prints one JSON list: the adapters Dawn and wgpu-native see

An identity is {"index", "uuid", "device", "backend"}: `index` counts the distinct physical devices of
the API's Vulkan adapters in the loader's order (the same order for Dawn and wgpu-native, since both ask
one Vulkan loader), `uuid` is the Vulkan device UUID where the API tells it (Dawn does; wgpu-native
does not). A run names its adapter as "uuid:<hex>" or "index:<n>" (worker.pick_adapter).

Why not the public enumeration: wgpudawn's enumerate_adapters keeps one adapter per (backend, vendor,
device id, name), so two GPUs of the same model collapse into the first; the raw list Dawn gives
(`_enumerate_all_adapters`) has each of them, told apart by their UUIDs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

LIST_TIMEOUT_S = 30.0


def _dawn_adapters(gpu_module) -> list:
    gpu = gpu_module.gpu
    raw = getattr(gpu, "_enumerate_all_adapters", None)
    adapters = raw() if raw is not None else gpu.enumerate_adapters_sync()
    return [a for a in adapters if a.info.get("backend_type") != "Null"]


def _dawn_uuid(adapter) -> str:
    try:
        from wgpudawn.backends.dawn import extras

        uuids = extras.get_adapter_properties(adapter).get("vulkan_uuids") or {}
        return bytes(uuids.get("device_uuid", b"")).hex()
    except Exception:  # noqa: BLE001 - an adapter without a UUID is still usable by index
        return ""


def list_adapters(gpu_module, api: str) -> list[tuple[dict, object]]:
    """[(identity, adapter)] for `api` ("dawn" or "wgpu"), Vulkan adapters first; a physical device that
    the API lists more than once appears once."""
    adapters = _dawn_adapters(gpu_module) if api == "dawn" else gpu_module.gpu.enumerate_adapters_sync()
    vulkan = [a for a in adapters if str(a.info.get("backend_type", "")) == "Vulkan"]
    chosen = vulkan or list(adapters)
    out, seen = [], set()
    for adapter in chosen:
        info = adapter.info
        uuid = _dawn_uuid(adapter) if api == "dawn" else ""
        # Without a UUID, two listings of one device cannot be told from two devices of one model:
        # each listing counts (wgpu-native lists each Vulkan physical device once).
        key = uuid or id(adapter)
        if key in seen:
            continue
        seen.add(key)
        out.append(({"index": len(out), "uuid": uuid, "device": str(info.get("device", "")),
                     "backend": str(info.get("backend_type", "")),
                     "adapter_type": str(info.get("adapter_type", ""))}, adapter))
    return out


def _list(api: str) -> list[dict]:
    try:
        if api == "dawn":
            import wgpudawn as gpu_module
            from wgpudawn.backends.dawn import extras

            extras.set_instance_extras(enable_toggles=["allow_unsafe_apis", "vulkan_enable_f16_on_nvidia"])
        else:
            import wgpu as gpu_module
    except ImportError:
        return []
    return [identity for identity, _ in list_adapters(gpu_module, api)]


def query_adapters(timeout_s: float = LIST_TIMEOUT_S) -> dict[str, list[dict]] | str:
    """{"dawn": [...], "wgpu": [...]} from a child process (a driver that hangs costs only it), or the
    reason there is no answer."""
    env = {k: v for k, v in os.environ.items() if k != "WGPU_BACKEND_TYPE"}
    try:
        done = subprocess.run([sys.executable, "-m", "coop_lsp.runner.adapters"], capture_output=True,
                              text=True, timeout=timeout_s, env=env)
    except subprocess.TimeoutExpired:
        return f"listing the adapters did not finish within {timeout_s:.0f} s"
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return f"listing the adapters failed (exit {done.returncode}): {done.stderr.strip()[-300:]}"
    return json.loads(lines[-1])


def main() -> None:
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # drivers print to stdout
    out = {}
    for api in ("dawn", "wgpu"):
        try:
            out[api] = _list(api)
        except Exception as error:  # noqa: BLE001 - one API failing leaves the other's answer
            print(f"{api}: {type(error).__name__}: {error}", file=sys.stderr)
            out[api] = []
    channel.write(json.dumps(out) + "\n")
    channel.flush()


if __name__ == "__main__":
    main()
