"""The naga oracle: finding the binary, and reading its codespan reports."""

from __future__ import annotations

import pytest

from coop_lsp.devices.naga import NagaOracle, parse_output

PARSE_ERROR = """\
Could not parse WGSL:
error: expected `;`, found "}"
  ┌─ /tmp/x/shader.wgsl:1:20
  │
1 │ fn f() { let x = 1 }
  │                    ^ expected `;`

"""

VALIDATION_ERROR = """\
error: Function [1] 'f' is invalid
  ┌─ shader.wgsl:2:1
  │
2 │ ╭   fn f() -> u32 {
3 │ │     let x: u32 = 1u;
4 │ │     let y = 2i;
5 │ │     return x
  │ │ ╭──────────^
6 │ │ │     + y;
  │ │ ╰───────^ naga::ir::Expression [2]
7 │ │   }
  │ ╰───^ naga::ir::Function [1]
  │
  = Expression [2] is invalid
  = Operation Add can't work with [0] and [1]
"""

VALIDATION_SOURCE = "fn g() {}\nfn f() -> u32 {\n  let x: u32 = 1u;\n  let y = 2i;\n  return x\n    + y;\n}\n"


def test_parse_error_position():
    [message] = parse_output(PARSE_ERROR, "fn f() { let x = 1 }\n")
    assert (message.severity, message.line, message.column) == ("error", 1, 20)
    assert message.message == 'expected `;`, found "}"'
    assert message.focus == (1, 20)


def test_validation_error_focus_is_the_expression_not_the_function():
    [message] = parse_output(VALIDATION_ERROR, VALIDATION_SOURCE)
    assert (message.line, message.column) == (2, 1)
    assert message.focus == (5, 10)
    assert "Operation Add can't work with [0] and [1]" in message.notes


def test_error_without_position():
    [message] = parse_output("error: Type [0] '' is invalid\n  = Matrix elements must always be floating-point types\n")
    assert message.line is None and message.focus == (None, None)
    assert message.notes == ("Matrix elements must always be floating-point types",)


@pytest.mark.naga
def test_real_naga_accepts_a_cooperative_matrix_kernel(naga: NagaOracle):
    result = naga.validate(
        "enable wgpu_cooperative_matrix;\n"
        "var<workgroup> tile: array<f32, 64>;\n"
        "@compute @workgroup_size(8, 8) fn main() {\n"
        "  let a = coopLoad<coop_mat8x8<f32, A>>(&tile[0], 8u);\n"
        "  let b = coopLoad<coop_mat8x8<f32, B>>(&tile[0], 8u);\n"
        "  coopStore(coopMultiplyAdd(a, b, coop_mat8x8<f32, C>()), &tile[0], 8u);\n"
        "}\n")
    assert result.accepted, result.output


@pytest.mark.naga
def test_real_naga_front_end_error(naga: NagaOracle):
    result = naga.validate("fn f() {\n  let x: u32 = undefined_name;\n}\n")
    [error] = result.errors
    assert (error.line, error.column) == (2, 16)
    assert "undefined_name" in error.message


@pytest.mark.naga
def test_real_naga_validation_error_points_at_the_expression(naga: NagaOracle):
    source = ("enable wgpu_cooperative_matrix;\n"
              "fn f() {\n"
              "\tlet a = coop_mat8x8<f32, A>();\n"
              "\tvar c = coop_mat8x8<f32, C>();\n"
              "\tc = coopMultiplyAdd(a, a, c);\n"
              "}\n")
    result = naga.validate(source)
    [error] = result.errors
    assert error.line == 2 and error.message.startswith("Function [0] 'f' is invalid")
    assert error.focus[0] == 5
    assert any("cooperative" in note for note in error.notes)


@pytest.mark.naga
def test_real_naga_rejects_enable_subgroups(naga: NagaOracle):
    [error] = naga.validate("enable subgroups;\n").errors
    assert (error.line, error.column) == (1, 8)
    assert "subgroups" in error.message
