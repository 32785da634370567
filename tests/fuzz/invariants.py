"""What must hold for every input, whatever it is; each check returns the list of what broke.

- linting never raises and never reports X001 (an internal error);
- every diagnostic span and every related span lies inside the document,
  on character boundaries;
- every fix's edits lie inside the document and do not overlap, and applying
  the fix leaves no more syntax errors (S codes) than before;
- incremental re-parsing after any edit sequence gives the tree a fresh parse gives;
- a check that uses the records of the versions before it (the server's way) gives the findings a check
  of the same tree without them gives;
- the editor features (hover, completion, navigation, ...) answer any offset without raising.

The checks return strings instead of asserting so that a child process can
run thousands of them and send back only what broke (see worker.py).
"""

from __future__ import annotations

import traceback

from coop_lsp.core.diagnostic import Diagnostic
from coop_lsp.core.text import Span
from coop_lsp.lint import lint_source
from coop_lsp.lint.fixes import apply_edits

MAX_FIXES_CHECKED = 12  # per input: each fix costs one more lint


def _is_boundary(data: bytes, offset: int) -> bool:
    return offset == len(data) or offset == 0 or (data[offset] & 0xC0) != 0x80


def _span_problem(data: bytes, span: Span, what: str) -> str | None:
    if not (0 <= span.start <= span.end <= len(data)):
        return f"{what} {span.start}..{span.end} lies outside the document ({len(data)} bytes)"
    if not (_is_boundary(data, span.start) and _is_boundary(data, span.end)):
        return f"{what} {span.start}..{span.end} splits a UTF-8 character"
    return None


def syntax_error_count(diagnostics: list[Diagnostic]) -> int:
    return sum(1 for d in diagnostics if d.code.startswith("S"))


def _describe(diagnostic: Diagnostic) -> str:
    return f"{diagnostic.code} {diagnostic.span.start}..{diagnostic.span.end} {diagnostic.message!r}"


def check_lint(text: str | bytes, check_fixes: bool = True) -> list[str]:
    """Every lint invariant on one input."""
    try:
        result = lint_source(text)
    except BaseException as error:  # noqa: BLE001 - the point is to report it
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return [f"lint_source raised {type(error).__name__}: {error}\n{traceback.format_exc()}"]
    problems: list[str] = []
    data = result.source.data
    for diagnostic in result.diagnostics:
        if diagnostic.code == "X001":
            problems.append(f"internal error: {_describe(diagnostic)}")
        problem = _span_problem(data, diagnostic.span, f"{diagnostic.code} span")
        if problem:
            problems.append(f"{problem}: {_describe(diagnostic)}")
        for related in diagnostic.related:
            problem = _span_problem(data, related.span, f"{diagnostic.code} related span")
            if problem:
                problems.append(f"{problem}: {related.message!r} of {_describe(diagnostic)}")
        for fix in diagnostic.fixes:
            for edit in fix.edits:
                problem = _span_problem(data, edit.span, f"{diagnostic.code} fix edit")
                if problem:
                    problems.append(f"{problem}: fix {fix.title!r} of {_describe(diagnostic)}")
            ordered = sorted(fix.edits, key=lambda e: (e.span.start, e.span.end))
            for a, b in zip(ordered, ordered[1:]):
                if b.span.start < a.span.end:
                    problems.append(f"fix {fix.title!r} of {_describe(diagnostic)} has overlapping edits "
                                    f"{a.span.start}..{a.span.end} and {b.span.start}..{b.span.end}")
    if problems or not check_fixes:
        return problems
    before = syntax_error_count(result.diagnostics)
    checked = 0
    for diagnostic in result.diagnostics:
        for fix in diagnostic.fixes:
            if checked >= MAX_FIXES_CHECKED:
                return problems
            checked += 1
            fixed = apply_edits(data, list(fix.edits))
            try:
                after = lint_source(_as_input(fixed))
            except Exception as error:  # noqa: BLE001
                problems.append(f"linting the result of fix {fix.title!r} of {_describe(diagnostic)} raised "
                                f"{type(error).__name__}: {error}")
                continue
            count = syntax_error_count(after.diagnostics)
            if count > before:
                problems.append(
                    f"fix {fix.title!r} of {_describe(diagnostic)} raises the syntax errors from {before} to "
                    f"{count}: {[_describe(d) for d in after.diagnostics if d.code.startswith('S')][:4]}")
    return problems


def _as_input(data: bytes) -> str | bytes:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def _edited_versions(document, edits: list[tuple[int, int, str | None]]):
    """Applies (start, end, text) byte edits (snapped to character boundaries) with Document.replace, yielding
    (index, (start, end, inserted), the text before) after each; an edit whose text is None undoes the latest
    edit not yet undone, as an editor's undo does."""
    history: list[tuple[int, int, str]] = []
    for index, (start, end, inserted) in enumerate(edits):
        data = document.source.data
        if inserted is None:
            if not history:
                continue
            start, end, inserted = history.pop()
        else:
            start = _snap(data, min(start, len(data)))
            end = _snap(data, min(max(end, start), len(data)))
            history.append((start, start + len(inserted.encode("utf-8", errors="surrogatepass")),
                            data[start:end].decode("utf-8", errors="surrogatepass")))
        before = document.text
        document.replace(Span(start, end), inserted)
        yield index, (start, end, inserted), before


def check_incremental(text: str, edits: list[tuple[int, int, str | None]]) -> list[str]:
    """Each version of `edits` (see _edited_versions): the incremental tree against a fresh parse. Returns the
    first difference."""
    from coop_lsp.syntax import Document, parse

    try:
        document = Document(text)
        for index, (start, end, inserted), before in _edited_versions(document, edits):
            fresh = parse(document.text)
            if document.text != fresh.source.text:
                return [f"edit {index} ({start}..{end} -> {inserted!r}) of {before!r}: texts differ"]
            incremental_tree, fresh_tree = str(document.tree.root_node), str(fresh.tree.root_node)
            if incremental_tree != fresh_tree:
                return [f"edit {index} ({start}..{end} -> {inserted!r}) of {before!r}: incremental tree "
                        f"{incremental_tree!r} differs from the fresh tree {fresh_tree!r}"]
    except Exception as error:  # noqa: BLE001
        return [f"incremental parsing raised {type(error).__name__}: {error}\n{traceback.format_exc()}"]
    return []


def check_reuse(text: str, edits: list[tuple[int, int, str | None]]) -> list[str]:
    """Each version of `edits` (see _edited_versions) checked as the server checks it, on its incremental tree
    with the records the versions before left (the bodies, headers, uniformity summaries, syntax findings and
    carried steps of semantic/reuse.py, header_reuse.py, carry.py...), against a check of the same tree that
    has none. Which tree a version gets is check_incremental's question; this one asks only whether the records
    change a finding. Returns the first difference."""
    from coop_lsp.ide import Analysis
    from coop_lsp.lint import Reuse
    from coop_lsp.lint.engine import lint_parsed
    from coop_lsp.syntax import Document
    from coop_lsp.syntax.parser import Parsed

    try:
        document = Document(text)
        reuse = Reuse()
        Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, fresh=True)
        for index, (start, end, inserted), before in _edited_versions(document, edits):
            parsed = Parsed(document.source, document.tree.copy())
            broken = parsed.root.has_error
            got = Analysis.of_parsed(parsed, reuse=reuse, provisional=True).result.diagnostics
            want = lint_parsed(Parsed(document.source, document.tree.copy()), defer_fixes=broken).diagnostics
            if got != want:
                extra = [_describe(d) for d in got if d not in want]
                missing = [_describe(d) for d in want if d not in got]
                return [f"edit {index} ({start}..{end} -> {inserted!r}) of {before!r}: with the records of the "
                        f"versions before, the findings differ from a check without them: {extra} more, "
                        f"{missing} fewer (or in another order)"]
    except Exception as error:  # noqa: BLE001
        return [f"checking with records raised {type(error).__name__}: {error}\n{traceback.format_exc()}"]
    return []


def _snap(data: bytes, offset: int) -> int:
    while 0 < offset < len(data) and (data[offset] & 0xC0) == 0x80:
        offset -= 1
    return offset


def check_ide(text: str, offsets: list[int]) -> list[str]:
    """Every editor feature at each offset (and over the whole document) answers without raising,
    and what it answers with lies inside the document."""
    from coop_lsp.ide import actions, completion, hover, navigation, presentation
    from coop_lsp.ide.analysis import Analysis

    problems: list[str] = []
    try:
        analysis = Analysis.of(text, 1)
    except Exception as error:  # noqa: BLE001
        return [f"Analysis.of raised {type(error).__name__}: {error}\n{traceback.format_exc()}"]
    data = analysis.data
    size = len(data)

    def run(name, call):
        try:
            return call()
        except navigation.RenameError:
            return None
        except Exception as error:  # noqa: BLE001
            problems.append(f"{name} raised {type(error).__name__}: {error}\n{traceback.format_exc()}")
            return None

    def spans(name, values):
        for span in values or ():
            problem = _span_problem(data, span, f"{name} span")
            if problem:
                problems.append(problem)

    run("document_symbols", lambda: navigation.document_symbols(analysis))
    tokens = run("semantic_tokens", lambda: presentation.semantic_tokens(analysis)) or []
    spans("semantic token", [t.span for t in tokens])
    run("inlay_hints", lambda: presentation.inlay_hints(analysis))
    run("folding_ranges", lambda: presentation.folding_ranges(analysis))
    run("workspace_symbols", lambda: navigation.workspace_symbols(analysis, "a"))
    for offset in offsets:
        offset = offset % (size + 1)
        found = run(f"hover@{offset}", lambda: hover.hover(analysis, offset))
        if found is not None:
            spans(f"hover@{offset}", [found.span])
        run(f"completion@{offset}", lambda: completion.completion(analysis, offset))
        run(f"signature_help@{offset}", lambda: completion.signature_help(analysis, offset))
        spans(f"definition@{offset}", run(f"definition@{offset}", lambda: navigation.definition(analysis, offset)))
        spans(f"references@{offset}", run(f"references@{offset}",
                                          lambda: navigation.references(analysis, offset, True)))
        run(f"highlights@{offset}", lambda: navigation.highlights(analysis, offset))
        run(f"prepare_rename@{offset}", lambda: navigation.prepare_rename(analysis, offset))
        edits = run(f"rename@{offset}", lambda: navigation.rename(analysis, offset, "renamed"))
        spans(f"rename@{offset}", [e.span for e in edits or ()])
        spans(f"selection_range@{offset}", run(f"selection_range@{offset}",
                                               lambda: presentation.selection_range(analysis, offset)))
        run(f"code_actions@{offset}", lambda: actions.code_actions(analysis, Span(offset, offset)))
    return problems
