"""Child process behind TintOracle: reads JSON lines of WGSL, answers with Tint's messages.

Runs on Dawn's Null backend with the features the matrix dialects need, and the shader features
(clip distances, dual-source blending, primitive index, framebuffer fetch) that the Null adapter offers.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

REQUIRED_FEATURES = ["subgroups", "chromium-experimental-subgroup-matrix", "shader-f16", "subgroup-size-control"]
# Shader features coop-lint assumes a device has when no target is configured (D003 checks targets):
# requested too where the adapter offers them, so that Tint judges the language and not the device.
LANGUAGE_FEATURES = ["clip-distances", "dual-source-blending", "primitive-index", "framebuffer-fetch"]


def _open_device():
    os.environ.setdefault("WGPU_BACKEND_TYPE", "Null")
    import wgpudawn
    from wgpudawn.backends.dawn import extras

    extras.set_instance_extras(enable_toggles=["allow_unsafe_apis"])
    adapter = wgpudawn.gpu.request_adapter_sync()
    offered = {str(f) for f in adapter.features}
    return adapter.request_device_sync(
        required_features=REQUIRED_FEATURES + [f for f in LANGUAGE_FEATURES if f in offered])


def _compile(device, source: str) -> list[dict]:
    device.push_error_scope("validation")
    module = device.create_shader_module(code=source)
    info = module.get_compilation_info_sync()
    # The scope only keeps the error out of the device's uncaptured-error
    # handler; the messages themselves come from the compilation info.
    asyncio.run(_settle(device.pop_error_scope_async()))
    return [
        {
            "severity": message.type,
            "line": message.line_num,
            "column": message.line_pos,
            "length": message.length,
            "message": message.message,
        }
        for message in info.messages
    ]


async def _settle(promise) -> None:
    try:
        await promise
    except Exception:  # noqa: BLE001 - the error is already in the messages
        pass


def main() -> None:
    # Dawn prints to stdout ("Forcing backend: Null"); keep our channel clean.
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        device = _open_device()
    except Exception as error:  # noqa: BLE001 - reported to the parent
        channel.write(json.dumps({"ready": False, "error": str(error)}) + "\n")
        return
    channel.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        channel.write(json.dumps({"messages": _compile(device, request["source"])}) + "\n")


if __name__ == "__main__":
    main()
