"""Variable declarations (WGSL spec, "Variable and Value Declarations", "Resource Interface").

What a `var` may say about where it lives: the address spaces allowed at
module and at function scope, the access mode (only storage buffers have
one), initializers (only private and function variables), `@group` and
`@binding` (exactly the resource variables have both), and which types may
be shared with the host. Each check looks at one declaration, so the cost
is linear in the module.
"""

from __future__ import annotations

import tree_sitter as ts

from ..core.diagnostic import Related
from . import types as t
from .layout import size_and_align
from ..syntax.nodes import (
    FIELD_ARGUMENTS,
    FIELD_BODY,
    FIELD_NAME,
    FIELD_OPERAND,
    FIELD_TEMPLATE,
    FIELD_TYPE,
    FIELD_VALUE,
)

# Spaces whose contents the host reads or writes: every type there must have one layout.
HOST_SHAREABLE_SPACES = ("storage", "uniform", "push_constant", "immediate")
RESOURCE_SPACES = ("storage", "uniform", "handle")
# Tint's limit on the element count of an array outside storage buffers.
MAX_ARRAY_COUNT = 65536
MAX_BUFFER_BYTES = 0xFFFFFFFF


class VariableChecker:
    """Mixin of the checker: needs `ctx` and `module_scope`."""

    def check_variable(self, symbol, node: ts.Node, module_scope: bool, var_type: t.Type) -> None:
        ctx = self.ctx
        template = node.child_by_field_id(FIELD_TEMPLATE)
        arguments = list(template.named_children) if template is not None else []
        space = symbol.space
        # Read only for these two (finding it walks the declaration's children).
        keyword = (_var_keyword(node) or node) if module_scope or isinstance(var_type, t.Pointer) else node
        if len(arguments) > 1 and space not in ("storage", "handle"):
            ctx.report("T017", f"only variables in the 'storage' address space may have an access mode; "
                               f"'{space}' memory is always '{t.default_access(space)}'",
                       ctx.span(arguments[1]))
        elif len(arguments) > 1 and space == "storage" and symbol.access == "write":
            ctx.report("T017", "access mode 'write' is not valid for the 'storage' address space; use 'read' "
                               "or 'read_write'", ctx.span(arguments[1]))
        if isinstance(var_type, t.Pointer):
            where = node.child_by_field_id(FIELD_TYPE) or node.child_by_field_id(FIELD_NAME) or keyword
            ctx.report("T017", f"a pointer ('{var_type.describe()}') cannot be the type of a 'var'; hold it in a "
                               "'let'", ctx.span(where))
        if module_scope:
            self._module_variable(symbol, node, keyword, arguments, var_type)
        value = node.child_by_field_id(FIELD_VALUE)
        if value is not None and space not in ("private", "function"):
            ctx.report("T017", f"a '{space}' variable cannot have an initializer; only 'private' and 'function' "
                               "variables can", ctx.span(value))
        if space in HOST_SHAREABLE_SPACES and var_type is not t.ERROR:
            self._host_shareable(var_type, space, node)
        self._array_limits(var_type, space, node)

    def _module_variable(self, symbol, node, keyword, arguments, var_type) -> None:
        ctx = self.ctx
        space = symbol.space
        name = node.child_by_field_id(FIELD_NAME) or keyword
        if not arguments and not t.is_handle(var_type) and var_type is not t.ERROR:
            ctx.report("T017", "a module-scope 'var' needs an address space (for example 'var<private>'); "
                               "only textures and samplers may leave it out", ctx.span(name))
        if space == "function":
            ctx.report("T017", "a module-scope 'var' cannot be in the 'function' address space; use 'private'",
                       ctx.span(arguments[0]))
        if arguments and t.is_handle(var_type) and space not in HOST_SHAREABLE_SPACES:
            ctx.report("T017", f"a variable of type '{var_type.describe()}' must not name an address space",
                       ctx.span(arguments[0]))
            return  # it is a resource all the same: its attributes are right
        if var_type is t.ERROR and not arguments:
            return  # a texture or sampler whose type is wrong: its address space is unknown
        group, binding = _binding_attributes(node, ctx)
        if space in RESOURCE_SPACES:
            if group is None or binding is None:
                missing = " and ".join(a for a, n in (("@group", group), ("@binding", binding)) if n is None)
                ctx.report("T017", f"resource variables require '@group' and '@binding' attributes; "
                                   f"'{symbol.name}' has no {missing}", ctx.span(name))
        elif group is not None or binding is not None:
            attribute = group if group is not None else binding
            ctx.report("T017", f"non-resource variables must not have '@group' or '@binding' attributes; "
                               f"'{symbol.name}' is in '{space}' memory", ctx.span(attribute))

    def _host_shareable(self, var_type: t.Type, space: str, node: ts.Node) -> None:
        """Reports the innermost type that has no host layout, at the struct member that holds it."""
        where = node.child_by_field_id(FIELD_TYPE) or node.child_by_field_id(FIELD_NAME) or node
        culprit, member_node = self._not_host_shareable(var_type, where)
        if culprit is None:
            return
        related = ()
        if member_node is not where:
            related = (Related(self.ctx.span(where), f"used in '{space}' memory here"),)
        self.ctx.report("T017", f"type '{culprit.describe()}' cannot be used in the '{space}' address space: it "
                                "is not host-shareable (it has no memory layout the host can read)",
                        self.ctx.span(member_node), related=related)

    def _not_host_shareable(self, value_type: t.Type, where: ts.Node) -> tuple[t.Type | None, ts.Node]:
        seen = set()
        while True:
            if isinstance(value_type, (t.Array, t.BindingArray)):
                value_type = value_type.element  # naga's binding arrays of buffers hold buffers
                continue
            if isinstance(value_type, t.Struct):
                if value_type.name in seen:
                    return None, where
                seen.add(value_type.name)
                member_nodes = self._struct_member_types(value_type)
                for index, member in enumerate(value_type.members):
                    if not _host_shareable(member.type):
                        where = member_nodes[index] if index < len(member_nodes) else where
                        value_type = member.type
                        break
                else:
                    return None, where
                continue
            if _host_shareable(value_type) or value_type is t.ERROR or isinstance(value_type, t.CoopMatrix) \
                    or isinstance(value_type, t.Opaque) and not t.is_handle(value_type):
                return None, where  # matrices are reported by T010; Tint's untyped buffers are shareable
            return value_type, where

    def _struct_member_types(self, struct: t.Struct) -> list[ts.Node]:
        symbol = self.module_scope.symbols.get(struct.name)
        body = symbol.declaration.child_by_field_id(FIELD_BODY) if symbol is not None else None
        members = [m for m in (body.named_children if body is not None else []) if m.type == "struct_member"]
        return [m.child_by_field_id(FIELD_TYPE) or m for m in members]

    def _array_limits(self, var_type: t.Type, space: str, node: ts.Node) -> None:
        """Tint caps array counts outside storage buffers, and buffer arrays at 4 GiB."""
        if not isinstance(var_type, t.Array):
            return  # most variables; finding where to report would cost two field look-ups for nothing
        where = node.child_by_field_id(FIELD_TYPE) or node.child_by_field_id(FIELD_NAME) or node
        value_type = var_type
        while isinstance(value_type, t.Array):
            count = value_type.count
            if isinstance(count, int):
                if space != "storage" and count >= MAX_ARRAY_COUNT:
                    self.ctx.report("T014", f"array count ({count}) must be less than {MAX_ARRAY_COUNT} outside "
                                            "a 'storage' buffer", self.ctx.span(where))
                    return
                size = size_and_align(value_type)[0]
                if size is not None and size > MAX_BUFFER_BYTES:
                    self.ctx.report("T014", f"array '{value_type.describe()}' takes {size:,} bytes; an array must "
                                            "not exceed 4 GiB (0xffffffff bytes)", self.ctx.span(where))
                    return
            value_type = value_type.element


_UNREAD = object()


class BindingChecker:
    """Mixin of the checker: two resources an entry point uses may not share a binding, nor may it use two
    immediate variables."""

    def binding_collisions(self, entry, uses: dict, calls: dict) -> None:
        ctx = self.ctx
        seen, order, bound = set(), [entry], {}
        immediate = None
        while order:
            function = order.pop(0)
            if function in seen:
                continue
            seen.add(function)
            # Only each variable's first use counts (a second use of one finds nothing new).
            found = uses.get(function, [])
            in_order = getattr(found, "in_order", None)
            variables = in_order() if in_order is not None else [
                variable for variable, _ in sorted(found, key=lambda use: use[1].start)]
            for variable in variables:
                if variable.space == "immediate":
                    immediate = immediate or variable
                    if immediate is not variable:
                        self._second_immediate(entry, immediate, variable)
                        return
                if variable.space not in RESOURCE_SPACES:
                    continue
                # Every use of a variable comes here, for every entry point that reaches it: read its
                # attributes once per check.
                point = self.binding_points.get(variable, _UNREAD)
                if point is _UNREAD:
                    point = self.binding_points[variable] = self._binding_point(variable.declaration)
                if point is None:
                    continue
                first = bound.setdefault(point, variable)
                if first is not variable:
                    # Reported at the one reached second, in the order the entry point uses them (as Tint).
                    later, earlier = variable, first
                    ctx.report("T017", f"entry point '{entry.name}' uses both '{earlier.name}' and '{later.name}', "
                                       f"which share '@group({point[0]}) @binding({point[1]})'; give each "
                                       "resource its own binding", later.span,
                               related=(Related(earlier.span, f"'{earlier.name}' has the same binding"),
                                        Related(entry.span, f"the entry point '{entry.name}'")))
                    return
            order.extend(calls.get(function, []))

    def _second_immediate(self, entry, first, second) -> None:
        # Immediate data is one block per pipeline.
        self.ctx.report("T017", f"entry point '{entry.name}' uses two 'immediate' variables, '{first.name}' and "
                                f"'{second.name}'; a pipeline has one block of immediate data: put both values in "
                                "one struct", entry.span,
                        related=(Related(first.span, f"'{first.name}' is the first 'immediate' variable"),
                                 Related(second.span, f"'{second.name}' is the second")))

    def _binding_point(self, node: ts.Node) -> tuple[int, int] | None:
        group, binding = _binding_attributes(node, self.ctx)
        values = [self._attribute_int(a) for a in (group, binding) if a is not None]
        return (values[0], values[1]) if len(values) == 2 and None not in values else None

    def _attribute_int(self, attribute: ts.Node) -> int | None:
        arguments = attribute.child_by_field_id(FIELD_ARGUMENTS)
        args = [a for a in (arguments.named_children if arguments is not None else []) if not a.is_extra]
        return self.quiet_int(args[0]) if len(args) == 1 else None

    def quiet_int(self, node: ts.Node) -> int | None:
        """An attribute argument's value when it is a literal or a named constant, without reporting
        anything (the argument's own errors are reported once, elsewhere)."""
        text = self.ctx.text(node)
        if node.type == "unary_expression" and text.startswith("-"):
            operand = node.child_by_field_id(FIELD_OPERAND)
            value = self.quiet_int(operand) if operand is not None else None
            return -value if value is not None else None
        if node.type == "int_literal":
            try:
                return int(text.rstrip("iu"), 0)
            except ValueError:
                return None
        if node.type == "paren_expression" and node.named_children:
            return self.quiet_int(node.named_children[0])
        symbol = self.module_scope.symbols.get(text) if node.type == "identifier" else None
        if symbol is not None and symbol.kind == "const" and not symbol.resolved:
            self.symbol_type(symbol)
        value = symbol.value if symbol is not None and symbol.kind == "const" else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def _host_shareable(value_type: t.Type) -> bool:
    # naga's 64-bit scalars (shader-int64, shader-f64) are host-shareable where they exist at all.
    if isinstance(value_type, t.Scalar) and value_type.name in ("i64", "u64", "f64"):
        return True
    if isinstance(value_type, (t.Vector, t.Matrix, t.Array)):
        return _host_shareable(value_type.element)
    if isinstance(value_type, t.Struct):
        return all(_host_shareable(m.type) for m in value_type.members)
    return t.is_host_shareable(value_type)


def _var_keyword(node: ts.Node) -> ts.Node | None:
    for child in node.children:
        if child.type == "var":
            return child
    return None


def _binding_attributes(node: ts.Node, ctx) -> tuple[ts.Node | None, ts.Node | None]:
    group = binding = None
    for attribute in node.children:
        if attribute.type != "attribute":
            continue
        name = attribute.child_by_field_id(FIELD_NAME)
        text = ctx.text(name) if name is not None else ""
        if text == "group":
            group = attribute
        elif text == "binding":
            binding = attribute
    return group, binding
