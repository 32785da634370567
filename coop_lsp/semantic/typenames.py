"""Resolving type expressions: `array<vec4<f32>, N>`, `subgroup_matrix_left<f16, 16, 16>`, struct names."""

from __future__ import annotations

import re

import tree_sitter as ts

from ..core.diagnostic import Related
from . import types as t
from .builtins.matrix import MATRIX_ELEMENTS, NAGA_ELEMENTS
from ..syntax.nodes import FIELD_NAME, FIELD_TEMPLATE

_VECTOR_SHORTHANDS = {f"vec{n}{s}": t.Vector(n, scalar) for n in (2, 3, 4)
                      for s, scalar in (("f", t.F32), ("i", t.I32), ("u", t.U32), ("h", t.F16))}
_MATRIX_SHORTHANDS = {f"mat{c}x{r}{s}": t.Matrix(c, r, scalar) for c in (2, 3, 4) for r in (2, 3, 4)
                      for s, scalar in (("f", t.F32), ("h", t.F16))}
_MATRIX_NAME = re.compile(r"^mat([234])x([234])$")
_COOP_NAME = re.compile(r"^coop_mat(\d+)x(\d+)$")
_SUBGROUP_NAME = re.compile(r"^subgroup_matrix_(left|right|result)$")
# Opaque types that are neither textures nor samplers: one compiler's resources.
# name -> (the compiler that has it, the enable it needs there or None)
_OPAQUE = {"ray_query": ("naga", "wgpu_ray_query"), "acceleration_structure": ("naga", "wgpu_ray_query"),
           "RayDesc": ("naga", "wgpu_ray_query"), "RayIntersection": ("naga", "wgpu_ray_query")}
_TEMPLATED_OPAQUE = re.compile(r"^(texture_(1d|2d|2d_array|3d|cube|cube_array|multisampled_2d|multisampled_2d_array)"
                               r"|texture_storage_(1d|2d|2d_array|3d)|binding_array|texel_buffer|buffer"
                               r"|input_attachment)$")
_SAMPLERS = {"sampler": t.Sampler(False), "sampler_comparison": t.Sampler(True)}
_PLAIN_TEXTURES = {name: t.Texture(name) for name in t.DEPTH_TEXTURES + ("texture_external",)}
TEMPLATE_ENUMERANTS = {"function", "private", "workgroup", "uniform", "storage", "handle", "push_constant",
                       "immediate", "read", "write", "read_write", "row_major", "col_major", "A", "B", "C"}
TEXEL_FORMATS = set(t.TEXEL_FORMATS)

PREDECLARED_TYPE_NAMES = (set(t.CONCRETE_SCALARS) | set(_VECTOR_SHORTHANDS) | set(_MATRIX_SHORTHANDS)
                          | {"vec2", "vec3", "vec4", "array", "atomic", "ptr"} | set(_OPAQUE) | set(_SAMPLERS)
                          | set(_PLAIN_TEXTURES) | {"f64", "i64", "u64"})


def is_type_name(name: str) -> bool:
    # Asked of every builtin call's name (four patterns for a name that is not a type): answers kept by name,
    # bounded since a process lints many files.
    known = _TYPE_NAMES.get(name)
    if known is None:
        known = (name in PREDECLARED_TYPE_NAMES or bool(_MATRIX_NAME.match(name)) or bool(_COOP_NAME.match(name))
                 or bool(_SUBGROUP_NAME.match(name)) or bool(_TEMPLATED_OPAQUE.match(name)))
        if len(_TYPE_NAMES) >= 4096:
            _TYPE_NAMES.clear()
        _TYPE_NAMES[name] = known
    return known


_TYPE_NAMES: dict[str, bool] = {}


class TypeResolver:
    """Mixin of the checker: needs `ctx`, `scope`, `lookup_symbol`, `expression` and `const_int`."""

    def resolve_type(self, node: ts.Node) -> t.Type:
        """The type a type expression denotes; t.ERROR (with a diagnostic) when it denotes none."""
        if node.type in ("type_specifier", "templated_identifier"):
            name_node = node.child_by_field_id(FIELD_NAME)
            template = node.child_by_field_id(FIELD_TEMPLATE)
        elif node.type == "identifier":
            name_node, template = node, None
        elif node.type == "paren_expression":
            return self.resolve_type(node.named_children[0]) if node.named_children else t.ERROR
        else:
            self.ctx.report("T003", f"'{self.ctx.text(node)}' is not a type", self.ctx.span(node))
            return t.ERROR
        if name_node is None:
            return t.ERROR
        args = template.named_children if template is not None else []
        args = [a for a in args if a.type not in ("line_comment", "block_comment")]
        return self._named_type(name_node, self.ctx.text(name_node), args)

    def _named_type(self, name_node: ts.Node, name: str, args: list[ts.Node]) -> t.Type:
        ctx = self.ctx
        symbol = self.lookup_symbol(name)
        if symbol is not None and symbol.kind in ("struct", "alias"):
            ctx.model.written_references[(name_node.start_byte, name_node.end_byte)] = symbol
            if args:
                ctx.report("T003", f"'{name}' takes no template arguments", ctx.span(name_node))
            return self.symbol_type(symbol, via=name_node)
        if symbol is not None:
            if symbol.kind == "function" and (name_node.parent is None or not name_node.parent.has_error):
                self.note_use(symbol, name_node)  # a dependency all the same, for the cycle check
            ctx.report("T003", f"'{name}' is a {symbol.kind}, not a type", ctx.span(name_node))
            return t.ERROR
        if name in t.CONCRETE_SCALARS:
            if name == "f16":
                ctx.require_enable("f16", name_node, "the type 'f16'")
            return self._no_template(name_node, name, args, t.CONCRETE_SCALARS[name])
        if name in _VECTOR_SHORTHANDS:
            if name.endswith("h"):
                ctx.require_enable("f16", name_node, f"the type '{name}'")
            return self._no_template(name_node, name, args, _VECTOR_SHORTHANDS[name])
        if name in _MATRIX_SHORTHANDS:
            if name.endswith("h"):
                ctx.require_enable("f16", name_node, f"the type '{name}'")
            return self._no_template(name_node, name, args, _MATRIX_SHORTHANDS[name])
        if name in ("vec2", "vec3", "vec4"):
            element = self._element_scalar(name_node, name, args, 1)
            return t.Vector(int(name[3]), element) if isinstance(element, t.Scalar) else t.ERROR
        matrix = _MATRIX_NAME.match(name)
        if matrix:
            element = self._element_scalar(name_node, name, args, 1)
            if isinstance(element, t.Scalar) and not element.is_float:
                ctx.report("T003", f"matrix element type must be f32 or f16, not '{element.describe()}'",
                           ctx.span(name_node))
                return t.ERROR
            return t.Matrix(int(matrix[1]), int(matrix[2]), element) if isinstance(element, t.Scalar) else t.ERROR
        if name == "array":
            return self._array(name_node, args)
        if name == "atomic":
            if len(args) != 1:
                return self._element_scalar(name_node, name, args, 1)  # reports the argument count
            element = self.resolve_type(args[0])
            if element is t.ERROR:
                return t.ERROR
            if element == t.Vector(2, t.U32):
                # Tint knows atomic<vec2u> but only behind an extension that no browser enables.
                ctx.report("T003", "'atomic<vec2<u32>>' needs the extension 'atomic_vec2u_min_max', which browsers "
                                   "do not offer; use 'atomic<u32>' or 'atomic<i32>'", ctx.span(args[0]))
                return t.ERROR
            if element not in (t.I32, t.U32, t.Scalar("i64"), t.Scalar("u64")):
                ctx.report("T003", f"atomic element type must be i32 or u32, not '{element.describe()}'",
                           ctx.span(args[0]))
                return t.ERROR
            return t.Atomic(element)
        if name == "ptr":
            return self._pointer(name_node, args)
        coop = _COOP_NAME.match(name)
        if coop:
            return self._naga_matrix(name_node, name, int(coop[1]), int(coop[2]), args)
        subgroup = _SUBGROUP_NAME.match(name)
        if subgroup:
            return self._subgroup_matrix(name_node, name, subgroup[1], args)
        if name in ("u8", "i8") and ctx.enabled_dialect() == "wgpu":
            ctx.report("T001", f"unresolved type '{name}' (naga 29 has no 8-bit matrix elements)",
                       ctx.span(name_node))
            return t.ERROR
        if name in ("u8", "i8"):
            ctx.report("T003", f"'{name}' is only a subgroup matrix element type, not a type of values",
                       ctx.span(name_node))
            return t.ERROR
        if name in _SAMPLERS or name in _PLAIN_TEXTURES:
            return self._no_template(name_node, name, args, _SAMPLERS.get(name) or _PLAIN_TEXTURES[name])
        if name in t.SAMPLED_TEXTURES:
            element = self._element_scalar(name_node, name, args, 1)
            if isinstance(element, t.Scalar) and element not in (t.F32, t.I32, t.U32):
                ctx.report("T003", f"the sampled type of '{name}' must be f32, i32 or u32, not "
                                   f"'{element.describe()}'", ctx.span(args[0]))
                return t.ERROR
            return t.Texture(name, sampled=element) if isinstance(element, t.Scalar) else t.ERROR
        if name in t.STORAGE_TEXTURES or name == "texel_buffer":
            if name == "texel_buffer":
                ctx.portability("tint", name_node, "the type 'texel_buffer'")
            return self._storage_texture(name_node, name, args)
        if name == "binding_array":
            return self._binding_array(name_node, args)
        if name in ("f64", "i64", "u64"):
            if not ctx.portability("naga", name_node, f"the type '{name}'"):
                return t.ERROR
            return self._no_template(name_node, name, args, t.Scalar(name))
        if name in _OPAQUE or _TEMPLATED_OPAQUE.match(name):
            compiler, enable = _OPAQUE.get(name, ("tint", None))
            if enable is not None and enable in ctx.model.enables:
                pass
            elif not ctx.portability(compiler, name_node, f"the type '{name}'"):
                return t.ERROR
            for arg in args:
                if self.ctx.text(arg) not in TEXEL_FORMATS | TEMPLATE_ENUMERANTS:
                    self.template_value(arg)
            text = name if not args else f"{name}<{', '.join(self.ctx.text(a) for a in args)}>"
            return t.Opaque(text)
        ctx.report("T001", f"unresolved type '{name}'", ctx.span(name_node))
        return t.ERROR

    # -------------------------------------------------------------- pieces
    def _storage_texture(self, name_node, name, args) -> t.Type:
        ctx = self.ctx
        if len(args) != 2:
            ctx.report("T003", f"'{name}' needs two template arguments: a texel format and an access mode",
                       ctx.span(name_node))
            return t.ERROR
        texel_format, access = ctx.text(args[0]), ctx.text(args[1])
        for arg in args:
            shadowing = self.lookup_symbol(ctx.text(arg)) if arg.type == "identifier" else None
            if shadowing is not None:
                # A declaration of that name hides the enumerant here, and is a dependency (maybe a cycle).
                self.note_declaration_use(shadowing, arg)
                ctx.report("T003", f"'{ctx.text(arg)}' here names the {shadowing.kind} declared with that name, "
                                   f"which hides the {'texel format' if arg is args[0] else 'access mode'}",
                           ctx.span(arg), related=(Related(shadowing.span, "declared here"),))
                return t.ERROR
        if texel_format not in TEXEL_FORMATS:
            ctx.report("T003", f"unknown texel format '{texel_format}'", ctx.span(args[0]))
            return t.ERROR
        if access not in t.ACCESS_MODES:
            ctx.report("T003", f"unknown access mode '{access}'", ctx.span(args[1]))
            return t.ERROR
        return t.Texture(name, format=texel_format, access=access)

    def _binding_array(self, name_node, args) -> t.Type:
        ctx = self.ctx
        if not args or len(args) > 2:
            ctx.report("T003", "'binding_array' needs an element type and optionally a size", ctx.span(name_node))
            return t.ERROR
        element = self.resolve_type(args[0])
        count = None
        if len(args) == 2:
            size = self.template_value(args[1])
            if isinstance(size.value, int) and not isinstance(size.value, bool):
                count = size.value
        elif not ctx.portability("naga", name_node, "a 'binding_array' without a size"):
            return t.ERROR
        if element is t.ERROR:
            return t.ERROR
        if not _tint_binding_array_element(element) and not ctx.portability(
                "naga", args[0], "a 'binding_array' of something other than sampled textures"):
            return t.ERROR
        return t.BindingArray(element, count)

    def _no_template(self, name_node, name, args, result):
        if args:
            self.ctx.report("T003", f"type '{name}' takes no template arguments", self.ctx.span(name_node))
        return result

    def _element_scalar(self, name_node, name, args, count) -> t.Type:
        if len(args) != count:
            self.ctx.report("T003", f"'{name}' needs {count} template argument{'s' if count > 1 else ''}",
                            self.ctx.span(name_node))
            return t.ERROR
        element = self.resolve_type(args[0])
        if element is t.ERROR:
            return t.ERROR
        if not isinstance(element, t.Scalar):
            self.ctx.report("T003", f"'{name}' element type must be a scalar, not '{element.describe()}'",
                            self.ctx.span(args[0]))
            return t.ERROR
        return element

    def _array(self, name_node, args) -> t.Type:
        if not args or len(args) > 2:
            self.ctx.report("T003", "'array' needs an element type and optionally a size", self.ctx.span(name_node))
            return t.ERROR
        element = self.resolve_type(args[0])
        if element is not t.ERROR and not _array_element(element):
            what = ("a runtime-sized array" if t.contains(element, lambda x: isinstance(x, t.Array)
                                                          and x.count is None) else f"'{element.describe()}'")
            self.ctx.report("T003", f"{what} cannot be the element type of an array (a binding_array holds "
                                    "textures and samplers)" if t.is_handle(element) else
                            f"an array element type cannot be or contain {what}", self.ctx.span(args[0]))
            return t.ERROR
        if isinstance(element, t.Array) and isinstance(element.count, str):
            self.ctx.report("T003", f"'{element.describe()}' cannot be the element type of an array: an array with "
                                    "an 'override' element count can only be the type of a 'var<workgroup>'",
                            self.ctx.span(args[0]))
            return t.ERROR
        if len(args) == 1:
            return t.Array(element, None)
        size = self.template_value(args[1])
        if size.value is None:
            if size.override and not size.const and size.type is not t.ERROR:
                return t.Array(element, self.ctx.text(args[1]))
            if size.type is not t.ERROR:
                self.ctx.report("T003", "array size must be a constant or override expression",
                                self.ctx.span(args[1]))
            return t.Array(element, None) if size.type is t.ERROR else t.ERROR
        if not isinstance(size.value, int) or isinstance(size.value, bool):
            self.ctx.report("T003", f"array size must be an integer, not '{size.type.describe()}'",
                            self.ctx.span(args[1]))
            return t.ERROR
        if not self.check_materialized(args[1], size, t.I32):  # an abstract count becomes an i32
            return t.ERROR
        if size.value <= 0:
            self.ctx.report("T014", f"array count ({size.value}) must be positive", self.ctx.span(args[1]))
            return t.ERROR
        return t.Array(element, size.value)

    def _pointer(self, name_node, args) -> t.Type:
        if len(args) not in (2, 3):
            self.ctx.report("T003", "'ptr' needs an address space, a store type and optionally an access mode",
                            self.ctx.span(name_node))
            return t.ERROR
        space = self.ctx.text(args[0])
        if space not in t.ADDRESS_SPACES or space == "handle":  # 'handle' is implied, never written
            self.ctx.report("T003", f"unknown address space '{space}'", self.ctx.span(args[0]))
            return t.ERROR
        store = self.resolve_type(args[1])
        if t.is_handle(store):
            self.ctx.report("T003", f"a pointer cannot be formed to the handle type '{store.describe()}'; pass "
                                    "the texture or sampler itself", self.ctx.span(args[1]))
            return t.ERROR
        access = self.ctx.text(args[2]) if len(args) == 3 else t.default_access(space)
        if access not in t.ACCESS_MODES:
            self.ctx.report("T003", f"unknown access mode '{access}'", self.ctx.span(args[2]))
            return t.ERROR
        if len(args) == 3 and space != "storage":
            self.ctx.report("T017", f"only pointers in the 'storage' address space may have an access mode; "
                                    f"'{space}' memory is always '{t.default_access(space)}'", self.ctx.span(args[2]))
        elif space == "storage" and access == "write":
            self.ctx.report("T017", "access mode 'write' is not valid for the 'storage' address space; use 'read' "
                                    "or 'read_write'", self.ctx.span(args[2]))
        elif store is not t.ERROR and space in ("storage", "uniform"):
            culprit, where = self._not_host_shareable(store, args[1])
            if culprit is not None:
                self.ctx.report("T017", f"type '{culprit.describe()}' cannot be used in the '{space}' address "
                                        "space: it is not host-shareable", self.ctx.span(where))
        if isinstance(store, t.Pointer):
            self.ctx.report("T003", f"a pointer cannot point to another pointer ('{store.describe()}'); point to "
                                    "the variable itself", self.ctx.span(args[1]))
            return t.ERROR
        if store is not t.ERROR:
            self._pointer_store_space(store, space, access, args[1])
        return t.Pointer(space, store, access)

    def _pointer_store_space(self, store: t.Type, space: str, access: str, where) -> None:
        """What a variable in `space` cannot hold, a pointer into `space` cannot point to either."""
        def runtime_sized(x):
            return isinstance(x, t.Array) and x.count is None

        if t.contains(store, lambda x: isinstance(x, t.Atomic)):
            if space not in ("storage", "workgroup"):
                self.ctx.report("T003", f"a pointer into '{space}' memory cannot point to atomics: atomic types can "
                                        "only live in 'storage' or 'workgroup' memory", self.ctx.span(where))
            elif space == "storage" and access == "read":
                self.ctx.report("T017", "atomics in a 'storage' buffer need 'read_write' access: write the pointer "
                                        "type as 'ptr<storage, ..., read_write>'", self.ctx.span(where))
        if space in ("function", "private") and t.contains(store, runtime_sized):
            self.ctx.report("T003", f"a pointer into '{space}' memory cannot point to a runtime-sized array: those "
                                    "live only in 'storage' buffers",
                            self.ctx.span(self._member_holding(store, runtime_sized, where)))

    def _member_holding(self, value_type: t.Type, predicate, where):
        """The type node of the struct member that holds what `predicate` finds (Tint points there), else `where`."""
        seen = set()
        while isinstance(value_type, t.Struct) and value_type.name not in seen:
            seen.add(value_type.name)
            nodes = self._struct_member_types(value_type)
            found = next((i for i, m in enumerate(value_type.members) if t.contains(m.type, predicate)), None)
            if found is None or found >= len(nodes):
                break
            where, value_type = nodes[found], value_type.members[found].type
            while isinstance(value_type, t.Array):
                value_type = value_type.element
        return where

    def _naga_matrix(self, name_node, name, columns, rows, args) -> t.Type:
        ctx = self.ctx
        ctx.use_dialect("wgpu", name_node, f"the cooperative matrix type '{name}'")
        if (columns, rows) not in ((8, 8), (16, 16)):
            # naga 30.0.1, the newest release, still has only the square shapes (naga's CooperativeSize
            # pairs are 8x8 and 16x16 in its WGSL front end); wgpu's trunk adds 8x16 and 16x8 (#10414).
            later = (" (8x16 and 16x8 are on wgpu's trunk, not in a released naga: naga-cli 30.0.1 rejects them)"
                     if {columns, rows} == {8, 16} else "")
            ctx.report("T001", f"unresolved type '{name}': naga knows coop_mat8x8 and coop_mat16x16{later}",
                       ctx.span(name_node))
            return t.ERROR
        if len(args) != 2:
            ctx.report("T005", f"'{name}' needs two template arguments: an element type and a role (A, B or C)",
                       ctx.span(name_node))
            return t.ERROR
        element = self.resolve_type(args[0])
        role = ctx.text(args[1])
        if element is t.ERROR:
            return t.ERROR
        if element not in NAGA_ELEMENTS:
            ctx.report("T005", f"cooperative matrix element type must be f32 or f16, not '{element.describe()}'",
                       ctx.span(name_node))
            return t.ERROR
        if role not in ("A", "B", "C"):
            ctx.report("T005", f"cooperative matrix role must be A, B or C, not '{role}'", ctx.span(name_node))
            return t.ERROR
        return t.CoopMatrix(t.MatrixKind("wgpu", role), element, columns, rows)

    def _subgroup_matrix(self, name_node, name, role, args) -> t.Type:
        ctx = self.ctx
        dialect = ctx.subgroup_dialect()
        ctx.use_dialect(dialect, name_node, f"the subgroup matrix type '{name}'")
        if len(args) != 3:
            ctx.report("T005", f"'{name}' needs three template arguments: element type, columns, rows",
                       ctx.span(name_node))
            return t.ERROR
        dimensions = []
        for arg, what in ((args[1], "column"), (args[2], "row")):
            value = self.template_value(arg)
            if value.type is t.ERROR or dialect == "chromium" and not self.check_materialized(arg, value, t.I32):
                return t.ERROR
            count = _tint_count(value.value) if dialect == "chromium" else value.value
            if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
                ctx.report("T005", f"subgroup matrix {what} count must be a constant positive integer",
                           ctx.span(name_node))
                return t.ERROR
            dimensions.append(count)
        element = self._matrix_element(args[0])
        if element is t.ERROR:
            return t.ERROR
        if element not in MATRIX_ELEMENTS:
            ctx.report("T005", f"subgroup matrix element type must be one of f32, f16, u32, i32, u8, i8, not "
                               f"'{element.describe()}'", ctx.span(name_node))
            return t.ERROR
        return t.CoopMatrix(t.MatrixKind(dialect, role), element, dimensions[0], dimensions[1])

    def _matrix_element(self, node: ts.Node) -> t.Type:
        # u8 and i8 exist only as subgroup matrix element types.
        text = self.ctx.text(node)
        if text in ("u8", "i8") and self.lookup_symbol(text) is None and self.ctx.enabled_dialect() != "wgpu":
            return t.Scalar(text)
        return self.resolve_type(node)


def _tint_count(value: object) -> object:
    """A subgroup matrix dimension as Tint reads it: any scalar constant, converted to an integer by
    truncation (Tint accepts `8f` and even `8.5f` as 8; measured on wgpudawn 0.32)."""
    if isinstance(value, float):
        return int(value) if value == value and abs(value) != float("inf") else None
    if isinstance(value, bool):
        return int(value)
    return value


def _array_element(element: t.Type) -> bool:
    """Arrays hold sized, storable values: no textures, samplers, pointers or runtime-sized arrays."""
    if t.is_handle(element) or isinstance(element, t.Pointer):
        return False
    if isinstance(element, t.Array) and element.count is None:
        return False
    if isinstance(element, t.Struct) and element.members:
        last = element.members[-1].type
        return not (isinstance(last, t.Array) and last.count is None)
    return True


def _tint_binding_array_element(element: t.Type) -> bool:
    """Tint's binding arrays hold sampled textures only (not depth, multisampled, storage or external
    ones); naga's also hold samplers, storage textures and buffers."""
    return isinstance(element, t.Texture) and element.kind == "sampled" and element.sampled is not None \
        and not element.name.startswith("texture_multisampled")
