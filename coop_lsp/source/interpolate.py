"""Interpolations in WGSL held by a host language's string: Python f-strings and JS template literals.

Their text is only known at run time; once the variant gives each interpolated name a value, it is known
here. Only a plain name (`{TILE}`, `{TILE:d}`, `${TILE}`) can be given a value; an expression is a
placeholder with no value. In an f-string `{{` and `}}` are single braces.
"""

from __future__ import annotations

import re

from ..core.text import Span
from .origin import OriginMap, Piece
from .preprocess import Expansion, Problem
from .rules import PLACEHOLDER_WITHOUT_VALUE

_PYTHON = re.compile(rb"\{\{|\}\}|\{([^{}]*)\}")
_JS = re.compile(rb"\$\{([^{}]*)\}")
_NAME = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(?:![rsa])?\s*(?::[^{}]*)?$")


def interpolate(content: bytes, style: str, defines: dict[str, str]) -> Expansion:
    """`style` is "python" (f-string) or "js" (template literal)."""
    pattern = _PYTHON if style == "python" else _JS
    chunks: list[bytes] = []
    origins = OriginMap([None])
    problems: list[Problem] = []
    names: set[str] = set()
    size = pos = 0

    def emit(text: bytes, piece_start: int, piece_end: int, verbatim: bool, unresolved: bool = False) -> None:
        nonlocal size
        if not text:
            return
        chunks.append(text)
        origins.add(Piece(size, size + len(text), 0, piece_start, piece_end, verbatim, unresolved))
        size += len(text)

    for match in pattern.finditer(content):
        emit(content[pos : match.start()], pos, match.start(), True)
        pos = match.end()
        whole = match.group(0)
        if whole in (b"{{", b"}}"):
            emit(whole[:1], match.start(), match.end(), False)
            continue
        inner = match.group(1).decode("utf-8", "replace")
        found = _NAME.match(inner)
        name = found.group(1) if found else inner.strip()
        names.add(name)
        value = defines.get(name)
        if value is None and found is not None:
            value = defines.get(name.rsplit(".", 1)[-1])
        span = Span(match.start(), match.end())
        if value is None:
            problems.append(Problem(0, span, PLACEHOLDER_WITHOUT_VALUE.code,
                                    f"'{whole.decode('utf-8', 'replace')}' has no value in this variant (give "
                                    f"'{name}' one with -D or in the variant sets)"))
            emit(b"0", match.start(), match.end(), False, unresolved=True)
        else:
            emit(value.encode(), match.start(), match.end(), False)
    emit(content[pos:], pos, len(content), True)
    expansion = Expansion(b"".join(chunks), origins, problems)
    expansion.macro_names = names
    return expansion
