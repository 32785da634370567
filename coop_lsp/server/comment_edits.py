"""Edits that stay inside a comment, or only indent: the version before's diagnostics, moved, published
at once.

Most keystrokes of someone writing a comment change nothing a check reads, yet each one used to wait for
a check of the edited function before anything was published. `plan` tells such an edit from the others
before it is applied; the server then publishes the diagnostics it last sent, moved by the edit, and
still runs the usual check afterwards (it gives hovers and completion their analysis, and confirms: a
check whose diagnostics differ from the moved ones is published and counted as a miss).

The same holds for an edit that only adds or removes spaces and tabs between two tokens, leaving some
blank between them (indentation): the tokens, comments and line breaks stay, and the arguments below
apply with "the comment" read as "the blanks". A line break typed or removed (Enter) is not taken: every
later line moves, and messages name lines ("the loop at line 12", "'x' on line 40") that no range of
their finding covers.

Why the moved diagnostics are exactly a fresh check's, under the conditions `plan` tests:

- The tokens do not change. The edit lies strictly inside the body of a comment of an error-free tree:
  after a line comment's `//` and before its line break, inserting and removing no line break; inside a
  block comment's `/*` and `*/`, with neither the removed nor the inserted text holding a `/` or `*`, and
  no `/` or `*` on both sides of the edit (so no `/*` or `*/` is made, unmade or shifted by joining or
  splitting neighbours; the nesting scanner reads the comment the same way up to the edit and after it).
  The lexer reads a comment as one token and never looks into its body for another one.
- The one look-ahead that crosses comments is template list discovery (the grammar's scanner, after a
  `<` that follows an identifier), and it ends at the first `;`, `{` or `:` outside a comment. `plan`
  finds the last such token before the comment and asks that no `<` lies between it and the comment:
  no discovery runs over the edited text, so every `<` is read as before.
- So the new tree is the old one with one leaf longer or shorter, and the checks that read only nodes
  (declarations, types, uniformity, every rule) find the same things at the same nodes.
- The checks that read raw bytes are excluded by name: `coop:` print and watch comments (T-rules that
  read, and whose fixes remove, the whole line: no `coop:` on the old or the new line); template and host
  detection (no template marks in the old text nor on the new line, no template analysis, and no
  unresolved names that host-macro detection would compare with every word of the file, comments
  included: `lint.files.host_macro_names` of no words at all finds none); kernel runs' findings (keyed
  by version: no run of the document at all). Fixes and messages that quote text quote
  the text their ranges cover: no finding's range, related place or fix edit may touch the edited line.
- No line break is inserted or removed, so every line number stays, and every finding lies wholly before
  the edited line or wholly after it: its LSP form (lines and UTF-16 columns) is unchanged, and its byte
  spans move by the edit's change in length if it lies after the edit.

In a file with syntax errors the first point fails: tree-sitter's error recovery weighs how many bytes it
skips, so a longer comment may change how an error elsewhere is read. The shortcut is then taken only on
what the new version's tree shows, after the edit is applied (`same_after_edit`), and as far from the
errors as their explanations read:

- The published findings are the check of the previous version's own tree (`Shown.own_tree`: the
  incremental tree the server keeps, not a fresh parse that a confirmation found different from it).
- The new incremental tree is that tree, as tree.edit moved it, node for node: kind, byte range, field
  and MISSING flag of every node, ERROR nodes included. Then the checks that read only nodes find what
  they found before, at the moved places, as in the error-free case; the conditions above still hold for
  the raw bytes.
- The syntax checker also re-parses text of its own to word an error's message and test its fix (one
  token inserted into the module-scope declarations around the error: the one holding it and its
  neighbours). The edit must lie inside a module-scope declaration that is none of these for any error:
  it and both its neighbours are free of errors. Those re-parses then read none of the edited bytes,
  except when a fix's test falls back to the whole file; there the edited declaration is error-free and
  parses the same with the comment longer or shorter (the premise the syntax checker's own windows rest
  on: module-scope declarations do not depend on each other's syntax).

The version is still checked 50 ms later, as every version published this way, and that provisional check
is then confirmed by a fresh parse as usual (server.py's `_confirm`); each one that publishes something
else counts as a miss (`comment_shortcut_misses`, `comment_shortcut_fresh_misses`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.diagnostic import Diagnostic
from ..core.text import Span
from ..source.sniff import may_be_template
from ..syntax.parser import Parsed, same_tree

# What the lexer or SourceText may read as a line break (WGSL's and LSP's, and the scanner's blanks).
_BREAKS = ("\n", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u2029")
# The same in UTF-8. Bytes are searched for bytes with `find`, not `in`: `needle in data` first tries the
# needle as an int (a byte value), and raises and drops a TypeError, message formatted, each time.
_ENCODED_BREAKS = tuple(mark.encode() for mark in _BREAKS)
# The blanks of a gap between tokens, as plain bytes (other Unicode blanks: no shortcut).
_BLANKS = frozenset(b" \t\n\r\x0b\x0c")
# What analysis/debug_prints.py looks for on every line (naga's `coop_mat` types alone are no marker).
_MARKER = b"coop:"
# Where template list discovery stops for good, outside comments (see the module docstring).
_DISCOVERY_ENDS = (b";", b"{", b":")


@dataclass(frozen=True, slots=True)
class Shown:
    """What the client was last sent for one version of a document: the findings (in that version's byte
    spans) and their LSP forms. `moved`: published by the shortcut, not yet confirmed by a check."""

    key: object  # the Parsed the findings belong to
    version: int | None
    findings: tuple[Diagnostic, ...]
    forms: list
    settings: object  # the server's Settings they were filtered with
    plain: bool  # no template, and no unresolved name that would make host-macro detection read the words
    moved: bool = False
    # The findings are the check of `key`'s own tree (not of a fresh parse that differed from it).
    own_tree: bool = True
    # Published by the shortcut, or a check that confirmed such a publication.
    shortcut: bool = False


@dataclass(frozen=True, slots=True)
class CommentEdit:
    """An edit `plan` accepted, in the old version's bytes, with what it does to the findings."""

    start: int
    end: int
    delta: int  # the change in length
    findings: tuple[Diagnostic, ...]  # the old version's findings, in the new version's bytes
    errored: bool = False  # in a tree with errors: taken only if `same_after_edit` holds once it is applied


def plan(shown: Shown | None, parsed: Parsed, start: int, end: int, text: str, settings,
         unmarked: bool = False) -> CommentEdit | None:
    """The shortcut for replacing bytes [start, end) of `parsed` (the version `shown` was published
    for) with `text`, or None when the edit must wait for a check. `unmarked`: `parsed`'s bytes are known
    to hold no template mark (not scanned again)."""
    if shown is None or shown.key is not parsed or not shown.plain or shown.settings is not settings:
        return None
    if any(mark in text for mark in _BREAKS):
        return None
    source = parsed.source
    data = source.data
    removed = data[start:end]
    if any(removed.find(mark) >= 0 for mark in _ENCODED_BREAKS):
        return None
    root = parsed.tree.root_node
    errored = root.has_error
    if start < 1 or errored and not (shown.own_tree and _away_from_errors(root, start, end)):
        return None
    comment = root.descendant_for_byte_range(start - 1, start)
    if comment is not None and _inside(comment, data, start, end, text):
        at = comment.start_byte
    elif _in_gap(root, data, start, end, text):
        at = start
    else:
        return None
    if not _no_discovery_crosses(root, data, at):
        return None
    line = source.line_of(start)
    line_start = source.line_start(line)
    line_end = source.line_start(line + 1) if line + 1 < source.line_count else len(data)
    old_line = data[line_start:line_end]
    inserted = text.encode("utf-8", errors="surrogatepass")
    new_line = old_line[:start - line_start] + inserted + old_line[end - line_start:]
    if old_line.find(_MARKER) >= 0 or new_line.find(_MARKER) >= 0 or may_be_template(new_line) \
            or not unmarked and may_be_template(data):
        return None
    delta = len(inserted) - (end - start)
    moved = []
    for finding in shown.findings:
        if any(span.start <= line_end and span.end >= line_start for span in finding.spans()):
            return None
        moved.append(_moved(finding, end, delta))
    return CommentEdit(start, end, delta, tuple(moved), errored)


def _away_from_errors(root, start: int, end: int) -> bool:
    """Whether [start, end) lies inside one module-scope declaration that, with both its neighbours, has no
    error: outside every window the syntax checker re-parses to explain an error."""
    if root.type != "source_file":
        return False
    children = root.children
    low, high = 0, len(children)
    while low < high:  # the first child that ends after `start`
        middle = (low + high) // 2
        if children[middle].end_byte <= start:
            low = middle + 1
        else:
            high = middle
    if low == len(children):
        return False
    inside = children[low]
    if not (inside.start_byte < start and end <= inside.end_byte):
        return False
    return not any(child.has_error for child in children[max(0, low - 1):low + 2])


def same_after_edit(old, new) -> bool:
    """Whether `new` (the incremental parse) is `old` (the tree it was parsed from, which tree.edit has moved
    by the edit) node for node, the subtrees the parse reused not walked again."""
    return bool(same_tree(old, new, reused=True))


def _inside(comment, data: bytes, start: int, end: int, text: str) -> bool:
    """Whether [start, end) lies in the body of `comment` and replacing it with `text` keeps the comment
    one comment of the same extent around the edit."""
    if comment.type == "line_comment":
        return comment.start_byte + 2 <= start and end <= comment.end_byte
    if comment.type != "block_comment":
        return False
    if not (comment.start_byte + 2 <= start and end <= comment.end_byte - 2):
        return False
    if any(c in text for c in "/*") or data.find(b"/", start, end) >= 0 or data.find(b"*", start, end) >= 0:
        return False
    # The neighbours of the edit, adjacent before it or after it: never a `/` and a `*` pair in the making.
    return not (data[start - 1:start] in (b"/", b"*") and data[end:end + 1] in (b"/", b"*"))


def _in_gap(root, data: bytes, start: int, end: int, text: str) -> bool:
    """Whether the edit only adds or removes spaces and tabs in the blanks between two tokens, leaving some:
    the tokens, the comments and the line breaks stay as they are."""
    if any(c not in " \t" for c in text) or data[start:end].strip(b" \t"):
        return False
    a, b = start, end
    while a > 0 and data[a - 1] in _BLANKS:
        a -= 1
    while b < len(data) and data[b] in _BLANKS:
        b += 1
    if a == b or (b - a) - (end - start) + len(text) == 0:
        return False  # it would split a token, or join two
    if data[start - 1:start] == b"\r" and data[end:end + 1] == b"\n":
        return False  # between the two bytes of one line break, or making "\r" and "\n" one
    if a > 0:
        before = root.descendant_for_byte_range(a - 1, a)
        if before is None or before.end_byte != a or (before.type == "line_comment" and start == a):
            return False  # inside a token or a comment, or spaces a line comment would take in
    if b < len(data):
        after = root.descendant_for_byte_range(b, b + 1)
        if after is None or after.start_byte != b:
            return False
    return True


def _no_discovery_crosses(root, data: bytes, at: int) -> bool:
    """Whether no template list discovery can read the comment starting at `at`: a `;`, `{` or `:` token
    lies before it with no `<` in between."""
    stop = at
    while True:
        found = max(data.rfind(mark, 0, stop) for mark in _DISCOVERY_ENDS)
        if found < 0:
            return data.find(b"<", 0, at) < 0
        if data.find(b"<", found, at) >= 0:
            return False
        token = root.descendant_for_byte_range(found, found + 1)
        if token is not None and token.type in (";", "{", ":") and token.start_byte == found:
            return True
        stop = found  # inside a comment: look further back


def _moved(finding: Diagnostic, at: int, delta: int) -> Diagnostic:
    """`finding` in the edited text: spans from `at` on (none crosses the edited line) move by `delta`."""
    if not delta:
        return finding

    def move(span: Span) -> Span:
        return Span(span.start + delta, span.end + delta) if span.start >= at else span

    return finding.mapped(move)

