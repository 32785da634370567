"""A repair candidate that the probe's state shifts, with no reduction first, into a state with no action for the token
after it is not parsed (coop_lsp/syntax/lookahead.py, 6.). The findings must be those of every candidate parsed; these
tests check the grammar facts the argument rests on, the state after the candidate against the parser's own log, that
each candidate ruled out fails when parsed, the findings against the flag off, and the parses saved."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from benchmarks import typing_cost
from benchmarks.server_matrix import documents
from coop_lsp.syntax import diagnostics as syntax, lookahead, parse
from coop_lsp.syntax.parser import Parsed, wgsl_language
from tests.support.parser_log import logged_state
from tests.support.trees import PUBLIC_CORPORA, public_kernels_with_junk, with_junk
from tests.support.typing_workload import repair_regions, statements_typed, typed_versions

ROOT = Path(__file__).resolve().parent.parent
PARSER_C = ROOT / "tree-sitter-wgsl" / "src" / "parser.c"
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
JUNK = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "@@ ", "1u 2u", "l",
        "let y = max(1.0, 2.0", "a.b(", "return ", "if x ", "x = ", "f(a, b", "f(x 1", "a[2 b", "g(1.0 "]
STATEMENTS = ["let y = max(1.0, 2.0); ", "var t: f32 = x[i] * 2.0; ", "f(g(1), 2);", "x = a.b(c); ",
              "let z = m[1u][2u] + 3; "]
# The candidates' tokens as parser.c names them.
_C_NAMES = {"anon_sym_SEMI": ";", "anon_sym_RBRACE": "}", "anon_sym_RPAREN": ")", "anon_sym_RBRACK": "]",
            "anon_sym_COMMA": ",", "anon_sym_GT": ">", "sym_identifier": "x"}


def _clear() -> None:
    syntax._tried.clear()
    syntax._tried_bytes = 0


# ------------------------------------------------------------ the grammar's facts
def _entries_with_several_actions() -> set[tuple[int, str]]:
    """(state, symbol name) of every parse-table entry with more than one action, read from parser.c: its large states'
    rows, and its small states' groups of symbols that share an entry."""
    source = PARSER_C.read_text(encoding="utf-8")
    several = {int(index) for index, count in re.findall(r"\[(\d+)\] = \{\.entry = \{\.count = (\d+),", source)
               if int(count) > 1}
    found: set[tuple[int, str]] = set()
    large = source[source.index("ts_parse_table[LARGE_STATE_COUNT]"):source.index("ts_small_parse_table[] =")]
    for row in re.finditer(r"\[STATE\((\d+)\)\] = \{(.*?)\n  \},", large, re.S):
        for symbol, entry in re.findall(r"\[(\w+)\] = ACTIONS\((\d+)\)", row.group(2)):
            if int(entry) in several:
                found.add((int(row.group(1)), symbol))
    states_at: dict[int, list[int]] = {}
    table_map = source[source.index("ts_small_parse_table_map[] ="):]
    for state, offset in re.findall(r"\[SMALL_STATE\((\d+)\)\] = (\d+)", table_map):
        states_at.setdefault(int(offset), []).append(int(state))
    small = source[source.index("ts_small_parse_table[] ="):source.index("ts_small_parse_table_map[] =")]
    pieces = re.split(r"\n  \[(\d+)\] = \d+,", small)
    assert len(pieces) > 100
    for offset, body in zip(pieces[1::2], pieces[2::2]):
        for kind, entry, _, symbols in re.findall(r"(ACTIONS|STATE)\((\d+)\), (\d+),((?:\s*\w+,)+)", body):
            if kind == "ACTIONS" and int(entry) in several:
                found |= {(state, symbol) for state in states_at[int(offset)] for symbol in re.findall(r"\w+", symbols)}
    return found


def test_the_candidates_entries_with_two_actions_are_the_ones_left_out() -> None:
    several = _entries_with_several_actions()
    assert len({symbol for _, symbol in several}) > 10  # `repeat()` makes them, for many lookaheads
    assert {(state, _C_NAMES[symbol]) for state, symbol in several if symbol in _C_NAMES} == lookahead._REDUCED_FIRST


def test_next_state_of_a_shift_is_its_target_and_of_anything_else_nothing() -> None:
    """What 6. reads from `next_state`: for a candidate's token it is 0 where the token has no action or a reduction
    comes first, so that a nonzero state is the shift's. Checked on every state: a token with no action gets 0."""
    language = wgsl_language()
    for token in syntax._REPAIR_TOKENS:
        symbol = lookahead._id(*lookahead._LEXED_AS[token])
        for state in range(1, language.parse_state_count):
            if not lookahead.may_shift(state, token) and token != ">":
                assert language.next_state(state, symbol) == 0, (state, token)


# ------------------------------------------------------------ the state after a candidate; the candidates ruled out
def _typed(text: str, rng: random.Random, statements: int = 1):
    return statements_typed(text, rng, STATEMENTS, statements, comment_out=None)


def _cases(rng: random.Random):
    yield from typed_versions()
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        yield from (parse(version) for version in with_junk(rng, text, 4, JUNK))
        yield from _typed(text, rng)
    for text in documents(2, seed=11):
        yield from _typed(text, rng)


def _ruled_out(parsed: Parsed):
    """Each candidate that 6. rules out: the window's bytes, its insertion point, token, the probe's state there, and
    the next token's start."""
    for node, window, text in repair_regions(parsed):
        positions = tuple(p - window.start for p in syntax._repair_positions(node))
        next_token = syntax._next_token_start(node, len(parsed.source.data)) - window.start
        ahead = syntax._probe(text, positions)
        if not isinstance(ahead, lookahead.Ahead):
            continue
        for at in positions:
            state = ahead.state if at == positions[0] else ahead.later.get(at)
            if state is None:
                continue
            for token in syntax._REPAIR_TOKENS:
                if lookahead.may_shift(state, token) and lookahead.fails_on_the_next_token(state, token, text, at):
                    yield text, at, token, state, next_token


def test_each_candidate_ruled_out_fails_and_the_state_after_it_is_the_one_the_parser_logs_or_it_failed_before() -> None:
    """Parsed, each candidate ruled out has its first error at or before the token after it, and so removes no error
    up to the next token; where the probe's state was the parser's, the parser logs the state `next_state` gives
    when it comes to that token, with one stack version."""
    _clear()
    ruled, logged = 0, 0
    language = wgsl_language()
    for parsed in _cases(random.Random(61)):
        for text, at, token, state, next_token in _ruled_out(parsed):
            edited = text[:at] + syntax._padded(token) + text[at:]
            following = at + len(syntax._padded(token)) + len(text[at:]) - len(text[at:].lstrip(b" \t\n\r"))
            first = next(syntax._error_nodes(syntax._parser().parse(edited).root_node), None)
            assert first is not None and first.start_byte <= following, (text[at - 30 : at + 30], at, token)
            assert not syntax._repairs(syntax._repair_parse(text, at, token)[0], next_token, token)
            before = logged_state(edited, at + 1)
            if before == (1, state):
                after = language.next_state(state, lookahead._id(*lookahead._LEXED_AS[token]))
                assert logged_state(edited, following) == (1, after), (text[at - 30 : at + 30], at, token)
                logged += 1
            ruled += 1
    assert ruled >= 60 and logged >= 30, (ruled, logged)


def test_only_a_word_or_a_number_after_whitespace_is_read() -> None:
    state = next(s for s in range(1, wgsl_language().parse_state_count)
                 if lookahead.may_shift(s, ")") and lookahead.fails_on_the_next_token(s, ")", b" let", 0))
    assert lookahead.fails_on_the_next_token(state, ")", b"\n\t let x", 0)
    assert lookahead.fails_on_the_next_token(state, ")", b"  1.0", 0) == lookahead.fails_on_the_next_token(
        state, ")", b"7u", 0)
    for text in (b" // c\n let", b" /* */ let", b" (let", b" _x", b" let\xc3\xa9", b"", b"   ", b" .5"):
        assert not lookahead.fails_on_the_next_token(state, ")", text, 0), text
    assert not lookahead.fails_on_the_next_token(state, ">", b" let", 0)
    for state, token in lookahead._REDUCED_FIRST:
        assert not lookahead.fails_on_the_next_token(state, token, b" let", 0)


# ------------------------------------------------------------ the findings
def _findings(parsed: Parsed, monkeypatch, on: bool, deferred: bool = False) -> list:
    _clear()
    with monkeypatch.context() as patch:
        patch.setattr(syntax, "NEXT_TOKEN_LOOKAHEAD", on)
        return [(d.code, d.span, d.message, d.related, d.fixes)
                for d in syntax.syntax_diagnostics(parsed, deferred=[] if deferred else None)]


def _same(parsed: Parsed, monkeypatch) -> None:
    for deferred in (False, True):
        assert _findings(parsed, monkeypatch, True, deferred) == _findings(parsed, monkeypatch, False, deferred)


def test_typed_versions_have_the_findings_of_every_candidate_parsed_incremental_and_fresh(monkeypatch) -> None:
    versions = 0
    for incremental in typed_versions():
        for parsed in (incremental, parse(incremental.source.data)):
            _same(parsed, monkeypatch)
        versions += 1
    assert versions == len(typing_cost.COMMENT) + len(typing_cost.STATEMENT)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_junk_and_typing_in_the_examples_have_the_findings_of_every_candidate_parsed(path: Path, monkeypatch) -> None:
    rng = random.Random(path.name + "next token")
    text = path.read_text(encoding="utf-8")
    for version in with_junk(rng, text, 4, JUNK):
        _same(parse(version), monkeypatch)
    for parsed in _typed(text, rng):
        _same(parsed, monkeypatch)


def test_typing_into_matrix_documents_has_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    rng = random.Random(62)
    compared = 0
    for text in documents(3, seed=13):
        for parsed in _typed(text, rng):
            _same(parsed, monkeypatch)
            compared += 1
    assert compared >= 40, compared


@pytest.mark.skipif(not any(c.is_dir() for c in PUBLIC_CORPORA), reason="the public corpora live outside the repository")
def test_junk_in_public_kernels_has_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    cases = 0
    for _, version in public_kernels_with_junk(19, 1919, JUNK):
        _same(parse(version), monkeypatch)
        cases += 1
    assert cases >= 40


# ------------------------------------------------------------ the cost
def test_typing_the_call_s_arguments_parses_the_probe_only(counted) -> None:
    """The latency benchmark's versions from 'let y = max(' to 'let y = max(1.0, 2.0', as the server lints them (fixes
    deferred): the typed error's candidates at its first position, ')' and 'x' before the argument typed or the next
    line's 'let', were parsed on every version (3 parses a version with the probe); the parser cannot go on after
    either, on the number or the 'let'."""
    statement = typing_cost.STATEMENT
    _clear()
    per_version = []
    for parsed in typed_versions(comment_at_once=True):
        counted.clear()
        syntax.syntax_diagnostics(parsed, deferred=[])
        per_version.append(len(counted))
    arguments = per_version[statement.index("(") : statement.index(")")]
    assert len(arguments) == 9
    assert arguments == [1] * 9, per_version
    assert sum(per_version[1:]) <= 40, per_version
