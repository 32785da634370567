"""Edits inside a comment, and spaces or tabs between tokens: published at once, before any check, as the
version before's diagnostics moved (server/comment_edits.py); the check that follows never finds
anything else. Edits that a check may read
(a `coop:` marker, a comment on a line with a finding, a `/*` in the making, a comment near a syntax error
or one whose edit changes the tree of a file with errors, a template discovery that reads the comment) wait
for their check as before."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from coop_lsp.server import comment_edits
from coop_lsp.server.server import create_server
from tests.support.server_documents import Recorder, edit_document, fresh_diagnostics, open_document, until

asynchronous = pytest.mark.asyncio(loop_scope="function")

ROOT = Path(__file__).resolve().parent.parent
URI = "file:///virtual/comments.wgsl"
KERNEL = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
// scales a value
fn helper(x: f32) -> f32 { return x * 2.0; }
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  /* the index */ let i = id.x;
  let bad: u32 = 1.5; // a finding's line
  out[i] = helper(f32(i));
}
"""
# Pieces typed into comments: plain words, and what some check reads in comments or what makes or
# unmakes one (those must take the check's path).
PIECES = ["a", " ", "xyz", "é", "🙂", ";", "{", ":", "<", ">", "/", "*", "*/", "/*", "//", "coop", "coop: print \"%d\", i",
          "coop: watch i", "#", "#include", "import", "{{", "${", "@if", "subgroupMatrixMultiplyAccumulate",
          "diagnostic", "TILE_K", "\n", "\r\n"]


class Session:
    """An in-process server with one open document, and which of its versions went out before a check."""

    def __init__(self, text: str) -> None:
        self.ls = create_server()
        self.recorder = Recorder(self.ls)
        self.version = 1
        open_document(self.ls, URI, text)
        self.state = None
        self.early: dict[int, list] = {}  # version -> the diagnostics published before its check

    async def start(self) -> "Session":
        await self.settled()
        self.state = self.ls.documents[URI]
        return self

    async def settled(self) -> None:
        ls, version = self.ls, self.version
        await until(lambda: any(p.version == version for p in self.recorder.of(URI)) and not ls.scheduler.busy(URI)
                    and (URI not in ls.documents or ls.documents[URI].confirming is None))

    def edit(self, start: int, end: int, text: str) -> bool:
        """Applies the edit; True when its diagnostics were published before any check of it ran."""
        self.version += 1
        checks, published = len(self.recorder.analysed), len(self.recorder.published)
        edit_document(self.ls, URI, self.version, self.state.document, start, end, text)
        sent = self.recorder.published[published:]
        early = bool(sent) and sent[-1].version == self.version and len(self.recorder.analysed) == checks
        if early:
            self.early[self.version] = sent[-1].diagnostics
        return early

    async def check(self) -> None:
        """After the version settled: the client has a fresh check's diagnostics, and a version published
        early got them in that first publication and was not published again."""
        await self.settled()
        fresh = fresh_diagnostics(self.ls, URI, self.state.document.text)
        mine = [p for p in self.recorder.of(URI) if p.version == self.version]
        assert mine[-1].diagnostics == fresh
        if self.version in self.early:
            assert self.early[self.version] == fresh and len(mine) == 1
        assert self.ls.comment_shortcut_misses == 0

    def stop(self) -> None:
        self.ls.analysis_executor.shutdown(wait=False)


def _comments(state) -> list:
    out, stack = [], [state.document.tree.root_node]
    while stack:
        node = stack.pop()
        if node.type in ("line_comment", "block_comment"):
            out.append(node)
        stack.extend(node.children)
    return out


def _char_boundary(source, offset: int) -> int:
    return source.offset(source.position(offset, "char"), "char")


@asynchronous
async def test_typing_a_comment_publishes_each_keystroke_after_the_first_two_before_any_check():
    session = await Session(KERNEL).start()
    at = KERNEL.index("  out[i]")
    typed = "// explain the store"
    early = []
    for i, character in enumerate(typed):
        early.append(session.edit(at + i, at + i, character))
        await session.check()
    # `/` and `//` change the code (a stray operator, then the rest of the line commented out).
    assert early == [False, False] + [True] * (len(typed) - 2)
    assert session.ls.comment_shortcuts == len(typed) - 2
    session.stop()


@asynchronous
async def test_deleting_and_replacing_inside_comments_is_published_at_once_and_moves_later_findings():
    session = await Session(KERNEL).start()
    before = session.recorder.of(URI)[-1].diagnostics
    assert before, "the kernel has a finding below the comments"
    at = KERNEL.index("scales") + 2
    assert session.edit(at, at + 3, "")  # "scales" -> "sc", three bytes before the finding
    await session.check()
    at = session.state.document.text.index("the index")
    assert session.edit(at, at + 3, "an")  # inside a block comment on the line before the finding
    await session.check()
    assert session.recorder.of(URI)[-1].diagnostics == before  # same lines and columns
    moved = session.state.shown.findings
    fresh = session.state.analysis.diagnostics
    assert [d.span for d in moved] == [d.span for d in session.ls.settings.apply(fresh)]
    session.stop()


@asynchronous
@pytest.mark.parametrize("typed, where", [
    ("x", "// a finding's line"),  # a finding on the line
    (" coop: print \"%d\", i", "// scales a value"),  # a T-rule reads it
    ("coop:", "// scales a value"),
    ("#", "// scales a value"),  # template and host detection read the bytes
    ("*", "/* the index */"),  # a `/*` or `*/` in the making
    ("\n", "// scales a value"),  # a line break ends the comment
])
async def test_edits_a_check_may_read_wait_for_the_check(typed, where):
    session = await Session(KERNEL).start()
    at = KERNEL.index(where) + len(where) - 3
    assert not session.edit(at, at, typed)
    await session.check()
    assert session.ls.comment_shortcuts == 0
    session.stop()


@asynchronous
async def test_indenting_and_unindenting_a_line_publishes_at_once():
    session = await Session(KERNEL).start()
    at = KERNEL.index("  out[i]")
    for i in range(4):
        assert session.edit(at, at, " ")  # indentation typed at the line start
        await session.check()
    assert session.edit(at, at + 3, "")
    await session.check()
    at = session.state.document.text.index("= helper(") + 1
    assert session.edit(at, at, "\t ")  # between two tokens inside the line
    await session.check()
    assert session.ls.comment_shortcuts == 6
    session.stop()


@asynchronous
@pytest.mark.parametrize("needle, offset, length, typed", [
    ("let i", 3, 1, ""),  # `let i` -> `leti`: tokens joined
    ("let i", 3, 0, "\n"),  # a line break: every later line moves
    ("helper(x", 3, 0, " "),  # inside a token: `hel per`
    ("bad: u32", 4, 0, " "),  # a finding's line
])
async def test_blank_edits_that_change_tokens_lines_or_findings_wait_for_the_check(needle, offset, length, typed):
    session = await Session(KERNEL).start()
    at = KERNEL.index(needle) + offset
    assert not session.edit(at, at + length, typed)
    await session.check()
    session.stop()


@asynchronous
async def test_a_coop_marker_made_by_joining_waits_for_the_check_and_coop_mat_words_do_not():
    text = KERNEL.replace("// scales a value", "// coop print \"%f\", x  (coop_mat8x8 aside)")
    session = await Session(text).start()
    at = text.index("coop_mat8x8")
    assert session.edit(at, at, "a ")  # `coop` without a colon is no marker
    await session.check()
    at = session.state.document.text.index("coop print") + 4
    assert not session.edit(at, at + 1, ":")  # `// coop: print "%f", x`: a debug print the T-rules read
    await session.check()
    session.stop()


@asynchronous
async def test_joining_a_slash_and_a_star_inside_a_block_comment_waits_for_the_check():
    text = KERNEL.replace("/* the index */", "/* a /x* b */")
    session = await Session(text).start()
    at = text.index("/x*") + 1
    assert not session.edit(at, at + 1, "")  # "/*" by joining: the comment is now unterminated
    await session.check()
    assert any(d.code == "E003" or "unterminated" in d.message for d in session.recorder.of(URI)[-1].diagnostics)
    session.stop()


@asynchronous
async def test_a_comment_a_template_discovery_may_read_waits_for_the_check():
    # Whether `a < b, c > (d)` is a template call or two comparisons is decided by a look-ahead that reads
    # over the comment (and gives up after 4,096 characters): its text is not safe to change.
    text = KERNEL.replace("  out[i] = helper(f32(i));", "  let a = 1.0; let b = 2.0; let c = 3.0; let d = 4.0;\n"
                          "  out[i] = helper(f32(i) + select(0.0, 1.0, a < b // note\n  ));")
    session = await Session(text).start()
    at = text.index("// note") + 7
    assert not session.edit(at, at, "s")
    await session.check()
    session.stop()


@asynchronous
@pytest.mark.parametrize("name, shortcut", [("missing", True), ("TILE_K", False)])
async def test_unresolved_names_block_the_shortcut_only_where_host_macro_detection_reads_the_words(name, shortcut):
    # `TILE_K` may be a host's define: whether it is depends on every word of the file, comments included
    # (`TILE_KK` in a comment would make it a typo).
    text = KERNEL.replace("return x * 2.0;", f"return x * f32({name});")
    session = await Session(text).start()
    assert any(d.code == "T001" for d in session.state.analysis.diagnostics)
    at = text.index("scales")
    assert session.edit(at, at, "TILE_KK ") is shortcut
    await session.check()
    session.stop()


@asynchronous
async def test_a_comment_before_a_finding_on_its_line_waits_for_the_check():
    # The finding's columns move with the edit: the moved diagnostics would point at the wrong place.
    text = KERNEL.replace("  let bad: u32 = 1.5; // a finding's line", "  /* note */ let bad: u32 = 1.5;")
    session = await Session(text).start()
    at = text.index("note")
    assert not session.edit(at, at, "a longer ")
    await session.check()
    session.stop()


@asynchronous
async def test_a_comment_that_template_discovery_reads_waits_for_the_check():
    # Template list discovery reads at most 4,096 characters after a `<`: with the comment that long,
    # `g(a < b, c /* ... */ > (d))` passes two comparisons; shortened, it passes `a<b, c>(d)`, a call of a
    # templated `a`, which the checker refuses. The tree has no error either way.
    padding = "x" * 4100
    text = KERNEL.replace("fn helper", "fn both(x: bool, y: bool) -> bool { return x && y; }\nfn helper").replace(
        "  out[i] = helper(f32(i));", "  let a = 1; let b = 2; let c = 3; let d = 4;\n"
        f"  _ = both(a < b, c /* {padding} */ > (d));\n  out[i] = helper(f32(i));")
    session = await Session(text).start()
    line = text.count("\n", 0, text.index(padding))
    assert not any(d.range.start.line == line for d in session.recorder.of(URI)[-1].diagnostics)
    at = text.index(padding)
    assert not session.edit(at, at + 100, "")
    await session.check()
    assert not session.state.document.tree.root_node.has_error
    assert any(d.range.start.line == line for d in session.recorder.of(URI)[-1].diagnostics)
    session.stop()


@asynchronous
async def test_in_a_file_with_errors_only_comments_away_from_the_errors_are_published_at_once(monkeypatch):
    from coop_lsp.server import server as server_module
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 0.0)
    text = KERNEL.replace("let i = id.x;", "let i = id.x")
    session = await Session(text).start()
    assert session.state.document.tree.root_node.has_error
    at = session.state.document.text.index("the index")
    assert not session.edit(at, at, "x")  # in the function with the error: its explanation re-parses it
    await session.check()
    at = session.state.document.text.index("scales")
    assert session.edit(at, at, "x")  # two declarations away from it
    await session.check()
    assert session.ls.comment_shortcuts == 1
    session.stop()


@asynchronous
async def test_in_a_file_with_errors_findings_of_a_fresh_parse_that_differed_are_not_moved(monkeypatch):
    """After a confirmation found the fresh tree different from the incremental one (injected), the
    published findings are not the document tree's: the next comment edit waits for its check."""
    from coop_lsp.ide.analysis import Analysis
    from coop_lsp.server import server as server_module
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 0.0)
    from coop_lsp.core.diagnostic import Diagnostic
    from coop_lsp.core.text import Span
    real = Analysis.against_fresh_parse
    monkeypatch.setattr(Analysis, "against_fresh_parse", lambda self, stale=None: (False, real(self, stale)[1]))
    real_of_parsed = Analysis.of_parsed.__func__

    def of_fresh(cls, parsed, *args, **kwargs):
        analysis = real_of_parsed(cls, parsed, *args, **kwargs)
        if kwargs.get("fresh") and parsed.root.has_error:
            analysis.result.diagnostics.append(Diagnostic("syntax-error", "the fresh tree's", Span(0, 1)))
        return analysis
    monkeypatch.setattr(Analysis, "of_parsed", classmethod(of_fresh))
    session = await Session(KERNEL).start()
    at = session.state.document.text.index("let i = id.x;") + len("let i = id.x")
    session.edit(at, at + 1, "")  # the `;` deleted: a provisional check, then the "different" fresh one
    await session.settled()
    assert session.recorder.of(URI)[-1].diagnostics[-1].message == "the fresh tree's"
    assert not session.state.shown.own_tree
    at = session.state.document.text.index("scales")
    assert not session.edit(at, at, "x")
    await session.settled()
    session.stop()


@asynchronous
async def test_a_shortcut_version_that_the_fresh_parse_corrects_is_counted(monkeypatch):
    """The confirmation of a version the shortcut published in a file with errors: a fresh parse that gives
    other findings (injected) is published over it and counted."""
    from coop_lsp.core.diagnostic import Diagnostic
    from coop_lsp.core.text import Span
    from coop_lsp.ide.analysis import Analysis
    from coop_lsp.server import server as server_module
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 0.0)
    text = KERNEL.replace("let i = id.x;", "let i = id.x")
    session = await Session(text).start()
    disagree = []
    real, real_of_parsed = Analysis.against_fresh_parse, Analysis.of_parsed.__func__
    monkeypatch.setattr(Analysis, "against_fresh_parse",
                        lambda self, stale=None: (False, real(self, stale)[1]) if disagree else real(self, stale))

    def of_fresh(cls, parsed, *args, **kwargs):
        analysis = real_of_parsed(cls, parsed, *args, **kwargs)
        if disagree and kwargs.get("fresh") and parsed.root.has_error:
            analysis.result.diagnostics.append(Diagnostic("syntax-error", "the fresh tree's", Span(0, 1)))
        return analysis
    monkeypatch.setattr(Analysis, "of_parsed", classmethod(of_fresh))
    at = session.state.document.text.index("scales")
    disagree.append(True)
    assert session.edit(at, at, "x")
    await session.settled()
    assert session.ls.comment_shortcut_misses == 0 and session.ls.comment_shortcut_fresh_misses == 1
    assert session.recorder.of(URI)[-1].diagnostics[-1].message == "the fresh tree's"
    session.stop()


def test_a_tree_is_the_same_after_an_edit_only_where_no_node_but_the_edited_one_changed():
    from coop_lsp.syntax import Document
    from coop_lsp.core.text import Span
    text = KERNEL.replace("let i = id.x;", "let i = id.x")
    for needle, typed, same in (("scales", "x", True), ("scales", "", True), ("fn helper", "@", False),
                                ("return x", ";", False)):
        document = Document(text)
        old = document.parsed
        at = text.index(needle)
        document.replace(Span(at, at + (0 if typed else 2)), typed)
        assert comment_edits.same_after_edit(old.tree, document.tree) is same, needle


@asynchronous
async def test_a_shortcut_that_a_check_contradicts_is_published_again_and_counted():
    """The safety net: moved diagnostics that a check does not give (a wrong finding injected into what the
    version before published) are replaced by the check's."""
    session = await Session(KERNEL).start()
    shown = session.state.shown
    injected = lsp.Diagnostic(range=lsp.Range(start=lsp.Position(line=0, character=0),
                                              end=lsp.Position(line=0, character=1)), message="not a check's")
    session.state.shown = replace(shown, forms=shown.forms + [injected])
    at = KERNEL.index("scales")
    assert session.edit(at, at, "x")
    assert session.early[session.version][-1] is injected
    await session.settled()
    assert session.ls.comment_shortcut_misses == 1
    mine = [p for p in session.recorder.of(URI) if p.version == session.version]
    assert len(mine) == 2 and mine[-1].diagnostics == fresh_diagnostics(session.ls, URI, session.state.document.text)
    session.stop()


def _corpus() -> list[Path]:
    return sorted((ROOT / "examples").rglob("*.wgsl")) + sorted((ROOT / "tests" / "spec").rglob("*.wgsl"))


def _edit_inside_a_comment(session, source, node, rng) -> bool:
    """Types or deletes a few characters inside `node`'s text, past its opening (False: no room there)."""
    low = node.start_byte + 2
    high = node.end_byte - (2 if node.type == "block_comment" else 0)
    if high < low:
        return False
    start = _char_boundary(source, rng.randint(low, high))
    end = _char_boundary(source, min(high, start + rng.choice([0, 0, 1, 2, 5])))
    session.edit(start, max(start, end), rng.choice(PIECES) if rng.random() < 0.8 else "")
    return True


def _edit_blanks(session, source, blanks, rng, typed) -> None:
    """Spaces and tabs typed into or deleted from blanks (and, now and then, a token's neighbour)."""
    start = rng.choice(blanks) + rng.choice([0, 0, 1])
    end = start + rng.choice([0, 0, 1, 2])
    end = start if end > len(source.data) or source.data[start:end].strip(b" \t") else end
    session.edit(start, end, rng.choice(typed))


@asynchronous
@pytest.mark.parametrize("path", _corpus(), ids=lambda p: str(p.relative_to(ROOT)))
async def test_random_comment_edits_give_a_fresh_checks_diagnostics(path: Path):
    rng = random.Random(path.name)
    session = await Session(path.read_text(encoding="utf-8")).start()
    state = session.state
    for _ in range(8):
        source = state.document.source
        comments = _comments(state)
        blanks = [i for i, byte in enumerate(source.data) if byte in b" \t"]
        if blanks and rng.random() < 0.25:
            _edit_blanks(session, source, blanks, rng, [" ", "\t", "  ", "", "\n  "])
            await session.check()
        elif comments and rng.random() < 0.8:
            if _edit_inside_a_comment(session, source, rng.choice(comments), rng):
                await session.check()
        else:
            # A comment typed at a line start, one character at a time.
            line = rng.randrange(source.line_count)
            at = source.line_start(line)
            for i, character in enumerate("// c" + rng.choice(["oop: w", "omment"])):
                session.edit(at + i, at + i, character)
                await session.check()
    session.stop()


def test_the_shortcut_is_taken_on_most_comment_keystrokes_of_the_corpus():
    """Not a vacuous safety net: over the examples, typing into a comment mostly publishes at once."""
    from coop_lsp.syntax import Document
    taken = tried = 0
    for path in sorted((ROOT / "examples").rglob("*.wgsl")):
        found = _line_comment_shortcuts(Document(path.read_text(encoding="utf-8")))
        taken, tried = taken + found[0], tried + found[1]
    assert tried and taken >= tried // 2, (taken, tried)


def _line_comment_shortcuts(document) -> tuple[int, int]:
    """(taken, tried): of a character typed at the end of each line comment of `document`, how many the
    shortcut would publish at once, given the document's own findings as those shown."""
    from coop_lsp.lint import lint_source
    from coop_lsp.server.comment_edits import Shown
    shown = Shown(document.parsed, 1, tuple(lint_source(document.text).diagnostics), [], None, plain=True)
    taken = tried = 0
    for node in _comments(type("S", (), {"document": document})()):
        if node.type == "line_comment":
            tried += 1
            taken += comment_edits.plan(shown, document.parsed, node.end_byte, node.end_byte, "x",
                                        None) is not None
    return taken, tried


def _broken(text: str, rng: random.Random) -> str:
    """`text` with one `;` deleted: a syntax error in one of its declarations."""
    semicolons = [i for i, c in enumerate(text) if c == ";"]
    at = rng.choice(semicolons)
    return text[:at] + text[at + 1:]


def _errored_corpus() -> list[Path]:
    return sorted((ROOT / "examples").rglob("*.wgsl")) + sorted((ROOT / "tests" / "spec").rglob("*.wgsl"))[::3]


@asynchronous
@pytest.mark.parametrize("path", _errored_corpus(), ids=lambda p: str(p.relative_to(ROOT)))
async def test_random_comment_edits_in_a_file_with_errors_end_with_a_fresh_checks_diagnostics(path: Path,
                                                                                           monkeypatch):
    """Each version, once its check and that check's confirmation by a fresh parse have run, has a fresh
    check's diagnostics; a version published at once was never contradicted by its check."""
    from coop_lsp.server import server as server_module
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 0.0)
    rng = random.Random("errored " + path.name)
    text = path.read_text(encoding="utf-8")
    if ";" not in text:
        pytest.skip("nothing to break")
    session = await Session(_broken(text, rng)).start()
    state = session.state
    for _ in range(6):
        source = state.document.source
        comments = _comments(state)
        blanks = [i for i, byte in enumerate(source.data) if byte in b" \t"]
        if comments and rng.random() < 0.7:
            if not _edit_inside_a_comment(session, source, rng.choice(comments), rng):
                continue
        elif blanks:
            _edit_blanks(session, source, blanks, rng, [" ", "\t", "  ", ""])
        else:
            continue
        await session.settled()
        mine = [p for p in session.recorder.of(URI) if p.version == session.version]
        assert mine[-1].diagnostics == fresh_diagnostics(session.ls, URI, state.document.text), (path, session.version)
        assert session.ls.comment_shortcut_misses == 0
    session.stop()


def test_the_shortcut_is_taken_on_comment_keystrokes_away_from_errors():
    """Not vacuous in files with errors either: over the examples with one `;` deleted, typing at the end
    of a line comment is taken where no error is in its declaration or the ones beside it (the examples
    hold few declarations each: 28 of 343 line comments with this seed)."""
    from coop_lsp.syntax import Document
    taken = tried = 0
    rng = random.Random(7)
    for path in sorted((ROOT / "examples").rglob("*.wgsl")):
        text = _broken(path.read_text(encoding="utf-8"), rng)
        document = Document(text)
        if not document.tree.root_node.has_error:
            continue
        found = _line_comment_shortcuts(document)
        taken, tried = taken + found[0], tried + found[1]
    assert tried and taken >= tried // 20, (taken, tried)
