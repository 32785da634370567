"""naga, the WGSL compiler inside wgpu, as an oracle.

Runs the pinned `naga` command-line tool (naga-cli 30.0.1, the newest
release; `./dev test` builds it into `.tools/bin`. Its cooperative matrices
are those of 29.0.4, the naga of wgpu-native 29 that PyPI `wgpu` 0.32 and
the runner use; where the two differ, coop-lint keeps 29's verdict and the
spec case says so) on a temporary file, one child process per call, and parses
its codespan-style report into messages with positions.

naga reports two kinds of error:

- front-end (parse and resolve) errors, printed after "Could not parse
  WGSL:", whose primary position (`┌─ file:LINE:COL`) is the offending token;
- validation errors ("Function [0] 'f' is invalid"), whose primary position
  is the start of the whole function; the labels under the source lines
  point at the expression or statement at fault. `NagaMessage.focus` picks
  that label, so callers comparing "the line of the first error" get the
  line of the expression, not of the `fn`.

Some validation errors carry no position at all (a type declared with an
invalid element type, an invalid pointer); their line and column are None.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

DEFAULT_TIMEOUT_S = 30.0
NAGA_CLI_VERSION = "30.0.1"

_ROOT = Path(__file__).resolve().parents[2]
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_HEADER = re.compile(r"^(?P<severity>error|warning|note|help|bug)(?:\[[^\]]*\])?: ?(?P<message>.*)$")
_LOCATION = re.compile(r"^\s*┌─ (?P<file>.*):(?P<line>\d+):(?P<column>\d+)\s*$")
_SOURCE_LINE = re.compile(r"^\s*(?P<number>\d+) │(?P<rest>.*)$")
_MARKER_LINE = re.compile(r"^\s*│(?P<rest>.*)$")
_NOTE = re.compile(r"^\s*= (?P<note>.*)$")
_CARETS = re.compile(r"\^+")
_TAB = "    "  # codespan draws a tab as four spaces


@dataclass(frozen=True, slots=True)
class NagaLabel:
    line: int  # 1-based
    column: int  # 1-based, in characters
    text: str


@dataclass(frozen=True, slots=True)
class NagaMessage:
    severity: str  # "error" or "warning"
    line: int | None  # 1-based primary position (`┌─ file:LINE:COL`); None when naga gives none
    column: int | None
    message: str
    notes: tuple[str, ...] = ()
    labels: tuple[NagaLabel, ...] = ()

    @property
    def focus(self) -> tuple[int | None, int | None]:
        """Where the fault is: the first label inside a function that is not the function itself."""
        inner = [label for label in self.labels if not label.text.startswith("naga::ir::Function")]
        if self.message.startswith("Function ") and inner:
            first = min(inner, key=lambda label: (label.line, label.column))
            return first.line, first.column
        return self.line, self.column


@dataclass(frozen=True, slots=True)
class NagaResult:
    messages: tuple[NagaMessage, ...]
    # Set when naga gave no verdict: it crashed, hung, or its output was not understood.
    failure: str | None = None
    output: str = ""

    @property
    def errors(self) -> list[NagaMessage]:
        return [m for m in self.messages if m.severity == "error"]

    @property
    def warnings(self) -> list[NagaMessage]:
        return [m for m in self.messages if m.severity == "warning"]

    @property
    def accepted(self) -> bool:
        return self.failure is None and not self.errors


class NagaUnavailable(RuntimeError):
    """No naga binary was found."""


def find_naga() -> str | None:
    """$COOP_LSP_NAGA, else .tools/bin/naga in the repository, else `naga` on PATH."""
    configured = os.environ.get("COOP_LSP_NAGA")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    local = _ROOT / ".tools" / "bin" / "naga"
    if local.is_file() and os.access(local, os.X_OK):
        return str(local)
    return shutil.which("naga")


def naga_available() -> bool:
    return find_naga() is not None


class NagaOracle:
    """Validates WGSL with the naga command-line tool, one process per call."""

    def __init__(self, binary: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self._binary = binary or find_naga()
        self._timeout_s = timeout_s

    def __enter__(self) -> "NagaOracle":
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def close(self) -> None:
        pass

    @property
    def binary(self) -> str:
        if self._binary is None:
            raise NagaUnavailable("no naga binary: set COOP_LSP_NAGA or run ./dev test to build .tools/bin/naga")
        return self._binary

    def version(self) -> str:
        done = subprocess.run([self.binary, "--version"], capture_output=True, text=True, timeout=self._timeout_s)
        return done.stdout.strip()

    def validate(self, source: str) -> NagaResult:
        binary = self.binary
        with tempfile.TemporaryDirectory(prefix="coop-lsp-naga-") as scratch:
            path = Path(scratch) / "shader.wgsl"
            path.write_text(source, encoding="utf-8")
            env = dict(os.environ, NO_COLOR="1", TERM="dumb")
            try:
                done = subprocess.run([binary, str(path)], capture_output=True, text=True, env=env,
                                      timeout=self._timeout_s, errors="replace")
            except subprocess.TimeoutExpired:
                return NagaResult((), failure=f"naga did not answer within {self._timeout_s:.0f} s")
            except OSError as error:
                return NagaResult((), failure=f"naga could not run: {error}")
        output = _ANSI.sub("", done.stdout + done.stderr)
        if done.returncode == 0:
            return NagaResult(tuple(m for m in parse_output(output, source) if m.severity != "error"),
                              output=output)
        messages = parse_output(output, source)
        if done.returncode < 0 or not any(m.severity == "error" for m in messages):
            return NagaResult(tuple(messages), failure=f"naga exited with status {done.returncode} "
                                                       f"and no error it could read: {output.strip()[:500]!r}",
                              output=output)
        return NagaResult(tuple(messages), output=output)


def parse_output(output: str, source: str = "") -> list[NagaMessage]:
    """naga's codespan report as messages (the text should have no colour codes)."""
    source_lines = source.splitlines()
    messages: list[NagaMessage] = []
    current: dict | None = None

    def finish() -> None:
        if current is not None:
            messages.append(NagaMessage(
                severity=current["severity"], line=current["line"], column=current["column"],
                message=current["message"], notes=tuple(current["notes"]),
                labels=tuple(sorted(current["labels"], key=lambda label: (label.line, label.column)))))

    source_line = None  # the number of the last source line shown
    text_offset = 0  # where that line's text starts in the rendered line
    open_starts: list[tuple[int, int]] = []  # multi-line labels whose end is not yet shown
    pending: dict[int, tuple[int, int]] = {}  # caret index -> (line, column) of a label awaiting its text

    for raw in output.splitlines():
        line = raw.rstrip()
        header = _HEADER.match(line)
        if header and header.group("severity") in ("error", "warning"):
            finish()
            current = {"severity": header.group("severity"), "message": header.group("message").strip(),
                       "line": None, "column": None, "notes": [], "labels": []}
            source_line, open_starts, pending = None, [], {}
            continue
        if current is None:
            continue
        location = _LOCATION.match(line)
        if location:
            if current["line"] is None:
                current["line"], current["column"] = int(location.group("line")), int(location.group("column"))
            continue
        note = _NOTE.match(line)
        if note:
            current["notes"].append(note.group("note").strip())
            continue
        numbered = _SOURCE_LINE.match(line)
        if numbered:
            source_line = int(numbered.group("number"))
            text_offset = _text_offset(line, source_lines, source_line)
            continue
        marker = _MARKER_LINE.match(line)
        if marker and source_line is not None:
            _read_markers(line, source_line, text_offset, current["labels"], open_starts, pending,
                          source_lines, (current["line"], current["column"]))
    finish()
    return messages


def _text_offset(rendered: str, source_lines: list[str], number: int) -> int:
    """Index in the rendered line where the source text begins."""
    bar = rendered.index("│") + 2
    if 1 <= number <= len(source_lines):
        text = source_lines[number - 1].rstrip().replace("\t", _TAB)
        if text and rendered.endswith(text):
            return len(rendered) - len(text)
        if not text:
            return len(rendered)
    # Without the source: skip the gutter of multi-line label connectors.
    index = bar
    while rendered[index:index + 2] in ("│ ", "╭ ", "╰ "):
        index += 2
    return index


def _column(source_lines: list[str], number: int, drawn: int) -> int:
    """1-based character column of the `drawn`-th (0-based) drawn cell of source line `number`."""
    if not 1 <= number <= len(source_lines):
        return drawn + 1
    cells = 0
    for index, char in enumerate(source_lines[number - 1]):
        cells += len(_TAB) if char == "\t" else 1
        if cells > drawn:
            return index + 1
    return drawn - cells + len(source_lines[number - 1]) + 1


def _read_markers(line: str, source_line: int, text_offset: int, labels: list[NagaLabel],
                  open_starts: list[tuple[int, int]], pending: dict[int, tuple[int, int]],
                  source_lines: list[str], primary: tuple[int | None, int | None]) -> None:
    runs = list(_CARETS.finditer(line))
    for number, run in enumerate(runs):
        start = run.start()
        column = _column(source_lines, source_line, max(start - text_offset, 0))
        before = line[:start].rstrip("─")
        text = line[run.end():].strip() if number == len(runs) - 1 else ""
        if before.endswith("╭"):
            open_starts.append((source_line, column))
        elif before.endswith("╰"):
            begin = open_starts.pop() if open_starts else (
                primary if primary[0] is not None else (source_line, column))
            labels.append(NagaLabel(begin[0], begin[1], text))
        elif text:
            labels.append(NagaLabel(source_line, column, text))
        else:
            pending[start] = (source_line, column)
    if runs or not pending:
        return
    # Under a line of carets, each label's text stands (after `│` connectors) at its own
    # start column; overlapping labels share one run of carets, so the column decides.
    index = text_offset
    while index < len(line) and line[index] in " │":
        index += 1
    if index < len(line):
        labels.append(NagaLabel(source_line, _column(source_lines, source_line, index - text_offset),
                                line[index:].strip()))
        pending.pop(index, None)
