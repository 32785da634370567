"""The syntax findings of one version's well-formed module-scope parts, by where they lie, for the next version.

Finding an unchanged part by its text (reuse.py's keys) copies and hashes all of it, every version: with 22
kernels that was a tenth of a keystroke's syntax work, for findings that did not change. A part that the edit
did not touch lies where it lay, or, after the edit, as much further as the text grew; there the last version
had a part of the same kind and extent, whose text is kept, and one comparison (a memcmp, no copy) shows that
it is the same. By diagnostics.py's `_declaration_findings` argument (a well-formed declaration or statement
that does not end the file has the same findings wherever its text appears; any other part too, while whether
the module has an error stays), the new part has that part's findings, moved.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.diagnostic import Diagnostic

# (kind id, start, end) -> (text, findings, whether the module had an error, None where the findings do not
# depend on it: declarations and statements)
Entry = tuple[bytes, list[Diagnostic], "bool | None"]


@dataclass(frozen=True, slots=True)
class Placed:
    """One version's size and its well-formed parts that do not end it."""

    size: int
    parts: dict[tuple[int, int, int], Entry]
