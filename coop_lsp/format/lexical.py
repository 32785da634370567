"""WGSL's tokens by regular expressions, to prove that formatting changed only white space.

Two texts with equal lists here differ only in white space between tokens
(and trailing spaces of comment lines). The expressions are at least as
greedy as the real lexer: they never split what WGSL reads as one token, so
white space added inside a token, or removed so that two tokens run into
one, always shows. Being greedier is safe: both texts are read the same way.
A parse tree would say the same, but walking one costs more than formatting.
"""

from __future__ import annotations

import re

_COMMENT_START = re.compile(r"//[^\n]*|/\*")
_NESTING = re.compile(r"/\*|\*/")
_CODE = re.compile(
    r"\.?[0-9](?:[eEpP][+-]|[\w.])*"  # numbers, with their suffixes and exponents
    r"|[^\W\d]\w*"  # identifiers and keywords
    r"|>>=|<<=|&&|\|\||==|!=|<=|>=|<<|>>|->|\+\+|--|\+=|-=|\*=|/=|%=|&=|\|=|\^="
    r"|[^\s\w]"
)


def lexical_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    at = 0
    for start, end in _comments(text):
        tokens.extend(_CODE.findall(text, at, start))
        tokens.append("\n".join(line.rstrip() for line in text[start:end].split("\n")))
        at = end
    tokens.extend(_CODE.findall(text, at))
    return tokens


def token_spans(text: str) -> list[tuple[int, int]]:
    """Where each token of `lexical_tokens` lies (character offsets); the gaps between are white space."""
    spans: list[tuple[int, int]] = []
    at = 0
    for start, end in _comments(text):
        spans.extend(m.span() for m in _CODE.finditer(text, at, start))
        spans.append((start, end))
        at = end
    spans.extend(m.span() for m in _CODE.finditer(text, at))
    return spans


def _comments(text: str):
    at = 0
    for match in _COMMENT_START.finditer(text):
        if match.start() < at:
            continue  # inside a block comment already taken
        at = _block_comment_end(text, match.start()) if match.group() == "/*" else match.end()
        yield match.start(), at


def _block_comment_end(text: str, start: int) -> int:
    depth = 0
    for match in _NESTING.finditer(text, start):
        depth += 1 if match.group() == "/*" else -1
        if depth == 0:
            return match.end()
    return len(text)
