"""Edge tiles: a kernel run at sizes that are not multiples of its tiles.

    variants = edge_variants(run_path)       # M = 63, 65, 49; N = ...; K = ...
    results = run_sweep(kernel, run_path, variants, backend="emulate")

A kernel that handles partial tiles says so with a dispatch that rounds up
(`cdiv(N, 16)`); one less, one more and an odd size of each of the gemm's
M, N and K then have to give correct results. This is where a clamped or
unguarded load reads the wrong tile. A dispatch that divides exactly cannot
cover such sizes, and --edges says so before running anything.
"""

from __future__ import annotations

from pathlib import Path

from .description import RunDescription, RunDescriptionError, load_run_description

EDGE_NAMES = ("M", "N", "K")


def edge_sizes(value: int) -> list[int]:
    """One less, one more, and an odd size near three quarters of `value`."""
    odd = (value * 3 // 4) | 1
    return sorted({v for v in (value - 1, value + 1, odd) if v >= 1 and v != value})


def edge_variants(run_path: Path, workspace: Path | None = None, fixed: dict | None = None,
                  names: tuple[str, ...] = EDGE_NAMES) -> list[dict[str, int]]:
    """Every edge variant of the description's sizes `names` (M, N and K by default), each checked to
    parse; a variant the dispatch (or a binding size) cannot cover raises RunDescriptionError naming the key."""
    base = load_run_description(run_path, workspace, fixed)
    unknown = [name for name in names if name not in base.sizes]
    if names != EDGE_NAMES and unknown:
        raise RunDescriptionError(f"--edges: {unknown[0]} is not a size of {run_path.name} (sizes: "
                                  f"{', '.join(base.sizes) or 'none'})")
    names = [name for name in names if name in base.sizes and name not in (fixed or {})]
    if not names:
        raise RunDescriptionError(f"--edges: {run_path.name} has no [sizes] named M, N or K to vary")
    variants = []
    for name in names:
        for value in edge_sizes(base.sizes[name]):
            values = {name: value}
            try:
                described = load_run_description(run_path, workspace, {**(fixed or {}), **values})
            except RunDescriptionError as error:
                raise RunDescriptionError(f"--edges {name} = {value}: {error} (the dispatch cannot cover an edge "
                                          "size; round it up with cdiv if the kernel handles partial tiles)") \
                    from None
            _check_covered(described, name, value, run_path)
            variants.append(values)
    return variants


def _check_covered(desc: RunDescription, name: str, value: int, run_path: Path) -> None:
    if desc.check.kind != "gemm":
        return
    c = desc.check
    for binding, need in ((c.a, c.m * c.k), (c.b, c.k * c.n), (c.c, c.m * c.n)):
        found = next((b for b in desc.bindings if b.name == binding), None)
        if found is not None and found.fields is None and found.size < need:
            raise RunDescriptionError(f"--edges {name} = {value}: {run_path.name}: {found.key}.size: {found.size} "
                                      f"elements, fewer than the {need} the check needs")
