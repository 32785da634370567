"""Source-to-source rewrites of matrix kernels.

`emulate(text)` lowers every cooperative / subgroup matrix type and builtin of
the three dialects to plain WGSL with the same results, so the kernel runs on
any adapter (lavapipe in CI, a GPU without matrix hardware):

- a matrix value is a function-scope `array<E, rows * columns>`, row-major;
  u8 / i8 elements are held as u32 / i32;
- each invocation holds the whole matrix of its subgroup: loads read every
  element, multiplies are plain triple loops (accumulating in the result
  type), stores write every element (all lanes of an emulated subgroup write
  the same values);
- the subgroup is emulated: `subgroup_id`, `num_subgroups`,
  `subgroup_invocation_id` and `subgroup_size` builtins become values
  computed from `local_invocation_index` and a fixed emulated subgroup size
  (32 by default), so kernels that split work by subgroup keep their split.

`to_tint(text)` translates the wgpu (naga) dialect and the standard proposal
to Tint's `chromium_experimental_subgroup_matrix`, so they run on Dawn.

Both work on the syntax tree with the semantic model's types and return new
text; they never execute anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..semantic import types as t
from .kernel import KernelError, KernelModule, attribute_args, attribute_name, int_value, load_kernel

TINT_BUILTINS = {"subgroupMatrixLoad", "subgroupMatrixStore", "subgroupMatrixMultiply",
                 "subgroupMatrixMultiplyAccumulate", "subgroupMatrixScalarAdd", "subgroupMatrixScalarSubtract",
                 "subgroupMatrixScalarMultiply"}
NAGA_BUILTINS = {"coopLoad", "coopLoadT", "coopStore", "coopStoreT", "coopMultiplyAdd"}
TINT_TYPES = {"subgroup_matrix_left": "left", "subgroup_matrix_right": "right", "subgroup_matrix_result": "result"}
NAGA_TYPES = {"coop_mat8x8": 8, "coop_mat16x16": 16}
NAGA_ROLES = {"A": "left", "B": "right", "C": "result"}
SUBGROUP_BUILTINS = ("subgroup_id", "num_subgroups", "subgroup_invocation_id", "subgroup_size")
PREFIX = "coop_emu_"  # WGSL reserves identifiers that start with two underscores
LANE = PREFIX + "lane"  # private: this invocation's index in its emulated subgroup


class LoweringError(KernelError):
    """The kernel uses a form the rewrite does not support; the message says which and where."""


def _storage_element(name: str) -> str:
    return {"u8": "u32", "i8": "i32"}.get(name, name)


_SCALAR_BYTES = {"f16": 2, "f32": 4, "i32": 4, "u32": 4}
_MATRIX_ELEMENT_BYTES = {"f16": 2, "f32": 4, "i32": 4, "u32": 4, "i8": 1, "u8": 1}


def _array_scalar(element: t.Type) -> tuple[str, int]:
    """(scalar type name, components) of an array element: f16 -> ("f16", 1), vec4<u32> -> ("u32", 4)."""
    if isinstance(element, t.Vector):
        return element.element.name, element.size
    return getattr(element, "name", "?"), 1


def matrix_elements_per_array_element(element: t.Type, matrix_element: str) -> int:
    """How many matrix elements one array element holds. Tint counts a load's or store's offset and
    stride in array elements (measured: stride 3 of an array<vec4<f16>> is '24 bytes'), so the
    emulation scales them by this to address single matrix elements."""
    scalar, count = _array_scalar(element)
    if scalar not in _SCALAR_BYTES or matrix_element not in _MATRIX_ELEMENT_BYTES:
        raise LoweringError(f"matrices of {matrix_element} in an array of {scalar} are not supported")
    ratio, rest = divmod(_SCALAR_BYTES[scalar] * count, _MATRIX_ELEMENT_BYTES[matrix_element])
    if rest or ratio < 1:
        raise LoweringError(f"an array of {scalar} x {count} cannot hold whole {matrix_element} matrix elements")
    return ratio


@dataclass
class _Rewriter:
    module: KernelModule
    mode: str  # "emulate" or "tint"
    subgroup_size: int = 32
    helpers: dict = field(default_factory=dict)  # key -> (name, code)
    notes: list[str] = field(default_factory=list)

    # ------------------------------------------------------------- plumbing
    @property
    def data(self) -> bytes:
        return self.module.data

    def text(self, node) -> str:
        return self.data[node.start_byte:node.end_byte].decode()

    def where(self, node) -> str:
        return f"line {node.start_point[0] + 1}"

    def emit(self, node) -> str:
        replaced = self.rewrite(node)
        if replaced is not None:
            return replaced
        if node.child_count == 0:
            return self.text(node)
        out, pos = [], node.start_byte
        for child in node.children:
            out.append(self.data[pos:child.start_byte].decode())
            out.append(self.emit(child))
            pos = child.end_byte
        out.append(self.data[pos:node.end_byte].decode())
        return "".join(out)

    def helper(self, key, make) -> str:
        if key not in self.helpers:
            name = f"{PREFIX}{key[0]}_{len(self.helpers)}"
            self.helpers[key] = (name, make(name))
        return self.helpers[key][0]

    def matrix_type(self, node) -> t.CoopMatrix:
        found = self.module.model.type_at(node.start_byte, node.end_byte, node.type)
        found = t.store_type(found) if found is not None else None
        if isinstance(found, t.TypeOf):
            found = found.type
        if not isinstance(found, t.CoopMatrix):
            raise LoweringError(f"{self.where(node)}: cannot tell the matrix type of '{self.text(node)[:60]}'")
        return found

    # ------------------------------------------------------------- dispatch
    def rewrite(self, node) -> str | None:
        kind = node.type
        if kind == "enable_directive":
            return self.enable(node)
        if kind == "requires_directive" and self.mode == "emulate":
            kept = [self.text(f) for f in node.children_by_field_name("feature") if self.text(f) != "subgroup_id"]
            return f"requires {', '.join(kept)};" if kept else "// (requires subgroup_id: emulated)"
        if kind in ("type_specifier", "templated_identifier"):
            return self.type_name(node)
        if kind == "call_expression":
            return self.call(node)
        if kind == "function_declaration" and self.mode == "emulate":
            return self.entry_point(node)
        return None

    def enable(self, node) -> str:
        extensions = [self.text(e) for e in node.children_by_field_name("extension")]
        kept = []
        for ext in extensions:
            if ext in ("chromium_experimental_subgroup_matrix", "subgroup_matrix", "wgpu_cooperative_matrix"):
                if self.mode == "tint":
                    kept.append("chromium_experimental_subgroup_matrix")
            else:
                kept.append(ext)
        if not kept:
            return f"// (enable {', '.join(extensions)}: lowered by coop-lsp)"
        return f"enable {', '.join(dict.fromkeys(kept))};"

    # ------------------------------------------------------------- types
    def type_parts(self, node):
        """(name, template argument nodes) of a type_specifier or templated_identifier."""
        name = node.child_by_field_name("name")
        template = node.child_by_field_name("template")
        args = [c for c in template.named_children if c.type != "comment"] if template is not None else []
        return (self.text(name) if name is not None else ""), args

    def dim(self, node) -> str:
        value = int_value(self.module.model, self.data, node)
        return str(value) if value is not None else f"u32({self.emit(node)})"

    def type_name(self, node) -> str | None:
        name, args = self.type_parts(node)
        if name in TINT_TYPES and len(args) == 3:
            element, cols, rows = self.text(args[0]), args[1], args[2]
            if self.mode == "tint":
                return None
            return self.array_type(element, self.dim(rows), self.dim(cols))
        if name in NAGA_TYPES and len(args) == 2:
            size = NAGA_TYPES[name]
            element, role = self.text(args[0]), self.text(args[1])
            if self.mode == "tint":
                return f"subgroup_matrix_{NAGA_ROLES[role]}<{element}, {size}, {size}>"
            return self.array_type(element, str(size), str(size))
        return None

    def array_type(self, element: str, rows: str, cols: str) -> str:
        if rows.isdigit() and cols.isdigit():
            return f"array<{_storage_element(element)}, {int(rows) * int(cols)}>"
        return f"array<{_storage_element(element)}, {rows} * {cols}>"

    @staticmethod
    def concrete(m: t.CoopMatrix) -> str:
        return f"array<{_storage_element(m.element.name)}, {m.rows * m.columns}>"

    # ------------------------------------------------------------- calls
    def call(self, node) -> str | None:
        function = node.child_by_field_name("function")
        if function is None:
            return None
        name = self.text(function.child_by_field_name("name")) if function.type == "templated_identifier" \
            else self.text(function)
        arguments = node.child_by_field_name("arguments")
        args = [c for c in arguments.named_children if c.type != "comment"] if arguments is not None else []
        if name in TINT_BUILTINS:
            return self.tint_builtin(node, function, name, args) if self.mode == "emulate" \
                else self.standard_to_tint(node, function, name, args)
        if name in NAGA_BUILTINS:
            return self.naga_builtin(node, function, name, args)
        callee = self.module.model.symbol_at(function.start_byte, function.end_byte) \
            if function.type == "identifier" else None
        if callee is not None and callee.kind == "function":
            # A helper that returns a matrix is an ordinary call; only a type name constructs one.
            return None
        found = self.module.model.type_at(node.start_byte, node.end_byte, node.type)
        if isinstance(found, t.CoopMatrix) and self.mode == "emulate":
            # A constructor: T() is the zero array already; T(v) fills every element.
            if not args:
                return None
            m = found
            element = _storage_element(m.element.name)
            n = m.rows * m.columns
            splat = self.helper(("splat", element, n), lambda fname: (
                f"fn {fname}(v: {element}) -> array<{element}, {n}> {{\n"
                f"  var m: array<{element}, {n}>;\n"
                f"  for (var i = 0u; i < {n}u; i++) {{ m[i] = v; }}\n"
                f"  return m;\n}}\n"))
            return f"{splat}({element}({self.emit(args[0])}))"
        return None

    def pointer(self, node, allow_index: bool):
        """(variable symbol, name, offset text) of `&name` or `&name[index]` (the latter for naga)."""
        inner = node
        while inner.type == "paren_expression" and inner.named_child_count == 1:
            inner = inner.named_children[0]
        if inner.type != "unary_expression" or self.text(inner.child_by_field_name("operator")) != "&":
            raise LoweringError(f"{self.where(node)}: the runner handles matrix loads and stores through "
                                f"'&variable' only, not '{self.text(node)[:60]}'")
        operand = inner.child_by_field_name("operand")
        offset = "0u"
        if operand.type == "index_expression" and allow_index:
            offset = f"u32({self.emit(operand.child_by_field_name('index'))})"
            operand = operand.child_by_field_name("value")
        if operand.type != "identifier":
            raise LoweringError(f"{self.where(node)}: the runner handles matrix loads and stores through "
                                f"'&variable' only, not '{self.text(node)[:60]}'")
        symbol = self.module.model.symbol_at(operand.start_byte, operand.end_byte)
        declaration = getattr(symbol, "declaration", None)
        if symbol is None or symbol.kind != "var" or declaration is None or declaration.parent is None \
                or declaration.parent.type != "source_file":
            raise LoweringError(f"{self.where(node)}: the emulation needs matrix memory in a module-scope "
                                f"variable; '{self.text(operand)}' is not one")
        store = t.store_type(symbol.type)
        if not isinstance(store, t.Array):
            raise LoweringError(f"{self.where(node)}: '{self.text(operand)}' is not an array")
        return store.element, self.text(operand), offset

    def read_expr(self, var: str, element: t.Type, matrix_element: str, e: str) -> str:
        """The value of matrix element number `e` (counted in matrix elements from the array's start)."""
        target = _storage_element(matrix_element)
        scalar, count = _array_scalar(element)

        def component(index: str) -> str:
            return f"{var}[({index}) / {count}u][({index}) % {count}u]" if count > 1 else f"{var}[{index}]"

        if matrix_element == "i8":
            return f"((i32({component(f'{e} / 4u')}) << (24u - 8u * ({e} % 4u))) >> 24u)"
        if matrix_element == "u8":
            return f"((u32({component(f'{e} / 4u')}) >> (8u * ({e} % 4u))) & 0xffu)"
        if scalar == target:
            return component(e)
        if matrix_element == "f16":  # halves packed two to a 32-bit word; f16 -> f32 -> f16 is exact
            # (unpack2x16float rather than bitcast<vec2<f16>>, which naga 29 mistypes when indexed)
            return f"f16(unpack2x16float(u32({component(f'{e} / 2u')}))[{e} % 2u])"
        return f"bitcast<{target}>({component(e)})"

    def write_stmt(self, var: str, element: t.Type, matrix_element: str, e: str, value: str) -> str:
        if matrix_element in ("i8", "u8"):
            raise LoweringError("the emulation cannot store 8-bit matrices (their bytes share words)")
        scalar, count = _array_scalar(element)
        target = _storage_element(matrix_element)
        if _SCALAR_BYTES.get(scalar) != _MATRIX_ELEMENT_BYTES[matrix_element]:
            raise LoweringError(f"the emulation cannot store {matrix_element} matrices into an array of {scalar}")
        converted = f"{scalar}({value})" if scalar == target else f"bitcast<{scalar}>({value})"
        if count > 1:
            return f"{var}[{e} / {count}u][{e} % {count}u] = {converted};"
        return f"{var}[{e}] = {converted};"

    # The helpers are written out in full, without loops: every index into a matrix array is then a
    # constant, so drivers keep the matrix in registers. With loops, lavapipe turned each dynamic index
    # into a 256-way branch ladder (first compiles of a minute and more) and ends any loop after 65535
    # iterations per invocation, which truncated longer runs.
    def _address(self, m: t.CoopMatrix, r: int, c: int, per_element: int) -> str:
        scale = f" * {per_element}u" if per_element != 1 else ""
        return (f"select((coop_emu_off + {r}u * coop_emu_stride){scale} + {c}u, "
                f"(coop_emu_off + {c}u * coop_emu_stride){scale} + {r}u, coop_emu_col_major)")

    def load_helper(self, var: str, element: t.Type, m: t.CoopMatrix) -> str:
        per_element = matrix_elements_per_array_element(element, m.element.name)

        def make(fname: str) -> str:
            body = []
            for r in range(m.rows):
                for c in range(m.columns):
                    read = self.read_expr(var, element, m.element.name, f"coop_emu_e{r}_{c}")
                    body.append(f"  let coop_emu_e{r}_{c} = {self._address(m, r, c, per_element)};\n"
                                f"  coop_emu_m[{r * m.columns + c}] = {read};\n")
            return (f"fn {fname}(coop_emu_off: u32, coop_emu_stride: u32, coop_emu_col_major: bool) -> {self.concrete(m)} {{\n"
                    f"  var coop_emu_m: {self.concrete(m)};\n"
                    f"  if ({LANE} != 0u) {{ return coop_emu_m; }}\n"
                    + "".join(body) +
                    f"  return coop_emu_m;\n}}\n")
        return self.helper(("load", var, m), make)

    def store_helper(self, var: str, element: t.Type, m: t.CoopMatrix, where) -> str:
        try:
            per_element = matrix_elements_per_array_element(element, m.element.name)
        except LoweringError as error:
            raise LoweringError(f"{self.where(where)}: {error}") from None

        def make(fname: str) -> str:
            body = []
            for r in range(m.rows):
                for c in range(m.columns):
                    e = f"coop_emu_e{r}_{c}"
                    try:
                        write = self.write_stmt(var, element, m.element.name, e, f"coop_emu_m[{r * m.columns + c}]")
                    except LoweringError as error:
                        raise LoweringError(f"{self.where(where)}: {error}") from None
                    body.append(f"  let {e} = {self._address(m, r, c, per_element)};\n  {write}\n")
            return (f"fn {fname}(coop_emu_off: u32, coop_emu_m: {self.concrete(m)}, coop_emu_col_major: bool, coop_emu_stride: u32) {{\n"
                    f"  if ({LANE} != 0u) {{ return; }}\n"
                    + "".join(body) + "}\n")
        return self.helper(("store", var, m), make)

    def mma_helper(self, left: t.CoopMatrix, right: t.CoopMatrix, result: t.CoopMatrix, where) -> str:
        rows, inner, cols = left.rows, left.columns, right.columns
        if right.rows != inner or result.rows != rows or result.columns != cols:
            raise LoweringError(f"{self.where(where)}: matrix shapes do not fit: {left.describe()} x "
                                f"{right.describe()} -> {result.describe()}")
        r_el = _storage_element(result.element.name)

        def make(fname: str) -> str:
            body = []
            for i in range(rows):
                for j in range(cols):
                    terms = " + ".join(f"{r_el}(l[{i * inner + k}]) * {r_el}(r[{k * cols + j}])" for k in range(inner))
                    body.append(f"  out[{i * cols + j}] = out[{i * cols + j}] + ({terms});\n")
            return (f"fn {fname}(l: {self.concrete(left)}, r: {self.concrete(right)}, acc: {self.concrete(result)})"
                    f" -> {self.concrete(result)} {{\n"
                    f"  var out = acc;\n"
                    f"  if ({LANE} != 0u) {{ return out; }}\n"
                    + "".join(body) +
                    f"  return out;\n}}\n")
        return self.helper(("mma", left, right, result), make)

    def scalar_helper(self, op: str, m: t.CoopMatrix) -> str:
        element = _storage_element(m.element.name)
        n = m.rows * m.columns
        symbol = {"Add": "+", "Subtract": "-", "Multiply": "*"}[op]

        def make(fname: str) -> str:
            return (f"fn {fname}(m: {self.concrete(m)}, v: {element}) -> {self.concrete(m)} {{\n"
                    f"  var out = m;\n"
                    f"  if ({LANE} != 0u) {{ return out; }}\n"
                    f"  for (var i = 0u; i < {n}u; i++) {{ out[i] = out[i] {symbol} v; }}\n"
                    f"  return out;\n}}\n")
        return self.helper(("scalar" + op.lower(), m), make)

    def majorness(self, function, args, bool_index: int) -> tuple[str, list]:
        """The col_major bool text and the remaining arguments, for both load/store forms."""
        _, template = self.type_parts(function) if function.type == "templated_identifier" else ("", [])
        names = [self.text(a) for a in template]
        if "row_major" in names:
            return "false", args
        if "col_major" in names:
            return "true", args
        if len(args) > bool_index:
            flag = args[bool_index]
            return f"bool({self.emit(flag)})", args[:bool_index] + args[bool_index + 1:]
        return "false", args

    def tint_builtin(self, node, function, name, args) -> str:
        if name == "subgroupMatrixLoad":
            m = self.matrix_type(node)
            col_major, rest = self.majorness(function, args, 2)
            if len(rest) != 3:
                raise LoweringError(f"{self.where(node)}: unexpected arguments to subgroupMatrixLoad")
            element, var, _ = self.pointer(rest[0], allow_index=False)
            fname = self.load_helper(var, element, m)
            return f"{fname}(u32({self.emit(rest[1])}), u32({self.emit(rest[2])}), {col_major})"
        if name == "subgroupMatrixStore":
            col_major, rest = self.majorness(function, args, 3)
            if len(rest) != 4:
                raise LoweringError(f"{self.where(node)}: unexpected arguments to subgroupMatrixStore")
            m = self.matrix_type(rest[2])
            element, var, _ = self.pointer(rest[0], allow_index=False)
            fname = self.store_helper(var, element, m, node)
            return f"{fname}(u32({self.emit(rest[1])}), {self.emit(rest[2])}, {col_major}, u32({self.emit(rest[3])}))"
        if name in ("subgroupMatrixMultiply", "subgroupMatrixMultiplyAccumulate"):
            result = self.matrix_type(node)
            left, right = self.matrix_type(args[0]), self.matrix_type(args[1])
            fname = self.mma_helper(left, right, result, node)
            acc = self.emit(args[2]) if len(args) > 2 else f"{self.concrete(result)}()"
            return f"{fname}({self.emit(args[0])}, {self.emit(args[1])}, {acc})"
        op = name[len("subgroupMatrixScalar"):]
        m = self.matrix_type(node)
        fname = self.scalar_helper(op, m)
        return f"{fname}({self.emit(args[0])}, {_storage_element(m.element.name)}({self.emit(args[1])}))"

    def naga_builtin(self, node, function, name, args) -> str:
        if name in ("coopLoad", "coopLoadT"):
            m = self.matrix_type(node)
            element, var, offset = self.pointer(args[0], allow_index=True)
            stride = f"u32({self.emit(args[1])})" if len(args) > 1 else f"{m.rows}u"
            if self.mode == "tint":
                layout = "row_major" if name == "coopLoadT" else "col_major"
                tint_type = f"subgroup_matrix_{NAGA_ROLES[m.kind.role]}<{m.element.name}, {m.columns}, {m.rows}>"
                return f"subgroupMatrixLoad<{tint_type}, {layout}>(&{var}, {offset}, {stride})"
            fname = self.load_helper(var, element, m)
            return f"{fname}({offset}, {stride}, {'false' if name == 'coopLoadT' else 'true'})"
        if name in ("coopStore", "coopStoreT"):
            m = self.matrix_type(args[0])
            element, var, offset = self.pointer(args[1], allow_index=True)
            stride = f"u32({self.emit(args[2])})" if len(args) > 2 else f"{m.rows}u"
            if self.mode == "tint":
                layout = "row_major" if name == "coopStoreT" else "col_major"
                return f"subgroupMatrixStore<{layout}>(&{var}, {offset}, {self.emit(args[0])}, {stride})"
            fname = self.store_helper(var, element, m, node)
            return f"{fname}({offset}, {self.emit(args[0])}, {'false' if name == 'coopStoreT' else 'true'}, {stride})"
        # coopMultiplyAdd(a, b, c)
        if self.mode == "tint":
            return f"subgroupMatrixMultiplyAccumulate({', '.join(self.emit(a) for a in args)})"
        left, right, result = (self.matrix_type(a) for a in args[:3])
        fname = self.mma_helper(left, right, result, node)
        return f"{fname}({self.emit(args[0])}, {self.emit(args[1])}, {self.emit(args[2])})"

    def standard_to_tint(self, node, function, name, args) -> str | None:
        """The proposal's spellings that Tint does not take: Multiply<result type>, MultiplyAccumulate<T>."""
        if name == "subgroupMatrixMultiply" and function.type == "templated_identifier":
            m = self.matrix_type(node)
            return f"subgroupMatrixMultiply<{m.element.name}>({', '.join(self.emit(a) for a in args)})"
        if name == "subgroupMatrixMultiplyAccumulate" and function.type == "templated_identifier":
            return f"subgroupMatrixMultiplyAccumulate({', '.join(self.emit(a) for a in args)})"
        return None

    # ------------------------------------------------------------- entry points
    def entry_point(self, node) -> str | None:
        attrs = [c for c in node.children if c.type == "attribute"]
        if "compute" not in [attribute_name(self.data, a) for a in attrs]:
            return None
        parameters = node.child_by_field_name("parameters")
        body = node.child_by_field_name("body")
        params = [c for c in parameters.named_children if c.type == "parameter"] if parameters is not None else []
        kept, lets, lid = [], [], None
        for param in params:
            builtin = None
            for a in (c for c in param.children if c.type == "attribute"):
                if attribute_name(self.data, a) == "builtin" and attribute_args(a):
                    builtin = self.text(attribute_args(a)[0])
            pname = self.text(param.child_by_field_name("name"))
            ptype_node = param.child_by_field_name("type")
            ptype = self.text(ptype_node) if ptype_node is not None else "u32"
            if builtin == "local_invocation_index":
                lid = pname
            if builtin in SUBGROUP_BUILTINS:
                lets.append((builtin, pname, ptype))
            else:
                kept.append(self.emit(param))
        if not lets and self.module.dialect == "plain":
            return None
        if lid is None:
            lid = f"{PREFIX}lid"
            kept.append(f"@builtin(local_invocation_index) {lid}: u32")
        size = "1"
        for a in attrs:
            if attribute_name(self.data, a) == "workgroup_size":
                size = " * ".join(f"u32({self.emit(arg)})" for arg in attribute_args(a))
        s = self.subgroup_size
        values = {
            "subgroup_id": f"{lid} / {s}u",
            "num_subgroups": f"({size} + {s - 1}u) / {s}u",
            "subgroup_invocation_id": f"{lid} % {s}u",
            "subgroup_size": f"{s}u",
        }
        prologue = f"\n    {LANE} = {lid} % {s}u; // only lane 0 of an emulated subgroup does the matrix work"
        prologue += "".join(f"\n    let {pname}: {ptype} = {ptype}({values[b]}); // emulated @builtin({b})"
                            for b, pname, ptype in lets)
        out, pos = [], node.start_byte
        for child in node.children:
            out.append(self.data[pos:child.start_byte].decode())
            if child == parameters:
                out.append("(" + ", ".join(kept) + ")")
            elif child == body:
                text = self.emit(child)
                out.append(text[:1] + prologue + text[1:])
            else:
                out.append(self.emit(child))
            pos = child.end_byte
        out.append(self.data[pos:node.end_byte].decode())
        return "".join(out)


@dataclass
class Lowered:
    text: str
    dialect: str  # the original dialect
    notes: list[str]


def _run(module: KernelModule, mode: str, subgroup_size: int) -> Lowered:
    rewriter = _Rewriter(module, mode, subgroup_size)
    body = rewriter.emit(module.parsed.root)
    notes = []
    if rewriter.helpers:
        helpers = "\n".join(code for _, code in rewriter.helpers.values())
        banner = ("\n// ---- coop-lsp emulation helpers (generated) ----\n"
                  f"var<private> {LANE}: u32;\n\n" if mode == "emulate"
                  else "\n// ---- coop-lsp helpers (generated) ----\n")
        body = body.rstrip("\n") + "\n" + banner + helpers
    if mode == "emulate":
        notes.append(f"matrix types and builtins emulated in plain WGSL (subgroup size {subgroup_size})")
    elif module.dialect != "chromium":
        notes.append(f"translated from the {module.dialect} dialect to Tint's chromium_experimental_subgroup_matrix")
    return Lowered(body, module.dialect, notes)


def emulate(text: str, subgroup_size: int = 32) -> Lowered:
    """Plain WGSL with the same results as the matrix kernel `text`."""
    if subgroup_size <= 0:
        raise LoweringError("the emulated subgroup size must be positive")
    module = load_kernel(text)
    uses = _uses_real_subgroup_ops(module)
    if uses:
        raise LoweringError(f"the emulation cannot run subgroup operations beside the matrix ones ({uses})")
    return _run(module, "emulate", subgroup_size)


def emulated_matrix_bytes(module: KernelModule) -> list[tuple[str, int]]:
    """(name, bytes) of each local variable, let or parameter that holds matrices, largest first: the
    private memory the emulation gives every invocation, since it keeps each matrix whole in each."""
    found = []
    for symbol in module.model.symbols:
        if symbol.kind in ("var", "let", "parameter"):
            size = _matrix_bytes(symbol.type)
            if size:
                found.append((symbol.name, size))
    return sorted(found, key=lambda item: -item[1])


def _matrix_bytes(value: t.Type) -> int:
    if isinstance(value, t.CoopMatrix):
        element = _storage_element(value.element.name)
        return value.rows * value.columns * _SCALAR_BYTES.get(element, 4)
    if isinstance(value, t.Array) and isinstance(value.count, int):
        return value.count * _matrix_bytes(value.element)
    if isinstance(value, t.Struct):
        return sum(_matrix_bytes(member.type) for member in value.members)
    return 0


def to_tint(text: str) -> Lowered:
    """The kernel in Tint's dialect (chromium_experimental_subgroup_matrix)."""
    module = load_kernel(text)
    if module.dialect == "chromium":
        return Lowered(text, "chromium", [])
    return _run(module, "tint", 32)


def _uses_real_subgroup_ops(module: KernelModule) -> str:
    found: list[str] = []
    stack = [module.parsed.root]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            if function is not None:
                name_node = function.child_by_field_name("name") if function.type == "templated_identifier" \
                    else function
                name = module.node_text(name_node)
                if (name.startswith("subgroup") or name.startswith("quad")) and name not in TINT_BUILTINS:
                    found.append(f"{name} at line {node.start_point[0] + 1}")
        stack.extend(node.children)
    return ", ".join(sorted(set(found)))
