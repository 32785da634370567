"""A baseline: the findings a codebase already had when it adopted coop-lint.

`--write-baseline FILE` records them; `--baseline FILE` reports only findings
that are not in it, so CI can go green on day one and still fail on every new
problem. A finding is recognised by its rule, its file and the normalised text
of its line and the nearest non-blank lines around it, never by its line
number: inserting or deleting lines elsewhere in the file keeps it matching.
Findings that no entry matches that way get a second chance on their own line
alone, so an edit right next to an old finding does not bring it back, while
a change to the flagged line itself makes it new again.

Entries that no longer occur are listed (a fixed finding should leave the
baseline); `--baseline-prune` rewrites the file without them. A missing,
corrupt or foreign file is an error, never an empty baseline: a typo in a CI
job must not pass everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__
from ..core.diagnostic import Diagnostic
from ..core.text import SourceText

FORMAT = 1
_MARKER = "coop-lint-baseline"
# Lines above and below the finding that take part in its fingerprint.
_NEIGHBOURS = 1
_SPACE = re.compile(r"\s+")


class BaselineError(Exception):
    """The baseline file cannot be used; coop-lint exits 2 and changes nothing."""


@dataclass(frozen=True, slots=True)
class Entry:
    file: str
    code: str
    fingerprint: str  # the line with its neighbours
    line_fingerprint: str  # the line alone
    # For people reading the file and for the stale list; not part of the match.
    line: int
    message: str

    def as_json(self) -> dict:
        return {"file": self.file, "code": self.code, "fingerprint": self.fingerprint,
                "line-fingerprint": self.line_fingerprint, "line": self.line, "message": self.message}


@dataclass
class Baseline:
    path: Path
    entries: list[Entry]
    written_by: str = __version__
    _unmatched: dict = field(default_factory=dict, init=False)

    @property
    def root(self) -> Path:
        return self.path.resolve().parent

    def key_of(self, display_path: str) -> str:
        """A file's name in the baseline: relative to the baseline's folder, so any working directory works."""
        absolute = Path(display_path).resolve()
        try:
            return absolute.relative_to(self.root).as_posix()
        except ValueError:
            return Path(os.path.relpath(absolute, self.root)).as_posix()

    def start_matching(self) -> None:
        self._unmatched = {}
        for entry in self.entries:
            self._unmatched.setdefault(entry.file, []).append(entry)

    def match_file(self, file_key: str, findings: list[tuple[str, str, str]]) -> list[bool]:
        """For each (code, fingerprint, line fingerprint) of one file: is it in the baseline?

        Each entry absorbs one finding: exact matches first, then matches on the line alone.
        """
        pool = self._unmatched.get(file_key, [])
        known = [False] * len(findings)
        for relaxed in (False, True):
            for index, (code, print_, line_print) in enumerate(findings):
                if known[index]:
                    continue
                for position, entry in enumerate(pool):
                    if entry.code == code and (entry.line_fingerprint == line_print if relaxed
                                               else entry.fingerprint == print_):
                        known[index] = True
                        del pool[position]
                        break
        return known

    def stale(self, checked_files: set[str]) -> list[Entry]:
        """Entries of the files checked in this run that matched no finding."""
        return [e for file in sorted(checked_files) for e in self._unmatched.get(file, [])]


def fingerprints(source: SourceText, diagnostic: Diagnostic) -> tuple[str, str]:
    """(the finding with its neighbouring lines, the finding on its line alone)."""
    text = source.text
    lines = text.splitlines()
    flagged = _normalised(text[diagnostic.span.start:diagnostic.span.end])
    if not lines:
        own, context = "", ""
    else:
        row = min(source.position(diagnostic.span.start).line, len(lines) - 1)
        own = _normalised(lines[row])
        context = "\n".join(_neighbours(lines, row, -1) + [own] + _neighbours(lines, row, +1))
    return _digest(diagnostic.code, flagged, context), _digest(diagnostic.code, flagged, own)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _neighbours(lines: list[str], row: int, step: int) -> list[str]:
    found = []
    index = row + step
    while 0 <= index < len(lines) and len(found) < _NEIGHBOURS:
        if lines[index].strip():
            found.append(_normalised(lines[index]))
        index += step
    return found[::-1] if step < 0 else found


def _normalised(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def read(path: Path) -> Baseline:
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BaselineError(f"{path}: baseline file not found (create it with --write-baseline {path})") from None
    except OSError as error:
        raise BaselineError(f"{path}: cannot read the baseline: {error.strerror or error}") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise BaselineError(f"{path}: not a coop-lint baseline: invalid JSON at line {error.lineno}") from None
    if not isinstance(data, dict) or _MARKER not in data:
        raise BaselineError(f"{path}: not a coop-lint baseline (no '{_MARKER}' key)")
    if data[_MARKER] != FORMAT:
        raise BaselineError(f"{path}: baseline format {data[_MARKER]!r} is not one this coop-lint "
                            f"({__version__}) reads (format {FORMAT}); write it again with --write-baseline")
    findings = data.get("findings")
    if not isinstance(findings, list):
        raise BaselineError(f"{path}: not a coop-lint baseline: 'findings' must be a list")
    entries = []
    for index, item in enumerate(findings):
        try:
            entries.append(Entry(str(item["file"]), str(item["code"]), str(item["fingerprint"]),
                                 str(item.get("line-fingerprint", item["fingerprint"])),
                                 int(item.get("line", 0)), str(item.get("message", ""))))
        except (KeyError, TypeError, ValueError):
            raise BaselineError(f"{path}: findings[{index}] needs 'file', 'code' and 'fingerprint'") from None
    return Baseline(path, entries, written_by=str(data.get("written-by", "unknown")))


def write(path: Path, entries: list[Entry]) -> None:
    ordered = sorted(entries, key=lambda e: (e.file, e.line, e.code, e.fingerprint))
    payload = {
        _MARKER: FORMAT,
        "written-by": __version__,
        "findings": [e.as_json() for e in ordered],
    }
    text = json.dumps(payload, indent=1, ensure_ascii=False) + "\n"
    # Written whole and renamed into place: an interrupted run leaves the old baseline.
    folder = path.resolve().parent
    try:
        handle, temporary = tempfile.mkstemp(prefix=".baseline-", dir=folder)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except OSError as error:
        raise BaselineError(f"{path}: cannot write the baseline: {error.strerror or error}") from None


def entry_for(baseline: Baseline, display: str, source: SourceText, diagnostic: Diagnostic) -> Entry:
    context, own = fingerprints(source, diagnostic)
    return Entry(baseline.key_of(display), diagnostic.code, context, own,
                 source.position(diagnostic.span.start).line + 1, diagnostic.message)
