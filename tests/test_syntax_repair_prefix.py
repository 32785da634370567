"""The probe of a repair search reads the words before the first unsafe character of an error's stretch, a probed
position that shows no valid state ends the search there, and a '/' before whitespace after a candidate is read like a
word (coop_lsp/syntax/lookahead.py, 7., 8. and 6.): commenting out a loop header leaves the rest of its function at
module scope, small ERROR parts ('i < 4u', 'subgroupMatrixStore<...>(...)', '}  }  }') whose later positions were
parsed with every candidate token, and its first '/' was parsed with ';', '}' and 'x' before it. The findings must be
those of every candidate parsed; these tests check each candidate skipped against its parse, the findings against the
flags off on one and two '/' typed at the start of every statement and header line, and the parses saved."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.server_matrix import documents
from benchmarks.typing_cost import _workload
from coop_lsp.core.text import Position
from coop_lsp.syntax import Document, diagnostics as syntax, lookahead, parse
from coop_lsp.syntax.parser import Parsed
from tests.support.trees import PUBLIC_CORPORA, public_kernel_sample, public_kernels_with_junk, with_junk
from tests.support.typing_workload import repair_regions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
JUNK = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "@@ ", "1u 2u", "l",
        "a < b", "f<i32>(x", "// ", "/* */", "x >= y", "#", "}\n}"]


def _clear() -> None:
    syntax._tried.clear()
    syntax._tried_bytes = 0


def _code_lines(text: str) -> list[int]:
    """The statement and header lines: those that end a statement or open a block."""
    return [i for i, line in enumerate(text.split("\n"))
            if line.strip() and not line.lstrip().startswith("//") and line.rstrip().endswith((";", "{"))]


def slashed_versions(text: str, lines: list[int] | None = None):
    """One and then two '/' typed at the start of each of `lines` (default: every statement and header line), each
    version's incremental tree as the server has it (a copy), then the slashes taken out again."""
    document = Document(text)
    for line in _code_lines(text) if lines is None else lines:
        for index in range(2):
            document.replace_range(Position(line, index), Position(line, index), "/")
            yield Parsed(document.parsed.source, document.tree.copy())
        document.replace_range(Position(line, 0), Position(line, 2), "")


def _public_texts(count: int, largest: int = 40_000) -> list[str]:
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in public_kernel_sample(23, count)]
    return [text for text in texts if len(text) <= largest]


_FLAGS = ("PREFIX_PROBES", "FAILED_POSITIONS", "NEXT_SLASH")


def _findings(parsed: Parsed, monkeypatch, on: tuple[bool, ...], deferred: bool = False) -> list:
    _clear()
    with monkeypatch.context() as patch:
        for flag, value in zip(_FLAGS, on):
            patch.setattr(lookahead, flag, value)
        return [(d.code, d.span, d.message, d.related, d.fixes)
                for d in syntax.syntax_diagnostics(parsed, deferred=[] if deferred else None)]


def _same(parsed: Parsed, monkeypatch, deferred: bool = True) -> None:
    """The findings with the flags on, and with each of them off, are those with all off."""
    slow = _findings(parsed, monkeypatch, (False, False, False), deferred)
    for on in ((True, True, True), (False, True, True), (True, False, True), (True, True, False)):
        assert _findings(parsed, monkeypatch, on, deferred) == slow, on


# ------------------------------------------------------------ each candidate skipped fails
def _skipped(parsed: Parsed):
    """Each search's candidates that 7. or 8. skip and the probe without them would not: (window bytes, position,
    next token's start, why)."""
    for node, window, text in repair_regions(parsed):
        positions = tuple(p - window.start for p in syntax._repair_positions(node))
        next_token = syntax._next_token_start(node, len(parsed.source.data)) - window.start
        probe = lookahead.plan(text, positions[0], positions[-1], positions[1:])
        ahead = lookahead.read(probe, syntax._parser().parse(probe.data), text)
        if not isinstance(ahead, lookahead.Ahead):
            continue
        stretch_unsafe = lookahead._UNSAFE.search(text, positions[0], positions[-1]) is not None
        for at in positions:
            if ahead.failed is not None and ahead.failed <= at:
                yield text, at, next_token, "failed"
            elif stretch_unsafe and ahead.cut is not None and ahead.cut <= at:
                yield text, at, next_token, "prefix cut"


def _cases():
    rng = random.Random(2323)
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        yield from slashed_versions(text)
        yield from (parse(version) for version in with_junk(rng, text, 4, JUNK))
    text, middle, _ = _workload()
    yield from slashed_versions(text, [middle, *rng.sample(_code_lines(text), 30)])
    for text in _public_texts(12):
        yield from slashed_versions(text, rng.sample(_code_lines(text), min(10, len(_code_lines(text)))))


def test_each_candidate_skipped_fails_when_parsed() -> None:
    """7. and 8. on real searches: every candidate token at each position skipped, parsed, keeps an error before the
    token after the error; both kinds occur, many times."""
    _clear()
    kinds: dict[str, int] = {}
    for parsed in _cases():
        for text, at, next_token, why in _skipped(parsed):
            for token in syntax._REPAIR_TOKENS:
                first_error, _ = syntax._repair_parse(text, at, token)
                assert not syntax._repairs(first_error, next_token, token), (text[max(0, at - 60) : at + 30], at, token, why)
            kinds[why] = kinds.get(why, 0) + 1
    assert kinds.get("failed", 0) >= 30 and kinds.get("prefix cut", 0) >= 30, kinds


def test_each_candidate_ruled_out_by_the_slash_after_it_fails_when_parsed() -> None:
    """6. for a '/' before whitespace after the candidate (the first keystroke of a line commented out): each candidate
    the probe's state shifts into a state with no action for it keeps an error before the token after the error."""
    _clear()
    ruled = 0
    for parsed in _cases():
        for node, window, text in repair_regions(parsed):
            positions = tuple(p - window.start for p in syntax._repair_positions(node))
            next_token = syntax._next_token_start(node, len(parsed.source.data)) - window.start
            probe = lookahead.plan(text, positions[0], positions[-1], positions[1:])
            ahead = lookahead.read(probe, syntax._parser().parse(probe.data), text)
            if not isinstance(ahead, lookahead.Ahead):
                continue
            for at in positions:
                state = ahead.state if at == positions[0] else ahead.later.get(at)
                found = lookahead._NEXT_TOKEN.match(text, at)
                if state is None or found is None or found.group(2) is None:
                    continue
                for token in syntax._REPAIR_TOKENS:
                    if lookahead.may_shift(state, token) and lookahead.fails_on_the_next_token(state, token, text, at):
                        first_error, _ = syntax._repair_parse(text, at, token)
                        assert not syntax._repairs(first_error, next_token, token), (text[at - 60 : at + 30], at, token)
                        ruled += 1
    assert ruled >= 40, ruled


def test_an_invalid_state_is_read_only_after_an_error_in_the_parser_s_log() -> None:
    """8.'s premise, from the parser's own log: where the probe's comment at a position shows no valid state, the
    parser had more than one stack version there or was in the error state (0), as after an error only."""
    from tests.support.parser_log import logged_state

    _clear()
    checked = 0
    for parsed in _cases():
        for node, window, text in repair_regions(parsed):
            positions = tuple(p - window.start for p in syntax._repair_positions(node))
            probe = lookahead.plan(text, positions[0], positions[-1], positions[1:])
            ahead = lookahead.read(probe, syntax._parser().parse(probe.data), text)
            if not isinstance(ahead, lookahead.Ahead) or ahead.failed is None:
                continue
            index = probe.gaps.index(ahead.failed)
            at = ahead.failed + index * len(lookahead._COMMENT) + 1  # where the probe's comment there starts
            logged = logged_state(probe.data, at)
            assert logged is None or logged[0] > 1 or logged[1] == 0, (text, ahead, logged)
            checked += 1
            if checked >= 150:
                return
    assert checked >= 40, checked


# ------------------------------------------------------------ the findings
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_slashes_at_every_statement_and_header_line_of_the_examples_have_the_findings_of_every_candidate_parsed(
        path: Path, monkeypatch) -> None:
    text = path.read_text(encoding="utf-8")
    compared = 0
    for parsed in slashed_versions(text):
        _same(parsed, monkeypatch)
        compared += 1
    assert compared == 2 * len(_code_lines(text))


def test_junk_in_the_examples_has_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    rng = random.Random(2324)
    for path in EXAMPLES:
        for version in with_junk(rng, path.read_text(encoding="utf-8"), 4, JUNK):
            _same(parse(version), monkeypatch, deferred=False)


def test_the_benchmark_s_header_and_slashes_in_matrix_documents_have_the_findings_of_every_candidate_parsed(
        monkeypatch) -> None:
    """The comment_edits benchmark's header (its versions incremental and fresh, fixes tested and deferred), and
    the slashes at lines of other matrix documents."""
    text, middle, _ = _workload()
    for incremental in slashed_versions(text, [middle]):
        for parsed in (incremental, parse(incremental.source.data)):
            for deferred in (False, True):
                _same(parsed, monkeypatch, deferred)
    rng = random.Random(2325)
    compared = 0
    for other in documents(3, seed=23):
        for parsed in slashed_versions(other, rng.sample(_code_lines(other), 12)):
            _same(parsed, monkeypatch)
            compared += 1
    assert compared == 72


@pytest.mark.skipif(not any(c.is_dir() for c in PUBLIC_CORPORA), reason="the public corpora live outside the repository")
def test_slashes_and_junk_in_public_kernels_have_the_findings_of_every_candidate_parsed(monkeypatch) -> None:
    rng = random.Random(2326)
    compared = 0
    for text in _public_texts(16, largest=12_000):
        lines = _code_lines(text)
        for parsed in slashed_versions(text, lines if len(lines) <= 8 else rng.sample(lines, 8)):
            _same(parsed, monkeypatch)
            compared += 1
    for _, version in public_kernels_with_junk(23, 2323, JUNK, per_file=1, largest=12_000):
        _same(parse(version), monkeypatch, deferred=False)
        compared += 1
    assert compared >= 100, compared


# ------------------------------------------------------------ the cost
def test_commenting_out_the_benchmark_s_loop_header_parses_a_probe_and_at_most_two_candidates_an_error(counted) -> None:
    """The comment_edits benchmark's first two keystrokes, as a fresh server has them (the repair cache empty):
    '//' leaves the rest of the function at module scope, nine ERROR parts, whose searches parsed 75 times (66
    candidates, 9 probes); 'i < 4u', 'j < 2u' and the 'subgroupMatrixStore<row_major>(...)' statement fail at their
    first word (7.), and the last part's later positions come after the error at its first '}' (8.)."""
    text, middle, _ = _workload()
    _clear()
    per_version = []
    for parsed in slashed_versions(text, [middle]):
        counted.clear()
        errors = sum(1 for _ in repair_regions(parsed))
        syntax.syntax_diagnostics(parsed, deferred=[])
        per_version.append((errors, len(counted)))
    # '/': the candidate 'x' and the probe; ';' and '}' fail on the '/' after them, and the probe comes first (6.)
    assert per_version[0] == (1, 2), per_version
    errors, parses = per_version[1]
    assert errors == 9 and parses <= 2 * errors + 1, per_version
