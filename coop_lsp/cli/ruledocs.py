"""Rule documentation generated from the registry: `coop-lint rules`, `coop-lint rule CODE`, docs/rules.md."""

from __future__ import annotations

from ..core.rules import Rule
from ..lint.catalogue import all_rules

REGENERATE = ".venv/bin/coop-lint rules --markdown > docs/rules.md"


def table() -> str:
    rules = all_rules()
    name_width = max(len(r.name) for r in rules)
    lines = [f"{'code':<5} {'name':<{name_width}}  {'severity':<8} {'fix':<3}  summary"]
    for r in rules:
        lines.append(f"{r.code:<5} {r.name:<{name_width}}  {r.severity.label:<8} {'yes' if r.fix else '-':<3}  "
                     f"{r.summary}")
    lines.append("")
    lines.append("`coop-lint rule CODE` explains one rule; 'fix: yes' means coop-lint can offer a fix.")
    return "\n".join(lines) + "\n"


def _suppression(rule: Rule) -> str:
    if rule.suppressible:
        return (f"Suppress it in WGSL with `diagnostic(off, {rule.qualified_name});` at module scope, or "
                f"`@diagnostic(off, {rule.qualified_name})` on a function or statement.")
    if rule.layer == "syntax":
        return "Always reported: no compiler accepts the file, so it cannot be suppressed or ignored."
    return "Cannot be suppressed in WGSL (every compiler rejects the code); `--ignore` or the configuration can hide it."


def _measured(rule: Rule) -> list[str]:
    """Every measured pair of a performance rule on every shipped target that records them, with the
    conditions it was measured under (the rule's facts about the slow kernel)."""
    from ..devices.performance import rule_cost
    from ..devices.profiles import shipped_profiles

    out = []
    for name, profile in sorted(shipped_profiles().items()):
        cost = rule_cost(profile.performance, rule.code)
        for pair in cost.pairs if cost is not None else ():
            where = ", ".join(f"{key} {value}" for key, value in pair.where)
            out.append(f"{pair.slower:.1f}x slower on {name}: slow {pair.slow or '?'}, fixed {pair.fixed or '?'}"
                       + (f"; {where}" if where else "") + f" ({pair.source})")
    return out


def text(rule: Rule) -> str:
    lines = [f"{rule.code} {rule.name}", "",
             f"Severity: {rule.severity.label}. Layer: {rule.layer}.", "",
             rule.summary, "", "Why", rule.explanation]
    if rule.example:
        lines += ["", "Example", *("    " + line for line in rule.example.splitlines())]
    if rule.fix:
        lines += ["", "Fix", rule.fix]
    measured = _measured(rule)
    if measured:
        lines += ["", "Measured", *measured]
    lines += ["", "Suppression", _suppression(rule)]
    return "\n".join(lines) + "\n"


def markdown() -> str:
    rules = all_rules()
    out = ["# coop-lint rules", "",
           f"<!-- Generated from the rule registry; do not edit. Regenerate with `{REGENERATE}`. -->", "",
           "| code | name | severity | fix | summary |", "| --- | --- | --- | --- | --- |"]
    for r in rules:
        out.append(f"| [{r.code}](#{r.code.lower()}-{r.name}) | `{r.name}` | {r.severity.label} | "
                   f"{'yes' if r.fix else ''} | {r.summary.replace('|', '&#124;')} |")
    for r in rules:
        out += ["", f"## {r.code} {r.name}", "",
                f"Severity: {r.severity.label}. Layer: {r.layer}.", "", r.summary, "", "**Why.** " + r.explanation]
        if r.example:
            out += ["", "**Example.**", "", "```wgsl", r.example, "```"]
        if r.fix:
            out += ["", "**Fix.** " + r.fix]
        measured = _measured(r)
        if measured:
            out += ["", "**Measured.** " + "; ".join(measured) + "."]
        out += ["", "**Suppression.** " + _suppression(r)]
    return "\n".join(out) + "\n"
