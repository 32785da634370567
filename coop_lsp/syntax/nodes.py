"""Typed accessors for the parts of syntax nodes: the only place outside syntax/ and semantic/ that
knows the grammar's field names.

Each accessor names the part it returns and the node kinds that have it (tree-sitter-wgsl's
`field(...)`s); a node of another kind gives None. Upper layers read the tree through these (or,
better, ask the semantic model), so that a renamed field is one edit here, and
tests/test_layers.py counts raw `child_by_field_name` reads elsewhere.
`test_accessors_name_real_fields` checks every field below against the grammar's node-types.json.
"""

from __future__ import annotations

import sys

import tree_sitter as ts

from . import grammar

Node = ts.Node

_COMMENTS = ("line_comment", "block_comment", "comment")

try:
    _LANGUAGE = grammar.load()
except grammar.BrokenInstall:
    # No tree can be parsed, so no read below ever runs; the entry points report grammar.problem().
    _LANGUAGE = None


def _field(field_name: str) -> int:
    """The grammar's id for a field. `child_by_field_name` resolves the name by a linear search of the
    language's field table on every read; the checker and the uniformity walk read fields ~67,000 times
    per nine cold lints, so they read by id."""
    if _LANGUAGE is None:
        return -1
    field_id = _LANGUAGE.field_id_for_name(field_name)
    if field_id is None:  # a read by a name the grammar lacks would be None; by id it would raise
        raise ValueError(f"the WGSL grammar has no field {field_name!r}")
    return field_id


def _kind_names() -> dict[int, str]:
    """Each node kind's name (what `Node.type` says) by its id (`Node.kind_id`), interned.

    `Node.type` decodes the name into a new string at every read, whose hash is then computed again by
    every dict it keys; `kind_id` is a small int the interpreter keeps, and the name found by it is one
    interned string, the same object as the literals it is compared with. The hot walks (the checker's
    expressions and statements) read kinds this way. Ids past the grammar's own are tree-sitter's: 65535
    is an ERROR node (65534, "_ERROR", is never a node's)."""
    if _LANGUAGE is None:
        return {}
    names = {kind_id: sys.intern(_LANGUAGE.node_kind_for_id(kind_id)) for kind_id in range(_LANGUAGE.node_kind_count)}
    for kind_id in (0xFFFF, 0xFFFE):
        names[kind_id] = sys.intern(_LANGUAGE.node_kind_for_id(kind_id))
    return names


KIND_NAMES = _kind_names()

FIELD_ALTERNATIVE = _field("alternative")
FIELD_ARGUMENTS = _field("arguments")
FIELD_BODY = _field("body")
FIELD_CONDITION = _field("condition")
FIELD_CONSEQUENCE = _field("consequence")
FIELD_FUNCTION = _field("function")
FIELD_INDEX = _field("index")
FIELD_INITIALIZER = _field("initializer")
FIELD_LEFT = _field("left")
FIELD_MEMBER = _field("member")
FIELD_NAME = _field("name")
FIELD_OPERAND = _field("operand")
FIELD_OPERATOR = _field("operator")
FIELD_PARAMETERS = _field("parameters")
FIELD_RETURN_TYPE = _field("return_type")
FIELD_RIGHT = _field("right")
FIELD_RULE = _field("rule")
FIELD_SELECTORS = _field("selectors")
FIELD_SEVERITY = _field("severity")
FIELD_TEMPLATE = _field("template")
FIELD_TYPE = _field("type")
FIELD_UPDATE = _field("update")
FIELD_VALUE = _field("value")

# Each accessor reads its field directly (no shared helper): the uniformity analysis calls them in its
# inner loops, where one more Python call per read shows.


# ----------------------------------------------------------------- declarations
def name(node: Node | None) -> Node | None:
    """The declared or named identifier: declarations (var, let, const, override, alias, struct, function),
    parameters, struct members, attributes, type specifiers and templated identifiers."""
    return node.child_by_field_id(FIELD_NAME) if node is not None else None


def declared_type(node: Node | None) -> Node | None:
    """The written type (`: T`) of a var, let, const, override, parameter or struct member, or an alias's type."""
    return node.child_by_field_id(FIELD_TYPE) if node is not None else None


def value(node: Node | None) -> Node | None:
    """The initializer of a var, let, const or override; the value of a return or a switch; the base
    expression of an index or member expression."""
    return node.child_by_field_id(FIELD_VALUE) if node is not None else None


def template(node: Node | None) -> Node | None:
    """The template list of a templated identifier, a type specifier, or a var (`var<storage>`)."""
    return node.child_by_field_id(FIELD_TEMPLATE) if node is not None else None


def parameters(node: Node | None) -> Node | None:
    """A function declaration's parameter list."""
    return node.child_by_field_id(FIELD_PARAMETERS) if node is not None else None


def return_type(node: Node | None) -> Node | None:
    """A function declaration's return type."""
    return node.child_by_field_id(FIELD_RETURN_TYPE) if node is not None else None


def body(node: Node | None) -> Node | None:
    """The body of a function, struct, loop, for, while, switch, case, default or continuing."""
    return node.child_by_field_id(FIELD_BODY) if node is not None else None


# ------------------------------------------------------------------- statements
def condition(node: Node | None) -> Node | None:
    """The condition of an if, while, for, break-if or const_assert."""
    return node.child_by_field_id(FIELD_CONDITION) if node is not None else None


def consequence(node: Node | None) -> Node | None:
    """An if statement's block."""
    return node.child_by_field_id(FIELD_CONSEQUENCE) if node is not None else None


def alternative(node: Node | None) -> Node | None:
    """An if statement's else clause."""
    return node.child_by_field_id(FIELD_ALTERNATIVE) if node is not None else None


def initializer(node: Node | None) -> Node | None:
    """A for statement's initializer."""
    return node.child_by_field_id(FIELD_INITIALIZER) if node is not None else None


def update(node: Node | None) -> Node | None:
    """A for statement's update."""
    return node.child_by_field_id(FIELD_UPDATE) if node is not None else None


def left(node: Node | None) -> Node | None:
    """The left side of a binary expression, an assignment or a compound assignment."""
    return node.child_by_field_id(FIELD_LEFT) if node is not None else None


def right(node: Node | None) -> Node | None:
    """The right side of a binary expression, an assignment or a compound assignment."""
    return node.child_by_field_id(FIELD_RIGHT) if node is not None else None


def operator(node: Node | None) -> Node | None:
    """The operator token of a binary or unary expression or a compound assignment."""
    return node.child_by_field_id(FIELD_OPERATOR) if node is not None else None


def operand(node: Node | None) -> Node | None:
    """The operand of a unary expression, an increment or a decrement."""
    return node.child_by_field_id(FIELD_OPERAND) if node is not None else None


# ------------------------------------------------------------------ expressions
def callee(node: Node | None) -> Node | None:
    """A call expression's function: an identifier or a templated identifier."""
    return node.child_by_field_id(FIELD_FUNCTION) if node is not None else None


def arguments(node: Node | None) -> Node | None:
    """The argument list node of a call expression or an attribute."""
    return node.child_by_field_id(FIELD_ARGUMENTS) if node is not None else None


def index(node: Node | None) -> Node | None:
    """An index expression's index."""
    return node.child_by_field_id(FIELD_INDEX) if node is not None else None


def member(node: Node | None) -> Node | None:
    """A member expression's member name."""
    return node.child_by_field_id(FIELD_MEMBER) if node is not None else None


# ------------------------------------------------------------------- composites
def argument_nodes(node: Node | None) -> list[Node]:
    """The arguments of a call or an attribute, comments left out."""
    found = arguments(node)
    return [a for a in found.named_children if a.type not in _COMMENTS] if found is not None else []


def called_name(call: Node | None) -> Node | None:
    """The identifier a call expression calls: `f` of `f(...)` and of `f<T>(...)`."""
    function = callee(call)
    if function is not None and function.type == "templated_identifier":
        return name(function)
    return function


def attributes(node: Node) -> list[Node]:
    """The attributes written on a declaration, parameter, member or statement, in order."""
    return [child for child in node.children if child.type == "attribute"]
