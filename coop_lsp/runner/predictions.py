"""GPU failures tied to the coop-lint findings that predicted them.

gpu.cpp's 8x8 f16 kernel failed at pipeline creation on an H100 with Dawn's
"Unknown configuration is M(8), N(8), K(0), f16"; coop-lint's D001 had
already said "changing M from 8 to 16 would fit". When compiling or
creating the pipeline fails, the kernel is linted against the device
profile that names the adapter (every shipped profile when none does), and
the findings about the device are shown beside the GPU's message, with
their fixes.
"""

from __future__ import annotations

from ..core.diagnostic import Severity
from ..core.rules import find as find_rule

# Findings that foretell a failure to compile or create the pipeline on some device.
PREDICTING = ("D001", "D003", "D004", "D010", "T013")
FAILING_STAGES = ("compiling the kernel", "creating the pipeline", "opening the device")


def predicted_findings(text: str, adapter: str, stage: str) -> list[dict]:
    """[{"code", "line", "column", "message", "fix", "target"}] for a run that failed in `stage`."""
    if stage not in FAILING_STAGES:
        return []
    from ..devices.profiles import shipped_profiles
    from ..lint import lint_source

    profiles = shipped_profiles()
    named = [p.name for p in profiles.values() if adapter and p.title.strip().lower() == adapter.strip().lower()]
    targets = named or sorted(profiles)
    result = lint_source(text, targets=targets)
    found = []
    for d in result.diagnostics:
        if d.code not in PREDICTING or d.severity < Severity.WARNING:
            continue
        line = result.source.line_of(d.span.start) + 1
        rule = find_rule(d.code)
        fix = d.fixes[0].title if d.fixes else (rule.fix if rule is not None else "")
        found.append({"code": d.code, "line": line, "message": d.message, "fix": fix,
                      "target": named[0] if named else ""})
    return found


def prediction_lines(predicted: list[dict], bullet: str) -> list[str]:
    if not predicted:
        return []
    head = ("coop-lint predicted this failure" if any(p["target"] for p in predicted)
            else "coop-lint findings against its device profiles that may explain this failure")
    lines = [f"{bullet}{head}:"]
    for p in predicted:
        lines.append(f"{bullet}  {p['code']} (line {p['line']}): {p['message']}")
        if p["fix"]:
            lines.append(f"{bullet}    fix: {p['fix']}")
    return lines
