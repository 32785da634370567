"""Functions whose uniformity analysis cannot find anything: analysed only if another function calls them.

A function's analysis reports failures only of requirements made inside it:
calls of barriers, derivatives, subgroup and matrix builtins, constructions of
matrices, declarations of variables that hold matrices, and calls of user
functions (which pass on their callees' requirements). A function that names
none of these can fail nothing; what callers need from it (its summary) is
computed when the first of them is analysed, and is the same then. Most
functions of a kernel are plain arithmetic, and their graphs cost about a
quarter of a lint.

The test is on the words of the function's text, so it errs only towards
analysing: a name in a comment or a shadowed name merely keeps a function in.
"""

from __future__ import annotations

import re
from bisect import bisect_right

import tree_sitter as ts

from ...semantic import types as t
from ...semantic.context import MATRIX_TABLES
from ...semantic.model import SemanticModel
from ...syntax import nodes as sn
from .levels import BARRIERS, DERIVATIVES, MATRIX_BUILTINS

_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
# Every subgroup and quad builtin, both subgroup matrix type families and naga's coop_mat types and
# builtins begin so.
_PREFIXED = re.compile(rb"(?<![A-Za-z0-9_])(?:subgroup|quad|coop)")
_REQUIRING = frozenset(name.encode() for name in BARRIERS | DERIVATIVES | MATRIX_BUILTINS) | frozenset(
    builtin.name.encode() for table in MATRIX_TABLES.values() for builtin in table)
# Module-scope declarations whose names, used in a function, may bring a requirement with them: a
# function called, or a type (an alias or a struct) that may be or hold a matrix.
_NAMED_DECLARATIONS = ("function_declaration", "type_alias_declaration", "struct_declaration")


def quiet_functions(root: ts.Node, data: bytes, model: SemanticModel) -> set[int]:
    """The start bytes of the module's functions that can have no uniformity failure of their own."""
    declarations = root.named_children
    functions = [node for node in declarations if node.type == "function_declaration"]
    starts = [node.start_byte for node in functions]  # in source order: the module's children are
    ends = [node.end_byte for node in functions]
    # Module-scope declarations are all written ones; a replayed body's locals are not needed (inside a
    # function), and listing them would make them.
    # Where a symbol stands is asked before its type: most are the functions' locals, and the type's walk
    # (a Python call per level) is the dearer question.
    for symbol in model.written_symbols:
        if symbol.kind in ("var", "const", "override", "let"):
            start = symbol.span.start
            at = bisect_right(starts, start) - 1
            if (at < 0 or start >= ends[at]) and t.contains(symbol.type, is_matrix):
                return set()  # a module-scope matrix can reach any function by its name: analyse them all
    names = set()
    for node in declarations:
        if node.type in _NAMED_DECLARATIONS:
            name = sn.name(node)
            if name is not None:
                names.add(data[name.start_byte:name.end_byte])
    quiet = set()
    for node in declarations:
        if node.type != "function_declaration":
            continue
        own = sn.name(node)
        if own is None or _PREFIXED.search(data, node.start_byte, node.end_byte):
            continue
        # Around its own name: a use of it in the body (recursion) keeps the function in.
        words = set(_WORD.findall(data, node.start_byte, own.start_byte))
        words.update(_WORD.findall(data, own.end_byte, node.end_byte))
        if words & names or words & _REQUIRING:
            continue
        quiet.add(node.start_byte)
    return quiet


def is_matrix(type_: t.Type) -> bool:
    """For `t.contains`: a cooperative / subgroup matrix (the analyzer asks it of declarations too)."""
    return isinstance(type_, t.CoopMatrix)
