"""A repair search skips the candidates that the probe of the search before it, in the same file, shows to fail
(coop_lsp/syntax/diagnostics.py, `_carried_cut`): the window of the error after a broken function starts at that
function, whose error the search before probed. The findings must be those of every candidate parsed; these tests
check the argument's step on real pairs of searches, the findings against the flag off, and the parses saved."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks import typing_cost
from benchmarks.server_matrix import documents
from coop_lsp.syntax import diagnostics as syntax, parse
from coop_lsp.syntax.parser import Parsed
from tests.support.trees import PUBLIC_CORPORA, public_kernels_with_junk, with_junk
from tests.support.typing_workload import repair_parses_per_version, repair_regions, statements_typed, typed_versions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
JUNK = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "@@ ", "1u 2u", "l",
        "let y = max(1.0, 2.0", "a.b(", "return ", "if x ", "x = ", "f(a, b", "// ", "for (", "/* */"]
STATEMENTS = ["let y = max(1.0, 2.0); ", "var t: f32 = x[i] * 2.0; ", "if (a < b) { c = d; } ", "f(g(1), 2);",
              "for (var i = 0u; i < 4u; i++) { "]


def _clear() -> None:
    syntax._tried.clear()
    syntax._tried_bytes = 0


def _findings(parsed: Parsed, monkeypatch, on: bool, deferred: bool = False) -> list:
    _clear()
    with monkeypatch.context() as patch:
        patch.setattr(syntax, "CARRIED_CUTS", on)
        return [(d.code, d.span, d.message, d.related, d.fixes)
                for d in syntax.syntax_diagnostics(parsed, deferred=[] if deferred else None)]


def _same(parsed: Parsed, monkeypatch) -> int:
    """Compares the findings with the flag on and off; how many searches a carried cut shortened."""
    carried = []
    carried_cut = syntax._carried_cut
    with monkeypatch.context() as patch:
        patch.setattr(syntax, "_carried_cut", lambda *args: carried.append(carried_cut(*args)) or carried[-1])
        for deferred in (False, True):
            assert _findings(parsed, monkeypatch, True, deferred) == _findings(parsed, monkeypatch, False, deferred)
    return sum(cut is not None for cut in carried)


def _junk_versions(rng: random.Random, text: str, count: int):
    return with_junk(rng, text, count, JUNK)


def _typed_versions(text: str, rng: random.Random, statements: int = 2):
    """A line commented out at its start (often a loop header: the rest of its function falls to module scope), then
    statements typed one character at a time at statements' starts: the incremental trees, as the server has them."""
    return statements_typed(text, rng, STATEMENTS, statements, comment_out=1.0)


# ------------------------------------------------------------ the argument's step
def _carried(parsed: Parsed):
    """Each search whose candidates an earlier search's probe cuts: its window's bytes, positions, next token and the
    carried cut."""
    earlier = None
    data = parsed.source.data
    for node, window, text in repair_regions(parsed):
        positions = tuple(p - window.start for p in syntax._repair_positions(node))
        next_token = syntax._next_token_start(node, len(data)) - window.start
        if earlier is not None:
            cut = syntax._carried_cut(data, earlier, window.start)
            if cut is not None:
                yield text, positions, next_token, cut
        syntax._probe(text, positions)  # as a search that got past its first candidate asks it
        earlier = syntax.Searched(window.start, text, positions)


def _cases(rng: random.Random):
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        yield from (parse(version) for version in _junk_versions(rng, text, 6))
        yield from _typed_versions(text, rng)
    for text in documents(2, seed=3):
        yield from _typed_versions(text, rng, statements=1)


def test_no_candidate_past_a_carried_cut_repairs() -> None:
    """Every candidate of the later window at or after the carried cut is parsed: none removes the error."""
    _clear()
    cut_all, cut_some = 0, 0
    for parsed in _cases(random.Random(17)):
        for text, positions, next_token, cut in _carried(parsed):
            assert cut > 0
            for at in positions:
                if at >= cut:
                    for token in syntax._REPAIR_TOKENS:
                        first_error, _ = syntax._repair_parse(text, at, token)
                        assert first_error is not None and 0 <= first_error < at, (text, at, token)
                        assert not syntax._repairs(first_error, next_token, token)
            cut_all += cut <= positions[0]
            cut_some += positions[0] < cut <= positions[-1]
    assert cut_all >= 20, (cut_all, cut_some)


def test_the_cut_is_carried_only_over_whitespace_and_line_comments() -> None:
    data = b"// a\n  // b\r\n fn f() {}\n/* c */ fn g() {}"
    first = data.index(b"{}")
    earlier = syntax.Searched(0, data, (first,))
    syntax._tried[(data, (first,), "", "probe")] = syntax.lookahead.Ahead(None, first + 2)
    try:
        start = data.index(b"fn f")
        assert syntax._carried_cut(data, earlier, start) == first + 2 - start
        assert syntax._carried_cut(data, earlier, 0) == first + 2
        assert syntax._carried_cut(data, earlier, first + 1) is None  # past the first position: the probe's words
        assert syntax._carried_cut(data, earlier, data.index(b"/* c")) is None
        assert syntax._carried_cut(data, earlier, data.index(b"// b") + 1) is None  # inside a comment
    finally:
        _clear()
    assert syntax._EXTRAS_ONLY.fullmatch(b"// x /* y\n") and not syntax._EXTRAS_ONLY.fullmatch(b"// x")
    assert not syntax._EXTRAS_ONLY.fullmatch("// é\n".encode()) and not syntax._EXTRAS_ONLY.fullmatch(b"/* */")


# ------------------------------------------------------------ the findings
def test_typed_versions_have_the_findings_of_every_candidate_parsed_incremental_and_fresh(monkeypatch) -> None:
    versions, carried = 0, 0
    for incremental in typed_versions():
        for parsed in (incremental, parse(incremental.source.data)):
            carried += _same(parsed, monkeypatch)
        versions += 1
    assert versions == len(typing_cost.COMMENT) + len(typing_cost.STATEMENT)
    assert carried >= 20, carried


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_junk_and_typing_in_the_examples_have_the_findings_of_every_candidate_parsed(path: Path, monkeypatch) -> None:
    rng = random.Random(path.name + "carried")
    text = path.read_text(encoding="utf-8")
    for version in _junk_versions(rng, text, 4):
        _same(parse(version), monkeypatch)
    for parsed in _typed_versions(text, rng, statements=1):
        _same(parsed, monkeypatch)


def test_typing_into_matrix_documents_has_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    rng = random.Random(2017)
    compared, carried = 0, 0
    for text in documents(3, seed=7):
        for parsed in _typed_versions(text, rng, statements=1):
            carried += _same(parsed, monkeypatch)
            compared += 1
    assert compared >= 40 and carried >= 10, (compared, carried)


@pytest.mark.skipif(not any(c.is_dir() for c in PUBLIC_CORPORA), reason="the public corpora live outside the repository")
def test_junk_in_public_kernels_has_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    cases = 0
    for _, version in public_kernels_with_junk(17, 1717, JUNK):
        _same(parse(version), monkeypatch)
        cases += 1
    assert cases >= 40


# ------------------------------------------------------------ the cost
def test_typing_a_statement_parses_the_window_after_the_broken_function_only_while_its_probe_cannot_cut(
        counted) -> None:
    """The latency benchmark's versions (`test_typing_a_statement_parses_under_half_the_candidates`): the first
    candidate of the error after the function, 'for (' left at module scope by the comment, was parsed on every
    version (4.9 parses a version, 7 while 'max(1.0, 2.0' is typed); where the probe of the typed error cut its
    candidates it cuts these too."""
    per_version = repair_parses_per_version(list(typed_versions())[len(typing_cost.COMMENT):], counted)
    later = per_version[1:]
    assert sum(later) / len(later) < 4.5, per_version
    assert max(later) <= 6, per_version


def test_typing_a_statement_never_parses_the_window_after_the_broken_function_once_the_typed_error_is_probed(
        counted, monkeypatch) -> None:
    """The latency benchmark's versions: wherever the search for the typed error comes before the search for the
    error after its function, the latter parses nothing. Its candidates fail at the typed error, which ends at the
    next line's 'let' or earlier; while only 'l' to 'let ' was typed that word is past the typed error's stretch,
    and the probe went as far only once it read the words after the stretch (one parse a version before)."""
    searches: list[tuple[str, int]] = []
    first_repair = syntax._first_repair

    def watched(parsed, window, text, node, searched=None, *known):
        before = len(counted)
        answer = first_repair(parsed, window, text, node, searched, *known)
        previous = node.prev_sibling
        after = node.parent == parsed.root and previous is not None and \
            previous.type == "function_declaration" and previous.has_error
        searches.append(("after" if after else "typed" if node.parent != parsed.root else "other",
                         len(counted) - before))
        return answer

    monkeypatch.setattr(syntax, "_first_repair", watched)
    _clear()
    probed_first = 0
    for parsed in list(typed_versions())[len(typing_cost.COMMENT):]:
        searches.clear()
        syntax.syntax_diagnostics(parsed, deferred=[])
        kinds = [kind for kind, _ in searches]
        if "typed" in kinds and "after" in kinds[kinds.index("typed"):]:
            probed_first += 1
            assert [parses for kind, parses in searches if kind == "after"] == [0], searches
    assert probed_first >= 15, probed_first
