"""Specification cases: WGSL with its expected diagnostics written beside it.

A spec file holds cases separated by `// === name` lines. Inside a case, an
annotation comment points at the line above it with carets:

    fn f() {
      let x = 1
    //         ^ S001 expected ';' after 'let' declaration
    }

The first caret is the expected start column (the annotation's own `//`
counts as columns, so carets line up under the code); `// <-` points at
column 0, which a caret cannot reach. After the code comes
a fragment that the message must contain. A case with no annotation expects
no diagnostics at all. `D003 [info] ...` marks a diagnostic reported below its
rule's usual severity (it then counts as no error when compared with Tint).

Directives, also comments:
    // tint: differs -- <why>   our verdict deliberately differs from Tint's
    // tint: skip -- <why>      Tint has no opinion (e.g. another dialect)
    // naga: differs -- <why>   our verdict deliberately differs from naga's
    // naga: skip -- <why>      naga has no opinion
naga is asked only about cases whose module enables `wgpu_cooperative_matrix`
(`naga_mode` "compare" by default there, "skip" elsewhere), unless a
`// naga: compare -- <why>` directive asks for it explicitly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_CASE = re.compile(r"^// === (?P<name>.+?)\s*$")
_ANNOTATION = re.compile(r"^(?P<lead>\s*//\s*)(?P<carets>\^+|<-)\s+(?P<code>[A-Z]\d{3})\b\s*"
                         r"(?:\[(?P<severity>error|warning|info|hint)\]\s*)?(?P<message>.*)$")
_TINT = re.compile(r"^\s*// tint: (?P<mode>differs|skip)\s*--\s*(?P<why>.+)$")
_NAGA = re.compile(r"^\s*// naga: (?P<mode>differs|skip|compare)\s*--\s*(?P<why>.+)$")
_WGPU_ENABLE = re.compile(r"^\s*enable\b[^;]*\bwgpu_cooperative_matrix\b", re.MULTILINE)


@dataclass(frozen=True)
class Expected:
    code: str
    line: int  # 0-based
    column: int  # 0-based, in characters
    message: str
    # Written as `D003 [info] ...` where the diagnostic is reported below its rule's usual severity.
    severity: str | None = None


@dataclass
class SpecCase:
    file: Path
    name: str
    first_line: int  # 1-based line of the case header in its file
    source: str
    expected: list[Expected] = field(default_factory=list)
    tint_mode: str = "compare"
    tint_reason: str = ""
    naga_mode: str = "skip"
    naga_reason: str = ""

    @property
    def id(self) -> str:
        return f"{self.file.stem}::{self.name}"


def load_cases(directory: Path) -> list[SpecCase]:
    cases: list[SpecCase] = []
    for path in sorted(directory.glob("*.wgsl")):
        cases.extend(_split(path))
    return cases


def _split(path: Path) -> list[SpecCase]:
    cases: list[SpecCase] = []
    current: list[str] | None = None
    header = ("", 0)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = _CASE.match(line)
        if match:
            if current is not None:
                cases.append(_case(path, header, current))
            current, header = [], (match.group("name"), number)
        elif current is not None:
            current.append(line)
    if current is not None:
        cases.append(_case(path, header, current))
    names = [c.name for c in cases]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"{path}: duplicate case names {sorted(duplicates)}")
    return cases


def _case(path: Path, header: tuple[str, int], lines: list[str]) -> SpecCase:
    name, first_line = header
    case = SpecCase(path, name, first_line, "\n".join(lines) + "\n")
    last_code_line = None
    if _WGPU_ENABLE.search(case.source):
        case.naga_mode = "compare"
    for index, line in enumerate(lines):
        annotation = _ANNOTATION.match(line)
        tint = _TINT.match(line)
        naga = _NAGA.match(line)
        if annotation:
            if last_code_line is None:
                raise ValueError(f"{path}:{first_line + index + 1}: annotation with no code line above it")
            case.expected.append(Expected(
                code=annotation.group("code"),
                line=last_code_line,
                column=0 if annotation.group("carets") == "<-" else len(annotation.group("lead")),
                message=annotation.group("message").strip(),
                severity=annotation.group("severity"),
            ))
        elif tint:
            case.tint_mode, case.tint_reason = tint.group("mode"), tint.group("why")
        elif naga:
            case.naga_mode, case.naga_reason = naga.group("mode"), naga.group("why")
        else:
            last_code_line = index
    return case
