"""Attributes where they belong: each declaration takes its own set, once each, with values in range.

`@workgroup_size` goes on compute shaders, IO attributes on entry-point
parameters, return values and struct members (not on helpers' parameters),
`@group`/`@binding` on variables, `@id` on overrides (unique, below 65536),
`@align` (a power of two) and `@size` (at least the member's size) on
struct members, `@must_use` on functions that return a value. One look at
the attributes of each declaration.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from ..core.diagnostic import Related
from . import types as t
from .diagnostic_controls import check_diagnostic_controls
from .layout import size_and_align
from ..syntax.nodes import FIELD_ARGUMENTS, FIELD_NAME, FIELD_OPERAND

_IO = frozenset({"builtin", "location", "interpolate", "invariant", "blend_src", "color"})
_STAGES = frozenset({"compute", "vertex", "fragment"})
# What each kind of declaration may carry ('diagnostic' goes everywhere it is allowed by the parser).
_ALLOWED = {
    "function": _STAGES | {"workgroup_size", "must_use", "diagnostic"},
    "entry parameter": _IO,
    "parameter": frozenset(),
    "entry return": _IO,
    "return": frozenset(),
    "member": _IO | {"align", "size"},
    "var": frozenset({"group", "binding", "input_attachment_index"}),
    "override": frozenset({"id"}),
    "const": frozenset(),
    "let": frozenset(),
    "struct": frozenset(),
    "alias": frozenset(),
}
_WHERE = {
    "function": "functions", "entry parameter": "entry point parameters", "parameter":
    "non-entry point function parameters", "entry return": "entry point return types", "return":
    "non-entry point function return types", "member": "struct members", "var": "'var' declarations",
    "override": "'override' declarations", "const": "'const' declarations", "let": "'let' declarations",
    "struct": "struct declarations", "alias": "type aliases",
}
# Attributes the checks of other rules already report (blend_src: T007/T020).
_REPORTED_ELSEWHERE = frozenset({"blend_src"})
_NON_NEGATIVE = ("location", "binding", "group", "blend_src", "color")


class AttributeChecker:
    """Mixin of the checker: needs `ctx`, `module_scope` and `quiet_int`."""

    function_returns: bool | None = None  # for '@must_use': whether the function being looked at returns

    def check_attributes(self, nodes: list[ts.Node], kind: str, member_type: t.Type | None = None,
                         natural_align: bool = False) -> None:
        """The attributes of one declaration (`nodes`), of the given kind (a key of _ALLOWED).

        natural_align: a member's @align must be a multiple of its type's alignment (Tint asks it of
        members of structs that can be host-shared or constructed, the only ones it lays out on their own)."""
        ctx = self.ctx
        seen: dict[str, ts.Node] = {}
        allowed = _ALLOWED[kind]
        filters: list[ts.Node] = []
        for attribute in nodes:
            name_node = attribute.child_by_field_id(FIELD_NAME)
            if name_node is None:
                continue
            name = ctx.text(name_node)
            if name == "diagnostic":
                filters.append(attribute)
                continue
            if name in seen:
                ctx.report("T023", f"duplicate '@{name}' attribute", ctx.span(attribute),
                           related=(Related(ctx.span(seen[name]), "the first one"),))
                continue
            seen[name] = attribute
            if name not in allowed:
                if name in _REPORTED_ELSEWHERE or name not in _KNOWN:
                    continue
                hint = " (it belongs on compute shaders)" if name == "workgroup_size" else ""
                ctx.report("T023", f"'@{name}' is not valid for {_WHERE[kind]}{hint}", ctx.span(attribute))
                continue
            self._attribute_value(attribute, name, member_type, natural_align)
        if len(filters) > 1:
            check_diagnostic_controls(ctx, filters, "attribute", allow_repeats=False)
        stages = [seen[s] for s in ("compute", "vertex", "fragment") if s in seen]
        if len(stages) > 1:
            ctx.report("T023", "a function can be the entry point of one shader stage only",
                       ctx.span(stages[1]))
        if kind == "function" and "must_use" in seen and self.function_returns is False:
            ctx.report("T023", "'@must_use' can only be applied to functions that return a value",
                       ctx.span(seen["must_use"]))
        if kind == "function" and "workgroup_size" in seen and stages and "compute" not in seen:
            ctx.report("T023", "'@workgroup_size' is only valid for compute shaders", ctx.span(seen["workgroup_size"]))

    def _not_an_integer(self, node: ts.Node) -> str | None:
        """What an attribute argument is when it is plainly no integer (a float or bool literal, or a
        constant of such a type), without evaluating it: its own errors are reported elsewhere."""
        while node.type == "paren_expression" and node.named_children:
            node = node.named_children[0]
        if node.type == "unary_expression" and node.child_by_field_id(FIELD_OPERAND) is not None:
            node = node.child_by_field_id(FIELD_OPERAND)
        text = self.ctx.text(node)
        if node.type == "float_literal" or (node.type == "int_literal" and _FLOAT_SUFFIX.search(text)):
            return f"the float '{text}'"
        if node.type == "bool_literal" or text in ("true", "false"):
            return f"the bool '{text}'"
        symbol = self.module_scope.symbols.get(text) if node.type == "identifier" else None
        kind = getattr(symbol, "type", None)
        if symbol is not None and symbol.kind in ("const", "override") and isinstance(kind, t.Scalar) \
                and kind not in (t.I32, t.U32, t.ABSTRACT_INT):
            return f"'{text}' of type '{kind.describe()}'"
        return None

    def _fits_attribute_integer(self, node: ts.Node, value: int) -> bool:
        """An integer attribute argument is an i32 or a u32; an abstract one becomes an i32, so it must
        fit that (compilers report `@location(4294967296)` where the value is converted)."""
        inner = node
        while inner.type in ("paren_expression", "unary_expression") and inner.named_children:
            inner = inner.child_by_field_id(FIELD_OPERAND) or inner.named_children[0]
        text = self.ctx.text(inner)
        if inner.type == "int_literal":
            target = t.U32 if text.endswith("u") else t.I32
        elif inner.type == "identifier" and getattr(self.module_scope.symbols.get(text), "type", None) \
                == t.ABSTRACT_INT:
            target = t.I32
        else:
            return True
        low, high = (0, 2**32 - 1) if target is t.U32 else (-(2**31), 2**31 - 1)
        if low <= value <= high:
            return True
        self.ctx.report("T014", f"value {value} cannot be represented as '{target.describe()}'", self.ctx.span(node))
        return False

    def _attribute_value(self, attribute: ts.Node, name: str, member_type, natural_align: bool = False) -> None:
        ctx = self.ctx
        arguments = attribute.child_by_field_id(FIELD_ARGUMENTS)
        args = [a for a in (arguments.named_children if arguments is not None else []) if not a.is_extra]
        if not args or name not in (*_NON_NEGATIVE, "id", "align", "size"):
            return
        wrong = self._not_an_integer(args[0])
        if wrong is not None:
            ctx.report("T023", f"'@{name}' must be an 'i32' or 'u32' value, not {wrong}", ctx.span(args[0]))
            return
        value = self.quiet_int(args[0])
        if value is None:
            return
        if name not in ("group", "binding") and not self._fits_attribute_integer(args[0], value):
            return  # @group and @binding are evaluated, and so checked, with their variable
        if name in _NON_NEGATIVE and value < 0:
            ctx.report("T023", f"'@{name}' value must be non-negative, not {value}", ctx.span(args[0]))
        elif name == "id":
            if not 0 <= value <= 65535:
                ctx.report("T023", f"'@id' value must be between 0 and 65535, not {value}", ctx.span(args[0]))
            else:
                first = self.override_ids.setdefault(value, attribute)
                if first is not attribute:
                    ctx.report("T023", f"'@id' values must be unique; {value} is used twice", ctx.span(attribute),
                               related=(Related(ctx.span(first), f"'@id({value})' is first used here"),))
        elif name == "align" and (value <= 0 or value & (value - 1)):
            ctx.report("T023", f"'@align' value must be a positive power of two, not {value}", ctx.span(args[0]))
        elif name == "align" and natural_align and member_type is not None and member_type is not t.ERROR \
                and value % (natural := size_and_align(member_type)[1]):
            ctx.report("T023", f"'@align({value})' is below the alignment of '{member_type.describe()}' "
                               f"({natural} bytes); use a multiple of {natural}", ctx.span(args[0]))
        elif name == "size" and isinstance(member_type, t.Array) and not isinstance(member_type.count, int):
            ctx.report("T023", f"'@size' needs a member whose size is known when the pipeline is created; "
                               f"'{member_type.describe()}' has no fixed size", ctx.span(attribute))
        elif name == "size" and member_type is not None:
            size = size_and_align(member_type)[0]
            if value <= 0 or size is not None and value < size:
                ctx.report("T023", f"'@size' must be at least the size of '{member_type.describe()}' "
                                   f"({size} bytes), not {value}", ctx.span(args[0]))


_KNOWN = frozenset(set().union(*_ALLOWED.values()))
_FLOAT_SUFFIX = re.compile(r"[fh]$")
