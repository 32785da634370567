"""'@' is a token alone (coop_lsp/syntax/lookahead.py, `_ENDS_A_TOKEN`): a probe's comment after it splits nothing, so
the position between the two '@' of '@@' (the replay benchmark's counter edit, `@@ 17u`) is probed like a position after
'(' or ','. Before, every candidate there was parsed: ten parses of a 1,900-byte window per errored version. The
findings must stay those of every candidate parsed; these tests check that against the lookahead switched off, each
candidate the new probes skip against its parse, and count the parses."""

from __future__ import annotations

import random
from pathlib import Path

from benchmarks.replay_cost import _document, _edits
from coop_lsp.core.text import Span
from coop_lsp.syntax import Document, diagnostics as syntax, lookahead, parse
from coop_lsp.syntax.parser import Parsed
from tests.support.trees import with_junk
from tests.support.typing_workload import repair_regions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
AT_JUNK = ["@@ ", "@", "@ @", "@@", "a@b", "@(", "@@x ", "x@ ", "@;", "@)"]


def _clear() -> None:
    syntax._tried.clear()
    syntax._tried_bytes = 0


def _counter_versions(kernels: int = 21, edits: int = 6):
    """The counter edit's versions with the '@@' error, parsed afresh as the replay benchmark checks them."""
    text = _document(kernels)
    document = Document(text)
    for begin, end, replacement in _edits(text, "counter", edits):
        document.replace(Span(begin, end), replacement)
        if "@@" in replacement:
            yield parse(document.source.data)


def _findings(parsed: Parsed, monkeypatch, probe: bool, deferred: bool) -> list:
    _clear()
    with monkeypatch.context() as patch:
        patch.setattr(syntax, "REPAIR_LOOKAHEAD", probe)
        return [(d.code, d.span, d.message, d.related, d.fixes)
                for d in syntax.syntax_diagnostics(parsed, deferred=[] if deferred else None)]


def _at_sign_versions():
    rng = random.Random(2424)
    for path in EXAMPLES:
        yield from (parse(v) for v in with_junk(rng, path.read_text(encoding="utf-8"), 6, AT_JUNK))
    yield from _counter_versions(edits=4)
    text = _document(5)
    yield from (parse(v) for v in with_junk(rng, text, 12, AT_JUNK))


def test_at_signs_in_the_examples_and_matrix_documents_have_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    compared = 0
    for parsed in _at_sign_versions():
        for deferred in (False, True):
            assert _findings(parsed, monkeypatch, True, deferred) == _findings(parsed, monkeypatch, False, deferred), \
                parsed.source.data[:120]
        compared += 1
    assert compared >= 60, compared


def test_each_candidate_skipped_at_a_position_after_an_at_sign_fails_when_parsed() -> None:
    """The positions right after an '@' that the probe now reads: each candidate its state or the failed position rules
    out keeps an error before the token after the error when parsed; there are many."""
    _clear()
    checked = 0
    for parsed in _at_sign_versions():
        for node, window, text in repair_regions(parsed):
            positions = tuple(p - window.start for p in syntax._repair_positions(node))
            next_token = syntax._next_token_start(node, len(parsed.source.data)) - window.start
            probe = lookahead.plan(text, positions[0], positions[-1], positions[1:])
            ahead = lookahead.read(probe, syntax._parser().parse(probe.data), text)
            if not isinstance(ahead, lookahead.Ahead):
                continue
            for at in positions[1:]:
                if text[at - 1 : at] != b"@":
                    continue
                state = ahead.later.get(at)
                for token in syntax._REPAIR_TOKENS:
                    failed = ahead.failed is not None and ahead.failed <= at
                    ruled_out = state is not None and not lookahead.may_shift(state, token)
                    if failed or ruled_out:
                        first_error, _ = syntax._repair_parse(text, at, token)
                        assert not syntax._repairs(first_error, next_token, token), (text[at - 40 : at + 20], at, token)
                        checked += 1
    assert checked >= 40, checked


def test_the_counter_edit_s_error_parses_its_window_at_most_three_times(counted) -> None:
    """'@@ 17u' in the 1,062-line document: the first ';', the probe and the 'x' at the first '@'; the second '@'
    follows an error the probe shows (lookahead.py, 8.). All seven candidates there were parsed (ten parses)."""
    for parsed in _counter_versions():
        _clear()
        counted.clear()
        found = syntax.syntax_diagnostics(parsed)
        assert [d.message for d in found] == ["unexpected '@'"]
        assert len(counted) <= 3, counted
