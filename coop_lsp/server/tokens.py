"""Semantic tokens in LSP's encoding, and the delta between two encodings of one document.

After an edit the editor asks for the tokens again; sending only what changed
(one splice of the integer array) instead of every token of a 5,000-line file
keeps that reply small. Each document keeps the last array it was sent, under
a result id the editor quotes in its next request.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from ..ide import presentation
from .convert import Converter

_TYPES = {name: index for index, name in enumerate(presentation.TOKEN_TYPES)}
_MODIFIERS = {name: 1 << index for index, name in enumerate(presentation.TOKEN_MODIFIERS)}


def encode(convert: Converter, tokens) -> list[int]:
    """Five integers per token, each position relative to the previous token (LSP's format)."""
    data: list[int] = []
    previous_line, previous_column = 0, 0
    for token in tokens:
        start = convert.position(token.span.start)
        end = convert.position(token.span.end)
        if end.line != start.line:
            continue
        delta_line = start.line - previous_line
        delta_column = start.character - previous_column if delta_line == 0 else start.character
        bits = 0
        for modifier in token.modifiers:
            bits |= _MODIFIERS[modifier]
        data += [delta_line, delta_column, end.character - start.character, _TYPES[token.type], bits]
        previous_line, previous_column = start.line, start.character
    return data


def delta(old: list[int], new: list[int]) -> list[lsp.SemanticTokensEdit]:
    """The one splice that turns `old` into `new`, on whole tokens (five integers each); none if equal."""
    if old == new:
        return []
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    prefix -= prefix % 5
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    suffix -= suffix % 5
    return [lsp.SemanticTokensEdit(start=prefix, delete_count=len(old) - prefix - suffix,
                                   data=new[prefix:len(new) - suffix])]


def apply(old: list[int], edits: list[lsp.SemanticTokensEdit]) -> list[int]:
    """What a client does with a delta (used by the tests)."""
    data = list(old)
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        data[edit.start:edit.start + edit.delete_count] = edit.data or []
    return data
