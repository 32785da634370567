"""Seeds (every example, spec case and fixture) and byte- and token-level mutations of them.

A mutation is a plain tuple `(operator, where, what)` of small integers
applied by `apply_mutation`, so Hypothesis can draw and shrink lists of
them, a campaign can draw them from `random.Random`, and a crash is
reproduced from the seed's name and the tuples alone.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]

# WGSL tokens, roughly: enough to cut text at token boundaries and to move whole tokens around.
_TOKEN = re.compile(rb"""
    /\*.*?\*/ | //[^\n]* |                         # comments (nesting is the parser's business)
    [A-Za-z_][A-Za-z0-9_]* |                       # identifiers and keywords
    0[xX][0-9A-Fa-f.]+(?:[pP][+-]?\d+)?[fhiu]? |   # hex numbers
    \d+\.?\d*(?:[eE][+-]?\d+)?[fhiu]? | \.\d+(?:[eE][+-]?\d+)?[fh]? |
    <<=|>>=|->|&&|\|\||==|!=|<=|>=|<<|>>|\+\+|--|[-+*/%&|^]= |
    [^\sA-Za-z0-9_] |                              # any other single character or byte
    \s+
""", re.VERBOSE | re.DOTALL)

# Tokens worth inserting: WGSL's punctuation, keywords, matrix names of every dialect, and trouble.
TOKEN_POOL = [t.encode() for t in (
    "{", "}", "(", ")", "[", "]", "<", ">", ";", ",", ":", ".", "@", "->", "=", "&", "*", "-", "!", "~",
    "&&", "||", "<<", ">>", "<=", ">=", "==", "!=", "+=", "++", "--", "_",
    "fn", "let", "var", "const", "override", "struct", "alias", "enable", "requires", "diagnostic",
    "if", "else", "switch", "case", "default", "loop", "continuing", "break", "continue", "return",
    "for", "while", "discard", "const_assert", "true", "false", "ptr", "array", "vec4", "f16",
    "workgroup", "storage", "read_write", "function",
    "coop_mat16x16", "coopLoadT", "coopMultiplyAdd", "wgpu_cooperative_matrix",
    "subgroup_matrix_left", "subgroup_matrix_result", "subgroupMatrixLoad", "subgroupMatrixStore",
    "subgroupMatrixMultiplyAccumulate", "chromium_experimental_subgroup_matrix", "subgroup_matrix",
    "row_major", "col_major", "@compute", "@workgroup_size(64)", "@builtin(position)",
    "<f16, 16, 16>", "<f32, A>", "0", "1u", "0x1p4f", "1e999", "99999999999999999999u", "1.5h",
    "/*", "*/", "//", "/* /* */", "\n", "\r", "\r\n", "\t", " ", "\x00", "\x0b", "\u00e9", "\U0001f642",
    "\u200b", "\u2028", "\ufeff", "\ufffd", "\\", "'", "\"", "#", "$", "?",
)] + [b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80"]  # invalid UTF-8

# How a mutation draws: operator index, a position (taken modulo the length), a pool index.
BYTE_OPS = ("byte_insert", "byte_delete", "byte_flip", "byte_swap", "byte_duplicate")
TOKEN_OPS = ("token_insert", "token_delete", "token_swap", "token_duplicate", "token_replace", "token_move",
             "splice")
OPERATORS = BYTE_OPS + TOKEN_OPS


@dataclass(frozen=True)
class Seed:
    name: str  # path relative to the repository, with ::case for spec cases
    text: str


@functools.cache
def seeds() -> tuple[Seed, ...]:
    """Every example, every spec case (split with tests/support/spec.py) and every fixture seed."""
    from tests.support.spec import load_cases

    out: list[Seed] = []
    for path in sorted((ROOT / "examples").rglob("*.wgsl")):
        out.append(Seed(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    spec = ROOT / "tests" / "spec"
    for directory in sorted(p for p in spec.iterdir() if p.is_dir()):
        for case in load_cases(directory):
            out.append(Seed(f"{case.file.relative_to(ROOT)}::{case.name}", case.source))
    for path in sorted((ROOT / "tests" / "fixtures").rglob("*.wgsl")):
        out.append(Seed(str(path.relative_to(ROOT)), path.read_bytes().decode("utf-8", errors="replace")))
    regressions = ROOT / "tests" / "regressions"
    if regressions.is_dir():
        for path in sorted(regressions.glob("*.wgsl")):
            out.append(Seed(str(path.relative_to(ROOT)), path.read_bytes().decode("utf-8", errors="replace")))
    return tuple(out)


def tokens(data: bytes) -> list[bytes]:
    return _TOKEN.findall(data)


def apply_mutation(data: bytes, operator: int, where: int, what: int) -> bytes:
    """One mutation of `data`; `where` and `what` are reduced modulo whatever they index."""
    name = OPERATORS[operator % len(OPERATORS)]
    if name.startswith("byte_"):
        n = len(data)
        at = where % (n + 1)
        if name == "byte_insert":
            return data[:at] + TOKEN_POOL[what % len(TOKEN_POOL)] + data[at:]
        if n == 0:
            return data
        at = where % n
        if name == "byte_delete":
            return data[:at] + data[at + 1 + what % 8:]
        if name == "byte_flip":
            return data[:at] + bytes([data[at] ^ (1 << (what % 8))]) + data[at + 1:]
        if name == "byte_swap":
            other = what % n
            a, b = sorted((at, other))
            if a == b:
                return data
            return data[:a] + data[b:b + 1] + data[a + 1:b] + data[a:a + 1] + data[b + 1:]
        return data[:at] + data[at:at + 1 + what % 16] + data[at:]  # byte_duplicate
    parts = tokens(data)
    if name == "splice":
        donors = seeds()
        donor = tokens(donors[what % len(donors)].text.encode())
        if not donor:
            return data
        start = (what // 7) % len(donor)
        piece = b"".join(donor[start:start + 1 + (what // 3) % 24])
        at = where % (len(parts) + 1)
        return b"".join(parts[:at]) + piece + b"".join(parts[at:])
    if name == "token_insert":
        at = where % (len(parts) + 1)
        return b"".join(parts[:at] + [TOKEN_POOL[what % len(TOKEN_POOL)]] + parts[at:])
    if not parts:
        return data
    at = where % len(parts)
    if name == "token_delete":
        del parts[at:at + 1 + what % 3]
    elif name == "token_swap":
        other = what % len(parts)
        parts[at], parts[other] = parts[other], parts[at]
    elif name == "token_duplicate":
        parts.insert(at, parts[at])
    elif name == "token_replace":
        parts[at] = TOKEN_POOL[what % len(TOKEN_POOL)]
    else:  # token_move
        token = parts.pop(at)
        parts.insert(what % (len(parts) + 1), token)
    return b"".join(parts)


def mutate(data: bytes, mutations) -> bytes:
    for operator, where, what in mutations:
        data = apply_mutation(data, operator, where, what)
    return data


def random_mutations(rng: random.Random, count: int | None = None) -> list[tuple[int, int, int]]:
    count = rng.choice((1, 1, 1, 2, 3, 5, 8)) if count is None else count
    return [(rng.randrange(len(OPERATORS)), rng.randrange(1 << 20), rng.randrange(1 << 16)) for _ in range(count)]


def as_text(data: bytes) -> str | bytes:
    """Valid UTF-8 goes to the linter as str (the server's path), anything else as bytes (the CLI's)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


EDIT_FRAGMENTS = [t.decode("utf-8", errors="ignore") for t in TOKEN_POOL] + [
    "", "", "let x = 1", "fn g() {}", "loop {", "a < b", "array<f32, 4>", "subgroupMatrixLoad<",
    "coop_mat16x16<f16, A>", "/* open", "close */", "// line", "\n}\n", "struct S { a: f32 }"]


def random_edits(rng: random.Random, text: str, count: int | None = None) -> list[tuple[int, int, str | None]]:
    """(start, end, inserted) byte edits for invariants.check_incremental; None undoes the latest edit."""
    size = len(text.encode("utf-8"))
    edits = []
    for _ in range(rng.randint(1, 25) if count is None else count):
        start = rng.randint(0, size)
        inserted = None if rng.random() < 0.15 else rng.choice(EDIT_FRAGMENTS)
        edits.append((start, start + rng.choice((0, 0, 1, 3, 20)), inserted))
        size += len((inserted or "").encode("utf-8"))
    return edits
