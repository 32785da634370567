"""Entry-point inputs and outputs: the attributes every parameter, return value and IO struct member needs.

Each input and output of an entry point is either a builtin value or a
user-defined `@location` of a numeric scalar or vector, once per direction;
`@interpolate` goes with a location and `@invariant` with the position; a
vertex shader returns the position; a compute shader has a workgroup size
and no user-defined IO. Struct members are checked as the struct is used.
"""

from __future__ import annotations

import tree_sitter as ts

from . import types as t
from .entry_points import BUILTIN_VALUES, numeric_scalar_or_vector, attributes
from ..syntax.nodes import FIELD_BODY, FIELD_NAME, FIELD_PARAMETERS, FIELD_RETURN_TYPE


class StageIOChecker:
    """Mixin of the checker: needs `ctx`, `module_scope` and `quiet_int`."""

    def check_stage_io(self, node: ts.Node, stage: str, symbol) -> None:
        ctx = self.ctx
        params_node = node.child_by_field_id(FIELD_PARAMETERS)
        parameters = [p for p in (params_node.named_children if params_node is not None else [])
                      if p.type == "parameter"]
        seen = {"builtins": set(), "locations": set()}
        for parameter, parameter_type in zip(parameters, symbol.parameters):
            where = parameter.child_by_field_id(FIELD_NAME) or parameter
            if not self._stage_item(attributes(parameter, ctx), parameter_type, where, stage, "parameter", seen):
                return
        seen = {"builtins": set(), "locations": set()}
        name = node.child_by_field_id(FIELD_NAME) or node
        if symbol.return_type is not None:
            return_node = node.child_by_field_id(FIELD_RETURN_TYPE) or name
            if not self._stage_item(attributes(node, ctx, "return_attribute"), symbol.return_type, return_node,
                                    stage, "return type", seen):
                return
        if stage == "vertex" and "position" not in seen["builtins"] and symbol.return_type is not t.ERROR:
            ctx.report("T020", "a vertex shader must include the 'position' builtin in its return type",
                       ctx.span(name))
        if stage == "compute" and "workgroup_size" not in attributes(node, ctx):
            ctx.report("T020", "a compute shader must include '@workgroup_size' in its attributes, for example "
                               "'@workgroup_size(64)'", ctx.span(name))

    def _stage_item(self, attrs: dict, value_type: t.Type, where: ts.Node, stage: str, what: str,
                    seen: dict, member: bool = False, top: ts.Node | None = None) -> bool:
        """One parameter, return value or struct member; False after an error (Tint stops there too)."""
        if value_type is t.ERROR:
            return True
        struct = value_type if isinstance(value_type, t.Struct) else None
        if struct is not None and member:
            return self._stage_error("nested structures cannot be used for entry point IO", where)
        top = top or where
        if not self._stage_attributes(attrs, value_type, where, stage, what, seen, struct is not None, member,
                                      top):
            return False
        if struct is None:
            return True
        declaration = self.module_scope.symbols.get(struct.name)
        body = declaration.declaration.child_by_field_id(FIELD_BODY) if declaration is not None else None
        member_nodes = [m for m in (body.named_children if body is not None else []) if m.type == "struct_member"]
        for member_node, struct_member in zip(member_nodes, struct.members):
            member_where = member_node.child_by_field_id(FIELD_NAME) or member_node
            if not self._stage_item(attributes(member_node, self.ctx), struct_member.type, member_where, stage,
                                    what, seen, member=True, top=top):
                return False
        return True

    def _stage_attributes(self, attrs, value_type, where, stage, what, seen, is_struct, member, top) -> bool:
        ctx = self.ctx
        location, builtin = attrs.get("location"), attrs.get("builtin")
        color = attrs.get("color")  # framebuffer fetch: a fragment input read from a color attachment
        direction = "input" if what == "parameter" else "output"
        io = sorted((a[0] for a in (location, builtin, color) if a is not None), key=lambda n: n.start_byte)
        if len(io) > 1:
            return self._stage_error(f"'{ctx.text(io[1])}' is a second entry point IO attribute here: an input "
                                     "or output is one builtin value, one '@location' or one '@color'", io[1])
        if builtin is not None and builtin[1] and not self._builtin_in_stage(builtin, stage, direction):
            return False
        if color is not None:
            if stage != "fragment" or direction != "input":
                return self._stage_error("'@color' can only be used for fragment shader input: it reads the "
                                         "color attachment the fragment will be blended into", color[0])
            value = self.quiet_int(color[1][0]) if color[1] else None
            colors = seen.setdefault("colors", set())
            if value is not None and value in colors:
                return self._stage_error(f"'@color({value})' appears multiple times", color[0])
            colors.add(value)
        if location is not None and stage == "compute":
            return self._stage_error("'@location' cannot be used by compute shaders: their only inputs are "
                                     "builtin values", location[0])
        if location is not None and not is_struct and not numeric_scalar_or_vector(value_type):
            return self._stage_error(f"cannot apply '@location' to declaration of type "
                                     f"'{value_type.describe()}': locations hold numeric scalars and vectors",
                                     where)
        if builtin is not None and builtin[1]:
            name = ctx.text(builtin[1][0])
            if name in seen["builtins"]:
                direction = "input" if what == "parameter" else "output"
                # Reported where the parameter (or return value) brings it in, as Tint does.
                return self._stage_error(f"'@builtin({name})' appears multiple times as pipeline {direction}",
                                         top)
            seen["builtins"].add(name)
        if not is_struct and location is None and builtin is None and color is None:
            suffix = "" if member else f" on {what}"
            return self._stage_error(f"missing entry point IO attribute{suffix}: add '@location(N)' or "
                                     "'@builtin(...)'", where)
        if location is not None and location[1]:
            value = self.quiet_int(location[1][0])
            blend = attrs.get("blend_src")
            blend_value = self.quiet_int(blend[1][0]) if blend is not None and blend[1] else 0
            if value is not None:
                if (value, blend_value) in seen["locations"]:
                    shown = f"'@location({value})'" + (f" '@blend_src({blend_value})'" if blend else "")
                    return self._stage_error(f"{shown} appears multiple times", location[0])
                seen["locations"].add((value, blend_value))
        interpolate = attrs.get("interpolate")
        if interpolate is not None and location is None:
            return self._stage_error("'@interpolate' can only be used with '@location'", interpolate[0])
        if interpolate is not None and interpolate[1] and not is_struct:
            if not self._interpolation(attrs, interpolate, value_type):
                return False
        invariant = attrs.get("invariant")
        if invariant is not None and not (builtin is not None and builtin[1]
                                          and ctx.text(builtin[1][0]) == "position"):
            return self._stage_error("'@invariant' must be applied to a '@builtin(position)'", invariant[0])
        return True

    def _builtin_in_stage(self, builtin, stage: str, direction: str) -> bool:
        name = self.ctx.text(builtin[1][0])
        value = BUILTIN_VALUES.get(name)
        if value is None or (stage, "out" if direction == "output" else "in") in value.uses:
            return True
        allowed = " or ".join(f"a {s} shader {'input' if d == 'in' else 'output'}" for s, d in value.uses)
        return self._stage_error(f"'@builtin({name})' cannot be used for {stage} shader {direction}: it is only "
                                 f"valid as {allowed}", builtin[0])

    def _interpolation(self, attrs, interpolate, value_type) -> bool:
        ctx = self.ctx
        attribute, args = interpolate
        kind = ctx.text(args[0])
        sampling = ctx.text(args[1]) if len(args) > 1 else None
        scalar = t.element_scalar(value_type)
        if scalar is not None and scalar.is_integer and kind != "flat":
            ctx.report("T020", f"interpolation type must be 'flat' for integral user-defined IO types, not "
                               f"'{kind}'", ctx.span(args[0]), fixes=(self._flat_fix(attrs, interpolate),))
            return False
        if sampling is None:
            return True
        first_or_either = sampling in ("first", "either")
        if kind == "flat" and not first_or_either:
            return self._stage_error(f"flat interpolation can only use 'first' and 'either' sampling, not "
                                     f"'{sampling}'", args[1])
        if kind != "flat" and first_or_either:
            return self._stage_error(f"'{sampling}' sampling can only be used with flat interpolation", args[1])
        return True

    def _stage_error(self, message: str, where: ts.Node) -> bool:
        self.ctx.report("T020", message, self.ctx.span(where))
        return False

