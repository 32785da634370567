"""A syntax error's repair candidates are sorted out by one probe parse of their window (coop_lsp/syntax/lookahead.py):
a token the parser has no action for at the first position is not parsed, nor any candidate past a word the parser
could not shift. The findings must be those of every candidate parsed; these tests check the grammar facts the
argument rests on, the states the probe reads against the parser's own log, and the findings against the flag off."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from benchmarks import typing_cost
from benchmarks.server_matrix import documents
from coop_lsp.core.text import Position
from coop_lsp.syntax import Document, diagnostics as syntax, lookahead, parse
from coop_lsp.syntax.parser import Parsed, wgsl_language
from tests.support.parser_log import logged_state
from tests.support.trees import PUBLIC_CORPORA, public_kernels_with_junk, with_junk
from tests.support.typing_workload import repair_parses_per_version, repair_regions, typed_versions


ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "tree-sitter-wgsl" / "src"
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
JUNK = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "@@ ", "1u 2u", "l",
        "let y = max(1.0, 2.0", "a.b(", "return ", "if x ", "x = ", "f(a, b"]


# ------------------------------------------------------------ the grammar's facts (1. and 2.)
def test_the_grammar_declares_no_conflicts() -> None:
    grammar = json.loads((GRAMMAR / "grammar.json").read_text(encoding="utf-8"))
    assert grammar["conflicts"] == []


def test_every_entry_with_several_actions_is_a_repetition_s_reduce_and_its_shift_repeat() -> None:
    entries = re.findall(r"\{\.entry = \{\.count = (\d+), \.reusable = \w+\}\},([^\n]*)", (GRAMMAR / "parser.c").read_text())
    assert len(entries) > 100
    several = [actions for count, actions in entries if int(count) > 1]
    assert several  # `repeat()` makes them
    for actions in several:
        assert re.fullmatch(r"\s*REDUCE\(aux_sym_\w+, \d+, \d+, \d+\), SHIFT_REPEAT\(\d+\),\s*", actions), actions


def test_a_line_comment_is_shifted_in_every_state_without_changing_it() -> None:
    language = wgsl_language()
    comment = language.id_for_node_kind("line_comment", True)
    for state in range(1, language.parse_state_count):
        assert comment in {symbol for symbol, _ in language.lookahead_iterator(state)}, state
        assert language.next_state(state, comment) == state, state


def test_the_candidate_tokens_and_the_template_end_have_symbols() -> None:
    for token in syntax._REPAIR_TOKENS:
        assert lookahead._id(*lookahead._LEXED_AS[token]) > 0, token
    assert lookahead._id(lookahead._TEMPLATE_END, False) > 0


# ------------------------------------------------------------ the states read
def _regions(parsed: Parsed):
    for node, window, text in repair_regions(parsed):
        positions = tuple(p - window.start for p in syntax._repair_positions(node))
        next_token = syntax._next_token_start(node, len(parsed.source.data)) - window.start
        yield text, positions, next_token


def _junk_versions(rng: random.Random, text: str, count: int):
    return with_junk(rng, text, count, JUNK)


def _aheads(count: int):
    rng = random.Random(15)
    for path in EXAMPLES:
        for version in _junk_versions(rng, path.read_text(encoding="utf-8"), count):
            for text, positions, next_token in _regions(parse(version)):
                plan = lookahead.plan(text, positions[0], positions[-1], positions[1:])
                ahead = plan and lookahead.read(plan, syntax._parser().parse(plan.data), text)
                if ahead is not None:
                    yield text, positions, next_token, ahead


def test_each_state_the_probe_reads_is_the_one_the_parser_logs_or_no_candidate_there_repairs() -> None:
    """3. and 5.: where an error was handled before the position the state read may be any, but then every
    candidate there fails; both cases must occur, at the first position and at later ones."""
    logged, failing, later = 0, 0, 0
    for text, positions, next_token, ahead in _aheads(8):
        read = ([(positions[0], ahead.state)] if ahead.state is not None else []) + list(ahead.later.items())
        for at, state in read:
            assert at in positions
            later += at != positions[0]
            states = {logged_state(text[:at] + syntax._padded(token) + text[at:], at + 1)
                      for token in syntax._REPAIR_TOKENS}
            if states == {(1, state)}:
                logged += 1
                continue
            for token in syntax._REPAIR_TOKENS:
                assert not syntax._repairs(syntax._repair_parse(text, at, token)[0], next_token, token), \
                    (text, at, token, states, state)
            failing += 1
    assert logged >= 40 and failing >= 5 and later >= 8, (logged, failing, later)


def test_no_candidate_past_the_cut_repairs() -> None:
    cuts = 0
    for text, positions, next_token, ahead in _aheads(8):
        if ahead.cut is None:
            continue
        assert ahead.cut > positions[0]
        for at in positions:
            if at >= ahead.cut:
                for token in syntax._REPAIR_TOKENS:
                    assert not syntax._repairs(syntax._repair_parse(text, at, token)[0], next_token, token)
        cuts += 1
    assert cuts >= 10



def _typed_versions_of_matrix_documents(rng: random.Random):
    for text in documents(3, seed=5):
        lines = text.split("\n")
        line = rng.choice([i for i, s in enumerate(lines) if s.startswith("  ") and s.rstrip().endswith(";")])
        document = Document(text)
        for index, char in enumerate(rng.choice(["let y = max(1.0, 2.0); ", "f(g(1), 2); ", "x = a.b(c); "])):
            document.replace_range(Position(line, index), Position(line, index), char)
            yield Parsed(document.parsed.source, document.tree.copy())


def _typed_aheads():
    """The probes of typed versions (the benchmark's, and statements typed into other matrix documents), whose typed
    error's stretch often ends before the word the parse fails at."""
    for parsed in [*typed_versions(), *_typed_versions_of_matrix_documents(random.Random(45))]:
        for text, positions, next_token in _regions(parsed):
            plan = lookahead.plan(text, positions[0], positions[-1], positions[1:])
            ahead = lookahead.read(plan, syntax._parser().parse(plan.data), text)
            if ahead is not None:
                yield text, positions, next_token, ahead


def test_a_cut_past_the_last_position_bounds_every_text_that_shares_the_bytes_before_it() -> None:
    """4. for the words after the error's stretch: the cut skips none of the search's own candidates, but says that
    any text with the window's bytes up to it (the window after a broken function, `_carried_cut`) has an error
    starting before it. Checked on the window itself, on each candidate token inserted at the cut and past it, and
    on the bytes up to the cut followed by other text."""
    rng = random.Random(44)
    past = 0
    for text, positions, next_token, ahead in list(_aheads(8)) + list(_typed_aheads()):
        if ahead.cut is None or ahead.cut <= positions[-1] or ahead.cut > len(text):
            continue
        cut = ahead.cut
        texts = [text, text[:cut], text[:cut] + b"}\n", text[:cut] + b" ;;; fn f() {}\n"]
        for token in syntax._REPAIR_TOKENS:
            for at in {cut, rng.randrange(cut, len(text) + 1)}:
                texts.append(text[:at] + syntax._padded(token) + text[at:])
        for other in texts:
            tree = syntax._parser().parse(other)
            first = next(syntax._error_nodes(tree.root_node), None)
            assert first is not None and first.start_byte < cut, (text, positions, cut, other)
        past += 1
    assert past >= 10, past


# ------------------------------------------------------------ the findings
def _findings(parsed: Parsed, monkeypatch, on: bool) -> list:
    syntax._tried.clear()
    syntax._tried_bytes = 0
    with monkeypatch.context() as patch:
        patch.setattr(syntax, "REPAIR_LOOKAHEAD", on)
        return [(d.code, d.span, d.message, d.fixes) for d in syntax.syntax_diagnostics(parsed)]


def test_typed_versions_have_the_findings_of_every_candidate_parsed_incremental_and_fresh(monkeypatch) -> None:
    versions = 0
    for incremental in typed_versions():
        fresh = parse(incremental.source.data)
        for parsed in (incremental, fresh):
            assert _findings(parsed, monkeypatch, True) == _findings(parsed, monkeypatch, False)
        versions += 1
    assert versions == len(typing_cost.COMMENT) + len(typing_cost.STATEMENT)


def test_random_statements_typed_into_the_examples_have_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    rng = random.Random(37)
    compared = 0
    for path in EXAMPLES[:8]:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        line = rng.choice([i for i, s in enumerate(lines) if s.startswith("  ")] or [0])
        document = Document(text)
        typed = rng.choice(JUNK[-6:]) + " "
        for index, char in enumerate(typed):
            document.replace_range(Position(line, index), Position(line, index), char)
            parsed = Parsed(document.parsed.source, document.tree.copy())
            assert _findings(parsed, monkeypatch, True) == _findings(parsed, monkeypatch, False), (path, typed, index)
            compared += 1
    assert compared >= 40


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_junk_in_the_examples_has_the_findings_of_every_candidate_parsed(path: Path, monkeypatch) -> None:
    rng = random.Random(path.name)
    for version in _junk_versions(rng, path.read_text(encoding="utf-8"), 3):
        parsed = parse(version)
        assert _findings(parsed, monkeypatch, True) == _findings(parsed, monkeypatch, False)


@pytest.mark.skipif(not any(c.is_dir() for c in PUBLIC_CORPORA), reason="the public corpora live outside the repository")
def test_junk_in_public_kernels_has_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    cases = 0
    for path, version in public_kernels_with_junk(15, 1515, JUNK):
        parsed = parse(version)
        assert _findings(parsed, monkeypatch, True) == _findings(parsed, monkeypatch, False), (path, version)
        cases += 1
    assert cases >= 40


# ------------------------------------------------------------ the cost
def test_typing_a_statement_parses_under_half_the_candidates(counted) -> None:
    """The latency benchmark's versions, every repair's parse counted (the probe's too), each version after the
    first: the comment typed over a loop header and the statement typed below it leave errors whose candidates
    mostly fail on the inserted token, or past the next line's 'let', which the parser cannot shift there."""
    per_version = repair_parses_per_version(list(typed_versions())[len(typing_cost.COMMENT):], counted)
    later = per_version[1:]
    # Every candidate parsed but for the settled errors: 16.6 a version on average, 24 while 'max(1.0, 2.0' is
    # typed; with the probe at the first position only, 6.3 and 7, and 9 to 11 while 'let y' is typed; with the
    # later positions probed and the state at the first read whatever error came before it, 4.9, and at most 7.
    assert sum(later) / len(later) < 5.5, per_version
    assert max(later) <= 7, per_version


@pytest.mark.parametrize("guess", [True, False])
def test_probing_before_the_first_candidate_or_after_it_finds_the_same_findings(guess: bool, monkeypatch) -> None:
    """Whether the probe comes first is the file tree's guess (`_first_fails_on_its_token`); whichever it is, the
    findings are those of every candidate parsed."""
    monkeypatch.setattr(syntax, "_first_fails_on_its_token", lambda node, data: guess)
    rng = random.Random(46)
    compared = 0
    cases = [*typed_versions(), *_typed_versions_of_matrix_documents(rng)]
    for path in EXAMPLES[::3]:
        cases += [parse(version) for version in _junk_versions(rng, path.read_text(encoding="utf-8"), 2)]
    if any(c.is_dir() for c in PUBLIC_CORPORA):
        cases += [parse(version) for _, version in public_kernels_with_junk(46, 4646, JUNK, per_file=1)]
    for parsed in cases:
        assert _findings(parsed, monkeypatch, True) == _findings(parsed, monkeypatch, False)
        compared += 1
    assert compared >= 100, compared


def test_typing_a_statement_never_parses_a_first_candidate_the_probe_rejects(counted, monkeypatch) -> None:
    """The latency benchmark's versions: the first candidate, ';' before the typed error, is not parsed where the
    probe shows that it fails on its token; it was, once a version, while 'let y' and 'max(' were typed (the probe
    came only after it). There the state after the token before the error, in the file's tree, has no action for
    ';' either, and the probe comes first."""
    searches: list[list] = []  # [text, positions, whether ';' at the first position was parsed]
    repair_parse, first_repair_in = syntax._repair_parse, syntax._first_repair_in

    def search(text, positions, *args):
        searches.append([text, positions, False])
        return first_repair_in(text, positions, *args)

    def candidate(text, at, token):
        text_, positions, _ = searches[-1]
        if text is text_ and at == positions[0] and token == ";" and (text, at, token, "first error") not in syntax._tried:
            searches[-1][2] = True
        return repair_parse(text, at, token)

    monkeypatch.setattr(syntax, "_first_repair_in", search)
    monkeypatch.setattr(syntax, "_repair_parse", candidate)
    repair_parses_per_version(list(typed_versions())[len(typing_cost.COMMENT):], counted)
    rejected = 0
    for text, positions, parsed in searches:
        ahead = syntax._tried.get((text, positions, "", "probe"))
        if isinstance(ahead, lookahead.Ahead) and ahead.state is not None and not lookahead.may_shift(ahead.state, ";"):
            rejected += 1
            assert not parsed, (text[positions[0] - 40 : positions[0] + 10], positions)
    assert rejected >= 8, rejected
