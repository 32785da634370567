"""Entry points and their inputs and outputs (WGSL spec, "Entry Point Declaration", "Built-in Values").

Checks the `@builtin` values (known name, type, the extension they need),
integer user-defined IO between vertex and fragment shaders (`@interpolate(flat)`),
and the memory a vertex or fragment shader may not use.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ..core.diagnostic import Edit, Fix, Related
from ..core.text import Span
from . import types as t
from ..syntax.nodes import FIELD_ARGUMENTS, FIELD_BODY, FIELD_NAME, FIELD_PARAMETERS

VEC3U = t.Vector(3, t.U32)
MAX_CLIP_DISTANCES = 8
FRAMEBUFFER_FETCH = "chromium_experimental_framebuffer_fetch"
VEC4F = t.Vector(4, t.F32)


@dataclass(frozen=True)
class BuiltinValue:
    name: str
    type: t.Type | None  # None: checked by `check` below
    # (stage, "in" or "out") pairs where it may appear.
    uses: tuple[tuple[str, str], ...]
    doc: str
    enable: str | None = None
    compiler: str | None = None  # the only compiler that has it, if one


BUILTIN_VALUES = {v.name: v for v in (
    BuiltinValue("vertex_index", t.U32, (("vertex", "in"),), "Index of the current vertex in the draw."),
    BuiltinValue("instance_index", t.U32, (("vertex", "in"),), "Index of the current instance in the draw."),
    BuiltinValue("position", VEC4F, (("vertex", "out"), ("fragment", "in")),
                 "Clip-space position (vertex output); framebuffer position of the fragment (fragment input)."),
    BuiltinValue("clip_distances", None, (("vertex", "out"),), "User clip distances, an array<f32, N> (N <= 8).",
                 enable="clip_distances"),
    BuiltinValue("front_facing", t.BOOL, (("fragment", "in"),), "Whether the fragment's primitive faces the front."),
    BuiltinValue("frag_depth", t.F32, (("fragment", "out"),), "The depth written for the fragment."),
    BuiltinValue("sample_index", t.U32, (("fragment", "in"),), "The sample this fragment invocation shades."),
    BuiltinValue("sample_mask", t.U32, (("fragment", "in"), ("fragment", "out")), "The coverage mask."),
    BuiltinValue("primitive_index", t.U32, (("fragment", "in"),), "Index of the primitive in the draw.",
                 enable="primitive_index"),
    BuiltinValue("barycentric_coord", t.Vector(3, t.F32), (("fragment", "in"),),
                 "Barycentric coordinates of the fragment.", enable="chromium_experimental_barycentric_coord"),
    BuiltinValue("local_invocation_id", VEC3U, (("compute", "in"),), "Invocation position in the workgroup."),
    BuiltinValue("local_invocation_index", t.U32, (("compute", "in"),), "Linear invocation index in the workgroup."),
    BuiltinValue("global_invocation_id", VEC3U, (("compute", "in"),), "Invocation position in the dispatch."),
    BuiltinValue("workgroup_id", VEC3U, (("compute", "in"),), "Workgroup position in the dispatch."),
    BuiltinValue("num_workgroups", VEC3U, (("compute", "in"),), "The dispatch size, in workgroups."),
    BuiltinValue("subgroup_invocation_id", t.U32, (("compute", "in"), ("fragment", "in")),
                 "Invocation index in its subgroup.", enable="subgroups"),
    BuiltinValue("subgroup_size", t.U32, (("compute", "in"), ("fragment", "in")), "Invocations per subgroup.",
                 enable="subgroups"),
    BuiltinValue("subgroup_id", t.U32, (("compute", "in"),), "Subgroup index in the workgroup.",
                 enable="subgroups"),
    BuiltinValue("num_subgroups", t.U32, (("compute", "in"),), "Subgroups in the workgroup.", enable="subgroups"),
    # naga takes it as it is; Tint wants `enable view_instancing;`.
    BuiltinValue("view_index", None, (("vertex", "in"), ("fragment", "in")), "The view of a multiview draw.",
                 enable="view_instancing", compiler="naga"),
    BuiltinValue("global_invocation_index", t.U32, (("compute", "in"),), "Linear invocation index in the dispatch.",
                 compiler="naga"),
    BuiltinValue("point_size", t.F32, (("vertex", "out"),), "Size of a point primitive.", compiler="naga"),
)}


def attributes(node: ts.Node, ctx, field: str | None = None) -> dict[str, tuple[ts.Node, list[ts.Node]]]:
    """The attributes directly on a parameter, struct member or (with `field`) a function's return.
    Made once per node and check, and shared: read it, never change it."""
    key = (node.id, field)
    found = ctx.attribute_memo.get(key)
    if found is not None:
        return found
    children = node.children_by_field_name(field) if field else [c for c in node.children if c.type == "attribute"]
    found = ctx.attribute_memo[key] = {}
    for attribute in children:
        if attribute.type != "attribute":
            continue
        name = attribute.child_by_field_id(FIELD_NAME)
        arguments = attribute.child_by_field_id(FIELD_ARGUMENTS)
        if name is None:
            continue
        args = [a for a in (arguments.named_children if arguments is not None else [])
                if a.type not in ("line_comment", "block_comment")]
        found[ctx.text(name)] = (attribute, args)
    return found


class EntryPointChecker:
    """Mixin of the checker: needs `ctx`, `module_scope`, `symbol_type`."""

    def check_builtin_value(self, attribute: ts.Node, args: list[ts.Node], value_type: t.Type) -> None:
        ctx = self.ctx
        if not args:
            return
        name = ctx.text(args[0])
        value = BUILTIN_VALUES.get(name)
        if value is None:
            ctx.report("T001", f"unknown builtin value '{name}'", ctx.span(args[0]))
            return
        if value.compiler is not None and not (value.enable and value.enable in ctx.model.enables):
            if value.enable and ctx.target_compiler() == "tint":
                ctx.require_enable(value.enable, args[0], f"the builtin value '{name}'")
                return
            if not ctx.portability(value.compiler, args[0], f"the builtin value '{name}'"):
                return
            if value.enable:
                return  # naga needs no enable for it
        if value.enable is not None:  # the matrix extensions imply 'subgroups' (require_enable knows)
            ctx.require_enable(value.enable, args[0], f"the builtin value '{name}'")
        if value_type is t.ERROR:
            return
        if name == "clip_distances":
            if not (isinstance(value_type, t.Array) and value_type.element == t.F32
                    and isinstance(value_type.count, int) and value_type.count <= MAX_CLIP_DISTANCES):
                ctx.report("T003", f"the builtin value 'clip_distances' is an 'array<f32, N>' with N at most "
                                   f"{MAX_CLIP_DISTANCES}, not '{value_type.describe()}'", ctx.span(args[0]))
            return
        if value.type is None:
            return
        if value_type != value.type:
            ctx.report("T003", f"the builtin value '{name}' has type '{value.type.describe()}', not "
                               f"'{value_type.describe()}'", ctx.span(args[0]))

    def check_color_value(self, attribute: ts.Node, value_type: t.Type, declaration: ts.Node) -> None:
        """`@color(N)`: a fragment input read from color attachment N (framebuffer fetch)."""
        ctx = self.ctx
        if not ctx.require_enable(FRAMEBUFFER_FETCH, attribute, "'@color'"):
            return
        if value_type is t.ERROR or numeric_scalar_or_vector(value_type):
            return
        ctx.report("T020", f"cannot apply '@color' to declaration of type '{value_type.describe()}': a color "
                           "attachment is read as a numeric scalar or vector", ctx.span(declaration),
                   related=(Related(ctx.span(attribute), "the '@color' attribute"),))

    def entry_point_io(self, node: ts.Node, stage: str, symbol) -> None:
        """Checks the user-defined IO of a vertex or fragment entry point."""
        params_node = node.child_by_field_id(FIELD_PARAMETERS)
        parameters = [p for p in (params_node.named_children if params_node is not None else [])
                      if p.type == "parameter"]
        for parameter, parameter_type in zip(parameters, symbol.parameters):
            self._io(parameter, attributes(parameter, self.ctx), parameter_type, stage, "in")
        if symbol.return_type is not None:
            self._io(node, attributes(node, self.ctx, "return_attribute"), symbol.return_type, stage, "out")

    def _io(self, node, attrs, value_type, stage, direction) -> None:
        if isinstance(value_type, t.Struct) and not attrs:
            declaration = self.module_scope.symbols.get(value_type.name)
            body = declaration.declaration.child_by_field_id(FIELD_BODY) if declaration is not None else None
            members = [m for m in (body.named_children if body is not None else []) if m.type == "struct_member"]
            misplaced_blend_source = direction == "in" or stage != "fragment"
            for member_node, member in zip(members, value_type.members):
                member_attrs = attributes(member_node, self.ctx)
                if "blend_src" in member_attrs and misplaced_blend_source:
                    what = "an input" if direction == "in" else f"the output of a {stage} shader"
                    self.blend_source_outside_output(member_attrs["blend_src"][0], what)
                    misplaced_blend_source = False  # once per struct
                self._io(member_node, member_attrs, member.type, stage, direction)
            return
        if "location" not in attrs or value_type is t.ERROR:
            return
        scalar = t.element_scalar(value_type)
        interpolate = attrs.get("interpolate")
        # Another interpolation on an integer is an error of its own (T020, checked with the IO attributes).
        if scalar is not None and scalar.is_integer and interpolate is None and (
                (stage, direction) in (("vertex", "out"), ("fragment", "in"))):
            # The specification and Tint require flat; naga makes integers flat by itself.
            what = "vertex outputs" if stage == "vertex" else "fragment inputs"
            where = node.child_by_field_id(FIELD_NAME) or attrs["location"][0]
            if self.ctx.target_compiler() == "naga":
                return
            fixes = (self._flat_fix(attrs, interpolate),)
            if self.ctx.target_compiler() == "tint":
                self.ctx.report("T003", f"integral user-defined {what} must have a '@interpolate(flat)' attribute",
                                self.ctx.span(where), fixes=fixes)
            else:
                self.ctx.report("T013", f"integral user-defined {what} must have a '@interpolate(flat)' attribute "
                                        "in WGSL and Tint; only naga (wgpu) makes them flat by itself",
                                self.ctx.span(where), fixes=fixes)

    def _flat_fix(self, attrs, interpolate) -> Fix:
        """Adds `@interpolate(flat)` after the `@location`, or makes an existing `@interpolate` flat."""
        if interpolate is not None:
            attribute, _ = interpolate
            edit = Edit(self.ctx.span(attribute), "@interpolate(flat)")
        else:
            location = attrs["location"][0]
            edit = Edit(Span(location.end_byte, location.end_byte), " @interpolate(flat)")
        return Fix("Add @interpolate(flat)", (edit,))

    def stage_resources(self, entry, stage: str, uses: dict, calls: dict) -> None:
        """Memory a vertex or fragment shader may not touch: workgroup memory (there are no workgroups),
        and, in a vertex shader, writable storage buffers and textures (WebGPU forbids them)."""
        seen, order = set(), [entry]
        while order:
            function = order.pop(0)
            if function in seen:
                continue
            seen.add(function)
            for variable, where in uses.get(function, []):
                if variable.space == "workgroup":
                    self.ctx.report("T003", f"'{variable.name}' is a 'workgroup' variable; workgroup memory "
                                            f"exists only in compute shaders, not in a {stage} shader", where)
                    return
                if stage != "vertex":
                    continue
                if variable.space == "storage" and variable.access == "read_write":
                    self.ctx.report("T003", f"'{variable.name}' is a 'storage' buffer with 'read_write' access; "
                                            "a vertex shader can only read storage buffers", where)
                    return
                if isinstance(variable.type, t.Texture) and variable.type.kind == "storage" \
                        and variable.type.access != "read":
                    self.ctx.report("T003", f"'{variable.name}' is a writable storage texture; a vertex shader "
                                            "can only read storage textures", where)
                    return
            order.extend(calls.get(function, []))


def numeric_scalar_or_vector(value_type: t.Type) -> bool:
    scalar = value_type.element if isinstance(value_type, t.Vector) else value_type
    return isinstance(scalar, t.Scalar) and scalar.name in ("i32", "u32", "f32", "f16")
