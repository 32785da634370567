"""The `performance` section of a device profile: what the performance rules (P001...) need to know about a GPU.

Every entry names its source (a captured figure, a datasheet, a vendor guide,
or a measurement in benchmarks/results/), because a rule quotes it to the
kernel author:

    "performance": {
      "workgroup_memory_per_multiprocessor": {"bytes": 49152, "source": "..."},
      "workgroups_per_multiprocessor": {"count": 2, "source": "..."},
      "memory_banks": {"count": 32, "width_bytes": 4, "source": "..."},
      "matrix_units_per_multiprocessor": {"count": 4, "source": "..."},
      "bounds_checks": {"default_on": true, "source": "..."},
      "rule_costs": {"P005": {"pairs": [
        {"slower": 2.29, "slow": "...", "fixed": "...", "kernel": "...", "source": "benchmarks/results/...",
         "where": {"rows_per_bank": 8}}, ...]}}
    }

A rule's cost is the list of slow/fixed pairs measured for it, each with the
conditions it was measured under (`where`: the rule's own facts about the
slow kernel, as its check computes them), so that a finding quotes the pairs
like the kernel in front of it and never one that measured a different
situation. A single pair may still be written as the entry itself
({"slower": ..., "source": ...}).

Every entry is optional: a rule whose facts a profile lacks reports nothing
for that target.
"""

from __future__ import annotations

from dataclasses import dataclass

# entry -> {field: (python types, must be positive)}
_ENTRIES = {
    "workgroup_memory_per_multiprocessor": {"bytes": int},
    "workgroups_per_multiprocessor": {"count": int},
    "matrix_units_per_multiprocessor": {"count": int},
    "memory_banks": {"count": int, "width_bytes": int},
    "bounds_checks": {"default_on": bool},
}


def performance_problem(data: object) -> tuple[str, str] | None:
    """(key, problem) for the first thing wrong with a profile's `performance` section, else None."""
    if not isinstance(data, dict):
        return "performance", "expected an object"
    for entry, fields in _ENTRIES.items():
        if entry not in data:
            continue
        value = data[entry]
        key = f"performance.{entry}"
        if not isinstance(value, dict):
            return key, "expected an object"
        for name, kind in fields.items():
            item = value.get(name)
            if not isinstance(item, kind) or (kind is int and (isinstance(item, bool) or item <= 0)):
                return f"{key}.{name}", "expected a positive integer" if kind is int else "expected true or false"
        if not isinstance(value.get("source"), str) or not value["source"]:
            return f"{key}.source", "every performance fact names its source"
    costs = data.get("rule_costs", {})
    if not isinstance(costs, dict):
        return "performance.rule_costs", "expected an object keyed by rule code"
    for code, cost in costs.items():
        key = f"performance.rule_costs.{code}"
        if not isinstance(cost, dict):
            return key, "expected an object"
        pairs = cost.get("pairs", [cost]) if "pairs" in cost else [cost]
        if not isinstance(pairs, list) or not pairs:
            return f"{key}.pairs", "expected a list of measured pairs"
        for index, pair in enumerate(pairs):
            at = f"{key}.pairs[{index}]" if "pairs" in cost else key
            if not isinstance(pair, dict):
                return at, "expected an object"
            slower = pair.get("slower")
            if isinstance(slower, bool) or not isinstance(slower, (int, float)) or slower <= 0:
                return f"{at}.slower", "expected a positive number (how many times slower the slow kernel ran)"
            if not isinstance(pair.get("source"), str) or not pair["source"]:
                return f"{at}.source", "every performance fact names its source"
            if not isinstance(pair.get("where", {}), dict):
                return f"{at}.where", "expected an object of the rule's facts about the slow kernel"
    return None


@dataclass(frozen=True)
class Pair:
    """One measured slow/fixed pair: how many times slower the slow kernel ran, and where."""

    slower: float
    source: str
    slow: str = ""
    fixed: str = ""
    kernel: str = ""  # what the pair was measured on, in words (a project example, a real kernel)
    where: tuple = ()  # sorted (fact, value) items: the rule's facts about the slow kernel

    @property
    def conditions(self) -> dict:
        return dict(self.where)


@dataclass(frozen=True)
class RuleCost:
    pairs: tuple[Pair, ...]

    @property
    def slower(self) -> float:
        return max(pair.slower for pair in self.pairs)

    @property
    def sources(self) -> str:
        return ", ".join(dict.fromkeys(pair.source for pair in self.pairs))


def _pair(entry: dict) -> Pair | None:
    if not isinstance(entry, dict) or isinstance(entry.get("slower"), bool) \
            or not isinstance(entry.get("slower"), (int, float)):
        return None
    where = entry.get("where") if isinstance(entry.get("where"), dict) else {}
    return Pair(float(entry["slower"]), str(entry.get("source", "")), str(entry.get("slow", "")),
                str(entry.get("fixed", "")), str(entry.get("kernel", "")), tuple(sorted(where.items())))


def rule_cost(performance: dict, code: str) -> RuleCost | None:
    cost = (performance.get("rule_costs") or {}).get(code)
    if not isinstance(cost, dict):
        return None
    entries = cost.get("pairs") if isinstance(cost.get("pairs"), list) else [cost]
    pairs = tuple(pair for pair in map(_pair, entries) if pair is not None)
    return RuleCost(pairs) if pairs else None


def fact(performance: dict, entry: str, name: str):
    """One field of one entry (`fact(p, "memory_banks", "count")`), or None when the profile lacks it."""
    value = performance.get(entry)
    return value.get(name) if isinstance(value, dict) else None
