"""Runs of carried declarations applied together (coop_lsp/semantic/carried_runs.py) and the module's symbols made
together (module_symbols.py) leave what one at a time leaves, and what a fresh check finds.

The cases type statements and move functions in generated matrix kernels and in the examples, and type into
the typing benchmark's document, and compare every version:

- with runs and without (carried.RUNS off: carried.py's loops take each declaration), each way with its own
  reuse: findings, model, symbols, and what each keeps for the next version (the carry's entries and counts,
  the records kept and used);
- with a fresh analysis of the same text: findings, model, and the editor's answers (hover, completion,
  definition, references at identifiers around the edit; semantic tokens, inlay hints, document symbols).

Each case also asserts that runs were applied (a run of at least a few declarations), so it fails where they
are not. tests/test_carried_runs_cost.py counts what an unchanged function costs a typed character.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from benchmarks.common import matrix_heavy_kernel, matrix_library_kernel
from coop_lsp.ide import Analysis
from coop_lsp.ide.completion import completion
from coop_lsp.ide.hover import hover
from coop_lsp.ide.navigation import definition, document_symbols, references
from coop_lsp.ide.presentation import inlay_hints, semantic_tokens
from coop_lsp.lint import Reuse
from coop_lsp.semantic import carried, carried_runs
from coop_lsp.semantic.checker import check
from coop_lsp.semantic.reuse import BodyReuse
from tests.support.typing_workload import statements_typed, typed_versions
from tests.test_carried_at_once import PIECES, _kept, _moves_and_typing
from tests.test_carry import MODULE
from tests.test_lint_reuse import lookups_agree, model_facts

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["chromium/gemm_tiled.wgsl", "standard/gemm_blocked.wgsl", "plain/gemm_tiled_f32.wgsl"]


@pytest.fixture
def runs(monkeypatch) -> dict:
    """Counts the declarations the runs applied (both phases), in "declarations", and the longest run."""
    counts = {"declarations": 0, "longest": 0}

    def counted(apply):
        def wrapped(checker, view, position, *args):
            reached, index = apply(checker, view, position, *args)
            counts["declarations"] += reached - position
            counts["longest"] = max(counts["longest"], reached - position)
            return reached, index
        return wrapped

    monkeypatch.setattr(carried, "carried_run", counted(carried_runs.carried_run))
    monkeypatch.setattr(carried, "carried_checks_run", counted(carried_runs.carried_checks_run))
    return counts


def _both_ways(versions, monkeypatch) -> None:
    """Checks each version with runs and one at a time, each way with its own reuse, and compares them."""
    together, one_by_one = BodyReuse(), BodyReuse()
    for parsed in versions:
        monkeypatch.setattr(carried, "RUNS", True)
        diagnostics, model = check(parsed, together)
        monkeypatch.setattr(carried, "RUNS", False)
        expected, expected_model = check(parsed, one_by_one)
        assert diagnostics == expected, parsed.source.text
        assert model_facts(model) == model_facts(expected_model)
        assert [(s.name, s.kind, s.span, vars(s).keys()) for s in model.symbols] \
            == [(s.name, s.kind, s.span, vars(s).keys()) for s in expected_model.symbols]
        lookups_agree(model)
        assert _kept(together) == _kept(one_by_one)
    monkeypatch.setattr(carried, "RUNS", True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_moves_and_typing_in_generated_matrix_kernels_are_the_same_in_runs(seed: int, runs, monkeypatch) -> None:
    text = matrix_library_kernel(random.Random(seed), functions=10)
    _both_ways(_moves_and_typing(text, random.Random(seed), 40), monkeypatch)
    assert runs["longest"] >= 5, runs


@pytest.mark.parametrize("name", EXAMPLES)
def test_statements_typed_into_the_examples_are_the_same_in_runs(name: str, runs, monkeypatch) -> None:
    text = (ROOT / "examples" / name).read_text()
    _both_ways(statements_typed(text, random.Random(name), PIECES, 3, 0.5), monkeypatch)
    _both_ways(_moves_and_typing(text, random.Random(name), 25), monkeypatch)
    assert runs["declarations"] > 0, runs


def test_moves_and_typing_in_a_module_with_findings_in_its_headers_are_the_same_in_runs(runs, monkeypatch) -> None:
    # (findings, structs and an unresolved later constant: records that are not quiet end the runs)
    text = MODULE + "\n" + matrix_heavy_kernel(random.Random(7), functions=4)
    _both_ways(_moves_and_typing(text, random.Random(7), 40), monkeypatch)
    assert runs["declarations"] > 0, runs


def test_the_typing_benchmarks_versions_are_the_same_in_runs(runs, monkeypatch) -> None:
    _both_ways(typed_versions(), monkeypatch)
    assert runs["longest"] >= 10, runs


def _answers(analysis: Analysis, offsets: list[int]) -> tuple:
    """What the editor asks of an analysis: at each offset, and of the whole document."""
    at = [(repr(hover(analysis, o)), repr(completion(analysis, o)), repr(definition(analysis, o)),
           repr(references(analysis, o))) for o in offsets]
    return at, repr(semantic_tokens(analysis)), repr(inlay_hints(analysis)), repr(document_symbols(analysis))


def _typed_against_fresh(text: str, rng: random.Random, statements: int) -> int:
    """Types `statements` pieces one character at a time, each version analysed as the server does once the
    typing stops (its final analysis, with one reuse for all versions) and afresh (no reuse); compares them.
    The number of versions compared."""
    reuse = Reuse()
    versions = 0
    words = [m.start() for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text)]
    for parsed in statements_typed(text, rng, PIECES, statements, None):
        carried_analysis = Analysis.of_parsed(parsed, reuse=reuse)
        source = parsed.source.text
        fresh = Analysis.of(source)
        assert carried_analysis.diagnostics == fresh.diagnostics, source
        assert model_facts(carried_analysis.model) == model_facts(fresh.model), source
        # (identifiers of the first text, most of them where they were: before the typed statements)
        offsets = sorted(rng.sample(words, min(6, len(words))))
        offsets = [o for o in offsets if o < len(parsed.source.data)]
        assert _answers(carried_analysis, offsets) == _answers(fresh, offsets), source
        versions += 1
    return versions


@pytest.mark.parametrize("name", ["chromium/gemm_tiled.wgsl", "plain/gemm_tiled_f32.wgsl"])
def test_typing_into_a_real_kernel_in_runs_equals_a_fresh_analysis_with_the_editors_answers(name: str, runs) -> None:
    text = (ROOT / "examples" / name).read_text()
    assert _typed_against_fresh(text, random.Random(name), 2) >= 10
    assert runs["declarations"] > 0, runs


def test_typing_into_a_generated_matrix_kernel_in_runs_equals_a_fresh_analysis_with_the_editors_answers(runs) -> None:
    text = matrix_library_kernel(random.Random(11), functions=12)
    assert _typed_against_fresh(text, random.Random(11), 2) >= 10
    assert runs["longest"] >= 6, runs
