"""The search space of a tune: every variant of a kernel the user asks to compare.

Three sources multiply (docs/tune.md):
- the configured variant sets of a template (`[[tool.coop-lint.variants]]`), all of them or those named;
- define axes, `-D NAME=v1,v2,...` on the command line or `[tune] defines` in the run description;
- size axes, `--sweep NAME=v1,v2,...` or `[tune] sizes`: [sizes] entries of the run description.

The run description's `[tune]` section:

    [tune]
    targets = ["nvidia-h100", "lavapipe"]        # device profiles (the configuration's targets otherwise)
    variants = ["16x16-f32", "16x16-f16"]         # configured sets to compare (default: every set)
    defines = { WORKGROUP_SIZE = ["32u", "64u"] } # define axes
    sizes = { BM = [64, 128], BK = [16, 32] }     # size axes
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..description import RunDescriptionError

TUNE_KEYS = {"targets", "variants", "defines", "sizes"}


class TuneError(ValueError):
    """A mistake in the search space, the targets or the result file; the message says which."""


@dataclass(frozen=True)
class Candidate:
    """One point of the space: a configured set (or none), its defines, and [sizes] values."""

    variant: str | None
    defines: tuple[tuple[str, str], ...]
    sizes: tuple[tuple[str, int], ...]
    # The define axes' own values, to name the candidate; `defines` also holds the set's and [template]'s.
    axis_defines: tuple[tuple[str, str], ...] = ()
    # How the template expands (from the variant tables); the same for every candidate of one kernel.
    include: tuple[str, ...] = field(default=(), compare=False)
    override_file_defines: bool = field(default=False, compare=False)

    @property
    def label(self) -> str:
        parts = ([self.variant] if self.variant else []) + [f"{k}={v}" for k, v in self.axis_defines] \
            + [f"{k}={v}" for k, v in self.sizes]
        return " ".join(parts) or "(as described)"

    @property
    def key(self) -> str:
        """Stable across runs and machines: what a result file resumes by."""
        text = json.dumps([self.variant, sorted(self.defines), sorted(self.sizes)])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_json(self) -> dict:
        return {"variant": self.variant, "defines": dict(self.defines), "sizes": dict(self.sizes),
                "label": self.label, "key": self.key}


@dataclass
class TuneSection:
    targets: list[str] = field(default_factory=list)
    variants: list[str] | None = None
    defines: dict[str, list[str]] = field(default_factory=dict)
    sizes: dict[str, list[int]] = field(default_factory=dict)


def _strings(value, key: str) -> list[str]:
    values = value if isinstance(value, list) else [value]
    out = []
    for v in values:
        if isinstance(v, bool):
            out.append("true" if v else "false")
        elif isinstance(v, (int, float, str)):
            out.append(str(v))
        else:
            raise TuneError(f"{key}: expected a string, a number or a list of them")
    if not out:
        raise TuneError(f"{key}: expected at least one value")
    return out


def read_tune_section(run_path: Path) -> TuneSection:
    """The run description's [tune] table (empty when absent); every mistake names its key."""
    try:
        data = tomllib.loads(run_path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise TuneError(f"{run_path.name}: {error}") from None
    table = data.get("tune", {})
    if not isinstance(table, dict):
        raise TuneError(f"{run_path.name}: tune: expected a table")
    unknown = sorted(set(table) - TUNE_KEYS)
    if unknown:
        raise TuneError(f"{run_path.name}: tune.{unknown[0]}: unknown key (known: {', '.join(sorted(TUNE_KEYS))})")
    section = TuneSection()
    section.targets = _strings(table["targets"], f"{run_path.name}: tune.targets") if "targets" in table else []
    if "variants" in table:
        section.variants = _strings(table["variants"], f"{run_path.name}: tune.variants")
    for name, values in (table.get("defines") or {}).items():
        section.defines[name] = _strings(values, f"{run_path.name}: tune.defines.{name}")
    for name, values in (table.get("sizes") or {}).items():
        values = values if isinstance(values, list) else [values]
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise TuneError(f"{run_path.name}: tune.sizes.{name}: expected a list of integers")
        section.sizes[name] = values
    return section


def define_axes(arguments: list[str]) -> dict[str, list[str]]:
    """`-D NAME=v1,v2,...` (or `-D NAME`, an empty value) -> {NAME: [values]}; a name given twice is refused."""
    axes: dict[str, list[str]] = {}
    for argument in arguments:
        name, sep, values = argument.partition("=")
        name = name.strip()
        if not name.isidentifier():
            raise TuneError(f"-D {argument}: a define's name must be an identifier")
        if name in axes:
            raise TuneError(f"-D {argument}: {name} is given twice")
        axes[name] = [v.strip() for v in values.split(",")] if sep else [""]
    return axes


def size_axes(arguments: list[str]) -> dict[str, list[int]]:
    from ..sweep import SweepError, parse_assignment

    axes: dict[str, list[int]] = {}
    for argument in arguments:
        try:
            name, values = parse_assignment(argument, many=True)
        except SweepError as error:
            raise TuneError(str(error)) from None
        if name in axes:
            raise TuneError(f"--sweep {argument}: {name} is swept twice")
        axes[name] = values
    return axes


def _product(axes: dict) -> list[tuple]:
    return [tuple(zip(axes, values)) for values in itertools.product(*axes.values())]


def build_space(kernel: Path, run_path: Path, section: TuneSection, defines: dict[str, list[str]],
                sizes: dict[str, list[int]], variant_names: list[str] | None = None) -> list[Candidate]:
    """Every candidate, in a stable order (configured sets, then define axes, then sizes; the last fastest).
    Command-line axes replace the [tune] section's axes of the same name."""
    from ...lint.config import ConfigError, ConfigFinder
    from ...lint.templates import options_for
    from ..description import load_run_description

    try:
        base = load_run_description(run_path)
    except RunDescriptionError as error:
        raise TuneError(str(error)) from None
    unknown = [name for name in {**section.sizes, **sizes} if name not in base.sizes]
    if unknown:
        raise TuneError(f"{unknown[0]}: not a [sizes] entry of {run_path.name} "
                        f"(sizes: {', '.join(base.sizes) or 'none'})")
    define_space = _product({**section.defines, **defines})
    size_space = _product({**section.sizes, **sizes})
    try:
        tables = ConfigFinder().for_path(kernel).settings_for(kernel).variants
    except ConfigError as error:
        raise TuneError(str(error)) from None
    chosen = variant_names if variant_names is not None else section.variants
    if chosen is None and base.template_variant and not tables:
        chosen = [base.template_variant]
    candidates = []
    for axis_defines in define_space:
        merged = {**base.template_defines, **dict(axis_defines)}
        options = options_for(tables, merged, base.template_include, frozenset(chosen) if chosen else None)
        sets = [(v.name, v.define_map) for v in options.variants] if options is not None else [(None, merged)]
        include = tuple(str(d) for d in options.include_dirs) if options is not None else ()
        override = options.override_file_defines if options is not None else False
        if chosen:
            missing = sorted(set(chosen) - {name for name, _ in sets})
            if missing:
                raise TuneError(f"variant set '{missing[0]}': no configured set of that name applies to {kernel}")
        for name, define_map in sets:
            for size_values in size_space:
                candidates.append(Candidate(name, tuple(sorted(define_map.items())), tuple(size_values),
                                            tuple(axis_defines), include, override))
    return candidates
