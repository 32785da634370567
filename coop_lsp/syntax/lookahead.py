"""Which repair candidates cannot be shifted where they are inserted, read from one parse of the window.

`diagnostics._first_repair` parses the window once per candidate (a token inserted at a position). Most fail,
and many fail on the inserted token itself: the parser, once it has read the tokens before the insertion
point, has no action for it. One probe parse of the window, with a line comment inserted at the first
position and before each word of the error, tells the parser's state there, and so which candidates fail
without parsing them, and often that the error was decided before the later positions, so that none of their
candidates can repair either. The argument, from tree-sitter 0.26's lib/src/parser.c and this grammar:

1. One stack version until the first error is handled. The grammar declares no conflicts (grammar.js
   `conflicts: []`), so every entry of its parse table has one action, except the pairs REDUCE of a repetition
   helper + SHIFT_REPEAT that tree-sitter emits for `repeat()` (tests read src/parser.c for this).
   `ts_parser__advance` skips a SHIFT_REPEAT (`if (action.shift.repetition) break;`), and the REDUCE pops one
   path of a stack that has never been merged (merging needs two versions), so it yields one version, which
   replaces the current one. A fresh parse reuses no nodes; a version splits otherwise only in error handling.
   With one version, each lookahead is lexed once, in the state the version is in after the previous token's
   shift, and a token with no action in that state (an entry of count 0: the lookahead iterator does not list
   it) pauses the version; with no other version, the condense that follows handles the error at that token.
2. The state after a token is read from a line comment inserted after it: comments are extras, shifted in
   every state but the error state without changing it (a test checks each state through the language), so
   the comment is lexed, and its leaf made (`ts_parser__lex` stores the state it was lexed in), in the state
   the parser is in after the tokens before it, and it moves nothing after it. What precedes the first
   position is the same bytes and then a space in the probe and in each candidate; no token continues over a
   space, and the only look-ahead past a token, the external scanner's from a '<' (tree-sitter-wgsl/src/
   scanner.c), ends at the first ';', '{' or ':' outside comments: a test of the probe's tree that one of
   those tokens follows the last '<' before the first position keeps every look-ahead short of it.
3. The state read at the first position is the parser's when no error was handled at a token before it. If one
   was, at a lookahead d, each candidate there reads the same bytes up to d and handles the same error, which
   leaves an error starting at or before d in its final tree (settling.py, 2.), before the position and so
   before the next token: every candidate there fails, and skipping any changes nothing. So whichever state
   the comment shows, a valid one only ever skips candidates that fail. Where it is the parser's, a candidate
   whose token has no action in that state (';' ')' ']' '}' ',' lex only as themselves before a space; ' > '
   as '>' or the scanner's template end, which it returns whenever that is valid; 'x' as an identifier) has
   its first error handled at the inserted token, one byte after the position and so before the end of the
   next token, which a repair must pass (`diagnostics._repairs`): it fails, and the search goes on to the
   next candidate. A skipped candidate that would have settled an error before its position and ended the
   search leaves the answer as it was: every later candidate fails then (`_first_repair`'s argument).
4. The words of the error's stretch are probed too, where the stretch holds only printable ASCII with no
   '/' (no comment), no '<' and no character that starts no token, and the first position follows whitespace
   or a character that is a token alone ('(' ',' '@' ...): then each comment goes between two tokens of the
   window, after whitespace, splitting none, and the probe's tokens and states are the window's up to its
   first error. So are the words after the stretch, up to the first byte after it that is not of that kind:
   from the first position to each word probed the text is as safe as the stretch. The first word whose state
   has no action for it (as a keyword where it is one and has an action there, else as an identifier:
   `ts_parser__lex` and the keyword fallback in `ts_parser__advance`; only identifiers and keywords are made
   of letters, `word: identifier`) bounds the first error: the parse fails there, or earlier (the comments
   after a failure may show any state, but up to it they are right). The bytes read until that error was
   handled end with the character the lexer decoded after that word: no token before it reads past the
   whitespace before it, and no look-ahead passes the stop of 2. Every candidate inserted at or after that
   bound shares those bytes, handles the same error at or before that word, and so has an error starting
   before its own insertion point: none repairs. A bound past the stretch skips none of this search's
   candidates; it serves the next search, whose window may start where this one's does
   (`diagnostics._carried_cut`).
5. The later positions (the error's last token, its end) are probed as well where the words are (4.) and the
   comment there splits nothing either: it follows whitespace or a character that is a token alone, or
   whitespace follows it. A candidate at such a position p shares the window's bytes up to p and then a
   space, as the probe does, so the probe's tokens before p are the candidate's. Either no error was handled at
   a token before p: then the comment there was lexed in the candidate's state at p, and a token with no action
   in it fails as in 3.; or one was, at a token d before p: then the candidate reads the same tokens in the same
   states up to d and handles the same error there, which starts at or before d, before p and so before the
   next token: every candidate at p fails, and skipping some of them changes nothing. As at the first position,
   the state read at p, whichever it is, only ever skips candidates that fail.
6. A candidate whose token the state read at its position (3., 5.) shifts, with no reduction first, is in the state
   `next_state` gives after it: the token's entry has that one action (the entries with two, a repetition's REDUCE
   and its SHIFT_REPEAT, are left out by state: `_REDUCED_FIRST`), the version stays the only one, and no lexing
   looks past the space after the token (3.). The parser then lexes what follows in that state. Where that is,
   after whitespace only, a word (4.: as a keyword or an identifier) or a number (an int or float literal: nothing
   else begins with a digit, and the error lexing finds those too) with no action in that state, the version
   pauses on it and the error handled there starts at or before it (settling.py, 2.): at or before the start of
   the next token after the error, which a repair must carry the parser past (`diagnostics._repairs`). The
   candidate fails. Where the state read is not the parser's, every candidate at that position fails (3., 5.).
   So does a '/' that whitespace follows (the first keystroke of a line commented out): it starts no comment and
   no '/=', so the scanner (which reads '/' only for a block comment) and the lexer read it as '/' alone, or as an
   error token where the state's lex mode has no '/'; either has no action, and the error is handled at it.
7. The words before the first character that 4. calls unsafe are probed even where the error's stretch holds one
   (a '<' of a template list, a comment): 4.'s argument for a word reads only the text from the first position to
   it, which is then as safe as a safe stretch's; so is 5.'s for a later position up to it. Such a stretch, the
   words of a statement that fell to module scope ('i < 4u', 'subgroupMatrixStore<row_major>(...)'), mostly fails
   at its first word, and the cut then skips every later position's candidates.
8. A probed position whose comment shows no valid state (the error state, or none: a leaf made while the stack
   versions were several) follows an error handled before it: with no error handled, the one version lexes the
   comment in the state it is in, a valid one (1., 2.; a comment never pauses a version in a valid state). The
   probe's tokens before the position are each candidate's there and at every later position (the comments split
   none, 4., 5.), so each of those handles the same error at the same token, before its own insertion point: every
   candidate at that position and after it fails (3., 5.). At the first position alone, where its comment may split
   a token (4.), only the candidates there share the probe's tokens; there the probe reads no other position.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import tree_sitter as ts

from .parser import wgsl_language
from .settling import DECODED

# What each candidate token may be lexed as, before the space that follows it (diagnostics._padded).
_LEXED_AS = {";": (";", False), "}": ("}", False), ")": (")", False), "]": ("]", False), ",": (",", False),
             ">": (">", False), "x": ("identifier", True)}
_TEMPLATE_END = "_template_end"
_COMMENT = b" //\n"
# Words probed at most; a longer stretch is probed up to here.
MAX_PROBES = 24

# A word after whitespace starts a token where no comment can hold it, and the token is the whole word (4.). The
# others are tokens alone: no token of the grammar's lexer (tree-sitter-wgsl/src/parser.c, `ts_lex`) goes on after
# one, and the scanner reads none of them. '@' among them lets the position between the two '@' of '@@' be probed: all
# seven candidates there were parsed, where the state after the first '@' admits only a name.
_ENDS_A_TOKEN = tuple(bytes([c]) for c in b" \t\n\r()[]{},;:@")  # whitespace first
_WORD = re.compile(rb"(?<=[\t\n\r ])[A-Za-z][A-Za-z0-9_]*")
# Outside printable ASCII, the characters that start no token (lexed in error mode, across whitespace), and
# the two that could open a comment or a template list's look-ahead.
_UNSAFE = re.compile(rb"[^\t\n\r -~]|[\"#$'?\\`/<]")


@dataclass(frozen=True, slots=True)
class Plan:
    """The probe's text; its comments go before each gap: the first position, the words' starts and the later
    positions (5.)."""
    data: bytes
    gaps: tuple[int, ...]
    words: dict[int, bytes]
    later: frozenset[int] = frozenset()


# Whether the words (and later positions) before the first unsafe character are probed where the error's stretch holds
# one (7.); off, such a stretch has its first position probed alone, which this must always agree with
# (tests/test_syntax_repair_prefix.py).
PREFIX_PROBES = True
# Whether a probed position that shows no valid state skips its candidates and every later position's (8.); off, they
# are parsed, which this must always agree with (tests/test_syntax_repair_prefix.py).
FAILED_POSITIONS = True


@dataclass(frozen=True, slots=True)
class Ahead:
    """The parser's state at the first position (3.), the bound past which no candidate can repair (4.), the
    states read at later positions (5.), and the first position from which none can because an error came before it
    (8.); None where the probe does not show it."""
    state: int | None
    cut: int | None
    later: dict[int, int] = field(default_factory=dict)
    failed: int | None = None


def plan(text: bytes, first: int, last: int, later: tuple[int, ...] = ()) -> Plan:
    """The probe for the repairs of `text` from `first` (the first position tried) to `last` (the last one), and
    at the `later` positions between."""
    words = {}
    probed = set()
    # A comment at the first position may split a token there ('>=' read as '>' '='), which only the candidates
    # share; the words' states must be those of the window itself (4.).
    if first == 0 or text[first - 1 : first] in _ENDS_A_TOKEN:
        unsafe = _UNSAFE.search(text, first)
        safe = len(text) if unsafe is None else unsafe.start()
        if safe >= last or PREFIX_PROBES:
            # Past the last position too, as far as the text stays as safe (4.): the window after a broken function
            # starts at it, and its search is cut by this one's probe only where the word the parse fails at is
            # probed; that is often the next statement's first word, after the error's stretch. Where the stretch
            # itself is unsafe, up to its first unsafe character (7.).
            for word in _WORD.finditer(text, first, safe):
                if len(words) >= MAX_PROBES:
                    break
                words[word.start()] = word.group()
            probed = {at for at in later if first < at <= min(last, safe) and _splits_nothing(text, at)}
    gaps = sorted({first} | words.keys() | probed)
    pieces, previous = [], 0
    for gap in gaps:
        pieces += [text[previous:gap], _COMMENT]
        previous = gap
    pieces.append(text[previous:])
    return Plan(b"".join(pieces), tuple(gaps), words, frozenset(probed))


def _splits_nothing(text: bytes, at: int) -> bool:
    """Whether a comment at `at` falls between two tokens of every reading of the window (5.)."""
    return text[at - 1 : at] in _ENDS_A_TOKEN or at == len(text) or text[at : at + 1] in _ENDS_A_TOKEN[:4]


def read(probe: Plan, tree: ts.Tree, text: bytes) -> Ahead | None:
    """What the probe's tree shows (the module's argument), or None where it shows nothing."""
    root = tree.root_node
    first = probe.gaps[0]
    if not _stop_before(root, text, first):
        return None
    states = []
    for index, gap in enumerate(probe.gaps):
        at = gap + index * len(_COMMENT) + 1
        leaf = root.descendant_for_byte_range(at, at + 2)
        if leaf is None or leaf.type != "line_comment" or leaf.start_byte != at or leaf.end_byte != at + 2:
            return None
        states.append(leaf.parse_state)
    later = {gap: known for gap, known in zip(probe.gaps, states) if gap in probe.later and _valid(known)}
    state = states[0] if _valid(states[0]) else None
    # Each gap lies where its comment splits nothing, but the first where a token may end after it (plan): there the
    # probe's reading is the first position's candidates' own, and says nothing of later ones (8.).
    failed = next((gap for gap, known in zip(probe.gaps, states) if not _valid(known)), None) \
        if FAILED_POSITIONS and (first == 0 or text[first - 1 : first] in _ENDS_A_TOKEN) else None
    cut = None
    for gap, known in zip(probe.gaps, states):
        word = probe.words.get(gap)
        if word is not None and _valid(known) and not _word_may_shift(known, word):
            end = gap + len(word)
            cut = end + (1 if end < len(text) and text[end] < 0x80 else DECODED)  # the character decoded after it
            break
    return None if state is None and cut is None and not later and failed is None \
        else Ahead(state, cut, later, failed)


def _stop_before(root: ts.Node, text: bytes, first: int) -> bool:
    """Whether a ';', '{' or ':' token comes after the last '<' outside comments before `first` (2.). A leaf of the
    probe's tree is a token the parser read, inside an error or not; a leaf of another type over that byte, or none,
    shows nothing."""
    end = first
    while True:
        at = max(text.rfind(b";", 0, end), text.rfind(b"{", 0, end), text.rfind(b":", 0, end),
                 text.rfind(b"<", 0, end))
        if at < 0:
            return False
        leaf = root.descendant_for_byte_range(at, at + 1)
        if leaf is None:
            return False
        if leaf.type in ("line_comment", "block_comment"):
            end = leaf.start_byte
            continue
        return leaf.start_byte == at and leaf.type == text[at : at + 1].decode() and leaf.type != "<"


def may_shift(state: int, token: str) -> bool:
    """Whether the candidate `token`, lexed in `state`, may have an action there (3.)."""
    valid = _symbols(state)
    if _id(*_LEXED_AS[token]) in valid:
        return True
    return token == ">" and _id(_TEMPLATE_END, False) in valid


# The entries of the parse table with two actions for a candidate's token (tests/test_syntax_repair_next_token.py
# reads them from tree-sitter-wgsl/src/parser.c): there the parser reduces before it shifts (1.), into a state that
# `next_state` does not give.
_REDUCED_FIRST = frozenset({(5, "x"), (5, ";"), (165, ";"), (378, ","), (403, ","), (408, ","), (410, ","),
                            (420, ","), (423, ","), (437, ",")})
# What follows an insertion point, after whitespace only: a word that no non-ASCII character continues, a digit, or
# a '/' before whitespace (6.).
_NEXT_TOKEN = re.compile(rb"[ \t\n\r]*(?:([A-Za-z][A-Za-z0-9_]*)(?![A-Za-z0-9_\x80-\xff])|[0-9]|(/)(?=[ \t\n\r]))")
# Whether a '/' before whitespace is read as the token after a candidate (6.); off, only words and numbers are, which
# this must always agree with (tests/test_syntax_repair_prefix.py).
NEXT_SLASH = True


def fails_on_the_next_token(state: int, token: str, text: bytes, at: int) -> bool:
    """Whether the candidate `token` inserted at `at` of `text`, where the parser is in `state`, is shifted into a
    state that has no action for the token after it (6.)."""
    if token == ">" or (state, token) in _REDUCED_FIRST:
        return False  # '>' may be the scanner's template end, in a state of its own
    after = wgsl_language().next_state(state, _id(*_LEXED_AS[token]))
    if not after:
        return False  # a reduction comes first, or no action
    found = _NEXT_TOKEN.match(text, at)
    if found is None:
        return False
    word = found.group(1)
    if word is not None:
        return not _word_may_shift(after, word)
    valid = _symbols(after)
    if found.group(2) is not None:
        return NEXT_SLASH and _id("/", False) not in valid
    return _id("int_literal", True) not in valid and _id("float_literal", True) not in valid


def _word_may_shift(state: int, word: bytes) -> bool:
    valid = _symbols(state)
    keyword = _id(word.decode(), False)
    return (keyword != 0 and keyword in valid) or _id("identifier", True) in valid


def _valid(state: int) -> bool:
    # 0 is the error state; 65535 (TS_TREE_STATE_NONE) marks a node made while versions were several.
    return 0 < state < wgsl_language().parse_state_count


@functools.cache
def _symbols(state: int) -> frozenset[int]:
    return frozenset(symbol for symbol, _ in wgsl_language().lookahead_iterator(state))


@functools.cache
def _id(name: str, named: bool) -> int:
    language = wgsl_language()
    found = language.id_for_node_kind(name, named)
    if found:
        return found
    # Hidden symbols (the scanner's template end) are not found by name: their kinds are searched.
    return next((symbol for symbol in range(1, language.node_kind_count)
                 if language.node_kind_for_id(symbol) == name and language.node_kind_is_named(symbol) == named), 0)
