"""A syntax error is worded by trying insertions in a fixed order until one repairs it. Once a tried insertion
leaves an error that was settled well before its insertion point (coop_lsp/syntax/settling.py), no later one
can repair, and the rest are not parsed: while a statement is typed above other errors of the same function,
that is most of the parses."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from coop_lsp.syntax import diagnostics as syntax, parse, settling
from coop_lsp.syntax.parser import Parsed
from tests.support.typing_workload import repair_parses_per_version, repair_regions, typed_versions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
JUNK = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "@@ ", "1u 2u", "l"]


# ------------------------------------------------------------ the bound
def _pieces(count: int) -> bytes:
    return b" ".join(b"a%d" % i for i in range(count))


def test_the_bound_is_past_the_pieces_and_the_next_stop_and_the_decoded_character() -> None:
    data = _pieces(settling.PIECES) + b" x;" + b" " * 20
    stop = data.index(b";")
    assert settling.bound(data, 0, len(data)) == stop + 1 + settling.DECODED


def test_too_few_pieces_or_no_stop_before_the_limit_shows_nothing() -> None:
    assert settling.bound(_pieces(settling.PIECES - 1) + b";" + b" " * 9, 0, 200) is None
    data = _pieces(settling.PIECES + 3) + b" " * 9
    assert settling.bound(data, 0, len(data)) is None
    data = _pieces(settling.PIECES) + b";   "
    assert settling.bound(data, 0, len(data) - 1) is None  # the decoded character would pass the limit


def test_comments_are_neither_pieces_nor_stops() -> None:
    # Thirteen comments are no token the parser must have read past; the ';' inside them stops nothing.
    data = b"a " + b"/* ; /* ; */ ; */ // ; x\n" * settling.PIECES + _pieces(settling.PIECES - 1) + b" ;" + b" " * 9
    stop = data.rindex(b";")
    assert settling.bound(data, 0, len(data)) == stop + 1 + settling.DECODED
    # A comment that does not end before the limit leaves the bound unknown.
    assert settling.bound(b"a /* " + _pieces(40) + b";" * 20, 0, 400) is None


def test_characters_that_start_no_token_show_nothing() -> None:
    # '$ $ $' is one error token across the whitespace: the pieces no longer count the tokens read.
    for odd in (b"$", b"#", b"?", b"`", b"\\", b'"', "\u00e9".encode()):
        data = _pieces(3) + b" " + odd + b" " + _pieces(settling.PIECES) + b";" + b" " * 9
        assert settling.bound(data, 0, len(data)) is None, odd
    # Inside a comment they are only comment.
    data = b"/* $ */ // $\n" + _pieces(settling.PIECES) + b" ;" + b" " * 9
    assert settling.bound(data, 0, len(data)) == data.index(b";") + 1 + settling.DECODED


def test_a_division_and_a_compound_operator_are_not_taken_for_more_pieces() -> None:
    # 'a/=b' may be three tokens; each whitespace-separated piece is still at least one.
    data = b"a/=b " * settling.PIECES + b";" + b" " * 9
    assert settling.bound(data, 0, len(data)) == data.index(b";") + 1 + settling.DECODED
    # A stop inside the last piece may come before a '<' whose look-ahead goes on: only one after it counts.
    data = b"a/=b " * (settling.PIECES - 1) + b"c;<d ;" + b" " * 9
    assert settling.bound(data, 0, len(data)) == data.rindex(b";") + 1 + settling.DECODED


# ------------------------------------------------------------ the claim
def _check_every_candidate(parsed: Parsed) -> int:
    """Parses every candidate of every error; after one that is settled, none may repair. How many were."""
    settled = 0
    for node, window, text in repair_regions(parsed):
        seen = False
        next_token = syntax._next_token_start(node, len(parsed.source.data)) - window.start
        for position in syntax._repair_positions(node):
            for token in syntax._REPAIR_TOKENS:
                first_error, bound = syntax._repair_parse(text, position - window.start, token)
                assert not (seen and syntax._repairs(first_error, next_token, token)), (node, position, token)
                if not seen and bound is not None:
                    seen = True
                    settled += 1
    return settled


def test_after_a_settled_candidate_no_later_one_repairs_in_the_examples() -> None:
    rng = random.Random(37)
    settled = 0
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        for _ in range(6):
            at = rng.randrange(len(text) + 1)
            first = text[:at] + rng.choice(JUNK) + text[at:]
            later = rng.randrange(len(first) + 1)
            settled += _check_every_candidate(parse(first[:later] + rng.choice(JUNK) + first[later:]))
    assert settled  # the shortcut is met in practice, not only in the typing benchmark


def test_after_a_settled_candidate_no_later_one_repairs_while_a_statement_is_typed() -> None:
    assert sum(_check_every_candidate(parsed) for parsed in typed_versions(comment_at_once=True)) >= 10


# ------------------------------------------------------------ the cost
def test_typing_below_another_error_of_the_function_parses_half_the_candidates(counted) -> None:
    """The latency benchmark's workload, every repair's parse counted. The errors that the typing leaves alone
    are explained from the repair cache after the first version, as in the server."""
    versions = list(typed_versions(comment_at_once=True))
    assert all(parsed.root.has_error for parsed in versions)
    per_version = repair_parses_per_version(versions, counted)
    later = per_version[1:]
    # Every candidate parsed, as before: 35 a version on average, 21 of them for an error that the typing, above
    # it in the same function, keeps from being repaired.
    assert sum(later) / len(later) < 20, per_version
    assert min(later) <= 5, per_version


@pytest.mark.parametrize("path", EXAMPLES[:6], ids=lambda p: p.name)
def test_the_findings_are_those_of_every_candidate_parsed(path: Path, monkeypatch) -> None:
    rng = random.Random(path.name)
    text = path.read_text(encoding="utf-8")
    for _ in range(4):
        at = rng.randrange(len(text) + 1)
        edited = text[:at] + rng.choice(JUNK) + text[at:]
        later = rng.randrange(len(edited) + 1)
        parsed = parse(edited[:later] + rng.choice(JUNK) + edited[later:])
        syntax._tried.clear()
        shortcut = [(d.code, d.span, d.message, d.fixes) for d in syntax.syntax_diagnostics(parsed)]
        syntax._tried.clear()
        with monkeypatch.context() as patch:
            patch.setattr(syntax, "REPAIR_SHORTCUT", False)
            every = [(d.code, d.span, d.message, d.fixes) for d in syntax.syntax_diagnostics(parsed)]
        assert shortcut == every
