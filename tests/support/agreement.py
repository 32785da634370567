"""Agreement with the real compilers, collected over a test run and printed at its end."""

from __future__ import annotations

from collections import defaultdict

# compiler -> case id -> agrees
RESULTS: dict[str, dict[str, bool]] = defaultdict(dict)


def record(compiler: str, case_id: str, agrees: bool) -> None:
    RESULTS[compiler][case_id] = agrees


def summary_lines() -> list[str]:
    lines = []
    for compiler, cases in sorted(RESULTS.items()):
        if not cases:
            continue
        agreeing = sum(cases.values())
        lines.append(f"agreement with {compiler}: {agreeing}/{len(cases)} cases "
                     f"({100.0 * agreeing / len(cases):.1f}%)")
        lines += [f"  differs: {case}" for case, agrees in sorted(cases.items()) if not agrees]
    return lines
