"""Dual-source blending (WGSL's `dual_source_blending` extension): the `@blend_src` attribute.

A fragment shader that blends two sources writes both to `@location(0)` of
one output struct, one member with `@blend_src(0)` and one with
`@blend_src(1)`, of the same type; no other member of that struct may use a
location then. The struct is checked where it is declared (as Tint does),
its uses where entry points take or return it.
"""

from __future__ import annotations

import tree_sitter as ts

from ..core.diagnostic import Related
from . import types as t
from ..syntax.nodes import FIELD_NAME

EXTENSION = "dual_source_blending"


class BlendSourceChecker:
    """Mixin of the checker: needs `ctx` and `quiet_int`."""

    def check_blend_sources(self, members: list[tuple[ts.Node, dict, t.Type]]) -> None:
        """`members`: each struct member's node, attributes and type."""
        ctx = self.ctx
        blended = [(node, attrs, member_type) for node, attrs, member_type in members if "blend_src" in attrs]
        if not blended:
            return
        first_attribute = blended[0][1]["blend_src"][0]
        if not ctx.require_enable(EXTENSION, _name_of(first_attribute), "'@blend_src'"):
            return
        seen: dict[int, ts.Node] = {}
        unknown = False
        first_type = None
        for node, attrs, member_type in blended:
            attribute, args = attrs["blend_src"]
            value = self.quiet_int(args[0]) if args else None
            if value is not None and value not in (0, 1):
                ctx.report("T020", f"'@blend_src' value must be zero or one, not {value}", ctx.span(args[0]))
                return
            location = attrs.get("location")
            location_value = self.quiet_int(location[1][0]) if location and location[1] else None
            if location is None or location_value not in (0, None):
                ctx.report("T020", "'@blend_src' can only be used with '@location(0)': both sources go to the "
                                   "first color target", ctx.span(_name_of(attribute)))
                return
            if first_type is None:
                first_type = (member_type, node)
            elif member_type is not t.ERROR and first_type[0] is not t.ERROR and member_type != first_type[0]:
                ctx.report("T020", f"both outputs with '@blend_src' must have the same type; this one is "
                                   f"'{member_type.describe()}', the other '{first_type[0].describe()}'",
                           ctx.span(_name_of(attribute)),
                           related=(Related(ctx.span(first_type[1]), "the other blend source"),))
                return
            if value is not None:
                seen.setdefault(value, attribute)
            else:
                unknown = True  # not an integer (reported with the attribute): it may be the missing one
        for node, attrs, _ in members:
            if "location" in attrs and "blend_src" not in attrs:
                ctx.report("T020", "'@blend_src' and '@location' are used on one member while this member has "
                                   "a '@location' without '@blend_src'; with dual-source blending the struct "
                                   "has no other color outputs", ctx.span(node),
                           related=(Related(ctx.span(first_attribute), "'@blend_src' is used here"),))
                return
        for value in (0, 1):
            if seen and value not in seen and not unknown:
                ctx.report("T020", f"'@blend_src({value})' is missing when '@blend_src' is used: dual-source "
                                   "blending needs both sources", ctx.span(_name_of(first_attribute)))
                return

    def blend_source_outside_output(self, attribute: ts.Node, where: str) -> None:
        """A `@blend_src` on a function parameter or return value, or in a struct an entry point takes."""
        if EXTENSION not in self.ctx.model.enables:
            self.ctx.require_enable(EXTENSION, _name_of(attribute), "'@blend_src'")
            return
        self.ctx.report("T020", f"'@blend_src' can only be used on the members of a fragment shader's output "
                                f"struct, not {where}", self.ctx.span(_name_of(attribute)))


def _name_of(attribute: ts.Node) -> ts.Node:
    return attribute.child_by_field_id(FIELD_NAME) or attribute
