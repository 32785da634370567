"""The matrix builtins of each dialect: naga's coop_mat, Tint's subgroup matrices, the gpuweb proposal.

Sources: seed 000 (naga) confirmed against naga-cli 29; seed 002 and the
wgpudawn 0.32 Tint (Tint); seed 003 (the proposal). Where they disagree, the
compiler wins and the table says so.
"""

from __future__ import annotations

from .. import types as t
from .signature import ANY, overload
from .table import FOLLOWS_ARGUMENTS as _FOLLOWS
from .table import LOAD as _LOAD
from .table import MATRIX as _MATRIX
from .table import MULTIPLY as _MULTIPLY
from .table import NO_MEMORY as _NONE
from .table import STORE as _STORE
from .table import Builtin

# Every matrix builtin must be called from subgroup-uniform control flow with uniform arguments (_MATRIX);
# none of their results is uniform by itself (_FOLLOWS).

MATRIX_ELEMENTS = (t.F32, t.F16, t.U32, t.I32, t.U8, t.I8)
NAGA_ELEMENTS = (t.F32, t.F16)
MEMORY_SPACES = ("storage", "workgroup")  # where Tint's (and the proposal's) loads and stores may point
NAGA_MEMORY_SPACES = ("storage", "workgroup", "private", "function")
ACCESS = ("read", "write", "read_write")
MAJORNESS = ("row_major", "col_major")
INDEX_TYPES = (t.ABSTRACT_INT, t.I32, t.U32)
ROLES = ("A", "B", "C")

TINT_ENABLE = "chromium_experimental_subgroup_matrix"
STANDARD_ENABLE = "subgroup_matrix"
NAGA_ENABLE = "wgpu_cooperative_matrix"

INVALID_MEMORY = "T008"
SHAPE_MISMATCH = "T006"


# ------------------------------------------------------------- conditions
def array_element_bytes(element: t.Type) -> int | None:
    if isinstance(element, t.Scalar):
        return element.byte_size
    if isinstance(element, t.Vector):
        return element.size * element.element.byte_size
    return None


def _array_holds_matrix_elements(bindings: dict) -> tuple[str, str] | None:
    """Tint reinterprets the array's memory: any element at least as wide as the matrix element works."""
    matrix, element = bindings.get("M"), bindings.get("E")
    if not isinstance(matrix, t.CoopMatrix) or element is None:
        return None
    width = array_element_bytes(element)
    if width is None:
        return (INVALID_MEMORY, f"the array must hold scalars or vectors, not '{element.describe()}'", "p")
    if width < matrix.element.byte_size:
        return (INVALID_MEMORY, f"the stride of the array ({width} bytes) must be greater than or equal to the "
                                f"matrix element size ({matrix.element.byte_size} bytes)", "p")
    return None


def _storage_element(scalar: t.Scalar) -> t.Scalar:
    """u8 and i8 matrices live in u32 and i32 arrays."""
    return {t.U8: t.U32, t.I8: t.I32}.get(scalar, scalar)


def _exact_array_element(bindings: dict) -> tuple[str, str, None] | None:
    """The deprecated bool forms take only arrays of exactly the matrix's (storage) element type."""
    matrix, element = bindings.get("M"), bindings.get("E")
    if not isinstance(matrix, t.CoopMatrix) or element is None:
        return None
    if element != _storage_element(matrix.element):
        return ("T004", f"the deprecated form needs an array of '{_storage_element(matrix.element).describe()}', "
                        f"not of '{element.describe()}' (the current form with a majorness template argument "
                        "accepts it)", None)
    return None


# Tint's element type pairs for multiply: operand element -> allowed result elements.
_RESULT_ELEMENTS = {
    t.F16: (t.F32, t.F16), t.F32: (t.F32,), t.I8: (t.I32, t.U32, t.I8, t.U8), t.U8: (t.I32, t.U32, t.I8, t.U8),
    t.I32: (t.I32, t.U32), t.U32: (t.I32, t.U32),
}


def _element_pairing(bindings: dict) -> tuple[str, str, None] | None:
    operand, result = bindings.get("T"), bindings.get("R")
    allowed = _RESULT_ELEMENTS.get(operand, ())
    if result not in allowed:
        names = ", ".join(a.describe() for a in allowed)
        return ("T004", f"'{operand.describe()}' operands give a result of {names}, not "
                        f"'{result.describe()}'", None)
    return None


def _is_matrix(bindings: dict) -> tuple[str, str, None] | None:
    matrix = bindings.get("M")
    if matrix is not None and not isinstance(matrix, t.CoopMatrix):
        return ("T004", f"the first template argument must be a subgroup matrix type, not "
                        f"'{matrix.describe()}'", None)
    return None


def _readable(bindings: dict) -> tuple[str, str, str] | None:
    if bindings.get("AM") == "write":
        return (INVALID_MEMORY, "cannot load a matrix through a write-only pointer", "p")
    return None


def _writable(bindings: dict) -> tuple[str, str, str] | None:
    if bindings.get("AM") == "read":
        return (INVALID_MEMORY, "cannot store a matrix through a read-only pointer; "
                                "declare the buffer 'var<storage, read_write>'", "p")
    return None


def _shapes_multiply(bindings: dict) -> tuple[str, str] | None:
    """left<T, K, M> x right<T, N, K> -> result<R, N, M>."""
    k_left, m_left = bindings["K"], bindings["M"]
    n_right, k_right = bindings["N"], bindings["K2"]
    if k_left != k_right:
        return (SHAPE_MISMATCH, f"shape mismatch: the left matrix has {k_left} columns but the right matrix has "
                                f"{k_right} rows; they must be equal (K)", None)
    if "N3" in bindings and (bindings["N3"], bindings["M3"]) != (n_right, m_left):
        return (SHAPE_MISMATCH, f"shape mismatch: the accumulator is {bindings['N3']}x{bindings['M3']} "
                                f"(columns x rows) but left x right is {n_right}x{m_left}", None)
    return _element_pairing(bindings)


def _naga_shapes(bindings: dict) -> tuple[str, str] | None:
    sizes = {bindings["D"], bindings["D2"], bindings["D3"]}
    if len(sizes) > 1:
        return (SHAPE_MISMATCH, "shape mismatch: coopMultiplyAdd needs A, B and C of the same size; got "
                                f"{bindings['D']}x{bindings['D']}, {bindings['D2']}x{bindings['D2']} and "
                                f"{bindings['D3']}x{bindings['D3']}", None)
    if bindings["T"] != bindings["T2"]:
        return ("T004", "A and B must have the same element type", None)
    return None




# ------------------------------------------------------------------ Tint
def _tint_like(enable: str, deprecated_forms: bool, proposal: bool) -> list[Builtin]:
    """Tint's and the proposal's builtins differ in the load/store and multiply spellings."""
    elements = dict(T=MATRIX_ELEMENTS)
    load_checks = (_is_matrix, _array_holds_matrix_elements, _readable)
    store_checks = (_is_matrix, _array_holds_matrix_elements, _writable)
    memory = dict(AS=MEMORY_SPACES, AM=ACCESS, E=ANY, M=ANY, O=INDEX_TYPES, S=INDEX_TYPES)
    exact = (_exact_array_element,) if deprecated_forms else ()

    bool_load = overload("<M: M>(p: ptr<AS, array<E>, AM>, offset: O, col_major: bool, stride: S) -> M",
                         checks=exact + load_checks, deprecated=deprecated_forms, **memory)
    bool_store = overload("(p: ptr<AS, array<E>, AM>, offset: O, value: M, col_major: bool, stride: S)",
                          checks=exact + store_checks, deprecated=deprecated_forms, **memory)
    template_load = overload("<M: M, L: L>(p: ptr<AS, array<E>, AM>, offset: O, stride: S) -> M",
                             checks=load_checks, L=MAJORNESS, **memory)
    template_store = overload("<L: L>(p: ptr<AS, array<E>, AM>, offset: O, value: M, stride: S)",
                              checks=store_checks, L=MAJORNESS, **memory)
    if proposal:
        # gpuweb #6275 made the majorness a template enumerant (`row_major` / `col_major`) and dropped
        # the bool argument, so the draft has only this form; Tint keeps the bool form, deprecated.
        loads, stores = (template_load,), (template_store,)
    else:
        loads, stores = (template_load, bool_load), (template_store, bool_store)

    shapes = dict(K=ANY, M=ANY, N=ANY, K2=ANY, **elements)
    if proposal:
        multiply = overload("<RT: result<R, N3, M3>>(left: left<T, K, M>, right: right<T, N, K2>) -> result<R, N3, M3>",
                            checks=(_shapes_multiply,), R=MATRIX_ELEMENTS, N3=ANY, M3=ANY, **shapes)
        # The proposal writes the result type as a template argument; it is also implied by `acc`.
        accumulate = (overload(
            "<RT: result<R, N3, M3>>(left: left<T, K, M>, right: right<T, N, K2>, acc: result<R, N3, M3>) "
            "-> result<R, N3, M3>",
            checks=(_shapes_multiply,), R=MATRIX_ELEMENTS, N3=ANY, M3=ANY, **shapes),)
        accumulate += (overload(
            "(left: left<T, K, M>, right: right<T, N, K2>, acc: result<R, N3, M3>) -> result<R, N3, M3>",
            checks=(_shapes_multiply,), R=MATRIX_ELEMENTS, N3=ANY, M3=ANY, **shapes),)
    else:
        multiply = overload("<R: R>(left: left<T, K, M>, right: right<T, N, K2>) -> result<R, N, M>",
                            checks=(_shapes_multiply,), R=MATRIX_ELEMENTS, **shapes)
        accumulate = (overload(
            "(left: left<T, K, M>, right: right<T, N, K2>, acc: result<R, N3, M3>) -> result<R, N3, M3>",
            checks=(_shapes_multiply,), R=MATRIX_ELEMENTS, N3=ANY, M3=ANY, **shapes),)

    def scalar_op(name: str, what: str) -> Builtin:
        # u8 and i8 matrices take u32 and i32 scalars.
        overloads = []
        for role in ("left", "right", "result"):
            overloads.append(overload(f"(matrix: {role}<T, C1, R1>, value: T) -> {role}<T, C1, R1>", C1=ANY, R1=ANY,
                                      T=(t.F32, t.F16, t.U32, t.I32)))
            overloads.append(overload(f"(matrix: {role}<u8, C1, R1>, value: u32) -> {role}<u8, C1, R1>",
                                      C1=ANY, R1=ANY))
            overloads.append(overload(f"(matrix: {role}<i8, C1, R1>, value: i32) -> {role}<i8, C1, R1>",
                                      C1=ANY, R1=ANY))
        return Builtin(name, tuple(overloads), f"{what} the scalar `value` to every element of the matrix.",
                       category="subgroup matrix", enable=enable, uniformity=_MATRIX, result=_FOLLOWS,
                       memory=_NONE)

    left, right, result = "subgroup_matrix_left", "subgroup_matrix_right", "subgroup_matrix_result"
    return [
        Builtin("subgroupMatrixLoad", loads,
                "Loads a subgroup matrix from an array in storage or workgroup memory, `offset` elements from "
                "its start; `stride` elements separate consecutive rows (row_major) or columns (col_major)."
                + ("" if proposal else " The form with a `col_major: bool` argument is deprecated in Tint."),
                example=f"let a = subgroupMatrixLoad<{left}<f16, 16, 16>, row_major>(&A, offset, 16u);",
                category="subgroup matrix", enable=enable,
                deprecated_message="" if proposal else "use of deprecated builtin",
                uniformity=_MATRIX, result=_FOLLOWS, memory=_LOAD),
        Builtin("subgroupMatrixStore", stores,
                "Stores a subgroup matrix into an array in storage or workgroup memory, `offset` elements "
                "from its start, rows (or columns) `stride` elements apart.",
                example="subgroupMatrixStore<row_major>(&C, offset, acc, 16u);",
                category="subgroup matrix", enable=enable, must_use=False,
                deprecated_message="" if proposal else "use of deprecated builtin",
                uniformity=_MATRIX, result=_FOLLOWS, memory=_STORE),
        Builtin("subgroupMatrixMultiply", (multiply,),
                "Multiplies a left matrix (K columns, M rows) by a right matrix (N columns, K rows), giving a "
                "result matrix of N columns and M rows"
                + (" of the type given as template argument." if proposal else
                   " whose element type is the template argument."),
                example=(f"let c = subgroupMatrixMultiply<{result}<f32, 16, 16>>(a, b);" if proposal
                         else "let c = subgroupMatrixMultiply<f32>(a, b);"),
                category="subgroup matrix", enable=enable, uniformity=_MATRIX, result=_FOLLOWS, memory=_MULTIPLY),
        Builtin("subgroupMatrixMultiplyAccumulate", accumulate,
                "left x right + acc, with the shapes of subgroupMatrixMultiply; the accumulator's type is the "
                "result type." + ("" if proposal else " Tint takes no template argument here."),
                example="acc = subgroupMatrixMultiplyAccumulate(a, b, acc);",
                category="subgroup matrix", enable=enable, uniformity=_MATRIX, result=_FOLLOWS, memory=_MULTIPLY),
        scalar_op("subgroupMatrixScalarAdd", "Adds"),
        scalar_op("subgroupMatrixScalarSubtract", "Subtracts"),
        scalar_op("subgroupMatrixScalarMultiply", "Multiplies by"),
    ]


TINT_MATRIX_BUILTINS = _tint_like(TINT_ENABLE, deprecated_forms=True, proposal=False)
STANDARD_MATRIX_BUILTINS = _tint_like(STANDARD_ENABLE, deprecated_forms=False, proposal=True)


# ------------------------------------------------------------------ naga
def _naga() -> list[Builtin]:
    spaces = dict(AS=NAGA_MEMORY_SPACES, AM=ACCESS, T=NAGA_ELEMENTS, D=(8, 16),
                  R=ROLES)
    load_doc = ("Loads a cooperative matrix from memory starting at `p`, consecutive {lines} `stride` elements "
                "apart (default: the matrix size).")
    store_doc = "Stores a cooperative matrix to memory starting at `p`, {lines} `stride` elements apart."

    def load(name: str, lines: str) -> Builtin:
        return Builtin(name, (
            overload("<M: coop<T, D, R>>(p: ptr<AS, T, AM>, stride: u32) -> coop<T, D, R>", checks=(_readable,),
                     **spaces),
            overload("<M: coop<T, D, R>>(p: ptr<AS, T, AM>) -> coop<T, D, R>", checks=(_readable,), **spaces),
        ), load_doc.format(lines=lines), example=f"let a = {name}<coop_mat16x16<f16, A>>(&a_buf[offset], 64u);",
            category="cooperative matrix", enable=NAGA_ENABLE, uniformity=_MATRIX, result=_FOLLOWS, memory=_LOAD)

    def store(name: str, lines: str) -> Builtin:
        return Builtin(name, (
            overload("(m: coop<T, D, R>, p: ptr<AS, T, AM>, stride: u32)", checks=(_writable,), **spaces),
            overload("(m: coop<T, D, R>, p: ptr<AS, T, AM>)", checks=(_writable,), **spaces),
        ), store_doc.format(lines=lines), example=f"{name}(c, &c_buf[offset], 64u);",
            category="cooperative matrix", enable=NAGA_ENABLE, must_use=False, uniformity=_MATRIX, result=_FOLLOWS,
            memory=_STORE)

    return [
        load("coopLoad", "columns (column-major)"),
        load("coopLoadT", "rows (row-major: the transposed load)"),
        store("coopStore", "columns (column-major)"),
        store("coopStoreT", "rows (row-major)"),
        Builtin("coopMultiplyAdd", (
            overload("(a: coop<T, D, A>, b: coop<T2, D2, B>, c: coop<T3, D3, C>) -> coop<T3, D3, C>",
                     checks=(_naga_shapes,), T=NAGA_ELEMENTS, T2=NAGA_ELEMENTS, T3=NAGA_ELEMENTS,
                     D=(8, 16), D2=(8, 16), D3=(8, 16)),
        ), "a x b + c, for matrices of roles A, B and C of one size.",
            example="c = coopMultiplyAdd(a, b, c);", category="cooperative matrix", enable=NAGA_ENABLE,
            uniformity=_MATRIX, result=_FOLLOWS, memory=_MULTIPLY),
    ]


NAGA_MATRIX_BUILTINS = _naga()
