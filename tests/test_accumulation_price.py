"""T050 states the price of its fix: f32 result tiles take twice the registers, and a function holding as
many tiles per subgroup as ggml's kernel (8, reported 1.76x slower with f32 accumulators on an H100) is
told to measure before it switches."""

import pytest

from coop_lsp.lint import lint_source

KERNEL = """enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f16>;
@compute @workgroup_size(32)
fn main() {
  var acc: ACC;
  for (var k = 0u; k < 64u; k += 16u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, k, 16u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k, 16u);
    TILE = subgroupMatrixMultiplyAccumulate(l, r, TILE);
  }
  subgroupMatrixStore<row_major>(&c, 0u, TILE, 16u);
}
"""


def t050(acc: str, tile: str) -> str:
    text = KERNEL.replace("ACC", acc).replace("TILE", tile)
    [finding] = [d for d in lint_source(text).diagnostics if d.code == "T050"]
    assert not [d for d in lint_source(text).diagnostics if d.severity.name == "ERROR"]
    return finding.message


def test_one_tile_has_no_register_price_named():
    message = t050("subgroup_matrix_result<f16, 16, 16>", "acc")
    assert "accumulates in f16 in a loop" in message and "registers" not in message


@pytest.mark.parametrize("acc, tile, tiles", [
    ("array<subgroup_matrix_result<f16, 16, 16>, 2>", "acc[0]", 2),
    ("array<array<subgroup_matrix_result<f16, 16, 16>, 2>, 2>", "acc[1][0]", 4),
])
def test_a_few_tiles_are_counted(acc, tile, tiles):
    message = t050(acc, tile)
    assert f"each of this function's {tiles} result tiles takes twice the registers" in message
    assert "1.76x" not in message


def test_as_many_tiles_as_ggml_quote_its_slowdown():
    message = t050("array<array<subgroup_matrix_result<f16, 16, 16>, 2>, 4>", "acc[3][1]")
    assert "8 result tiles takes twice the registers" in message
    assert "made ggml's kernel 1.76x slower in f32 on an H100" in message and "--try" in message


def _functions(tile_counts: list[int]) -> str:
    head, body = KERNEL.split("@compute")
    out = [head]
    for index, count in enumerate(tile_counts):
        out.append(f"fn part{index}() {{\n"
                   f"  var acc: array<subgroup_matrix_result<f16, 16, 16>, {count}>;\n"
                   "  for (var k = 0u; k < 64u; k += 16u) {\n"
                   "    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, k, 16u);\n"
                   "    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k, 16u);\n"
                   "    acc[0] = subgroupMatrixMultiplyAccumulate(l, r, acc[0]);\n"
                   "  }\n"
                   "}\n")
    return "".join(out) + "@compute @workgroup_size(32)\nfn main() { part0(); }\n"


def test_each_function_is_priced_by_its_own_tiles():
    text = _functions([2, 9, 3])
    prices = [d.message.split("each of this function's ")[1].split(" result")[0]
              for d in lint_source(text).diagnostics if d.code == "T050"]
    assert prices == ["2", "9", "3"]


def test_tiles_are_counted_in_one_pass_over_the_symbols(monkeypatch):
    # Counting per finding read every symbol of the module again: quadratic on f16 kernels.
    from coop_lsp.analysis import accumulation
    from coop_lsp.semantic.model import SemanticModel
    result = lint_source(_functions([2] * 40))
    reads = []
    original = SemanticModel.symbols

    monkeypatch.setattr(SemanticModel, "symbols", property(lambda model: reads.append(1) or original.fget(model)))
    findings = accumulation.accumulation_diagnostics(result.parsed.root, result.source, result.model)
    assert len(findings) == 40 and len(reads) == 1
