"""What a performance finding may promise: the measured pairs like the kernel in front of it, as a range.

A rule's cost on a target is a list of measured slow/fixed pairs (devices/performance.py), each recording
the rule's own facts about its slow kernel (`where`). A finding computes the same facts about the kernel
being linted and quotes only the pairs measured in the same situation:
  - facts that are not numbers (whether an indexing loop has a constant trip count) must agree;
  - of one numeric fact (bytes of matrices a lane, rows to a bank, workgroups that fit), the pairs
    nearest below and above the kernel's value bracket it, and the quote is their range. A kernel beyond
    every pair is quoted with the nearest pair only: no finding extrapolates past what was measured.
When no pair was measured in the kernel's situation, the finding says so and gives every pair's figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...devices.performance import Pair, RuleCost
from .rules import MEANINGFUL_SLOWDOWN


@dataclass(frozen=True)
class Quote:
    pairs: tuple[Pair, ...]
    like: bool  # the pairs were measured in this kernel's situation
    text: str

    @property
    def slower(self) -> float:
        return max(pair.slower for pair in self.pairs)


def like_this(cost: RuleCost, kernel: dict, numeric: str | None) -> tuple[tuple[Pair, ...], bool]:
    """The pairs measured in the kernel's situation (see the module's docstring), and whether any was."""
    known = {key: value for key, value in kernel.items() if value is not None}
    same = [pair for pair in cost.pairs
            if all(pair.conditions.get(key, value) == value for key, value in known.items() if key != numeric)]
    if not same:
        return cost.pairs, False
    if numeric is None or numeric not in known:
        return tuple(same), True
    value = known[numeric]
    placed = [pair for pair in same if isinstance(pair.conditions.get(numeric), (int, float))]
    if not placed:
        return tuple(same), True
    below = [pair.conditions[numeric] for pair in placed if pair.conditions[numeric] <= value]
    above = [pair.conditions[numeric] for pair in placed if pair.conditions[numeric] >= value]
    bounds = ({max(below)} if below else set()) | ({min(above)} if above else set())
    return tuple(pair for pair in placed if pair.conditions[numeric] in bounds), True


def quote(cost: RuleCost, target: str, kernel: dict, numeric: str | None = None,
          describe: Callable[[dict], str] = lambda where: "") -> Quote:
    pairs, like = like_this(cost, kernel, numeric)
    low, high = min(p.slower for p in pairs), max(p.slower for p in pairs)
    figure = f"{low:.1f}x" if f"{low:.1f}" == f"{high:.1f}" else f"{low:.1f}x-{high:.1f}x"
    sources = ", ".join(dict.fromkeys(pair.source for pair in pairs))

    def one(pair: Pair) -> str:
        condition = describe(pair.conditions)
        return (pair.kernel or pair.slow) + (f", {condition}" if condition else "") \
            + (f": {pair.slower:.1f}x" if len(pairs) > 1 else "")

    detail = "; ".join(one(pair) for pair in pairs)
    if not like:
        situation = describe(kernel)
        text = (f"no pair measured on {target} is like this kernel" + (f" ({situation})" if situation else "")
                + f"; the pairs measured {figure}: {detail} ({sources})")
    elif high < MEANINGFUL_SLOWDOWN:
        text = f"no effect expected on {target}: measured {figure} on a kernel like this ({detail}; {sources})"
    else:
        text = f"measured {figure} slower on {target} ({detail}; {sources})"
    return Quote(pairs, like, text)
