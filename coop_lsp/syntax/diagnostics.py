"""Syntax diagnostics: what the parser could not read, said the way a person would.

tree-sitter recovers from errors by inserting MISSING tokens or wrapping what
it could not use in ERROR nodes. Neither says what is wrong, so for each error
we try the repairs a person would make (insert one token) and, when one
re-parses cleanly, report the token that was missing. Otherwise the message
names the token the parser did not expect.
"""

from __future__ import annotations

import difflib
import functools
import re
import threading
from dataclasses import dataclass, replace
from collections.abc import Iterator

import tree_sitter as ts

from ..core.diagnostic import MAX_PER_CODE, Diagnostic, Edit, Fix, Related, Severity
from ..core.text import SourceText, Span
from . import lookahead, rules, settling
from .keywords import KEYWORDS, RESERVED_WORDS
from .parser import Parsed, wgsl_language
from .placed import Placed
from .reuse import DeclarationReuse
from .tokens import describe_node, describe_token, excerpt
from .nodes import FIELD_LEFT, FIELD_NAME, FIELD_OPERATOR, FIELD_RIGHT, KIND_NAMES

# Each repair attempt is an incremental re-parse; bounding them keeps a file
# of garbage from costing seconds. Later errors get the plain message.
MAX_REPAIRED_ERRORS = 12
MAX_SYNTAX_ERRORS = 100
MAX_REPAIR_WINDOW = 256 * 1024
# When the parser could use nothing (the whole tree is one ERROR), the window is the file, and each
# of the 21 repairs re-parses all of it: 250 ms per keystroke on 1,000 lines, 1.5 s on 5,000, while
# typing an unclosed call in a large kernel. Tried on edits of the examples and of generated kernels,
# no repair ever explained such an error, so beyond this size the plain message is given at once.
MAX_FILE_REPAIR_WINDOW = 8 * 1024

# Tokens a person most often forgets, in the order they are tried.
_REPAIR_TOKENS = (";", "}", ")", "]", ",", ">", "x")


def syntax_diagnostics(parsed: Parsed, explain: bool = True, reuse: DeclarationReuse | None = None,
                       deferred: list[DeferredFix] | None = None) -> list[Diagnostic]:
    """Every syntax problem; `explain=False` skips the repairs that word messages and check fixes.

    With `reuse`, the findings in well-formed module-scope declarations that
    are unchanged since its last use are taken from it instead of walking them.
    With `deferred`, a missing token's finding comes without the test of its fix (two re-parses and two
    counts of the declarations around it, a third of what a keystroke in broken code costs): the finding
    is given without fixes and its insertion is added to `deferred`, for `fix_of` to test once someone
    asks for the fix. Everything else is as without it.
    """
    source = parsed.source
    diagnostics: list[Diagnostic] = []
    if source.decode_error is not None:
        diagnostics.append(Diagnostic(
            code=rules.INVALID_ENCODING.code,
            message=f"the file is not valid UTF-8 (first invalid byte at offset {source.decode_error}); "
            "invalid bytes are read as U+FFFD",
            span=Span(0, 0),
            severity=Severity.ERROR,
        ))
    # One list of the module-scope parts for both walks: each list makes a Node of every part (a tenth of the
    # declarations' work on a typed version of 1,000 lines).
    parts = parsed.root.children
    diagnostics.extend(_parse_errors(parsed, explain, reuse, deferred, parts))
    diagnostics.extend(_all_declaration_findings(parsed, reuse, record=True, parts=parts))
    diagnostics.sort(key=lambda d: d.sort_key)
    return diagnostics


def _finding_total(parsed: Parsed, reuse: DeclarationReuse | None = None) -> int:
    """`len(syntax_diagnostics(parsed, False, reuse))` without wording the parse errors: the fixes' tests
    compare counts only, and `_parse_errors` gives exactly one diagnostic per error node it visits, so
    wording them (finding the opener, the statement before, the field) and sorting were wasted. The
    declarations are checked as there, in the same order, so `reuse` sees the same calls."""
    count = 0 if parsed.source.decode_error is None else 1
    parts = parsed.root.children
    for index, _ in enumerate(_error_nodes(parsed.root, parts)):
        if index > MAX_SYNTAX_ERRORS:
            break
        count += 1
    return count + len(_all_declaration_findings(parsed, reuse, record=False, parts=parts))


# Whether a well-formed part that lies where the last version had it, in text the edit did not touch, takes that
# part's findings (placed.py); off, it is looked up by its text, which this must always agree with
# (tests/test_syntax_placed.py).
BY_PLACE = True


@functools.cache
def _construct_kinds() -> frozenset[int]:
    """The kinds whose findings do not depend on whether the module has an error (`_declaration_findings`' key)."""
    return frozenset(kind for kind, name in KIND_NAMES.items() if name.endswith(("_declaration", "_statement")))


def _all_declaration_findings(parsed: Parsed, reuse: DeclarationReuse | None, record: bool,
                              parts: list[ts.Node] | None = None) -> list[Diagnostic]:
    """`_declaration_findings` of every part of the module, in order. With `reuse`, a well-formed part whose kind and
    text the latest version linted had at its place, or as much further as the text grew, takes that part's findings
    (placed.py) without copying or hashing its text; `record`: this version's are kept by place for the next (never
    for a text made to test a fix, which no later version continues). `parts`: the root's children, where the
    caller has them."""
    if parts is None:
        parts = parsed.root.children
    if reuse is None or not BY_PLACE:
        return [d for part in parts for d in _declaration_findings(parsed, part, reuse)]
    data = parsed.source.data
    size = len(data)
    before = reuse.placed()
    known = before.parts.get if before is not None else {}.get
    growth = size - before.size if before is not None else 0
    module_error = parsed.root.has_error
    constructs = _construct_kinds()
    placed: dict = {}
    out: list[Diagnostic] = []
    after_edit = False
    broken: list[ts.Node] = []
    for part in parts:
        if part.has_error:
            broken.append(part)
            continue
        kind, (start, end) = part.kind_id, part.byte_range
        if end >= size:  # a part that ends the file may end in an unterminated comment: never placed
            out.extend(_declaration_findings(parsed, part, reuse))
            continue
        key = (kind, start, end)
        # Past the edit, parts lie `growth` further: the first one found there sends the rest to look there first.
        moved = growth if after_edit else 0
        entry = known((kind, start - moved, end - moved))
        if entry is None or not data.startswith(entry[0], start):
            moved = 0 if moved else growth
            entry = known((kind, start - moved, end - moved)) if growth else None
            if entry is not None and not data.startswith(entry[0], start):
                entry = None
        if entry is not None and (entry[2] is None or entry[2] == module_error):
            after_edit = after_edit or moved != 0
            found = entry if not moved or not entry[1] else \
                (entry[0], [d.shifted(moved) for d in entry[1]], entry[2])
        else:
            found = data[start:end], _declaration_findings(parsed, part, reuse), \
                None if kind in constructs else module_error
        placed[key] = found
        out.extend(found[1])
    if broken:
        out.extend(_broken_parts_findings(parsed, broken, reuse))
    if record:
        reuse.place(Placed(size, placed))
    return out


def _broken_parts_findings(parsed: Parsed, broken: list[ts.Node], reuse: DeclarationReuse) -> list[Diagnostic]:
    """`_declaration_findings` of each module-scope part with an error, walked together: while a statement is typed
    into a function, its rest falls to module scope as about ten small ERROR parts, and each walk of its own cost more
    in setting up its buckets and checks than in its few nodes. The findings are each part's, since every check's
    finding belongs to one node (`_findings_by_cells`); only `_mixed_operators` keeps the first MAX_PER_CODE + 1 of
    those it is given, so where the parts together may have more, each is walked alone. The order differs from the
    parts' one after the other only between findings of different parts, whose ranges differ, and
    `syntax_diagnostics` sorts by range."""
    together: list[ts.Node] = []
    alone: list[ts.Node] = []  # as `_declaration_findings` takes them: a leaf without watched nodes, or a large part
    for part in broken:
        fits = FINDINGS_BY_CELLS and (part.child_count or part.type in _WATCHED) \
            and part.end_byte - part.start_byte <= QUERY_MAX_BYTES
        (together if fits else alone).append(part)
    found = _findings_by_cells(parsed, None, reuse, parts=together) if len(together) > 1 else None
    if found is None:
        return [d for part in broken for d in _declaration_findings(parsed, part, reuse)]
    return found + [d for part in alone for d in _declaration_findings(parsed, part, reuse)]


def _declaration_findings(parsed: Parsed, part: ts.Node, reuse: DeclarationReuse | None) -> list[Diagnostic]:
    """The findings of the checks below in one child of the module.

    Each check looks only inside the declaration it is given, except for
    comments that run to the end of the file and for words in broken
    constructs; so a declaration without errors that does not end the file
    has the same findings wherever its text appears. A word's construct is the
    nearest declaration or statement around it, and in a part that is neither
    (a directive) the module: there whether the module has an error joins the key.
    """
    if not part.child_count and part.type not in _WATCHED:
        return []  # every check looks only at nodes of the watched types, and this part has none: a line comment
    key = None
    if reuse is not None and not part.has_error:
        data = parsed.source.data
        # Each read of a node's field is a call, the type's a new string: each is read once.
        kind, start, end = part.type, part.start_byte, part.end_byte
        if end < len(data):
            text = data[start:end]
            # `_in_broken_construct` stops at the part when it is a declaration or statement, else at the module.
            key = (kind, text) if kind.endswith(("_declaration", "_statement")) \
                else (kind, text, parsed.root.has_error)
            found = reuse.get(key)
            if found is not None:
                reuse.keep(key, found)
                was, diagnostics = found
                return [d.shifted(start - was) for d in diagnostics] if diagnostics else []
    # A part with an error is new on every version while one of its statements is typed, and so is a function whose
    # text changed; on a document's first version every part is new, and the query finds all at half the walk's cost.
    if reuse is not None and FINDINGS_BY_CELLS and part.end_byte - part.start_byte <= QUERY_MAX_BYTES \
            and (part.has_error or reuse.kept_before()):
        found = _findings_by_cells(parsed, part, reuse)
        if found is not None:
            if key is not None:
                reuse.keep(key, (part.start_byte, found))
            return found
    return _checked(parsed, _nodes_by_type(part), key, part, reuse)


def _checked(parsed: Parsed, nodes: dict[str, list[ts.Node]], key, part: ts.Node,
             reuse: DeclarationReuse | None) -> list[Diagnostic]:
    diagnostics = (_unterminated_comments(parsed, nodes) + _mixed_operators(parsed, nodes)
                   + _misplaced_statements(parsed, nodes) + _reserved_names(parsed, nodes)
                   + _unknown_attributes(parsed, nodes))
    if key is not None:
        reuse.keep(key, (part.start_byte, diagnostics))
    return diagnostics


# Whether the well-formed statements and declarations of a new part take their findings from `reuse` by their text
# (`_findings_by_cells`); off, the whole part is walked, which this must always agree with
# (tests/test_syntax_cells.py).
FINDINGS_BY_CELLS = True


@functools.cache
def _cell_kinds() -> frozenset[int]:
    """The kinds of the nodes whose findings depend on their text alone once they are well-formed
    (`_findings_by_cells`): statements and declarations, but those a check places by their parent (a 'continuing', a
    'break if', a function or struct, which `_misplaced_statements` finds misplaced by what is around them) and a
    block, the one kind whose children those may be (tree-sitter-wgsl/src/node-types.json): the check of a 'continuing'
    or 'break if' reads its block's parent."""
    placed = {"continuing_statement", "break_if_statement", "function_declaration", "struct_declaration",
              "compound_statement"}
    return frozenset(kind for kind, name in KIND_NAMES.items()
                     if name.endswith(("_statement", "_declaration")) and name not in placed)


_MAX_CELL_DEPTH = 32  # cells found inside new cells, at most this deep (one Python call each)


def _findings_by_cells(parsed: Parsed, part: ts.Node | None, reuse: DeclarationReuse,
                       depth: int = 0, parts: list[ts.Node] | None = None) -> list[Diagnostic] | None:
    """`_declaration_findings` of a new part, whose well-formed statements and declarations (cells) are not walked
    again while they stay: while a statement is typed into a function, the function is broken on every version, and all
    of it but the typed statement's surroundings is the same text.

    A cell's findings are those of its own nodes, which are found as in any part (`_declaration_findings`' argument: a
    well-formed statement or declaration has the same findings wherever its text appears, unless it ends the file),
    except where a check reads what is around a node: `_in_broken_construct` stops at the cell or below it, since the
    cell is a statement or declaration; a 'continuing', 'break if', function or struct is never a cell (its parent
    decides), nor a block (the parent of its 'continuing' or 'break if' decides, `_cell_kinds`), so each of those
    inside a cell has its block and the block's parent inside it; and a cell with a misplaced statement inside is
    walked with the rest, since the message names the enclosing function. Each check's finding belongs to one node, so
    the part's findings are those of the rest and of the cells together; `_mixed_operators` keeps only the first
    MAX_PER_CODE + 1, so where there may be more, None: the caller walks the whole part. The order differs from the
    whole walk's only between findings whose ranges or codes differ, which `syntax_diagnostics` sorts by both. The same
    holds for a well-formed `part` (a new cell)."""
    data = parsed.source.data
    size = len(data)
    found: dict[str, list[ts.Node]] = {kind: [] for kind in _WATCHED}
    bucket_of = {kind: found[name] for kind, name in _watched_kinds().items()}.get
    cell_kinds = _cell_kinds()
    from_cells: list[Diagnostic] = []
    # `parts`: broken parts walked together in place of `part` (`_broken_parts_findings`); none is a cell.
    stack = [part] if parts is None else parts[::-1]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        kind = node.kind_id
        if kind in cell_kinds and node is not part and not node.has_error:
            start, end = node.start_byte, node.end_byte
            if end < size:
                key = ("cell", kind, data[start:end])
                known = reuse.get(key)
                if known is None:
                    # A new cell (the typed statement's loop once it parses) is found by cells too, those inside it
                    # that stay being kept; nested too deep, by the walk.
                    diagnostics = _findings_by_cells(parsed, node, reuse, depth + 1) \
                        if depth < _MAX_CELL_DEPTH else None
                    if diagnostics is None:
                        diagnostics = _checked(parsed, _nodes_by_type(node), None, node, None)
                    if not any(d.code == rules.MISPLACED_STATEMENT.code for d in diagnostics):
                        known = (start, diagnostics)
                if known is not None:
                    reuse.keep(key, known)
                    was, diagnostics = known
                    if diagnostics:
                        from_cells.extend(d.shifted(start - was) for d in diagnostics)
                    continue
        bucket = bucket_of(kind)
        if bucket is not None:
            bucket.append(node)
        push(node.named_children)
    diagnostics = _checked(parsed, found, None, part, None) + from_cells
    mixed = rules.MIXED_OPERATORS.code
    if sum(d.code == mixed for d in diagnostics) > MAX_PER_CODE:
        return None
    return diagnostics


# Node types the checks below look at.
_WATCHED = frozenset({
    "binary_expression", "identifier", "block_comment", "continuing_statement",
    "break_if_statement", "function_declaration", "struct_declaration", "attribute",
})


# Declarations up to this size are searched by one query, larger ones by the cursor walk. The query runs
# in C and makes a Node only for what it finds (half the walk's time over generated kernels), but a
# query cursor slows down badly on deep trees: a chain of 100,000 operators took 35 s, while the walk stays
# linear. A tree is at most about as deep as its text is long, and up to 20,000 levels the query measured
# linear, so below this bound it is never the slow one.
QUERY_MAX_BYTES = 16 * 1024


def _nodes_by_type(root: ts.Node) -> dict[str, list[ts.Node]]:
    """The nodes every check needs, by type. No check depends on their order: the query's, per type, is
    not always the document's. Broken declarations keep a walk, whose visits error recovery cannot
    surprise."""
    if root.end_byte - root.start_byte > QUERY_MAX_BYTES:
        return _walked_nodes(root)
    return _listed_nodes(root) if root.has_error else _queried_nodes(root)


@functools.cache
def _watched_query() -> ts.Query:
    # One capture per type, named after it: the captures come back already sorted into buckets.
    return ts.Query(wgsl_language(), "\n".join(f"({kind}) @{kind}" for kind in sorted(_WATCHED)))


def _queried_nodes(root: ts.Node) -> dict[str, list[ts.Node]]:
    found = ts.QueryCursor(_watched_query()).captures(root)
    return {kind: found.get(kind, []) for kind in _WATCHED}


@functools.cache
def _watched_kinds() -> dict[int, str]:
    """Every kind id whose name is a watched type (an alias has an id of its own), with that name."""
    return {kind: name for kind, name in KIND_NAMES.items() if name in _WATCHED}


def _listed_nodes(root: ts.Node) -> dict[str, list[ts.Node]]:
    """`_walked_nodes`' nodes, by lists of named children: each list is made in C, which hands Python a node
    only where it is named, where the cursor hands over every node and is asked to move for each (on the broken
    declarations of the typing benchmark, a fifth fewer instructions). Up to QUERY_MAX_BYTES only: on a chain
    100,000 deep the lists cost more than the cursor, each a container the garbage collector tracks."""
    found: dict[str, list[ts.Node]] = {kind: [] for kind in _WATCHED}
    bucket_of = {kind: found[name] for kind, name in _watched_kinds().items()}.get
    # Every watched type is named, and named nodes hang only below named nodes (as in `_walked_nodes`).
    stack = [root]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        bucket = bucket_of(node.kind_id)
        if bucket is not None:
            bucket.append(node)
        push(node.named_children)
    return found


def _walked_nodes(root: ts.Node) -> dict[str, list[ts.Node]]:
    """One iterative walk that collects the nodes every check needs, in document order.

    A tree cursor, not a query per check: query cursors slow down badly on
    trees 100,000 levels deep, and the cursor's walk is linear. It is also
    cheaper than lists of children, which py-tree-sitter builds on each call.
    """
    found: dict[str, list[ts.Node]] = {kind: [] for kind in _WATCHED}
    # By kind id: a node's type is the name of its kind, and the id costs no new string per node.
    bucket_of = {kind: found[name] for kind, name in _watched_kinds().items()}.get
    bucket = bucket_of(root.kind_id)
    if bucket is not None:
        bucket.append(root)
    cursor = root.walk()
    # Every watched type is named, and named nodes hang only below named nodes: the walk goes down
    # from the start and from named nodes only, which skips the insides of nothing that matters.
    descend = True
    while True:
        if descend and cursor.goto_first_child():
            node = cursor.node
        else:
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    return found
            node = cursor.node
        descend = node.is_named
        if descend:
            bucket = bucket_of(node.kind_id)
            if bucket is not None:
                bucket.append(node)


# ------------------------------------------------------------------ errors
def _error_nodes(root: ts.Node, parts: list[ts.Node] | None = None) -> Iterator[ts.Node]:
    """ERROR nodes that are not inside another ERROR, and MISSING tokens, in order; `parts`: the root's children,
    where the caller has them.

    Iterative: a file of 10,000 nested parentheses must not hit Python's
    recursion limit.
    """
    if root.is_error or root.is_missing:
        yield root
        return
    if not root.has_error:
        return
    stack = list(reversed(root.children if parts is None else parts))
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            yield node
            continue
        if node.has_error:
            stack.extend(reversed(node.children))


# One step down the tree towards an error: the node stepped from, its children (the list the walk made) and the
# index of the child stepped to.
Step = tuple[ts.Node, list[ts.Node], int]


def _errors_on_their_way(root: ts.Node, parts: list[ts.Node] | None = None) \
        -> Iterator[tuple[ts.Node, tuple[Step, ...]]]:
    """`_error_nodes`' nodes, in the same order, each with the steps from the root down to it (none for the root).

    In tree-sitter 0.26 a node's `parent` and its siblings are found by a search down from the root, and explaining
    an error asked for several (the window's declarations, the token after the error, the scope, the field): the
    walk has already made every list of children on the way, so those answers are read from them instead.
    `parts`: the root's children, where the caller has them."""
    if root.is_error or root.is_missing:
        yield root, ()
        return
    if not root.has_error:
        return
    # Each level: [node, its children, the index of the next child to visit].
    levels: list[list] = [[root, root.children if parts is None else parts, 0]]
    while levels:
        level = levels[-1]
        node, children, index = level
        if index == len(children):
            levels.pop()
            continue
        level[2] = index + 1
        child = children[index]
        if child.is_error or child.is_missing:
            yield child, tuple((above, below, at - 1) for above, below, at in levels)
        elif child.has_error:
            levels.append([child, child.children, 0])


def _parse_errors(parsed: Parsed, explain: bool, reuse: DeclarationReuse | None,
                  deferred: list[DeferredFix] | None = None, parts: list[ts.Node] | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    searched: list[Searched] = []  # the last repair search, whose probe may settle the next one (`_carried_cut`)
    for index, (node, way) in enumerate(_errors_on_their_way(parsed.root, parts)):
        if index > MAX_SYNTAX_ERRORS:
            break  # the lint layer caps each code and says that more were found
        if node.is_missing:
            out.append(_missing_token(parsed, node, explain, reuse, deferred, way))
        else:
            out.append(_error_region(parsed, node, explain and index < MAX_REPAIRED_ERRORS, reuse, deferred,
                                     searched, way))
    return out


def _missing_token(parsed: Parsed, node: ts.Node, explain: bool, reuse: DeclarationReuse | None,
                   deferred: list[DeferredFix] | None = None, way: tuple[Step, ...] | None = None) -> Diagnostic:
    at = _after_previous_token(parsed, node.start_byte)
    if node.type == "identifier":
        if way:
            parent, _, index = way[-1]
            field = parent.field_name_for_child(index)
        else:
            field = _field_of(node)
        what = "a name" if field == "name" else "an expression"
        return Diagnostic(rules.SYNTAX_ERROR.code, f"expected {what} here", Span(at, at))
    return _expected_token(parsed, node.type, at, node, reuse if explain else _NO_FIX, deferred, way)


_NO_FIX = object()  # for _expected_token: offer no fix


def _expected_token(parsed: Parsed, token: str, at: int, near: ts.Node, reuse,
                    deferred: list[DeferredFix] | None = None, way: tuple[Step, ...] | None = None) -> Diagnostic:
    message = f"expected '{token}'"
    related: tuple[Related, ...] = ()
    if token == ";":
        before = _statement_ending_at(parsed.root, at)
        if before is not None:
            message += f" after {describe_node(before)}"
    elif token in "})]>":
        opener = _unclosed_opener(parsed, near, token, way)
        if opener is not None:
            line = parsed.source.position(opener.start_byte).line + 1
            message += f" to close the '{opener.type}' on line {line}"
            related = (Related(Span(opener.start_byte, opener.end_byte), f"'{opener.type}' opened here"),)
    diagnostic = Diagnostic(rules.SYNTAX_ERROR.code, message, Span(at, at), related=related)
    if reuse is _NO_FIX:
        return diagnostic
    if deferred is not None:
        deferred.append(DeferredFix(diagnostic, at, token))
        return diagnostic
    return replace(diagnostic, fixes=_insertion_fix(at, token)) if _insertion_helps(parsed, at, token, reuse) \
        else diagnostic


def _insertion_fix(at: int, token: str) -> tuple[Fix, ...]:
    return (Fix(f"Insert '{token}'", (Edit(Span(at, at), token),), safe=token == ";"),)


@dataclass(frozen=True)
class DeferredFix:
    """A missing token's finding given without the test of its fix (`syntax_diagnostics`' `deferred`)."""

    diagnostic: Diagnostic
    at: int
    token: str


def fix_of(parsed: Parsed, deferred: DeferredFix) -> tuple[Fix, ...]:
    """The fixes the finding would have carried had its fix been tested at once: the same test on the same
    tree (the repair cache's answers are those of the same parses)."""
    return _insertion_fix(deferred.at, deferred.token) if _insertion_helps(parsed, deferred.at, deferred.token,
                                                                           None) else ()


def _insertion_helps(parsed: Parsed, at: int, token: str, reuse: DeclarationReuse | None) -> bool:
    """Whether the file has fewer syntax errors with `token` inserted: a fix must never make it worse."""
    data = parsed.source.data
    if len(data) > MAX_REPAIR_WINDOW:
        return False
    if INSERTION_WINDOWS:
        helps = _insertion_helps_in_window(parsed, at, token)
        if helps is not None:
            return helps
    key = (data, at, token, "helps")
    known = _tried.get(key, _UNKNOWN)  # the same file, the same insertion: the same answer (_repair_parse)
    if known is not _UNKNOWN:
        return known
    edited = data[:at] + token.encode() + data[at:]
    try:
        after = Parsed(SourceText.from_bytes(edited), _parser().parse(edited))
        helps = _finding_total(after, reuse) < _finding_count(parsed, reuse)
    except Exception:  # noqa: BLE001 - no tree, no fix
        helps = False
    _remember(key, helps)
    return helps


# Whether a fix's test re-parses only the declarations around the insertion (see below); off, it re-parses the
# whole file, which the window must always agree with (tests/test_syntax_typing_cost.py compares them).
INSERTION_WINDOWS = True
# The window's answer equals the file's when each finding outside it stays; the error walk stops after
# MAX_SYNTAX_ERRORS, so a file near that many errors is counted whole.
_WINDOW_ERROR_LIMIT = MAX_SYNTAX_ERRORS // 2


def _insertion_helps_in_window(parsed: Parsed, at: int, token: str) -> bool | None:
    """`_insertion_helps` on the module-scope declarations around `at` alone: the declarations before and
    after the window parse the same whichever token goes in, and so have the same findings. While a
    statement is typed, that is a re-parse of three functions instead of the file (5 ms on 1,000 lines), and
    no walk of every other declaration. None where that cannot be shown; the caller then counts the file."""
    root = parsed.root
    top = root.descendant_for_byte_range(max(at - 1, 0), at)
    while top is not None and top.parent is not None and top.parent.parent is not None:
        top = top.parent
    if top is None or top.parent is None:
        return None
    first, last = top.prev_sibling or top, top.next_sibling or top
    start, end = first.start_byte, last.end_byte
    if not start <= at <= end:
        return None
    data = parsed.source.data
    text = data[start:end]
    # A block comment may run past the window to the end of the file; such a window is not independent.
    if b"/*" in text or b"*/" in text:
        return None
    key = (text, at - start, token, "helps in window")
    known = _tried.get(key, _UNKNOWN)
    if known is not _UNKNOWN:
        return known
    before = _parser().parse(text)
    edited = text[: at - start] + token.encode() + text[at - start :]
    after = _parser().parse(edited)
    answer = None
    if before is not None and after is not None and \
            _same_children(before.root_node, [c for c in root.children if start <= c.start_byte < end], start) and \
            _keeps_ends(before.root_node, after.root_node, first is not top, last is not top, len(token)):
        counted = [_finding_total(Parsed(SourceText.from_bytes(t), tree))
                   for t, tree in ((text, before), (edited, after))]
        if max(counted) < _WINDOW_ERROR_LIMIT:
            answer = counted[1] < counted[0]
    _remember(key, answer)  # None too: the same window falls back again, without re-parsing it first
    return answer


def _same_children(window: ts.Node, children: list[ts.Node], start: int) -> bool:
    """Whether the window parsed alone has the module-scope declarations the file's tree has there."""
    mine = window.children
    return len(mine) == len(children) and all(
        a.type == b.type and a.start_byte + start == b.start_byte and a.end_byte + start == b.end_byte
        and a.has_error == b.has_error for a, b in zip(mine, children))


def _keeps_ends(before: ts.Node, after: ts.Node, check_first: bool, check_last: bool, grown: int) -> bool:
    """Whether the declarations on either side of the edited one parse exactly as before: the parser then
    leaves the window in the same state in both texts, as it enters it. (While a comment typed elsewhere
    leaves a function's tail at module scope, that neighbour is an ERROR in both.)"""
    old, new = before.children, after.children
    if not old or not new:
        return False
    if check_first and (old[0].end_byte != new[0].end_byte or str(old[0]) != str(new[0])):
        return False
    if check_last and (old[-1].start_byte + grown != new[-1].start_byte or old[-1].end_byte + grown != new[-1].end_byte
                       or str(old[-1]) != str(new[-1])):
        return False
    return True


_counted: tuple[object, int] = (None, 0)


def _finding_count(parsed: Parsed, reuse: DeclarationReuse | None) -> int:
    """How many syntax findings `parsed` has, counted once per file rather than once per fix offered."""
    global _counted
    counted = _counted  # one read: another thread may replace it meanwhile
    if counted[0] is parsed:
        return counted[1]
    count = _finding_total(parsed, reuse)
    _counted = (parsed, count)
    return count


def _error_region(parsed: Parsed, node: ts.Node, try_repairs: bool, reuse: DeclarationReuse | None,
                  deferred: list[DeferredFix] | None = None, searched: list[Searched] | None = None,
                  way: tuple[Step, ...] | None = None) -> Diagnostic:
    """The finding of an ERROR node; `way`: the steps down to it (`_errors_on_their_way`), else they are searched."""
    if try_repairs:
        window = _repair_window(parsed, node) if way is None else _window_on_the_way(parsed, node, way)
    else:
        window = None
    if window is not None:
        text = parsed.source.data[window.start : window.end]  # one object: the repair cache's keys share it
        next_token = _next_token_start(node, len(parsed.source.data)) if way is None else \
            _next_token_on_the_way(node, way, len(parsed.source.data))
        repaired = _first_repair(parsed, window, text, node, searched, next_token)
        if repaired is not None:
            position, token = repaired
            at = _after_previous_token(parsed, position)
            if token == "x":
                return Diagnostic(rules.SYNTAX_ERROR.code, "expected an expression here", Span(at, at))
            return _expected_token(parsed, token, at, node, reuse, deferred, way)
    first = _first_token(node)
    if first is None:
        at = node.start_byte
        return Diagnostic(rules.SYNTAX_ERROR.code, "unexpected text", Span(at, max(at, node.end_byte)))
    word = parsed.source.data[first.start_byte : first.end_byte]
    if word in _DIRECTIVES and (_at_module_scope(node) if way is None else len(way) <= 1):
        return Diagnostic(
            rules.SYNTAX_ERROR.code,
            f"'{word.decode()}' is a directive: directives must come before every declaration in the module",
            Span(first.start_byte, first.end_byte),
        )
    return Diagnostic(
        rules.SYNTAX_ERROR.code,
        f"unexpected {describe_token(first, parsed.source)}",
        Span(first.start_byte, first.end_byte),
    )


_DIRECTIVES = frozenset({b"enable", b"requires", b"diagnostic"})


def _at_module_scope(node: ts.Node) -> bool:
    parent = node.parent
    return parent is None or parent.type == "source_file"


def _repair_positions(node: ts.Node) -> list[int]:
    """Where an inserted token could repair an ERROR: before it, before its last token, after it."""
    positions = [node.start_byte]
    last = _last_token(node)
    if last is not None and last.start_byte != node.start_byte:
        positions.append(last.start_byte)
    positions.append(node.end_byte)
    return positions


def _repair_window(parsed: Parsed, node: ts.Node) -> Span | None:
    """The module-scope declarations around an error, which can be re-parsed on their own.

    WGSL's module-scope declarations do not depend on each other's syntax, so
    trying a repair needs only this window, not the whole file: that keeps
    repairs cheap in a 10 MB file. None when the window is too large.
    """
    top = node
    while top.parent is not None and top.parent.parent is not None:
        top = top.parent
    if top.parent is None:  # the parser could use nothing: the window is the file
        size = len(parsed.source.data)
        return Span(0, size) if size <= MAX_FILE_REPAIR_WINDOW else None
    first = top.prev_sibling or top
    last = top.next_sibling or top
    if last.end_byte - first.start_byte > MAX_REPAIR_WINDOW:
        return None
    return Span(first.start_byte, last.end_byte)


def _window_on_the_way(parsed: Parsed, node: ts.Node, way: tuple[Step, ...]) -> Span | None:
    """`_repair_window` read from the steps down to `node`: the first step names the module-scope part that holds
    it, among the root's children, and so its neighbours."""
    if not way:  # the parser could use nothing: the window is the file
        size = len(parsed.source.data)
        return Span(0, size) if size <= MAX_FILE_REPAIR_WINDOW else None
    _, parts, index = way[0]
    first = parts[index - 1] if index else parts[index]
    last = parts[index + 1] if index + 1 < len(parts) else parts[index]
    if last.end_byte - first.start_byte > MAX_REPAIR_WINDOW:
        return None
    return Span(first.start_byte, last.end_byte)


# Whether the repairs of one error stop at a candidate that shows no later one can succeed (`_first_repair`);
# off, every candidate is parsed, which the shortcut must always agree with (tests/test_syntax_repair_shortcut.py).
REPAIR_SHORTCUT = True


def _first_repair(parsed: Parsed, window: Span, text: bytes, node: ts.Node,
                  searched: list[Searched] | None = None, next_token: int | None = None) -> tuple[int, str] | None:
    """The first insertion, in the order tried, that repairs `node`: its position and token.

    Candidates are tried by position (never decreasing), then by token. After a candidate that fails, the rest
    are skipped when its parse settled an error before its insertion point (syntax/settling.py): every later
    candidate inserts at the same point or after it, into the same window bytes, so it shares all the bytes the
    parser read up to that error, and keeps an error there, before its own insertion point and so before its
    limit. The answer is the one trying every candidate gives.

    The answer depends on the window's bytes, the positions tried and the next token's start, all relative to
    the window, and is kept by them: an error that stays while another declaration is edited costs one lookup
    instead of one per candidate.

    With `searched`, the search before this one in the same file (`_carried_cut`): its probe may show that no
    candidate of this one repairs either; `searched` is then this search's."""
    base = window.start
    positions = tuple(position - base for position in _repair_positions(node))
    # `next_token`: where the token after the error starts in the file, where the caller knows it.
    next_token = (_next_token_start(node, len(parsed.source.data)) if next_token is None else next_token) - base
    key = (text, positions + (next_token,), "", "first repair")
    known = _tried.get(key, _UNKNOWN)
    if known is _UNKNOWN:
        cut = _carried_cut(parsed.source.data, searched[-1], base) if searched and CARRIED_CUTS else None
        probe_first = _first_fails_on_its_token(node, parsed.source.data)
        known = _first_repair_in(text, positions, next_token, cut, probe_first)
        _remember(key, known)
    if searched is not None:
        searched[:] = [Searched(base, text, positions)]
    return None if known is None else (known[0] + base, known[1])


@dataclass(frozen=True, slots=True)
class Searched:
    """A repair search: where its window starts in the file, the window's bytes, and the positions tried (the key
    of its probe)."""

    start: int
    text: bytes
    positions: tuple[int, ...]


# Whether a search may skip the candidates that an earlier search's probe shows to fail (`_carried_cut`); off,
# only its own probe does, which this must always agree with (tests/test_syntax_carried_cut.py).
CARRIED_CUTS = True
# What the parser shifts in its start state without leaving it: whitespace and line comments of printable ASCII
# that end at a line break (a comment is shifted in every state but the error state without changing it:
# tests/test_syntax_repair_lookahead.py).
_EXTRAS_ONLY = re.compile(rb"(?:[ \t\n\r]|//[\t -~]*[\n\r])*")


def _carried_cut(data: bytes, earlier: Searched, start: int) -> int | None:
    """The bound, relative to the window starting at `start`, from which no candidate repairs, taken from the probe
    of an `earlier` search in the same file; None where it shows none.

    The probe's cut (syntax/lookahead.py, 4.) says that a parse of the earlier window's bytes up to the cut handles
    an error at or before the word that ends there. This window starts at or after the earlier one, and no later
    than its first position, where the probe's words begin; where only whitespace and line comments lie between
    the two starts, the parser shifts them in its start state and stays in it (one stack version, the comments
    extras), so it reads this window's tokens up to the cut in the states it read the earlier window's, and handles
    the same error at or before the same word. A candidate of this window inserted at or after the cut shares
    those bytes (the cut lies inside the earlier window, whose bytes are the file's): it keeps an error that starts
    before its insertion point, and so before the token after the error, which a repair must carry the parser past
    (`_repairs`): none repairs."""
    ahead = _tried.get((earlier.text, earlier.positions, "", "probe"))
    if not isinstance(ahead, lookahead.Ahead) or ahead.cut is None:
        return None
    if not earlier.start <= start <= earlier.start + earlier.positions[0] or ahead.cut > len(earlier.text):
        return None
    if _EXTRAS_ONLY.fullmatch(data, earlier.start, start) is None:
        return None
    return earlier.start + ahead.cut - start


def _first_fails_on_its_token(node: ts.Node, data: bytes) -> bool:
    """Whether the file's tree suggests that the first candidate, ';' before the error, fails on its token or the
    one after it: the parser's state after the token before the error, where the tree keeps it, has no action for
    ';' or shifts it into a state with none for the error's first token (syntax/lookahead.py, 6.), or that token
    is ',' (where a reduction came before its shift, the tree keeps no state after it), after which WGSL has no ';'.

    Only a guess: the file's parse is not the window's. It decides no candidate, only whether the probe is made
    before the first candidate is parsed or after, and the search finds the same answer either way
    (syntax/lookahead.py, 3.); a wrong guess costs a probe where the first candidate repairs."""
    previous = node.prev_sibling
    while previous is not None and previous.child_count:
        previous = previous.child(previous.child_count - 1)
    if previous is None or previous.is_missing:
        return False
    state = previous.next_parse_state
    if 0 < state < wgsl_language().parse_state_count:
        token = _REPAIR_TOKENS[0]
        return not lookahead.may_shift(state, token) or (
            NEXT_TOKEN_LOOKAHEAD and lookahead.fails_on_the_next_token(state, token, data, node.start_byte))
    return previous.type == ","


def _first_repair_in(text: bytes, positions: tuple[int, ...], next_token: int,
                     cut: int | None = None, probe_first: bool = False) -> tuple[int, str] | None:
    """`_first_repair`'s search; no candidate at or after `cut` repairs (`_carried_cut`). The probe is made at once
    where `probe_first` (the first candidate is likely to fail on its token), else once a candidate has failed:
    most first candidates repair."""
    ahead: lookahead.Ahead | None | object = _UNKNOWN
    if probe_first and REPAIR_LOOKAHEAD and (cut is None or positions[0] < cut):
        ahead = _probe(text, positions)
    for at in positions:
        if cut is not None and cut <= at:
            return None  # every candidate from here on fails (_carried_cut)
        if isinstance(ahead, lookahead.Ahead) and ahead.cut is not None and ahead.cut <= at:
            return None  # every candidate from here on fails (syntax/lookahead.py, 4.)
        if isinstance(ahead, lookahead.Ahead) and ahead.failed is not None and ahead.failed <= at:
            return None  # an error came before this position: every candidate from here on fails (lookahead.py, 8.)
        for token in _REPAIR_TOKENS:
            if isinstance(ahead, lookahead.Ahead):
                state = ahead.state if at == positions[0] else ahead.later.get(at)
                if state is not None and not lookahead.may_shift(state, token):
                    continue  # it fails on the inserted token (syntax/lookahead.py, 3. and 5.)
                if state is not None and NEXT_TOKEN_LOOKAHEAD and \
                        lookahead.fails_on_the_next_token(state, token, text, at):
                    continue  # it fails on the token after it (syntax/lookahead.py, 6.)
            first_error, settled = _repair_parse(text, at, token)
            if _repairs(first_error, next_token, token):
                return at, token
            if REPAIR_SHORTCUT and settled is not None:
                return None
            if ahead is _UNKNOWN:
                ahead = _probe(text, positions) if REPAIR_LOOKAHEAD else None
    return None


# Whether the candidates are first sorted out by one probe parse of the window (`_probe`); off, each is parsed,
# which this must always agree with (tests/test_syntax_repair_lookahead.py).
REPAIR_LOOKAHEAD = True
# Whether the probe's state also rules out a candidate whose token it shifts into a state with no action for the token
# after it (syntax/lookahead.py, 6.); off, such candidates are parsed, which this must always agree with
# (tests/test_syntax_repair_next_token.py).
NEXT_TOKEN_LOOKAHEAD = True


def _probe(text: bytes, positions: tuple[int, ...]) -> lookahead.Ahead | None:
    """What one parse of the window with comments inserted shows about the candidates (syntax/lookahead.py)."""
    key = (text, positions, "", "probe")
    known = _tried.get(key, _UNKNOWN)
    if known is not _UNKNOWN:
        return known
    plan = lookahead.plan(text, positions[0], positions[-1], positions[1:])
    tree = _parser().parse(plan.data)
    ahead = None if tree is None else lookahead.read(plan, tree, text)
    _remember(key, ahead)
    return ahead


def _repairs(first_error: int | None, next_token: int, token: str) -> bool:
    """Whether a candidate whose parse has its first error at `first_error` (-1: none, None: no tree) removes every
    error up to the token after the error, which starts at `next_token`: the repair must carry the parser past
    that token."""
    return first_error is not None and (first_error < 0 or first_error > next_token + len(_padded(token)))


# The outcome of each repair tried, by the window's bytes, the insertion point and the token: a syntax error
# that stays while the user edits another declaration is explained again on every version, by the same
# re-parses of the same bytes (about 21 of them). Keys hold their window's bytes; past this many bytes of
# windows the cache starts over. Exact: a parse of the same bytes is the same tree.
REPAIR_CACHE_BYTES = 4 * 1024 * 1024
# (bytes, offset, token, which question) -> its answer; _insertion_helps keeps its answers here too, and
# _first_repair the outcome of a whole search, with the offsets it depends on in place of the offset.
_tried: dict[tuple[bytes, object, str, str], object] = {}
_tried_bytes = 0
_UNKNOWN = object()


def _padded(token: str) -> bytes:
    return (" " + token + " ").encode()


def _repair_parse(text: bytes, at: int, token: str) -> tuple[int | None, int | None]:
    """Where the first error starts in `text` re-parsed with `token` inserted at `at` (-1 for none, None when the
    parser gave no tree), and where the bytes that settled it end, when that is before `at` (else None)."""
    key = (text, at, token, "first error")
    known = _tried.get(key, _UNKNOWN)  # one lookup: another thread may clear the cache meanwhile
    if known is not _UNKNOWN:
        return known
    edited = text[:at] + _padded(token) + text[at:]
    repaired = _parser().parse(edited)
    outcome: tuple[int | None, int | None] = (None, None)
    if repaired is not None:
        first = next(_error_nodes(repaired.root_node), None)
        outcome = (-1, None) if first is None else \
            (first.start_byte, settling.bound(edited, _next_token_start(first, len(edited)), at))
    _remember(key, outcome)
    return outcome


def _remember(key: tuple, outcome) -> None:
    global _tried_bytes
    if _tried_bytes + len(key[0]) > REPAIR_CACHE_BYTES:
        _tried.clear()
        _tried_bytes = 0
    _tried[key] = outcome
    _tried_bytes += len(key[0])


_parsers = threading.local()


def _parser() -> ts.Parser:
    """This thread's parser: a fix is tested on the thread that asks for it (an editor's code action), while
    the analysis thread may be parsing, and a tree-sitter parser parses one text at a time."""
    parser = getattr(_parsers, "parser", None)
    if parser is None:
        parser = _parsers.parser = ts.Parser(wgsl_language())
    return parser


# ------------------------------------------------------ tree helpers
# By `child(index)`: `children` would make a Node of every child on the way down.
def _first_token(node: ts.Node) -> ts.Node | None:
    while node.child_count:
        node = node.child(0)
    return node if node.end_byte > node.start_byte else None


def _last_token(node: ts.Node) -> ts.Node | None:
    while count := node.child_count:
        node = node.child(count - 1)
    return node if node.end_byte > node.start_byte else None


def _next_token_start(node: ts.Node, end_of_file: int) -> int:
    while node is not None:
        sibling = node.next_sibling
        while sibling is not None and sibling.is_extra:
            sibling = sibling.next_sibling
        if sibling is not None:
            first = _first_token(sibling)
            return first.start_byte if first is not None else sibling.start_byte
        node = node.parent
    return end_of_file


def _next_token_on_the_way(node: ts.Node, way: tuple[Step, ...], end_of_file: int) -> int:
    """`_next_token_start` read from the steps down to `node`: each step's list holds the siblings that the climb
    would search for."""
    for _, children, index in reversed(way):
        for sibling in children[index + 1:]:
            if not sibling.is_extra:
                first = _first_token(sibling)
                return first.start_byte if first is not None else sibling.start_byte
    return end_of_file


def _after_previous_token(parsed: Parsed, offset: int) -> int:
    """Moves an insertion point back over whitespace and comments, to right after the previous token."""
    data = parsed.source.data
    while True:
        while offset > 0 and data[offset - 1 : offset] in (b" ", b"\t", b"\n", b"\r"):
            offset -= 1
        if offset == 0:
            return offset
        leaf = parsed.root.descendant_for_byte_range(offset - 1, offset)
        if leaf is None or leaf.type not in ("line_comment", "block_comment") or leaf.end_byte != offset:
            return offset
        offset = leaf.start_byte


def _field_of(node: ts.Node) -> str | None:
    parent = node.parent
    if parent is None:
        return None
    for index, child in enumerate(parent.children):
        if child == node:
            return parent.field_name_for_child(index)
    return None


_STATEMENT_TYPES = frozenset({
    "let_declaration", "variable_declaration", "const_declaration", "override_declaration",
    "type_alias_declaration", "return_statement", "call_statement", "assignment_statement",
    "compound_assignment_statement", "increment_statement", "decrement_statement",
    "break_statement", "continue_statement", "discard_statement", "const_assert_statement",
})


def _statement_ending_at(root: ts.Node, at: int) -> ts.Node | None:
    # The root is the tree's, not found by climbing from the error: each `parent` searches down from the root.
    node = root.descendant_for_byte_range(max(at - 1, 0), max(at - 1, 0))
    while node is not None:
        if node.type in _STATEMENT_TYPES and node.end_byte == at:
            return node
        node = node.parent
    return None


_OPENERS = {"}": "{", ")": "(", "]": "[", ">": "<"}


def _unclosed_opener(parsed: Parsed, near: ts.Node, closer: str,
                     way: tuple[Step, ...] | None = None) -> ts.Node | None:
    """The opening bracket, among the ancestors of `near`, whose closer is missing. With `way` (the steps down to
    `near`), the ancestors and their children are read from it instead of searched for."""
    if way is None:
        levels: Iterator[tuple[ts.Node, list[ts.Node]]] = _climbed(near)
    else:
        # Innermost first, as the climb meets them; a MISSING token is a leaf, without children.
        levels = iter(([(near, [])] if near.is_missing else []) + [(above, below) for above, below, _ in reversed(way)])
    opener = _OPENERS[closer]
    for _, children in levels:
        if children and any(c.type == opener for c in children):
            closers = [c for c in children if c.type == closer]
            if not closers or closers[-1].is_missing or near.is_missing:
                for child in children:
                    if child.type == opener:
                        return child
    return None


def _climbed(near: ts.Node) -> Iterator[tuple[ts.Node, list[ts.Node]]]:
    node: ts.Node | None = near if near.is_missing else near.parent
    while node is not None:
        yield node, node.children
        node = node.parent


# ------------------------------------------------------------ comments
def _unterminated_comments(parsed: Parsed, nodes: dict[str, list[ts.Node]]) -> list[Diagnostic]:
    data = parsed.source.data
    out = []
    for node in nodes["block_comment"]:
        if node.end_byte == len(data) and not _closed(data[node.start_byte : node.end_byte]):
            out.append(Diagnostic(
                rules.UNTERMINATED_COMMENT.code,
                "unterminated block comment: it runs to the end of the file (block comments nest, "
                "so each '/*' needs its own '*/')",
                Span(node.start_byte, node.start_byte + 2),
            ))
    return out


def _closed(comment: bytes) -> bool:
    depth, index = 0, 0
    while index < len(comment) - 1:
        pair = comment[index : index + 2]
        if pair == b"/*":
            depth, index = depth + 1, index + 2
        elif pair == b"*/":
            depth, index = depth - 1, index + 2
            if depth == 0:
                return True
        else:
            index += 1
    return False


# ----------------------------------------------------- operator mixing
_CATEGORY = {
    **dict.fromkeys(("*", "/", "%"), "multiplicative"),
    **dict.fromkeys(("+", "-"), "additive"),
    **dict.fromkeys(("<<", ">>"), "shift"),
    **dict.fromkeys(("<", ">", "<=", ">=", "==", "!="), "relational"),
    "&": "&", "|": "|", "^": "^", "&&": "&&", "||": "||",
}
# For each operator category, the categories a nested operand may have
# without parentheses, on the left and on the right (WGSL spec, "Operator
# Precedence and Associativity").
_ARITHMETIC = frozenset({"multiplicative", "additive", "shift"})
_ALLOWED_OPERANDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "multiplicative": (frozenset({"multiplicative"}), frozenset()),
    "additive": (frozenset({"multiplicative", "additive"}), frozenset({"multiplicative"})),
    "shift": (frozenset(), frozenset()),
    "relational": (_ARITHMETIC, _ARITHMETIC),
    "&": (frozenset({"&"}), frozenset()),
    "|": (frozenset({"|"}), frozenset()),
    "^": (frozenset({"^"}), frozenset()),
    "&&": (_ARITHMETIC | {"relational", "&&"}, _ARITHMETIC | {"relational"}),
    "||": (_ARITHMETIC | {"relational", "||"}, _ARITHMETIC | {"relational"}),
}


def _mixed_operators(parsed: Parsed, nodes: dict[str, list[ts.Node]]) -> list[Diagnostic]:
    found = []
    for outer in nodes["binary_expression"]:
        operator = outer.child_by_field_id(FIELD_OPERATOR)
        if operator is None:
            continue
        category = _CATEGORY[operator.type]
        allowed_left, allowed_right = _ALLOWED_OPERANDS[category]
        for side, allowed in ((FIELD_LEFT, allowed_left), (FIELD_RIGHT, allowed_right)):
            inner = outer.child_by_field_id(side)
            if inner is None or inner.type != "binary_expression":
                continue
            inner_operator = inner.child_by_field_id(FIELD_OPERATOR)
            if inner_operator is None or _CATEGORY[inner_operator.type] in allowed:
                continue
            found.append((operator.start_byte, outer, operator, inner, inner_operator))
    # Only the first MAX_PER_CODE by position are ever shown; a generated chain of thousands of
    # operators would otherwise spend most of a lint wording messages nobody sees.
    found.sort(key=lambda item: item[0])
    return [_mixing_diagnostic(parsed.source, outer, operator, inner, inner_operator,
                               offer_fix=not outer.has_error)
            for _, outer, operator, inner, inner_operator in found[:MAX_PER_CODE + 1]]


def _mixing_diagnostic(source: SourceText, outer: ts.Node, operator: ts.Node,
                       inner: ts.Node, inner_operator: ts.Node, offer_fix: bool = True) -> Diagnostic:
    outer_op, inner_op = operator.type, inner_operator.type
    category = _CATEGORY[outer_op]
    if category == "relational" and _CATEGORY[inner_op] == "relational":
        message = f"comparisons cannot be chained: parenthesize '{excerpt(source, inner)}'"
    elif category == "shift":
        message = f"the operands of '{outer_op}' must be unary expressions: parenthesize '{excerpt(source, inner)}'"
    elif outer_op == inner_op:
        message = f"'{outer_op}' cannot be chained this way: parenthesize '{excerpt(source, inner)}'"
    else:
        message = f"mixing '{inner_op}' and '{outer_op}' requires parentheses"
    fix = Fix(
        f"Parenthesize '{excerpt(source, inner)}'",
        (Edit(Span(inner.start_byte, inner.start_byte), "("), Edit(Span(inner.end_byte, inner.end_byte), ")")),
    )
    return Diagnostic(
        rules.MIXED_OPERATORS.code,
        message,
        Span(operator.start_byte, operator.end_byte),
        related=(Related(Span(inner_operator.start_byte, inner_operator.end_byte), f"'{inner_op}' is here"),),
        # Parentheses around a broken operand would only move the error.
        fixes=(fix,) if offer_fix else (),
    )


# -------------------------------------------------- misplaced statements
def _misplaced_statements(parsed: Parsed, nodes: dict[str, list[ts.Node]]) -> list[Diagnostic]:
    out = []
    nested = [
        node for node in nodes["function_declaration"] + nodes["struct_declaration"]
        if node.parent is not None and node.parent.type == "compound_statement"
    ]
    for node in nodes["continuing_statement"]:
        out.extend(_must_come_last(
            node, "loop_statement",
            "'continuing' must be the last statement in the body of a 'loop'",
            "move this statement before 'continuing'", "the 'continuing' block"))
    for node in nodes["break_if_statement"]:
        body = node.parent
        owner = body.parent if body is not None else None
        if owner is None or owner.type != "continuing_statement" or _statements(body)[-1] != node:
            out.append(Diagnostic(
                rules.MISPLACED_STATEMENT.code,
                "'break if' must be the last statement in a 'continuing' block; "
                "elsewhere write 'if cond { break; }'",
                _keyword_span(node),
            ))
    for node in sorted(nested, key=lambda n: n.start_byte):
        body = node.parent
        kind = "function" if node.type == "function_declaration" else "struct"
        enclosing = _enclosing_declaration(body)
        message = f"a {kind} cannot be declared inside a function body"
        related: tuple[Related, ...] = ()
        if enclosing is not None:
            name = enclosing.child_by_field_id(FIELD_NAME)
            label = f"'{excerpt(parsed.source, name)}'" if name is not None else "the enclosing function"
            message += f"; is a '}}' missing to close the body of {label}?"
            related = (Related(Span(body.start_byte, body.start_byte + 1), "this body is still open"),)
        out.append(Diagnostic(rules.MISPLACED_STATEMENT.code, message, _keyword_span(node), related=related))
    return out


def _must_come_last(node: ts.Node, container: str, message: str, move_hint: str,
                    label: str) -> list[Diagnostic]:
    """Reports a 'continuing' that is not last: at the first statement after it, as Tint does."""
    body = node.parent
    owner = body.parent if body is not None else None
    if owner is None or owner.type != container:
        return [Diagnostic(rules.MISPLACED_STATEMENT.code, message, _keyword_span(node))]
    statements = _statements(body)
    following = statements[statements.index(node) + 1 :] if node in statements else []
    if not following:
        return []
    first = _first_token(following[0]) or following[0]
    return [Diagnostic(
        rules.MISPLACED_STATEMENT.code,
        f"{message}: {move_hint}",
        Span(first.start_byte, first.end_byte),
        related=(Related(_keyword_span(node), f"{label} is here"),),
    )]


def _in_broken_construct(node: ts.Node) -> bool:
    """Whether the statement or declaration around `node` already has a syntax error.

    During error recovery the parser reads keywords as names; those are not
    the author's mistake and must not be reported twice.
    """
    while node is not None:
        if node.is_error:
            return True
        if node.type.endswith(("_declaration", "_statement")) or node.type == "source_file":
            return node.has_error
        node = node.parent
    return False


def _statements(block: ts.Node) -> list[ts.Node]:
    return [child for child in block.named_children if not child.is_extra and child.type != "attribute"]


# ------------------------------------------------------- reserved names
_RESERVED = frozenset(word.encode() for word in KEYWORDS | RESERVED_WORDS) | {b"_"}


def _reserved_names(parsed: Parsed, nodes: dict[str, list[ts.Node]]) -> list[Diagnostic]:
    out = []
    data = parsed.source.data
    for node in nodes["identifier"]:
        text = data[node.start_byte : node.end_byte]
        if text not in _RESERVED and not text.startswith(b"__"):
            continue
        # `@diagnostic(...)` and `@const` are attribute names, and keywords
        # inside ERROR nodes have been reported already.
        if node.parent is not None and node.parent.type == "attribute":
            continue
        if _in_broken_construct(node):
            continue
        word = excerpt(parsed.source, node)
        if word == "_":
            message = "'_' alone is not a name; it can only stand on the left of '_ = expression'"
        elif word.startswith("__"):
            message = f"'{word}': names starting with '__' are reserved in WGSL"
        else:
            kind = "a keyword" if word in KEYWORDS else "a reserved word"
            message = f"'{word}' is {kind} in WGSL and cannot be used as a name"
        out.append(Diagnostic(rules.SYNTAX_ERROR.code, message, _span(node)))
    return out


# Every attribute name WGSL has (Tint's parser lists these and rejects any other as "expected attribute"),
# and naga's own two (`@early_depth_test`, `@second_blend_source`); where an attribute may go and what it
# takes is the semantic layer's business.
ATTRIBUTE_NAMES = frozenset({
    "align", "binding", "blend_src", "builtin", "color", "compute", "diagnostic", "fragment", "group", "id",
    "input_attachment_index", "interpolate", "invariant", "location", "must_use", "size", "subgroup_size",
    "vertex", "workgroup_size", "early_depth_test", "second_blend_source",
})


def _unknown_attributes(parsed: Parsed, nodes: dict[str, list[ts.Node]]) -> list[Diagnostic]:
    out = []
    for node in nodes["attribute"]:
        name_node = node.child_by_field_id(FIELD_NAME)
        if name_node is None or name_node.is_missing or _in_broken_construct(node):
            continue
        name = excerpt(parsed.source, name_node)
        if name in ATTRIBUTE_NAMES:
            continue
        close = difflib.get_close_matches(name, sorted(ATTRIBUTE_NAMES), n=1, cutoff=0.6)
        hint = f"; did you mean '@{close[0]}'?" if close else ""
        out.append(Diagnostic(rules.SYNTAX_ERROR.code, f"'@{name}' is not an attribute{hint}", _span(name_node),
                              fixes=(Fix(f"Change to '@{close[0]}'", (Edit(_span(name_node), close[0]),)),)
                              if close else ()))
    return out


def _enclosing_declaration(node: ts.Node) -> ts.Node | None:
    while node is not None and node.type != "function_declaration":
        node = node.parent
    return node


def _keyword_span(node: ts.Node) -> Span:
    for child in node.children:
        if not child.is_named:
            return Span(child.start_byte, child.end_byte)
    return _span(node)


def _span(node: ts.Node) -> Span:
    return Span(node.start_byte, node.end_byte)

