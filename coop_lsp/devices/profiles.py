"""Device profiles: what a GPU offers kernels, stored as versioned JSON.

Schema (format "coop-lsp-device-profile", version 1), documented in
docs/devices.md:

    name            the target name users write ("nvidia-h100")
    title           human name of the GPU
    origin          "captured" (read from a real adapter) or "documented" (built from vendor tables)
    captured        for captured profiles: date, driver, api, tool
    sources         citations: where each documented fact comes from
    dialects        matrix dialects whose kernels can run there: "chromium", "standard", "wgpu"
    subgroup_size   {"min": n, "max": n}
    features        WebGPU feature names ("shader-f16", "subgroups", ...)
    matrix_configs  [{"component", "result", "m", "n", "k", "subgroup_size": [min, max]}]:
                    A (M x K) x B (K x N) + C (M x N), element types as WGSL names
    peak            {"tflops": {element type: number}, "memory_gbps": number}
    performance     optional facts for the performance rules (coop_lsp/devices/performance.py)

Profiles ship in coop_lsp/devices/profiles/; users add their own with
`coop-lint devices --save NAME` (written to .coop-lint/devices/ in the project).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..semantic.builtins.language import DIALECTS_BY_PRECEDENCE
from .performance import performance_problem

FORMAT = "coop-lsp-device-profile"
VERSION = 1
ELEMENT_TYPES = ("f16", "f32", "bf16", "u8", "i8", "u32", "i32")
DIALECTS = tuple(dialect.name for dialect in DIALECTS_BY_PRECEDENCE)
PROJECT_PROFILES = Path(".coop-lint") / "devices"


class ProfileError(ValueError):
    """A profile file that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class MatrixConfig:
    component: str
    result: str
    m: int
    n: int
    k: int
    subgroup_size: tuple[int, int] = (0, 0)

    def describe(self) -> str:
        return f"{self.component} -> {self.result} at M={self.m}, N={self.n}, K={self.k}"


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    origin: str
    dialects: tuple[str, ...]
    subgroup_min: int
    subgroup_max: int
    features: frozenset[str]
    configs: tuple[MatrixConfig, ...]
    sources: tuple[str, ...] = ()
    captured: dict = field(default_factory=dict)
    path: str = ""
    # The vendor's dense peak throughput per matrix input type (TFLOP/s, or
    # TOPS for integers) and memory bandwidth (GB/s): what the runner's
    # "percentage of peak" divides by. Empty where nobody wrote them down.
    peak_tflops: dict = field(default_factory=dict)
    peak_memory_gbps: float | None = None
    # What the performance rules (P001...) read: occupancy, banks, bounds
    # checks and the measured cost of each rule, every entry with its source.
    # See coop_lsp/devices/performance.py; empty where nobody measured.
    performance: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.title}, {self.origin})"

    def to_json(self) -> dict:
        return {
            "format": FORMAT, "version": VERSION, "name": self.name, "title": self.title, "origin": self.origin,
            "captured": self.captured, "sources": list(self.sources), "dialects": list(self.dialects),
            "subgroup_size": {"min": self.subgroup_min, "max": self.subgroup_max},
            "features": sorted(self.features),
            "matrix_configs": [{"component": c.component, "result": c.result, "m": c.m, "n": c.n, "k": c.k,
                                "subgroup_size": list(c.subgroup_size)} for c in self.configs],
            **({"peak": {"tflops": dict(self.peak_tflops), "memory_gbps": self.peak_memory_gbps}}
               if self.peak_tflops or self.peak_memory_gbps else {}),
            # A copy: whoever edits the JSON must not change the profile.
            **({"performance": json.loads(json.dumps(self.performance))} if self.performance else {}),
        }


def parse_profile(data: object, where: str) -> Profile:
    """Validates a decoded profile; every problem names the file and the key."""
    def fail(key: str, problem: str) -> ProfileError:
        return ProfileError(f"{where}: {key}: {problem}")

    if not isinstance(data, dict):
        raise fail("(top level)", "a profile is a JSON object")
    if data.get("format") != FORMAT:
        raise fail("format", f"expected {FORMAT!r}; this is not a coop-lsp device profile")
    if data.get("version") != VERSION:
        raise fail("version", f"version {data.get('version')!r} is not supported (this coop-lsp reads {VERSION})")
    name = data.get("name")
    if not isinstance(name, str) or not name or not all(c.isalnum() or c in "-_.+" for c in name):
        raise fail("name", "expected a name of letters, digits, '-', '_', '.' or '+'")
    origin = data.get("origin")
    if origin not in ("captured", "documented"):
        raise fail("origin", "expected 'captured' or 'documented'")
    dialects = data.get("dialects", [])
    if not isinstance(dialects, list) or any(d not in DIALECTS for d in dialects):
        raise fail("dialects", f"expected a list drawn from {', '.join(DIALECTS)}")
    size = data.get("subgroup_size", {})
    if not isinstance(size, dict) or not all(isinstance(size.get(k), int) and size[k] > 0 for k in ("min", "max")):
        raise fail("subgroup_size", "expected {\"min\": positive integer, \"max\": positive integer}")
    features = data.get("features", [])
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise fail("features", "expected a list of feature names")
    configs = []
    for index, entry in enumerate(data.get("matrix_configs", [])):
        key = f"matrix_configs[{index}]"
        if not isinstance(entry, dict):
            raise fail(key, "expected an object")
        for element in ("component", "result"):
            if entry.get(element) not in ELEMENT_TYPES:
                raise fail(f"{key}.{element}", f"expected one of {', '.join(ELEMENT_TYPES)}")
        for dimension in ("m", "n", "k"):
            if not isinstance(entry.get(dimension), int) or entry[dimension] <= 0:
                raise fail(f"{key}.{dimension}", "expected a positive integer")
        sizes = entry.get("subgroup_size", [size["min"], size["max"]])
        configs.append(MatrixConfig(entry["component"], entry["result"], entry["m"], entry["n"], entry["k"],
                                    (int(sizes[0]), int(sizes[1]))))
    peak = data.get("peak", {})
    if not isinstance(peak, dict):
        raise fail("peak", "expected {\"tflops\": {element type: number}, \"memory_gbps\": number}")
    tflops = peak.get("tflops", {})
    if not isinstance(tflops, dict) or any(k not in ELEMENT_TYPES or not isinstance(v, (int, float)) or v <= 0
                                           for k, v in tflops.items()):
        raise fail("peak.tflops", f"expected positive numbers keyed by element type ({', '.join(ELEMENT_TYPES)})")
    memory = peak.get("memory_gbps")
    if memory is not None and (not isinstance(memory, (int, float)) or memory <= 0):
        raise fail("peak.memory_gbps", "expected a positive number")
    performance = data.get("performance", {})
    problem = performance_problem(performance)
    if problem is not None:
        raise fail(*problem)
    return Profile(name, str(data.get("title", name)), origin, tuple(dialects), size["min"], size["max"],
                   frozenset(features), tuple(configs), tuple(data.get("sources", [])),
                   dict(data.get("captured", {})), where, {k: float(v) for k, v in tflops.items()},
                   float(memory) if memory is not None else None, performance)


def load_profile(path: Path) -> Profile:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ProfileError(f"{path}: cannot read: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProfileError(f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from None
    return parse_profile(data, str(path))


def shipped_profiles() -> dict[str, Profile]:
    """The profiles that come with coop-lsp, by name (read once per process: every lint with targets asks)."""
    global _shipped
    if _shipped is None:
        _shipped = _read_shipped_profiles()
    return dict(_shipped)


_shipped: dict[str, Profile] | None = None


def _read_shipped_profiles() -> dict[str, Profile]:
    found = {}
    for entry in resources.files("coop_lsp.devices").joinpath("profiles").iterdir():
        if entry.name.endswith(".json"):
            profile = parse_profile(json.loads(entry.read_text(encoding="utf-8")), f"coop_lsp/devices/profiles/{entry.name}")
            found[profile.name] = profile
    return found


def available_profiles(project: Path | None = None) -> tuple[dict[str, Profile], list[str]]:
    """Shipped profiles plus the project's saved ones (which win); problems with files as messages."""
    profiles = dict(shipped_profiles())
    problems = []
    folder = (project or Path.cwd()) / PROJECT_PROFILES
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            try:
                profile = load_profile(path)
            except ProfileError as error:
                problems.append(str(error))
                continue
            profiles[profile.name] = profile
    return profiles, problems


def resolve_targets(names: tuple[str, ...] | list[str], project: Path | None = None) -> tuple[list[Profile], list[str]]:
    """Profiles for target names; unknown names and broken files come back as messages."""
    profiles, problems = available_profiles(project)
    chosen = []
    for name in names:
        if name == "connected":
            from .live import connected_profile

            profile, problem = connected_profile()
            if profile is not None:
                chosen.append(profile)
            else:
                problems.append(f"target 'connected': {problem}")
            continue
        if name not in profiles:
            known = ", ".join(sorted(profiles))
            problems.append(f"unknown target '{name}'; known targets: {known}, connected")
            continue
        chosen.append(profiles[name])
    return chosen, problems
