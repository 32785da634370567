"""The run description (<kernel>.run.toml): parsing, and an error naming the key for each mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.runner.description import RunDescriptionError, load_run_description, parse_run_description

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

GOOD = """
dispatch = ["N / 32", "cdiv(M, 32)", 1]
[sizes]
M = 64
N = 64
K = "M / 2"
[constants]
M = "M"
[[binding]]
binding = 0
type = "f16"
size = "M * K"
fill = "random"
seed = 3
range = [0, 2]
[[binding]]
binding = 1
type = "i8"
size = 16
fill = "constant"
value = 3
[check]
kind = "gemm"
layout_b = "col"
atol = 0.5
"""


def test_parses_a_full_description():
    d = parse_run_description(GOOD)
    assert d.dispatch == (2, 2, 1)
    assert d.sizes == {"M": 64, "N": 64, "K": 32}
    assert d.constants == {"M": 64}
    assert [(b.binding, b.type, b.size, b.fill) for b in d.bindings] == [(0, "f16", 2048, "random"),
                                                                         (1, "i8", 16, "constant")]
    assert d.bindings[0].range == (0, 2) and d.bindings[0].seed == 3
    assert (d.check.kind, d.check.m, d.check.n, d.check.k, d.check.layout_b) == ("gemm", 64, 64, 32, "col")
    assert d.flops == 2 * 64 * 64 * 32


def test_every_example_description_parses():
    paths = sorted((EXAMPLES / "runs").glob("*.run.toml"))
    assert paths
    for path in paths:
        d = load_run_description(path)
        assert d.bindings and d.check.kind in ("gemm", "expression")


def _replace(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


@pytest.mark.parametrize("text, message", [
    ("dispatch = [", "not valid TOML"),
    (_replace('dispatch = ["N / 32", "cdiv(M, 32)", 1]', ""), "dispatch: missing"),
    (_replace('"N / 32"', '"N / 3"'), "dispatch[0]: 64 / 3 is not whole"),
    (_replace('"N / 32"', '"Q"'), "dispatch[0]: unknown name 'Q' (known: M, N, K)"),
    (_replace('"N / 32"', '"__import__(1)"'), "dispatch[0]: only numbers"),
    (_replace('"N / 32"', "0"), "dispatch[0]: must be at least 1"),
    (_replace('type = "f16"', 'type = "bf16"'), "binding[0].type: 'bf16' is not one of"),
    (_replace('size = "M * K"', 'size = "M * X"'), "binding[0].size: unknown name 'X'"),
    (_replace('size = 16', 'size = 15'), "binding[1].size: i8 elements are packed 4 per 32-bit word"),
    (_replace('fill = "random"', 'fill = "noise"'), "binding[0].fill: 'noise' is not one of"),
    (_replace('value = 3', ''), "binding[1].value: missing"),
    (_replace('range = [0, 2]', 'range = [2, 0]'), "binding[0].range: expected [low, high]"),
    (_replace('seed = 3', 'sed = 3'), "binding[0].sed: unknown key (did you mean 'seed'?)"),
    (_replace('binding = 1\n', 'binding = 0\n'), "binding[1]: group 0 binding 0 is already described by binding[0]"),
    (_replace('kind = "gemm"', 'kind = "conv"'), "check.kind: 'conv' is not one of"),
    (_replace('layout_b = "col"', 'layout_b = "diagonal"'), "check.layout_b: 'diagonal' is not row or col"),
    (_replace('layout_b = "col"', 'expected = "a"'), "check.expected: not used by check kind 'gemm'"),
    (_replace('[check]', '[timing]\nwarmup = -1\n[check]'), "timing.warmup: expected a number >= 0"),
    (_replace('[check]', '[device]\nrobustness = "off"\n[check]'), "device.robustness: expected true or false"),
    (_replace('M = 64', 'M = 64\nN2 = "1 / 0"'), "sizes.N2: division by zero"),
    ("dispatch = [1]\nentry = 'main'", "entry: unknown key"),
])
def test_mistakes_name_their_key(text, message):
    with pytest.raises(RunDescriptionError) as info:
        parse_run_description(text, Path("k.run.toml"))
    assert str(info.value).startswith("k.run.toml: ")
    assert message in str(info.value)


def test_gemm_needs_its_sizes():
    with pytest.raises(RunDescriptionError, match="check.M: missing"):
        parse_run_description('dispatch = [1]\n[check]\nkind = "gemm"\nN = 4\nK = 4\n')


def test_expression_check_must_parse():
    with pytest.raises(RunDescriptionError, match="check.expected: not a Python expression"):
        parse_run_description('dispatch = [1]\n[check]\nkind = "expression"\noutput = "c"\nexpected = "a +"\n')


def test_npy_files_only_inside_the_workspace(tmp_path):
    inside = tmp_path / "work"
    inside.mkdir()
    outside = tmp_path / "elsewhere.npy"
    outside.write_bytes(b"")
    text = 'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\nfill = "file"\nfile = "{}"\n'
    with pytest.raises(RunDescriptionError, match=r"binding\[0\].file: '../elsewhere.npy' leaves the workspace"):
        parse_run_description(text.format("../elsewhere.npy"), inside / "k.run.toml", workspace=inside)
    with pytest.raises(RunDescriptionError, match="binding\\[0\\].file: 'missing.npy' does not exist"):
        parse_run_description(text.format("missing.npy"), inside / "k.run.toml", workspace=inside)
    (inside / "data.txt").write_text("1")
    with pytest.raises(RunDescriptionError, match="only .npy files"):
        parse_run_description(text.format("data.txt"), inside / "k.run.toml", workspace=inside)
