"""The builtin tables: complete records, and overload resolution as WGSL defines it."""

from __future__ import annotations

import pytest

from coop_lsp.semantic import types as t
from coop_lsp.semantic.builtins.signature import match_call
from coop_lsp.semantic.context import CORE_TABLE, MATRIX_TABLES

ALL_TABLES = [CORE_TABLE, *MATRIX_TABLES.values()]


@pytest.mark.parametrize("table", ALL_TABLES, ids=lambda table: table.name)
def test_every_builtin_is_documented_with_signatures(table):
    for builtin in table:
        assert builtin.doc.endswith("."), builtin.name
        assert builtin.signatures(), builtin.name
        for signature in builtin.signatures():
            assert signature.startswith(builtin.name), signature


def test_matrix_tables_cover_every_builtin_the_design_names():
    assert {b.name for b in MATRIX_TABLES["wgpu"]} == {
        "coopLoad", "coopLoadT", "coopStore", "coopStoreT", "coopMultiplyAdd"}
    expected = {"subgroupMatrixLoad", "subgroupMatrixStore", "subgroupMatrixMultiply",
                "subgroupMatrixMultiplyAccumulate", "subgroupMatrixScalarAdd", "subgroupMatrixScalarSubtract",
                "subgroupMatrixScalarMultiply"}
    assert {b.name for b in MATRIX_TABLES["chromium"]} == expected
    assert {b.name for b in MATRIX_TABLES["standard"]} == expected


def _call(table, name, args, templates=()):
    return match_call(table.get(name).overloads, list(templates), list(args))


def test_abstract_arguments_take_the_lowest_conversion_rank():
    assert _call(CORE_TABLE, "max", [t.ABSTRACT_INT, t.ABSTRACT_INT])[0].result == t.ABSTRACT_INT
    assert _call(CORE_TABLE, "max", [t.ABSTRACT_INT, t.ABSTRACT_FLOAT])[0].result == t.ABSTRACT_FLOAT
    assert _call(CORE_TABLE, "max", [t.U32, t.ABSTRACT_INT])[0].result == t.U32
    assert _call(CORE_TABLE, "max", [t.U32, t.ABSTRACT_FLOAT]) == []


def test_vector_widths_must_agree():
    assert _call(CORE_TABLE, "dot", [t.Vector(3, t.F32), t.Vector(3, t.F32)])[0].result == t.F32
    assert _call(CORE_TABLE, "dot", [t.Vector(3, t.F32), t.Vector(4, t.F32)]) == []


LEFT = t.CoopMatrix(t.MatrixKind("chromium", "left"), t.F16, 16, 16)
RIGHT = t.CoopMatrix(t.MatrixKind("chromium", "right"), t.F16, 8, 16)
RESULT = t.CoopMatrix(t.MatrixKind("chromium", "result"), t.F32, 8, 16)


def test_tint_multiply_takes_the_result_element_type_as_template_argument():
    match = _call(MATRIX_TABLES["chromium"], "subgroupMatrixMultiply", [LEFT, RIGHT], [t.TypeOf(t.F32)])[0]
    assert match.result == RESULT
    assert match.problem is None


def test_tint_multiply_accumulate_checks_the_inner_dimension():
    narrow = t.CoopMatrix(t.MatrixKind("chromium", "right"), t.F16, 8, 8)
    match = _call(MATRIX_TABLES["chromium"], "subgroupMatrixMultiplyAccumulate", [LEFT, narrow, RESULT])[0]
    assert match.problem[0] == "T006"
    assert "16 columns" in match.problem[1] and "8 rows" in match.problem[1]


def test_tint_load_checks_the_array_element_width_and_marks_the_bool_form_deprecated():
    # Tint reinterprets memory: an f16 matrix loads from f32 or u32 arrays, an f32 one not from f16.
    storage = t.Pointer("storage", t.Array(t.F32, None), "read")
    halves = t.Pointer("storage", t.Array(t.F16, None), "read")
    f32_left = t.CoopMatrix(t.MatrixKind("chromium", "left"), t.F32, 8, 8)
    wide = _call(MATRIX_TABLES["chromium"], "subgroupMatrixLoad", [storage, t.U32, t.U32],
                 [t.TypeOf(LEFT), t.Enumerant("row_major")])[0]
    assert wide.problem is None
    narrow = _call(MATRIX_TABLES["chromium"], "subgroupMatrixLoad", [halves, t.U32, t.U32],
                   [t.TypeOf(f32_left), t.Enumerant("row_major")])[0]
    assert narrow.problem[0] == "T008" and "(2 bytes)" in narrow.problem[1]
    old = _call(MATRIX_TABLES["chromium"], "subgroupMatrixLoad", [storage, t.U32, t.BOOL, t.U32],
                [t.TypeOf(LEFT)])[0]
    assert old.overload.deprecated


def test_int8_matrices_load_from_32_bit_integer_arrays():
    i8_left = t.CoopMatrix(t.MatrixKind("chromium", "left"), t.I8, 32, 16)
    packed = t.Pointer("storage", t.Array(t.I32, None), "read")
    match = _call(MATRIX_TABLES["chromium"], "subgroupMatrixLoad", [packed, t.U32, t.U32],
                  [t.TypeOf(i8_left), t.Enumerant("row_major")])[0]
    assert match.problem is None


def test_storing_through_a_read_only_buffer_is_reported():
    read_only = t.Pointer("storage", t.Array(t.F32, None), "read")
    match = _call(MATRIX_TABLES["chromium"], "subgroupMatrixStore", [read_only, t.U32, RESULT, t.U32],
                  [t.Enumerant("row_major")])[0]
    assert match.problem[0] == "T008" and "read-only" in match.problem[1]


def test_naga_multiply_add_accepts_f16_inputs_with_an_f32_accumulator():
    a = t.CoopMatrix(t.MatrixKind("wgpu", "A"), t.F16, 16, 16)
    b = t.CoopMatrix(t.MatrixKind("wgpu", "B"), t.F16, 16, 16)
    c = t.CoopMatrix(t.MatrixKind("wgpu", "C"), t.F32, 16, 16)
    match = _call(MATRIX_TABLES["wgpu"], "coopMultiplyAdd", [a, b, c])[0]
    assert match.result == c and match.problem is None
    small_b = t.CoopMatrix(t.MatrixKind("wgpu", "B"), t.F16, 8, 8)
    assert _call(MATRIX_TABLES["wgpu"], "coopMultiplyAdd", [a, small_b, c])[0].problem[0] == "T006"
