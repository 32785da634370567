"""Tune targets: a device profile, where its runs go (an engine resource), and how they run there.

A target is named by its device profile. Its runs need a worker that advertises the resource
`gpu:<profile>` (an adapter the profile describes) or, for CPU emulation, `cpu:lavapipe`: Mesa's
CPU Vulkan driver runs every dialect emulated (coop_lsp/runner/lowering.py), never on matrix hardware.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .space import TuneError

EMULATION_PROFILES = {"lavapipe"}


@dataclass(frozen=True)
class Target:
    name: str  # the device profile's name
    title: str  # the adapter name the profile is of ("NVIDIA H100 80GB HBM3")

    @property
    def emulated(self) -> bool:
        return self.name in EMULATION_PROFILES

    @property
    def resource(self) -> str:
        return f"cpu:{self.name}" if self.emulated else f"gpu:{self.name}"

    @property
    def backend(self) -> str:
        return "emulate" if self.emulated else "dawn"


def resolve(names: list[str], project: Path | None = None) -> list[Target]:
    from ...devices.profiles import resolve_targets

    profiles, problems = resolve_targets(names, project)
    if len(profiles) < len(names):
        # The problems of the names asked for; a broken profile file nobody asked for does not stop a tune.
        named = [p for p in problems if any(f"'{n}'" in p for n in names)]
        raise TuneError((named or problems or ["unknown target"])[0])
    return [Target(p.name, p.title) for p in profiles]


def resource_of(device: str) -> str | None:
    """The resource an adapter of this name provides: its profile's, where a shipped profile names it."""
    from ...devices.profiles import shipped_profiles

    name = device.strip().lower()
    if "llvmpipe" in name or "lavapipe" in name:
        return "cpu:lavapipe"
    for profile in shipped_profiles().values():
        if profile.title.lower() == name:
            return f"gpu:{profile.name}"
    return None


def local_adapters() -> dict[str, list[str]]:
    """resource -> the adapter selectors (worker.pick_adapter) of this host's adapters that provide it.
    An adapter no shipped profile names provides nothing: a tune cannot say what its peak is."""
    from ..adapters import query_adapters

    found = query_adapters()
    if isinstance(found, str):
        raise TuneError(found)
    out: dict[str, list[str]] = {}
    dawn = {a["index"]: a for a in found.get("dawn", [])}
    for identity in found.get("wgpu", []) or found.get("dawn", []):
        resource = resource_of(identity["device"])
        if resource is None:
            continue
        selector = f"index:{identity['index']}"
        twin = dawn.get(identity["index"])
        if twin is not None and twin["device"] == identity["device"] and twin["uuid"]:
            selector = f"uuid:{twin['uuid']},{selector}"
        out.setdefault(resource, []).append(selector)
    # Dawn may see GPUs wgpu-native is not installed for; they count too.
    for identity in found.get("dawn", []):
        resource = resource_of(identity["device"])
        if resource is not None and resource not in out:
            out.setdefault(resource, []).append(f"uuid:{identity['uuid']},index:{identity['index']}")
    return out
