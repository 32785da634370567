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
      "rule_costs": {"P005": {"slower": 1.8, "slow": "...", "fixed": "...", "source": "..."}}
    }

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
_COST_FIELDS = {"slower": (int, float)}


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
        slower = cost.get("slower")
        if isinstance(slower, bool) or not isinstance(slower, (int, float)) or slower <= 0:
            return f"{key}.slower", "expected a positive number (how many times slower the slow kernel ran)"
        if not isinstance(cost.get("source"), str) or not cost["source"]:
            return f"{key}.source", "every performance fact names its source"
    return None


@dataclass(frozen=True)
class RuleCost:
    slower: float
    source: str
    slow: str = ""
    fixed: str = ""

    def phrase(self, target: str) -> str:
        """'measured 1.8x slower on nvidia-h100 (benchmarks/results/perf_rules.json)'."""
        return f"measured {self.slower:.1f}x slower on {target} ({self.source})"


def rule_cost(performance: dict, code: str) -> RuleCost | None:
    cost = (performance.get("rule_costs") or {}).get(code)
    if not isinstance(cost, dict) or not isinstance(cost.get("slower"), (int, float)):
        return None
    return RuleCost(float(cost["slower"]), str(cost.get("source", "")), str(cost.get("slow", "")),
                    str(cost.get("fixed", "")))


def fact(performance: dict, entry: str, name: str):
    """One field of one entry (`fact(p, "memory_banks", "count")`), or None when the profile lacks it."""
    value = performance.get(entry)
    return value.get(name) if isinstance(value, dict) else None
