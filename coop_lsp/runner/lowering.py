"""Source-to-source rewrites of matrix kernels.

`emulate(text)` lowers every cooperative / subgroup matrix type and builtin of
the three dialects to plain WGSL with the same results, so the kernel runs on
any adapter (lavapipe in CI, a GPU without matrix hardware):

- the subgroup is emulated as a slice of `subgroup_size` consecutive
  invocations of the workgroup (any size the workgroup divides into, whatever
  the adapter's own subgroups are): `subgroup_id`, `num_subgroups`,
  `subgroup_invocation_id` and `subgroup_size` become values computed from
  `local_invocation_index`;
- a matrix is distributed over its subgroup as hardware does: lane l holds
  elements l, l + S, l + 2 S, ... (row-major element numbers, S lanes), so a
  matrix value is a function-scope `array<E, ceil(rows * columns / S)>`
  (u8 / i8 held as u32 / i32); loads and stores move each lane's share;
- a multiply stages both operands of each subgroup in workgroup memory
  (between two workgroup barriers) and each lane computes its share of the
  result with a loop over K that reads them;
- the kernel's own subgroup builtins (subgroupAdd, subgroupShuffle, ...) are
  emulated the same way (subgroup_emulation.py), unless the adapter's
  subgroup is the emulated one, then they are kept;
- directives naga (wgpu-native) does not implement (`enable subgroups;`,
  `requires subgroup_id`) and `@diagnostic` on statements (naga parses it
  on functions only) are dropped, with a note.

The compiled size grows with the number of matrix builtins in the kernel, not
with the matrix size times that number: every helper is a few statements per
element of a lane's share, and indexes the share only by constants (lavapipe
turns a dynamic index into a private array into a branch ladder over all of
its elements; workgroup memory it indexes directly).

`to_tint(text)` translates the wgpu (naga) dialect and the standard proposal
to Tint's `chromium_experimental_subgroup_matrix`, so they run on Dawn.

Both work on the syntax tree with the semantic model's types and return new
text; they never execute anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.text import Span
from ..semantic import types as t
from ..semantic.builtins.language import DIALECT, LOAD, MATRIX_ENABLES, MULTIPLY, STORE, parameter_index
from ..syntax import nodes as sn
from .kernel import KernelError, KernelModule, attribute_args, attribute_name, called_name, int_value, load_kernel
from .subgroup_emulation import EXCHANGE, SUBGROUP, SubgroupEmulation, emulated_names

_TINT, _NAGA = DIALECT["chromium"], DIALECT["wgpu"]
TINT_BUILTINS = {builtin.name for builtin in _TINT.builtins}
NAGA_BUILTINS = {builtin.name for builtin in _NAGA.builtins}
# Each builtin's memory role picks its lowering.
_ROLES = {builtin.name: builtin.memory for dialect in (_TINT, _NAGA) for builtin in dialect.builtins}
# Where Tint's deprecated load and store forms take their bool majorness.
_BOOL_AT = {builtin.name: parameter_index(builtin, "col_major", overload=1) for builtin in _TINT.builtins
            if builtin.memory in (LOAD, STORE)}
# subgroup_matrix_<role>; coop_mat<N>x<N> (square).
TINT_TYPES = {name: name.rsplit("_", 1)[1] for name in _TINT.type_names}
NAGA_TYPES = {name: int(name.rsplit("x", 1)[1]) for name in _NAGA.type_names}
NAGA_ROLES = {"A": "left", "B": "right", "C": "result"}
SUBGROUP_BUILTINS = ("subgroup_id", "num_subgroups", "subgroup_invocation_id", "subgroup_size")
PREFIX = "coop_emu_"  # WGSL reserves identifiers that start with two underscores
LANE = PREFIX + "lane"  # private: this invocation's index in its emulated subgroup
SUBGROUP_BUILTIN_CALLS = emulated_names()
# Zero, but not to the compiler: added to the helpers' loop bounds so that LLVM (lavapipe) keeps the
# loops instead of unrolling them at every inlined call (measured on gemm_tiled_4x4 at TILE = 16:
# pipeline creation 57 s with constant bounds, 1.2 s without).
OPAQUE_ZERO = PREFIX + "zero"
TRACE_HIT = PREFIX + "trace_hit"
TRACE_BUFFER = PREFIX + "trace"
TRACE_SUBGROUP = PREFIX + "trace_sg"  # private: this invocation's subgroup, numbered across the dispatch
BUDGET_BUFFER = PREFIX + "budget"
BUDGET_CHECK = PREFIX + "budget_check"
NAGA_UNIMPLEMENTED_ENABLES = {"subgroups": "naga (wgpu-native) does not implement it; the adapter's subgroup "
                              "feature is requested instead"}


class LoweringError(KernelError):
    """The kernel uses a form the rewrite does not support; the message says which and where."""


# lavapipe (llvmpipe) gives a shader one budget of 65,535 loop iterations per invocation, shared by all of
# its loops (functions are inlined, and the counter is the entry point's): once it is spent, every loop
# ends after its first iteration and the kernel silently computes garbage (measured: two loops of 40,000
# in a row, the second stopped at 25,534). The helpers therefore spend few iterations per call: one per K
# step (multiplies), or, with whole matrices, one per row (loads, stores) and one per four results
# (multiplies), never one per element or multiply-add. (Looping per row in multiplies too made the
# pipeline of ggml's kernel take 40 s to create on lavapipe instead of 30.)
LOOP_BUDGET = 65535


def _indent(code: str, levels: int) -> str:
    pad = "  " * levels
    return "".join(pad + line if line.strip() else line for line in code.splitlines(keepends=True))


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
    lanes: int = 32  # invocations that share a matrix: the subgroup size, or the whole (smaller) workgroup
    subgroups_per_workgroup: int = 1
    keep_subgroup_ops: bool = False  # the adapter's subgroups are the emulated ones
    # Whole matrices in every invocation, for kernels whose matrix operations are not in control flow
    # uniform across the workgroup, where the exchange's barriers are not allowed: lane 0 of each
    # subgroup does all the work, no lane talks to another, and each helper loops over rows only.
    whole: bool = False
    helpers: dict = field(default_factory=dict)  # key -> (name, code)
    notes: list[str] = field(default_factory=list)
    scratch: dict = field(default_factory=dict)  # storage element type -> elements per subgroup
    subgroup_ops: SubgroupEmulation | None = None
    # Divergence tracing (coop_lsp.runner.divergence): the start byte of each statement that holds a traced
    # call -> the calls' site numbers, and where the trace buffer is bound. Empty: no tracing.
    trace: dict = field(default_factory=dict)
    trace_binding: tuple[int, int] = (0, 0)
    _traced: set = field(default_factory=set)
    # Where the loop-budget flag is bound (see LOOP_BUDGET and budget_check_code), or None: no check.
    budget_binding: tuple[int, int] | None = None
    _in_entry: bool = False
    _checked_returns: set = field(default_factory=set)

    def __post_init__(self):
        self.subgroup_ops = SubgroupEmulation(self.helper, self.lanes, self.subgroup_size)

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

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def share(self, m: t.CoopMatrix) -> int:
        """Elements of `m` each lane holds."""
        return -(-(m.rows * m.columns) // self.holders)

    @property
    def holders(self) -> int:
        """Lanes a matrix is spread over."""
        return 1 if self.whole else self.lanes

    def lane_zero_only(self, returned: str) -> str:
        return f"  if ({LANE} != 0u) {{ return{returned}; }}\n" if self.whole else ""

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
        if self.trace and node.start_byte in self.trace and node.parent is not None \
                and node.parent.type == "compound_statement" and node.start_byte not in self._traced:
            # Count this invocation's arrival before the statement that holds the traced call.
            self._traced.add(node.start_byte)
            hits = "".join(f"{TRACE_HIT}({site}u); " for site in self.trace[node.start_byte])
            return hits + self.emit(node)
        if kind == "return_statement" and self._in_entry and self.budget_binding is not None \
                and node.start_byte not in self._checked_returns:
            self._checked_returns.add(node.start_byte)
            # The node ends before its ';', and WGSL puts every return in a braced block.
            return f"{BUDGET_CHECK}(); {self.emit(node)}"
        if kind == "enable_directive":
            return self.enable(node)
        if kind == "attribute" and self.mode == "emulate" and node.parent is not None \
                and node.parent.type != "function_declaration" and attribute_name(self.data, node) == "diagnostic":
            self.note("'@diagnostic' on statements dropped: naga parses it on functions only (filters do not "
                      "change the code)")
            return ""
        if kind == "requires_directive" and self.mode == "emulate":
            features = [self.text(f) for f in node.children_by_field_name("feature")]
            kept = [f for f in features if f != "subgroup_id"]
            if len(kept) < len(features):
                self.note("'requires subgroup_id' dropped: the subgroup builtins are emulated")
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
            if ext in MATRIX_ENABLES:
                if self.mode == "tint":
                    kept.append(_TINT.enable)
            elif self.mode == "emulate" and ext in NAGA_UNIMPLEMENTED_ENABLES:
                self.note(f"'enable {ext};' dropped: {NAGA_UNIMPLEMENTED_ENABLES[ext]}")
            else:
                kept.append(ext)
        if not kept:
            return f"// (enable {', '.join(extensions)}: lowered by coop-lsp)"
        return f"enable {', '.join(dict.fromkeys(kept))};"

    # ------------------------------------------------------------- types
    def type_parts(self, node):
        """(name, template argument nodes) of a type_specifier or templated_identifier."""
        name = sn.name(node)
        template = sn.template(node)
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
            return self.array_type(self.element_name(args[0], element), self.dim(rows), self.dim(cols))
        if name in NAGA_TYPES and len(args) == 2:
            size = NAGA_TYPES[name]
            element, role = self.text(args[0]), self.text(args[1])
            if self.mode == "tint":
                return f"subgroup_matrix_{NAGA_ROLES[role]}<{element}, {size}, {size}>"
            return self.array_type(element, str(size), str(size))
        return None

    def element_name(self, node, written: str) -> str:
        """The matrix's element type (template argument `node`) by its own name where the kernel spells it
        through an alias: naga
        (29) gives `array<Alias, n>` a type of its own, distinct from the helpers' `array<f32, n>`
        (Dawn's SubgroupMatrixTests.cpp writes `subgroup_matrix_result<ResultComponentType, N, M>`)."""
        symbol = self.module.model.symbol_at(node.start_byte, node.end_byte)
        resolved = getattr(symbol.type, "name", None) if symbol is not None and symbol.kind == "alias" else None
        return resolved if isinstance(resolved, str) and resolved.isidentifier() else written

    def array_type(self, element: str, rows: str, cols: str) -> str:
        if not (rows.isdigit() and cols.isdigit()):
            raise LoweringError(f"the emulation needs constant matrix dimensions, not {rows} x {cols}")
        return f"array<{_storage_element(element)}, {-(-int(rows) * int(cols) // self.holders)}>"

    def concrete(self, m: t.CoopMatrix) -> str:
        return f"array<{_storage_element(m.element.name)}, {self.share(m)}>"

    # ------------------------------------------------------------- calls
    def call(self, node) -> str | None:
        function = sn.callee(node)
        if function is None:
            return None
        name_node = sn.name(function) if function.type == "templated_identifier" else function
        name = self.text(name_node)
        arguments = sn.arguments(node)
        args = [c for c in arguments.named_children if c.type != "comment"] if arguments is not None else []
        # Which builtin the call is, as the checker resolved it (a user function of the same name is not one).
        target = self.module.model.builtin_call(name_node.start_byte, name_node.end_byte)
        compiler = DIALECT[target.dialect].compiler if target is not None and target.dialect else None
        if compiler == "tint":
            return self.tint_builtin(node, function, name, args) if self.mode == "emulate" \
                else self.standard_to_tint(node, function, name, args)
        if compiler == "naga":
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
            n = self.share(m)
            splat = self.helper(("splat", element, n), lambda fname: (
                f"fn {fname}(v: {element}) -> array<{element}, {n}> {{\n"
                f"  return array<{element}, {n}>({', '.join(['v'] * n)});\n}}\n"))
            return f"{splat}({element}({self.emit(args[0])}))"
        if self.mode == "emulate" and name in SUBGROUP_BUILTIN_CALLS and not self.keep_subgroup_ops:
            return self.subgroup_builtin(node, name, args)
        return None

    def subgroup_builtin(self, node, name, args) -> str:
        value = None
        if args:
            value = t.store_type(self.module.model.type_at(args[0].start_byte, args[0].end_byte, args[0].type))
            if isinstance(value, t.Scalar) and value.name.startswith("abstract"):
                value = t.Scalar("f32" if "float" in value.name else "i32")
            if not isinstance(value, (t.Scalar, t.Vector)):
                raise LoweringError(f"{self.where(node)}: the emulation of {name} takes scalars and vectors, "
                                    f"not '{self.text(args[0])[:40]}'")
        fname = self.subgroup_ops.call(name, value, None)
        emitted = [self.emit(a) for a in args]
        if value is not None and emitted:
            emitted[0] = f"{value.describe()}({emitted[0]})"
        if len(emitted) > 1:
            emitted[1] = f"u32({emitted[1]})"
        return f"{fname}({', '.join(emitted)})"

    def pointer(self, node, allow_index: bool):
        """(variable symbol, name, offset text) of `&name` or `&name[index]` (the latter for naga)."""
        inner = node
        while inner.type == "paren_expression" and inner.named_child_count == 1:
            inner = inner.named_children[0]
        if inner.type != "unary_expression" or self.text(sn.operator(inner)) != "&":
            raise LoweringError(f"{self.where(node)}: the runner handles matrix loads and stores through "
                                f"'&variable' only, not '{self.text(node)[:60]}'")
        operand = sn.operand(inner)
        offset = "0u"
        if operand.type == "index_expression" and allow_index:
            offset = f"u32({self.emit(sn.index(operand))})"
            operand = sn.value(operand)
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

    # The helpers are written out one element of a lane's share at a time, so every index into a share
    # is a constant and drivers keep it in registers. With loops over a private array, lavapipe turned
    # each dynamic index into a branch ladder over the whole array (first compiles of a minute and more)
    # and ends any loop after 65535 iterations per invocation. Loops that read workgroup memory (the
    # multiply's K loop) have neither problem.
    def _slots(self, m: t.CoopMatrix, body) -> str:
        """`body(slot)` for each element of this lane's share, in a block that names the element's row
        and column (coop_emu_r, coop_emu_c). A lane holds consecutive elements (row-major numbers
        lane * share ... lane * share + share - 1), so it reads and writes whole runs of a row and
        exchanges them four at a time; lanes past the matrix's end hold nothing."""
        total, share, out = m.rows * m.columns, self.share(m), []
        guard = share * self.holders > total
        for slot in range(share):
            first = f"{slot}u" if self.whole else f"{LANE} * {share}u + {slot}u"
            inner = (f"    let coop_emu_e = {first};\n"
                     f"    let coop_emu_r = coop_emu_e / {m.columns}u;\n"
                     f"    let coop_emu_c = coop_emu_e % {m.columns}u;\n" + body(slot))
            out.append(f"  if ({first} < {total}u) {{\n{inner}  }}\n" if guard else f"  {{\n{inner}  }}\n")
        return "".join(out)

    @staticmethod
    def _address(per_element: int) -> str:
        scale = f" * {per_element}u" if per_element != 1 else ""
        return (f"    let coop_emu_a = select((coop_emu_off + coop_emu_r * coop_emu_stride){scale} + coop_emu_c, "
                f"(coop_emu_off + coop_emu_c * coop_emu_stride){scale} + coop_emu_r, coop_emu_col_major);\n")

    def load_helper(self, var: str, element: t.Type, m: t.CoopMatrix) -> str:
        per_element = matrix_elements_per_array_element(element, m.element.name)

        def make(fname: str) -> str:
            read = self.read_expr(var, element, m.element.name, "coop_emu_a")
            if self.whole:
                place = self._whole_place(m)
                body = self._whole_loop(m, self._address(per_element) + f"    {place(f'coop_emu_e')} = {read};\n") \
                    + self._whole_copy(m, place, "coop_emu_m", inward=False)
            elif self._in_one_row(m):
                body = self._run_start(m, per_element) + "".join(
                    f"  {{\n    let coop_emu_a = coop_emu_a0 + {slot}u * coop_emu_step;\n"
                    f"    coop_emu_m[{slot}] = {read};\n  }}\n" for slot in range(self.share(m)))
            else:
                body = self._slots(m, lambda slot: self._address(per_element) + f"    coop_emu_m[{slot}] = {read};\n")
            return (f"fn {fname}(coop_emu_off: u32, coop_emu_stride: u32, coop_emu_col_major: bool) -> {self.concrete(m)} {{\n"
                    f"  var coop_emu_m: {self.concrete(m)};\n"
                    + self.lane_zero_only(" coop_emu_m") + body +
                    f"  return coop_emu_m;\n}}\n")
        return self.helper(("load", var, m), make)

    def store_helper(self, var: str, element: t.Type, m: t.CoopMatrix, where) -> str:
        try:
            per_element = matrix_elements_per_array_element(element, m.element.name)
            self.write_stmt(var, element, m.element.name, "coop_emu_a", "v")
        except LoweringError as error:
            raise LoweringError(f"{self.where(where)}: {error}") from None

        def make(fname: str) -> str:
            def body(slot):
                return self._address(per_element) + "    " + self.write_stmt(
                    var, element, m.element.name, "coop_emu_a", f"coop_emu_m[{slot}]") + "\n"
            if self.whole:
                place = self._whole_place(m)
                code = self._whole_copy(m, place, "coop_emu_m", inward=True) + self._whole_loop(
                    m, self._address(per_element) + "    " + self.write_stmt(
                        var, element, m.element.name, "coop_emu_a", place("coop_emu_e")) + "\n")
            elif self._in_one_row(m):
                code = self._run_start(m, per_element) + "".join(
                    f"  {{\n    let coop_emu_a = coop_emu_a0 + {slot}u * coop_emu_step;\n    "
                    + self.write_stmt(var, element, m.element.name, "coop_emu_a", f"coop_emu_m[{slot}]") + "\n  }\n"
                    for slot in range(self.share(m)))
            else:
                code = self._slots(m, body)
            return (f"fn {fname}(coop_emu_off: u32, coop_emu_m: {self.concrete(m)}, coop_emu_col_major: bool, coop_emu_stride: u32) {{\n"
                    + self.lane_zero_only("") + code + "}\n")
        return self.helper(("store", var, m), make)

    # Whole matrices (lane 0 alone): loads and stores go element by element in a loop, through the
    # subgroup's scratch, so that the private array is only indexed by constants, four at a time.
    def _whole_place(self, m: t.CoopMatrix):
        element = _storage_element(m.element.name)
        self.scratch[element] = max(self.scratch.get(element, 0), -(-(m.rows * m.columns) // 4) * 4)
        array, base = f"{PREFIX}scratch_{element}", f"{SUBGROUP} * {PREFIX}span_{element}"
        return lambda index: f"{array}[({base} + {index}) / 4u][({base} + {index}) % 4u]"

    def _whole_loop(self, m: t.CoopMatrix, body: str) -> str:
        """`body` for every element (coop_emu_e, coop_emu_r, coop_emu_c): a loop over rows, each row
        written out. One iteration a row, not one an element: lavapipe's loop budget is per shader
        (see LOOP_BUDGET)."""
        columns = "".join(f"    {{\n      let coop_emu_c = {c}u;\n"
                          f"      let coop_emu_e = coop_emu_r * {m.columns}u + {c}u;\n"
                          + _indent(body, 1) + "    }\n" for c in range(m.columns))
        return (f"  for (var coop_emu_r = 0u; coop_emu_r < {m.rows}u + {OPAQUE_ZERO}; coop_emu_r++) {{\n"
                + columns + "  }\n")

    def _whole_copy(self, m: t.CoopMatrix, place, value: str, inward: bool) -> str:
        n = m.rows * m.columns
        element = _storage_element(m.element.name)
        array_at = place("0u").split("[(")[0]
        base = f"{SUBGROUP} * {PREFIX}span_{element}"
        if n % 4:
            return "".join((f"  {place(f'{e}u')} = {value}[{e}];\n" if inward else f"  {value}[{e}] = {place(f'{e}u')};\n")
                           for e in range(n))
        out = []
        for q in range(n // 4):
            cell = f"{array_at}[({base}) / 4u + {q}u]"
            if inward:
                out.append(f"  {cell} = vec4<{element}>(" + ", ".join(f"{value}[{4 * q + i}]" for i in range(4)) + ");\n")
            else:
                out.append(f"  {{\n    let v = {cell};\n" + "".join(f"    {value}[{4 * q + i}] = v[{i}];\n"
                                                             for i in range(4)) + "  }\n")
        return "".join(out)

    def _in_one_row(self, m: t.CoopMatrix) -> bool:
        """Whether each lane's share is one run within a row, so its addresses step evenly."""
        share = self.share(m)
        return m.columns % share == 0 and share * self.lanes == m.rows * m.columns

    def _run_start(self, m: t.CoopMatrix, per_element: int) -> str:
        """The address of a lane's first element and the step to the next (1 along a row in memory,
        the scaled stride down a column), computed once instead of per element."""
        scale = f" * {per_element}u" if per_element != 1 else ""
        return (f"  let coop_emu_r = ({LANE} * {self.share(m)}u) / {m.columns}u;\n"
                f"  let coop_emu_c = ({LANE} * {self.share(m)}u) % {m.columns}u;\n"
                f"  let coop_emu_a0 = select((coop_emu_off + coop_emu_r * coop_emu_stride){scale} + coop_emu_c, "
                f"(coop_emu_off + coop_emu_c * coop_emu_stride){scale} + coop_emu_r, coop_emu_col_major);\n"
                f"  let coop_emu_step = select(1u, coop_emu_stride{scale}, coop_emu_col_major);\n")

    def _vectorized(self, m: t.CoopMatrix) -> bool:
        """Whether a lane's share of `m` is whole runs of four elements within one row."""
        share, cols = self.share(m), m.columns
        return (share % 4 == 0 and cols % 4 == 0 and (cols % share == 0 or share % cols == 0)
                and share * self.lanes == m.rows * m.columns)

    def _stage(self, m: t.CoopMatrix, value: str, offset: int) -> tuple[str, str]:
        """(code that writes this lane's share of `value` to its subgroup's scratch, a vec4 array, from
        element `offset` on, the scratch's name); reserves the room."""
        element = _storage_element(m.element.name)
        array = f"{PREFIX}scratch_{element}"
        span = offset + -(-(m.rows * m.columns) // 4) * 4
        self.scratch[element] = max(self.scratch.get(element, 0), span)
        base = f"{SUBGROUP} * {PREFIX}span_{element} + {offset}u"
        share = self.share(m)
        if self._vectorized(m):
            code = "".join(f"  {array}[({base} + {LANE} * {share}u) / 4u + {q}u] = vec4<{element}>("
                           + ", ".join(f"{value}[{4 * q + i}]" for i in range(4)) + ");\n"
                           for q in range(share // 4))
        else:
            code = self._slots(m, lambda slot: f"    {array}[({base} + coop_emu_e) / 4u][({base} + coop_emu_e) % 4u]"
                               f" = {value}[{slot}];\n")
        return code, array

    def mma_helper(self, left: t.CoopMatrix, right: t.CoopMatrix, result: t.CoopMatrix, where) -> str:
        rows, inner, cols = left.rows, left.columns, right.columns
        if right.rows != inner or result.rows != rows or result.columns != cols:
            raise LoweringError(f"{self.where(where)}: matrix shapes do not fit: {left.describe()} x "
                                f"{right.describe()} -> {result.describe()}")
        if self.whole:
            return self.whole_mma_helper(left, right, result)
        l_el, rt_el = _storage_element(left.element.name), _storage_element(right.element.name)

        def make(fname: str) -> str:
            stage_l, l_array = self._stage(left, "l", 0)
            r_offset = -(-(rows * inner) // 4) * 4 if rt_el == l_el else 0
            stage_r, r_array = self._stage(right, "r", r_offset)
            l_base = f"{SUBGROUP} * {PREFIX}span_{l_el}"
            r_base = f"{SUBGROUP} * {PREFIX}span_{rt_el} + {r_offset}u"
            compute = self._product(left, right, result, l_array, l_base, r_array, r_base)
            # The first barrier: the subgroup's previous multiply has finished reading the scratch.
            return (f"fn {fname}(l: {self.concrete(left)}, r: {self.concrete(right)}, acc: {self.concrete(result)})"
                    f" -> {self.concrete(result)} {{\n"
                    f"  workgroupBarrier();\n" + stage_l + stage_r +
                    f"  workgroupBarrier();\n"
                    f"  var out = acc;\n" + compute +
                    f"  return out;\n}}\n")
        return self.helper(("mma", left, right, result), make)

    def _product(self, left, right, result, l_array: str, l_base: str, r_array: str, r_base: str) -> str:
        """out += L x R for this lane's share of the result, one K step at a time (a loop: its body is
        the same at every step). Runs of four results in one row take one L value and a vec4 of R."""
        inner, cols, share = left.columns, result.columns, self.share(result)
        r_el = _storage_element(result.element.name)
        k = "coop_emu_k"

        def scalar(array: str, index: str) -> str:
            return f"{r_el}({array}[({index}) / 4u][({index}) % 4u])"
        body = []
        if self._vectorized(result):
            rows_read = {}
            for q in range(share // 4):
                if cols % share == 0:
                    row, col = f"({LANE} * {share}u) / {cols}u", f"({LANE} * {share}u) % {cols}u + {4 * q}u"
                else:
                    row, col = f"{LANE} * {share // cols}u + {4 * q // cols}u", f"{4 * q % cols}u"
                if row not in rows_read:
                    rows_read[row] = f"coop_emu_l{len(rows_read)}"
                    body.append(f"    let {rows_read[row]} = {scalar(l_array, f'{l_base} + ({row}) * {inner}u + {k}')};\n")
                rv = f"coop_emu_r{q}"
                body.append(f"    let {rv} = vec4<{r_el}>({r_array}[({r_base} + {k} * {cols}u + {col}) / 4u]);\n")
                body += [f"    out[{4 * q + i}] += {rows_read[row]} * {rv}[{i}];\n" for i in range(4)]
        else:
            guard = share * self.lanes > result.rows * cols
            for slot in range(share):
                e = f"({LANE} * {share}u + {slot}u)"
                update = (f"out[{slot}] += {scalar(l_array, f'{l_base} + ({e} / {cols}u) * {inner}u + {k}')} * "
                          f"{scalar(r_array, f'{r_base} + {k} * {cols}u + {e} % {cols}u')};")
                body.append(f"    if ({e} < {result.rows * cols}u) {{ {update} }}\n" if guard else f"    {update}\n")
        return (f"  for (var {k} = 0u; {k} < {inner}u + {OPAQUE_ZERO}; {k}++) {{\n" + "".join(body) + "  }\n")

    def whole_mma_helper(self, left: t.CoopMatrix, right: t.CoopMatrix, result: t.CoopMatrix) -> str:
        """Lane 0 of the subgroup copies the whole operands to its subgroup's scratch, multiplies out of
        workgroup memory and copies the result back: no other lane takes part, so no barrier is needed."""
        rows, inner, cols = left.rows, left.columns, right.columns
        a_el = _storage_element(result.element.name)

        def make(fname: str) -> str:
            used: dict[str, int] = {}
            places = []
            for m in (left, right, result):
                element = _storage_element(m.element.name)
                offset = used.get(element, 0)
                used[element] = offset + -(-(m.rows * m.columns) // 4) * 4
                self.scratch[element] = max(self.scratch.get(element, 0), used[element])
                places.append((f"{PREFIX}scratch_{element}", f"{SUBGROUP} * {PREFIX}span_{element} + {offset}u", element))

            def at(place, index: str) -> str:
                array, base, _ = place
                return f"{array}[({base} + {index}) / 4u][({base} + {index}) % 4u]"

            def copy_in(place, value: str, m: t.CoopMatrix) -> str:
                array, base, element = place
                n = m.rows * m.columns
                if n % 4 == 0:
                    return "".join(f"  {array}[({base}) / 4u + {q}u] = vec4<{element}>("
                                   + ", ".join(f"{value}[{4 * q + i}]" for i in range(4)) + ");\n" for q in range(n // 4))
                return "".join(f"  {at(place, f'{e}u')} = {value}[{e}];\n" for e in range(n))

            left_at, right_at, out_at = places
            n = rows * cols
            if n % 4 == 0:
                back = "".join(f"  {{\n    let v = {out_at[0]}[({out_at[1]}) / 4u + {q}u];\n"
                               + "".join(f"    out[{4 * q + i}] = v[{i}];\n" for i in range(4)) + "  }\n"
                               for q in range(n // 4))
            else:
                back = "".join(f"  out[{e}] = {at(out_at, f'{e}u')};\n" for e in range(n))
            return (f"fn {fname}(l: {self.concrete(left)}, r: {self.concrete(right)}, acc: {self.concrete(result)})"
                    f" -> {self.concrete(result)} {{\n"
                    f"  var out = acc;\n" + self.lane_zero_only(" out")
                    + copy_in(left_at, "l", left) + copy_in(right_at, "r", right) + copy_in(out_at, "acc", result)
                    + self._whole_product(rows, inner, cols, a_el, left_at, right_at, out_at, at)
                    + back + "  return out;\n}\n")
        return self.helper(("mma", left, right, result), make)

    @staticmethod
    def _whole_product(rows: int, inner: int, cols: int, a_el: str, left_at, right_at, out_at, at) -> str:
        """out += L x R in the scratch: a loop over runs of four results in a row (vec4s of the scratch,
        whose places start at multiples of four), or over single results, with the sum over K written
        out in order. Not a loop over K as well: lavapipe's loop budget is per shader (LOOP_BUDGET)."""
        if cols % 4 == 0:
            quads = cols // 4
            out_cell = f"{out_at[0]}[({out_at[1]}) / 4u + coop_emu_q]"
            code = [f"    let i = coop_emu_q / {quads}u;\n    let q = coop_emu_q % {quads}u;\n"
                    f"    var s = {out_cell};\n"]
            code += [f"    s += {a_el}({at(left_at, f'i * {inner}u + {k}u')}) * "
                     f"vec4<{a_el}>({right_at[0]}[({right_at[1]}) / 4u + {k * quads}u + q]);\n" for k in range(inner)]
            code.append(f"    {out_cell} = s;\n")
            count = rows * quads
        else:
            out_cell = at(out_at, "coop_emu_q")
            code = [f"    let i = coop_emu_q / {cols}u;\n    let j = coop_emu_q % {cols}u;\n    var s = {out_cell};\n"]
            code += [f"    s += {a_el}({at(left_at, f'i * {inner}u + {k}u')}) * "
                     f"{a_el}({at(right_at, f'{k * cols}u + j')});\n" for k in range(inner)]
            code.append(f"    {out_cell} = s;\n")
            count = rows * cols
        return (f"  for (var coop_emu_q = 0u; coop_emu_q < {count}u + {OPAQUE_ZERO}; coop_emu_q++) {{\n"
                + "".join(code) + "  }\n")

    def scalar_helper(self, op: str, m: t.CoopMatrix) -> str:
        element = _storage_element(m.element.name)
        symbol = {"Add": "+", "Subtract": "-", "Multiply": "*"}[op]

        def make(fname: str) -> str:
            body = "".join(f"  out[{slot}] = out[{slot}] {symbol} v;\n" for slot in range(self.share(m)))
            return (f"fn {fname}(m: {self.concrete(m)}, v: {element}) -> {self.concrete(m)} {{\n"
                    f"  var out = m;\n" + body +
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
        role = _ROLES[name]
        if role == LOAD:
            m = self.matrix_type(node)
            col_major, rest = self.majorness(function, args, _BOOL_AT[name])
            if len(rest) != 3:
                raise LoweringError(f"{self.where(node)}: unexpected arguments to subgroupMatrixLoad")
            element, var, _ = self.pointer(rest[0], allow_index=False)
            fname = self.load_helper(var, element, m)
            return f"{fname}(u32({self.emit(rest[1])}), u32({self.emit(rest[2])}), {col_major})"
        if role == STORE:
            col_major, rest = self.majorness(function, args, _BOOL_AT[name])
            if len(rest) != 4:
                raise LoweringError(f"{self.where(node)}: unexpected arguments to subgroupMatrixStore")
            m = self.matrix_type(rest[2])
            element, var, _ = self.pointer(rest[0], allow_index=False)
            fname = self.store_helper(var, element, m, node)
            return f"{fname}(u32({self.emit(rest[1])}), {self.emit(rest[2])}, {col_major}, u32({self.emit(rest[3])}))"
        if role == MULTIPLY:
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
        if _ROLES[name] == LOAD:
            m = self.matrix_type(node)
            element, var, offset = self.pointer(args[0], allow_index=True)
            stride = f"u32({self.emit(args[1])})" if len(args) > 1 else f"{m.rows}u"
            if self.mode == "tint":
                layout = "row_major" if name == "coopLoadT" else "col_major"
                tint_type = f"subgroup_matrix_{NAGA_ROLES[m.kind.role]}<{m.element.name}, {m.columns}, {m.rows}>"
                return f"subgroupMatrixLoad<{tint_type}, {layout}>(&{var}, {offset}, {stride})"
            fname = self.load_helper(var, element, m)
            return f"{fname}({offset}, {stride}, {'false' if name == 'coopLoadT' else 'true'})"
        if _ROLES[name] == STORE:
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
        parameters = sn.parameters(node)
        body = sn.body(node)
        params = [c for c in parameters.named_children if c.type == "parameter"] if parameters is not None else []
        kept, lets, lid, groups, group_id = [], [], None, None, None
        for param in params:
            builtin = None
            for a in (c for c in param.children if c.type == "attribute"):
                if attribute_name(self.data, a) == "builtin" and attribute_args(a):
                    builtin = self.text(attribute_args(a)[0])
            pname = self.text(sn.name(param))
            ptype_node = sn.declared_type(param)
            ptype = self.text(ptype_node) if ptype_node is not None else "u32"
            if builtin == "local_invocation_index":
                lid = pname
            if builtin == "num_workgroups":
                groups = pname
            if builtin == "workgroup_id":
                group_id = pname
            if builtin in SUBGROUP_BUILTINS:
                lets.append((builtin, pname, ptype))
            else:
                kept.append(self.emit(param))
        if not lets and self.module.dialect == "plain" and not uses_subgroup_operations(self.module):
            return None
        if lid is None:
            lid = f"{PREFIX}lid"
            kept.append(f"@builtin(local_invocation_index) {lid}: u32")
        if groups is None:
            groups = f"{PREFIX}groups"
            kept.append(f"@builtin(num_workgroups) {groups}: vec3<u32>")
        if self.trace and group_id is None:
            group_id = f"{PREFIX}group_id"
            kept.append(f"@builtin(workgroup_id) {group_id}: vec3<u32>")
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
        prologue = (f"\n    {LANE} = {lid} % {s}u; // this invocation's lane in its emulated subgroup of {s}"
                    f"\n    {SUBGROUP} = {lid} / {s}u;"
                    f"\n    {OPAQUE_ZERO} = {groups}.x >> 31u;")
        if self.trace:
            prologue += (f"\n    {TRACE_SUBGROUP} = ({group_id}.x + {groups}.x * ({group_id}.y + {groups}.y * "
                         f"{group_id}.z)) * {self.subgroups_per_workgroup}u + {SUBGROUP};")
        prologue += "".join(f"\n    let {pname}: {ptype} = {ptype}({values[b]}); // emulated @builtin({b})"
                            for b, pname, ptype in lets)
        out, pos = [], node.start_byte
        for child in node.children:
            out.append(self.data[pos:child.start_byte].decode())
            if child == parameters:
                out.append("(" + ", ".join(kept) + ")")
            elif child == body:
                self._in_entry = True
                text = self.emit(child)
                self._in_entry = False
                if self.budget_binding is not None:
                    text = text[:-1].rstrip() + f"\n    {BUDGET_CHECK}();\n}}"
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


def _run(module: KernelModule, mode: str, subgroup_size: int, keep_subgroup_ops: bool = False,
         whole: bool = False, trace: dict | None = None, trace_binding: tuple[int, int] = (0, 0),
         budget_binding: tuple[int, int] | None = None) -> Lowered:
    lanes, per_workgroup = _lanes(module, subgroup_size) if mode == "emulate" else (subgroup_size, 1)
    rewriter = _Rewriter(module, mode, subgroup_size, lanes, per_workgroup, keep_subgroup_ops, whole,
                         trace=dict(trace or {}), trace_binding=trace_binding, budget_binding=budget_binding)
    body = rewriter.emit(module.parsed.root)
    notes = []
    if mode == "emulate":
        notes.append(f"matrix types and builtins emulated in plain WGSL (subgroup size {subgroup_size}"
                     + (f", {lanes} invocations in the workgroup" if lanes < subgroup_size else "") + ")")
        if keep_subgroup_ops and uses_subgroup_operations(module):
            notes.append(f"the kernel's subgroup operations run on the adapter's own subgroups ({subgroup_size} lanes)")
        elif rewriter.subgroup_ops.used:
            notes.append(f"the kernel's subgroup operations are emulated through workgroup memory (the adapter's "
                         f"subgroups are not {subgroup_size} lanes)")
        notes += rewriter.notes
        if rewriter.helpers or _needs_lanes(module) or rewriter.trace or budget_binding is not None:
            body = body.rstrip("\n") + "\n\n// ---- coop-lsp emulation helpers (generated) ----\n" \
                + _emulation_state(rewriter) + "\n".join(code for _, code in rewriter.helpers.values())
    else:
        if rewriter.helpers:
            body = body.rstrip("\n") + "\n\n// ---- coop-lsp helpers (generated) ----\n" \
                + "\n".join(code for _, code in rewriter.helpers.values())
        if module.dialect != "chromium":
            notes.append(f"translated from the {module.dialect} dialect to Tint's chromium_experimental_subgroup_matrix")
    return Lowered(body, module.dialect, notes)


def _emulation_state(rewriter: _Rewriter) -> str:
    """The private lane and subgroup numbers and the workgroup memory the helpers exchange values in."""
    out = [f"var<private> {LANE}: u32;\nvar<private> {SUBGROUP}: u32;\nvar<private> {OPAQUE_ZERO}: u32;\n"]
    groups = rewriter.subgroups_per_workgroup
    for element, span in sorted(rewriter.scratch.items()):
        out.append(f"const {PREFIX}span_{element} = {span}u;\n"
                   f"var<workgroup> {PREFIX}scratch_{element}: array<vec4<{element}>, {groups * span // 4}>;\n")
    if rewriter.subgroup_ops.used:
        out.append(f"var<workgroup> {EXCHANGE}: array<u32, {groups * rewriter.subgroup_size * 4}>;\n")
    if rewriter.trace:
        sites = len({site for sites in rewriter.trace.values() for site in sites})
        group, binding = rewriter.trace_binding
        out.append(f"var<private> {TRACE_SUBGROUP}: u32;\n"
                   f"@group({group}) @binding({binding}) var<storage, read_write> {TRACE_BUFFER}: array<atomic<u32>>;\n"
                   f"// Arrivals per (site, subgroup of the dispatch, lane): lanes of one subgroup that arrive a\n"
                   f"// different number of times took different paths there.\n"
                   f"fn {TRACE_HIT}(site: u32) {{\n"
                   f"  let per_site = arrayLength(&{TRACE_BUFFER}) / {sites}u;\n"
                   f"  let slot = {TRACE_SUBGROUP} * {rewriter.subgroup_size}u + {LANE};\n"
                   f"  if (slot < per_site) {{ atomicAdd(&{TRACE_BUFFER}[site * per_site + slot], 1u); }}\n"
                   f"}}\n")
    if rewriter.budget_binding is not None:
        out.append(budget_check_code(*rewriter.budget_binding))
    return "".join(out) + "\n"


def budget_check_code(group: int, binding: int) -> str:
    """A two-iteration loop run as the entry point ends: on lavapipe, once the shader's loop budget is
    spent every loop stops after one iteration, so this one counts 1 instead of 2 and raises the flag."""
    return (f"@group({group}) @binding({binding}) var<storage, read_write> {BUDGET_BUFFER}: array<atomic<u32>>;\n"
            f"fn {BUDGET_CHECK}() {{\n"
            f"  var count = 0u;\n"
            f"  for (var i = 0u; i < 2u + {OPAQUE_ZERO}; i++) {{ count += 1u; }}\n"
            f"  if (count != 2u) {{ atomicStore(&{BUDGET_BUFFER}[0], 1u); }}\n"
            f"}}\n")


def _workgroup_invocations(module: KernelModule) -> list[int]:
    """Each entry point's invocations per workgroup, from @workgroup_size as the semantic model evaluated
    it (any const-expression); an override or an unknown value cannot be emulated."""
    sizes = []
    for entry in module.entry_points:
        total = 1
        for index, value in enumerate(entry.workgroup_size):
            if not isinstance(value, int) or isinstance(value, bool):
                spans = entry.workgroup_size_spans
                span = spans[index] if index < len(spans) else Span(entry.node.start_byte, entry.node.start_byte)
                written = module.data[span.start:span.end].decode() or str(value)
                line = module.data.count(b"\n", 0, span.start) + 1
                raise LoweringError(f"line {line}: the emulation needs a constant workgroup size, not '{written}'")
            total *= value
        sizes.append(total)
    return sizes


def _lanes(module: KernelModule, subgroup_size: int) -> tuple[int, int]:
    """(invocations that share each matrix, emulated subgroups per workgroup). A workgroup smaller than
    the subgroup is one partial subgroup, as on hardware; a larger one must split into whole subgroups,
    since the emulation gives each lane a fixed share of every matrix."""
    sizes = _workgroup_invocations(module) if _needs_lanes(module) else []
    if not sizes:
        return subgroup_size, 1
    if all(size < subgroup_size for size in sizes) and len(set(sizes)) == 1:
        return sizes[0], 1
    for size in sizes:
        if size % subgroup_size:
            raise LoweringError(f"subgroup size {subgroup_size} cannot be emulated: a workgroup of {size} "
                                f"invocations is not a whole number of {subgroup_size}-lane subgroups")
    return subgroup_size, max(sizes) // subgroup_size


def _needs_lanes(module: KernelModule) -> bool:
    return module.dialect != "plain" or bool(uses_subgroup_operations(module))


def emulate(text: str, subgroup_size: int = 32, native_subgroup_size: int | None = None,
            module: KernelModule | None = None, trace: dict | None = None,
            trace_binding: tuple[int, int] = (0, 0), budget_binding: tuple[int, int] | None = None) -> Lowered:
    """Plain WGSL with the same results as the matrix kernel `text`, with subgroups of `subgroup_size`
    lanes. `native_subgroup_size`: the adapter's own subgroup size where known; when it is the emulated
    size, the kernel's subgroup operations run on the adapter's. `module`: `text` already loaded, by a
    caller that has it (the kernel is not checked twice). `trace`: statement start byte -> site numbers, for
    coop_lsp.runner.divergence, with its buffer at `trace_binding` (group, binding). `budget_binding`: where
    a flag (array<atomic<u32>>) is bound that the entry point raises, as it returns, when lavapipe's loop
    budget has run out (see LOOP_BUDGET); None: no check."""
    if subgroup_size <= 0 or subgroup_size & (subgroup_size - 1) or subgroup_size > 128:
        raise LoweringError(f"subgroup size {subgroup_size} cannot be emulated: subgroup sizes are powers of two "
                            "from 1 to 128")
    module = module if module is not None else load_kernel(text)
    keep = native_subgroup_size == subgroup_size
    lowered = _run(module, "emulate", subgroup_size, keep_subgroup_ops=keep, trace=trace, trace_binding=trace_binding,
                   budget_binding=budget_binding)
    barrier = _nonuniform_barrier(lowered.text)
    if barrier is None:
        return lowered
    # The exchange's barriers sit where the workgroup may not be converged (a loop starting at
    # subgroup_id, say): Tint and naga refuse that, and lanes of other subgroups would never arrive.
    whole = _run(module, "emulate", subgroup_size, keep_subgroup_ops=keep, whole=True, trace=trace,
                 trace_binding=trace_binding, budget_binding=budget_binding)
    if _nonuniform_barrier(whole.text) is not None:
        raise LoweringError(f"the emulation cannot run this kernel's subgroup operations: {barrier}; they are "
                            "emulated with workgroup barriers, which need control flow uniform across the "
                            "workgroup (run it where the adapter's subgroups have the emulated size)")
    whole.notes.append(f"the kernel's matrix operations are not in control flow uniform across the workgroup "
                       f"({barrier}), so lanes cannot exchange matrix elements: each invocation holds whole "
                       "matrices (slower to compile for large tiles)")
    return whole


def _nonuniform_barrier(text: str) -> str | None:
    """Where the emulated kernel calls a helper that holds a barrier from control flow that is not
    uniform across the workgroup (the linter's U001, which reproduces Tint's verdict), or None."""
    from ..lint import lint_source

    for d in lint_source(text).diagnostics:
        if d.code == "U001" and "Barrier" in d.message:
            for note in getattr(d, "related", ()) or ():
                message = getattr(note, "message", "")
                if "called by" in message:
                    return message
            return d.message
    return None


def uses_subgroup_operations(module: KernelModule) -> str:
    """The kernel's subgroup builtin calls and subgroup builtin values other than the matrix ones, as
    'name at line N, ...' ('' when none)."""
    found = getattr(module, "_subgroup_uses", None)
    if found is not None:
        return found
    uses: list[str] = []
    stack = [module.parsed.root]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            name = called_name(module, node)
            if name in SUBGROUP_BUILTIN_CALLS:
                uses.append(f"{name} at line {node.start_point[0] + 1}")
        elif node.type == "attribute" and attribute_name(module.data, node) == "builtin":
            args = attribute_args(node)
            if args and module.node_text(args[0]) in SUBGROUP_BUILTINS:
                uses.append(f"@builtin({module.node_text(args[0])}) at line {node.start_point[0] + 1}")
        stack.extend(node.children)
    found = ", ".join(sorted(set(uses)))
    module._subgroup_uses = found
    return found


def emulated_matrix_bytes(module: KernelModule) -> list[tuple[str, int]]:
    """(name, bytes) of each local variable, let or parameter that holds matrices, largest first, counted
    whole: a subgroup's share of the emulation's private memory (the whole, per invocation, where the
    matrix operations are not uniform across the workgroup)."""
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


def to_tint(text: str, module: KernelModule | None = None) -> Lowered:
    """The kernel in Tint's dialect (chromium_experimental_subgroup_matrix). `module`: `text` already
    loaded, by a caller that has it (the kernel is not checked twice)."""
    module = module if module is not None else load_kernel(text)
    if module.dialect == "chromium":
        return Lowered(text, "chromium", [])
    return _run(module, "tint", 32)
