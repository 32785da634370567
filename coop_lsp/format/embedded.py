"""Formatting the WGSL inside Python, JS/TS and Rust strings (source/hosts.py finds them).

A string is formatted in place only where its text is the WGSL itself: a raw
string, or one without escape sequences, that may hold line breaks (a
triple-quoted, template or raw string). The WGSL keeps the string's own
indentation: the first line's indentation is taken off every line, the text
formatted, and put back on every line; the white space after the opening
delimiter and before the closing one stays as it was. Any other string is
left alone, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..source.hosts import Embedded, find_embedded
from . import format_text
from .printer import Options


@dataclass(frozen=True, slots=True)
class HostResult:
    data: bytes  # the host file, with every string that could be formatted formatted
    notes: list[tuple[int, str]]  # (host offset, why a string was left alone)


def format_host(data: bytes, language: str, options: Options = Options()) -> HostResult:
    edits: list[tuple[int, int, bytes]] = []
    notes: list[tuple[int, str]] = []
    for embedded in find_embedded(data, language):
        new, why = _format_string(embedded, options)
        if why is not None:
            notes.append((embedded.start, why))
        elif new is not None and new != embedded.content:
            edits.append((embedded.start, embedded.end, new))
    out, at = [], 0
    for start, end, new in sorted(edits):
        out.append(data[at:start])
        out.append(new)
        at = end
    out.append(data[at:])
    return HostResult(b"".join(out), notes)


def _format_string(embedded: Embedded, options: Options) -> tuple[bytes | None, str | None]:
    if embedded.skipped:
        return None, None  # the linter already says why (f-strings, substitutions)
    if embedded.offsets is not None:
        return None, "left alone: the string has escape sequences, so its text is not the WGSL itself"
    if b"\n" in embedded.forbidden:
        return None, "left alone: the string cannot hold line breaks"
    content = embedded.content
    stripped = content.strip()
    if not stripped:
        return None, None
    lead = content[:len(content) - len(content.lstrip())]
    trail = content[len(content.rstrip()):]
    head = lead[:lead.rfind(b"\n") + 1]  # what comes before the first line's indentation
    base = lead[len(head):]
    body = content[len(head):len(content) - len(trail)]
    lines = body.split(b"\n")
    if any(line.strip() and not line.startswith(base) for line in lines):
        return None, "left alone: its lines are indented less than its first line"
    dedented = b"\n".join(line[len(base):] for line in lines) + b"\n"
    result = format_text(dedented, options)
    if result.text is None:
        return None, result.refused
    formatted = result.text.encode().rstrip(b"\n").split(b"\n")
    new = head + b"\n".join(base + line if line else line for line in formatted) + trail
    if any(ch in new for ch in embedded.forbidden):
        return None, "left alone: the formatted text would need escaping in this string"
    return new, None
