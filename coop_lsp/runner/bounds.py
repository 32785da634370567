"""Bounds checks judged, not just timed: the kernel run again without them, and the results compared.

A kernel that stays in bounds computes the same results whatever an
out-of-bounds access would have done. So the second run changes exactly
that: every storage buffer gets canary bytes after its data (an
out-of-bounds read now sees them, not zeros; an out-of-bounds write lands
in them), and on Dawn the device also drops its bounds checks
(`disable_robustness`). Dawn's checks clamp an index to the last element,
and once moved an out-of-bounds `subgroupMatrixLoad` to offset 0 (the wrong
tile); both runs then disagree. Results that differ, or canaries that
changed, mean the kernel reads or writes out of bounds.

Runtime-sized arrays grow by the padding (arrayLength sees it), so a kernel
that guards its reads with arrayLength reads canaries legitimately; the
report names the buffer so that the author can tell.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CANARY = 0x47  # f32 51015.3, f16 7.28, i32/u32 1195853639: finite, and far from typical data
PADDING_BYTES = 4096


@dataclass
class BoundsComparison:
    second_run: str  # what the second run changed
    differs: list[dict] = field(default_factory=list)  # {"name", "index", "with", "without", "count"}
    written_past_end: list[dict] = field(default_factory=list)  # {"name", "bytes"}
    error: str = ""  # the second run failed: why

    @property
    def in_bounds(self) -> bool:
        return not self.differs and not self.written_past_end and not self.error

    def lines(self) -> list[str]:
        if self.error:
            return [f"bounds checks: the run {self.second_run} failed: {self.error}"]
        if self.in_bounds:
            return [f"bounds checks: the same results {self.second_run}; no out-of-bounds access was seen"]
        out = []
        for d in self.differs:
            out.append(f"bounds checks: '{d['name']}' differs {self.second_run} at {d['count']} element(s) (first "
                       f"[{d['index']}]: {d['with']:.6g} with, {d['without']:.6g} without): the kernel reads out of "
                       "bounds, and what it reads there decides its results")
        for w in self.written_past_end:
            out.append(f"bounds checks: {w['bytes']} byte(s) past the end of '{w['name']}' were written: the kernel "
                       "writes out of bounds (with bounds checks those writes are dropped or moved)")
        return out


def compare_runs(first: dict, second: dict, tails: dict, second_run: str) -> BoundsComparison:
    """`first` and `second`: the written buffers (name -> array) of the run with bounds checks and of the
    run without them; `tails`: the canary bytes after each written buffer in the second run."""
    import numpy as np

    out = BoundsComparison(second_run)
    for name, with_checks in first.items():
        without = second.get(name)
        if without is None:
            continue
        a = np.asarray(with_checks).reshape(-1)
        b = np.asarray(without).reshape(-1)
        same = (a == b) | (np.isnan(a) & np.isnan(b)) if a.dtype.kind == "f" else a == b
        if not same.all():
            index = int(np.argmin(same))
            out.differs.append({"name": name, "index": index, "with": float(a[index]),
                                "without": float(b[index]), "count": int((~same).sum())})
    for name, tail in tails.items():
        changed = sum(1 for byte in tail if byte != CANARY)
        if changed:
            out.written_past_end.append({"name": name, "bytes": changed})
    return out
