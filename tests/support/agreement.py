"""Agreement with the real compilers, collected over a test run and printed at its end."""

from __future__ import annotations

from collections import defaultdict

# compiler -> case id -> agrees
RESULTS: dict[str, dict[str, bool]] = defaultdict(dict)
# Figures measured over many inputs at once (mutant campaigns, Tint's validator coverage): one line each.
FIGURES: dict[str, str] = {}


def record(compiler: str, case_id: str, agrees: bool) -> None:
    RESULTS[compiler][case_id] = agrees


def figure(name: str, line: str) -> None:
    FIGURES[name] = line


def exported() -> dict:
    """What a pytest-xdist worker recorded, as plain data for the controller."""
    return {"results": {compiler: dict(cases) for compiler, cases in RESULTS.items()}, "figures": dict(FIGURES)}


def merge(found: dict) -> None:
    for compiler, cases in found["results"].items():
        RESULTS[compiler].update(cases)
    FIGURES.update(found["figures"])


def summary_lines() -> list[str]:
    lines = []
    for compiler, cases in sorted(RESULTS.items()):
        if not cases:
            continue
        agreeing = sum(cases.values())
        lines.append(f"agreement with {compiler}: {agreeing}/{len(cases)} cases "
                     f"({100.0 * agreeing / len(cases):.1f}%)")
        lines += [f"  differs: {case}" for case, agrees in sorted(cases.items()) if not agrees]
    lines += [f"{name}: {line}" for name, line in sorted(FIGURES.items())]
    return lines
