"""Small semantic edits to real WGSL, for the differential campaign (benchmarks/differential.py).

Each mutation kind takes a source text and a seeded `random.Random` and returns
the edited text with a one-line description, or None when the source offers
nothing for that kind to edit. Edits are textual on purpose: a mutant should
be what a person might type, including what our own parser would not build.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Mutation = tuple[str, str]  # (mutated text, description)

_MATRIX_CHROMIUM = re.compile(r"subgroup_matrix_(left|right|result)\s*<\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*>")
_MATRIX_WGPU = re.compile(r"coop_mat(\d+)x(\d+)\s*<\s*(\w+)\s*,\s*(\w+)\s*>")
_MAJOR = re.compile(r"\b(row_major|col_major|coopLoadT|coopLoad|coopStoreT|coopStore)\b")
_MATRIX_CALL = re.compile(r"\b(subgroupMatrixLoad|subgroupMatrixStore|coopLoadT?|coopStoreT?)\b[^;\n]*\)\s*;")
_VAR_SPACE = re.compile(r"\b(var|ptr)\s*<\s*(\w+)\s*(?:,\s*(\w+)\s*)?(?=[,>])")
_ENABLE = re.compile(r"^\s*enable\s+[^;]*;[^\n]*\n", re.MULTILINE)
_DIRECTIVE = re.compile(r"^\s*(enable|requires|diagnostic)\b[^;]*;[^\n]*\n", re.MULTILINE)
_IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
_NUMBER = re.compile(r"(?<![\w.])(\d+)(\.\d+)?([uifh]?)(?![\w.])")
_OPERATOR = re.compile(r"(?<=\s)(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%<>&|^])(?=\s)")
_STATEMENT_LINE = re.compile(r"^(?P<indent>[ \t]+)(?P<body>[^\s/].*;)\s*$")
_CALL_STATEMENT = re.compile(r"^(?P<indent>[ \t]+)(?P<body>(?:[A-Za-z_][\w.\[\]]*\s*[-+*/]?=\s*)?"
                             r"[A-Za-z_]\w*\s*(?:<[^;]*?>)?\s*\(.*\)\s*;)\s*$")

KEYWORDS = frozenset("""
alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if
let loop override requires return struct switch true var while bitcast array atomic bool f16 f32 i32 u32 mat2x2
mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 ptr sampler sampler_comparison vec2 vec3 vec4 function
private workgroup uniform storage read write read_write group binding builtin location compute vertex fragment
workgroup_size
""".split())

ENABLES = ("f16", "subgroups", "chromium_experimental_subgroup_matrix", "clip_distances", "dual_source_blending",
           "primitive_index", "chromium_experimental_framebuffer_fetch", "wgpu_cooperative_matrix",
           "subgroup_matrix", "chromium_experimental_pixel_local", "chromium_disable_uniformity_analysis")
ELEMENT_TYPES = ("f16", "f32", "i32", "u32", "i8", "u8", "bf16", "bool")
DIMENSIONS = ("8", "16", "32", "4", "12", "0", "64")
SPACES = ("storage", "uniform", "workgroup", "private", "function", "handle")
ACCESS = ("read", "read_write", "write", None)
SUFFIXES = ("", "u", "i", "f", "h")
OPERATORS = ("+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "&", "|", "^", "<<", ">>")
NON_UNIFORM = "mutant_non_uniform"
UNIFORM = "mutant_uniform"


def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _pick(rng: random.Random, matches: list[re.Match]) -> re.Match | None:
    return rng.choice(matches) if matches else None


def _other(rng: random.Random, choices, current):
    options = [c for c in choices if c != current]
    return rng.choice(options)


def _code_lines(text: str) -> list[tuple[int, int, str]]:
    """(start offset, line number, line) of each line outside block comments, comment-only lines left out."""
    out, offset, in_block = [], 0, False
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if "/*" in line:
            in_block = "*/" not in line.split("/*", 1)[1]
        elif in_block:
            in_block = "*/" not in line
        elif stripped and not stripped.startswith("//"):
            out.append((offset, number, line))
        offset += len(line) + 1
    return out


def matrix_element(text: str, rng: random.Random) -> Mutation | None:
    matches = list(_MATRIX_CHROMIUM.finditer(text)) + list(_MATRIX_WGPU.finditer(text))
    m = _pick(rng, matches)
    if m is None:
        return None
    group = 2 if m.re is _MATRIX_CHROMIUM else 3
    new = _other(rng, ELEMENT_TYPES, m.group(group))
    return _replace(text, m.start(group), m.end(group), new), f"line {_line_of(text, m.start())}: element {m.group(group)} -> {new}"


def matrix_dimensions(text: str, rng: random.Random) -> Mutation | None:
    matches = list(_MATRIX_CHROMIUM.finditer(text)) + list(_MATRIX_WGPU.finditer(text))
    m = _pick(rng, matches)
    if m is None:
        return None
    group = rng.choice((3, 4)) if m.re is _MATRIX_CHROMIUM else rng.choice((1, 2))
    new = _other(rng, DIMENSIONS, m.group(group))
    return _replace(text, m.start(group), m.end(group), new), f"line {_line_of(text, m.start())}: dimension {m.group(group)} -> {new}"


def matrix_role(text: str, rng: random.Random) -> Mutation | None:
    matches = list(_MATRIX_CHROMIUM.finditer(text)) + list(_MATRIX_WGPU.finditer(text))
    m = _pick(rng, matches)
    if m is None:
        return None
    if m.re is _MATRIX_CHROMIUM:
        group, new = 1, _other(rng, ("left", "right", "result"), m.group(1))
    else:
        group, new = 4, _other(rng, ("A", "B", "C", "D"), m.group(4))
    return _replace(text, m.start(group), m.end(group), new), f"line {_line_of(text, m.start())}: role {m.group(group)} -> {new}"


_MAJOR_SWAP = {"row_major": "col_major", "col_major": "row_major", "coopLoad": "coopLoadT", "coopLoadT": "coopLoad",
               "coopStore": "coopStoreT", "coopStoreT": "coopStore"}


def matrix_majorness(text: str, rng: random.Random) -> Mutation | None:
    m = _pick(rng, list(_MAJOR.finditer(text)))
    if m is None:
        return None
    new = _MAJOR_SWAP[m.group(1)] if rng.random() < 0.8 else rng.choice(("row_major", "true", "false"))
    return _replace(text, m.start(1), m.end(1), new), f"line {_line_of(text, m.start())}: {m.group(1)} -> {new}"


def matrix_stride(text: str, rng: random.Random) -> Mutation | None:
    m = _pick(rng, list(_MATRIX_CALL.finditer(text)))
    if m is None:
        return None
    call = m.group(0)
    close = call.rfind(")")
    comma = call.rfind(",", 0, close)
    if comma < 0:
        return None
    new = rng.choice(("0u", "1u", "2u", "8u", "15u", "16u", "64u", "4294967295u", "-1", "16", "1.0", "16i"))
    start, end = m.start() + comma + 1, m.start() + close
    return _replace(text, start, end, " " + new), f"line {_line_of(text, m.start())}: stride -> {new}"


def address_space(text: str, rng: random.Random) -> Mutation | None:
    m = _pick(rng, list(_VAR_SPACE.finditer(text)))
    if m is None:
        return None
    new = _other(rng, SPACES, m.group(2))
    return _replace(text, m.start(2), m.end(2), new), f"line {_line_of(text, m.start())}: address space {m.group(2)} -> {new}"


def access_mode(text: str, rng: random.Random) -> Mutation | None:
    m = _pick(rng, list(_VAR_SPACE.finditer(text)))
    if m is None:
        return None
    current = m.group(3)
    new = _other(rng, ACCESS, current)
    if current is None:
        return _replace(text, m.end(2), m.end(2), f", {new}"), f"line {_line_of(text, m.start())}: access mode {new} added"
    if new is None:
        return _replace(text, m.end(2), m.end(3), ""), f"line {_line_of(text, m.start())}: access mode {current} removed"
    return _replace(text, m.start(3), m.end(3), new), f"line {_line_of(text, m.start())}: access {current} -> {new}"


def enable_removed(text: str, rng: random.Random) -> Mutation | None:
    m = _pick(rng, list(_ENABLE.finditer(text)))
    if m is None:
        return None
    return _replace(text, m.start(), m.end(), ""), f"line {_line_of(text, m.start())}: '{m.group(0).strip()}' removed"


def enable_added(text: str, rng: random.Random) -> Mutation | None:
    directives = list(_DIRECTIVE.finditer(text))
    at = directives[-1].end() if directives else 0
    name = rng.choice(ENABLES)
    return _replace(text, at, at, f"enable {name};\n"), f"line {_line_of(text, at)}: 'enable {name};' added"


def _statement_lines(text: str) -> list[tuple[int, int, str]]:
    return [(offset, number, line) for offset, number, line in _code_lines(text)
            if _STATEMENT_LINE.match(line) and line.count("(") == line.count(")")
            and line.count("{") == line.count("}")]


def statement_deleted(text: str, rng: random.Random) -> Mutation | None:
    lines = _statement_lines(text)
    if not lines:
        return None
    offset, number, line = rng.choice(lines)
    return _replace(text, offset, offset + len(line) + 1, ""), f"line {number}: statement deleted"


def statement_duplicated(text: str, rng: random.Random) -> Mutation | None:
    lines = _statement_lines(text)
    if not lines:
        return None
    offset, number, line = rng.choice(lines)
    return _replace(text, offset, offset, line + "\n"), f"line {number}: statement duplicated"


def identifier_renamed(text: str, rng: random.Random) -> Mutation | None:
    occurrences = [m for offset, _, line in _code_lines(text)
                   for m in [_shift(x, offset) for x in _IDENTIFIER.finditer(line.split("//", 1)[0])]
                   if m[2] not in KEYWORDS]
    if not occurrences:
        return None
    start, end, name = rng.choice(occurrences)
    others = sorted({n for _, _, n in occurrences if n != name})
    new = rng.choice(others) if others and rng.random() < 0.7 else name + "_renamed"
    return _replace(text, start, end, new), f"line {_line_of(text, start)}: '{name}' -> '{new}'"


def _shift(match: re.Match, offset: int) -> tuple[int, int, str]:
    return offset + match.start(), offset + match.end(), match.group(0)


def literal_suffix(text: str, rng: random.Random) -> Mutation | None:
    found = [(offset + m.start(), offset + m.end(), m) for offset, _, line in _code_lines(text)
             for m in _NUMBER.finditer(line.split("//", 1)[0])]
    if not found:
        return None
    start, end, m = rng.choice(found)
    digits, fraction, suffix = m.group(1), m.group(2) or "", m.group(3)
    choice = rng.random()
    if choice < 0.6:
        new = digits + fraction + _other(rng, SUFFIXES, suffix)
    elif choice < 0.8:
        new = digits + (".0" if not fraction else "") + rng.choice(("", "f", "h"))
    else:
        new = rng.choice(("0", "-1", "4294967296", "2147483648i", "65504h", "1e40f", "0x80000000i")) + \
            ("" if choice < 0.9 else suffix)
    return _replace(text, start, end, new), f"line {_line_of(text, start)}: literal {m.group(0)} -> {new}"


def operator_changed(text: str, rng: random.Random) -> Mutation | None:
    found = [(offset + m.start(), offset + m.end(), m.group(0)) for offset, _, line in _code_lines(text)
             if not line.lstrip().startswith(("@", "enable", "var<", "alias"))
             for m in _OPERATOR.finditer(line.split("//", 1)[0])]
    if not found:
        return None
    start, end, current = rng.choice(found)
    new = _other(rng, OPERATORS, current)
    return _replace(text, start, end, new), f"line {_line_of(text, start)}: operator {current} -> {new}"


def _wrap(text: str, rng: random.Random, condition: str, declaration: str, what: str) -> Mutation | None:
    lines = [(offset, number, line) for offset, number, line in _code_lines(text)
             if _CALL_STATEMENT.match(line) and line.count("(") == line.count(")")
             and not line.lstrip().startswith(("return", "let", "var", "const"))]
    if not lines:
        return None
    offset, number, line = rng.choice(lines)
    match = _CALL_STATEMENT.match(line)
    wrapped = f"{match.group('indent')}if ({condition}) {{ {match.group('body')} }}"
    mutated = _replace(text, offset, offset + len(line), wrapped)
    return mutated.rstrip("\n") + "\n\n" + declaration + "\n", f"line {number}: call wrapped in a branch on {what}"


def branch_uniform(text: str, rng: random.Random) -> Mutation | None:
    return _wrap(text, rng, f"{UNIFORM} == 0u", f"@group(3) @binding(15) var<uniform> {UNIFORM}: u32;",
                 "a uniform value")


def branch_non_uniform(text: str, rng: random.Random) -> Mutation | None:
    return _wrap(text, rng, f"{NON_UNIFORM} == 0u", f"var<private> {NON_UNIFORM}: u32;", "a non-uniform value")


KINDS: dict[str, Callable[[str, random.Random], Mutation | None]] = {
    "matrix_element": matrix_element,
    "matrix_dimensions": matrix_dimensions,
    "matrix_role": matrix_role,
    "matrix_majorness": matrix_majorness,
    "matrix_stride": matrix_stride,
    "address_space": address_space,
    "access_mode": access_mode,
    "enable_removed": enable_removed,
    "enable_added": enable_added,
    "statement_deleted": statement_deleted,
    "statement_duplicated": statement_duplicated,
    "identifier_renamed": identifier_renamed,
    "literal_suffix": literal_suffix,
    "operator_changed": operator_changed,
    "branch_uniform": branch_uniform,
    "branch_non_uniform": branch_non_uniform,
}


def mutate(text: str, rng: random.Random, kinds: list[str] | None = None) -> tuple[str, str, str] | None:
    """One mutant of `text`: (kind, mutated text, description), or None when no kind applies."""
    order = list(kinds or KINDS)
    rng.shuffle(order)
    for kind in order:
        result = KINDS[kind](text, rng)
        if result is not None and result[0] != text:
            return kind, result[0], result[1]
    return None
