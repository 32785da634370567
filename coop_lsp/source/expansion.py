"""What expanding a template produces: the WGSL, its origins, and what the template layer found."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.text import Span
from .origin import OriginMap


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding of the template layer, in a source file."""

    file: int
    span: Span
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class MacroUse:
    file: int
    span: Span  # the name in the source
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Link:
    """A place in a source that names another file (#include, #import, import)."""

    file: int
    span: Span
    target: Path


@dataclass(slots=True)
class Expansion:
    data: bytes
    origins: OriginMap
    problems: list[Problem] = field(default_factory=list)
    # Source lines (file index -> [(start, end)] byte ranges) that a conditional left out.
    inactive: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    # Names a directive tests or defines: a macro the program is expected to pass.
    macro_names: set[str] = field(default_factory=set)
    # Names declared in lines a conditional left out: an unresolved use of one is a variant problem.
    inactive_declarations: set[str] = field(default_factory=set)
    macro_uses: list[MacroUse] = field(default_factory=list)
    # Where each macro in effect at the end was defined: name -> (file, span of the #define, value).
    definitions: dict[str, tuple[int, Span, str]] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)

    @property
    def plain(self) -> bool:
        return self.origins.is_identity

    def file_index(self, path: Path) -> int | None:
        resolved = path.resolve()
        for index, known in enumerate(self.origins.files):
            if known is not None and known == resolved:
                return index
        return None

