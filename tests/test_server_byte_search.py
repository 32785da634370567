"""Each keystroke's searches of bytes for bytes (a comment edit's plan, the template sniff of the edited
bytes, the didChange decoder) use `find`: `needle in data` first asks the needle for a byte value
(`__index__`), and for a bytes needle that raised and dropped a TypeError, its message formatted, about
twenty times per keystroke. Counted with needles that say when they are asked; the answers stay the same."""

from __future__ import annotations

import random

from coop_lsp.server import comment_edits
from coop_lsp.server.comment_edits import Shown, plan
from coop_lsp.source import sniff
from coop_lsp.syntax import Document


class _Needle(bytes):
    asked = 0

    def __index__(self):
        _Needle.asked += 1
        raise TypeError("not a byte value")


TEXT = """// header comment
/* a block
   comment */
@compute @workgroup_size(8)
fn main() {
  let x = 1u;   // trailing note
  var y = array<u32, 4>(1u, 2u, 3u, 4u);
  /* inner */ y[0] = x;
}
"""


def _plans(text: str, rng: random.Random) -> list:
    document = Document(text)
    parsed = document.parsed
    settings = object()
    shown = Shown(parsed, 1, (), [], settings, plain=True)
    data = parsed.source.data
    found = []
    for _ in range(400):
        start = rng.randrange(len(data))
        end = min(len(data), start + rng.choice([0, 0, 1, 2, 5]))
        typed = rng.choice(["x", " ", "", "/", "*", "\n", "é", "#", "coop:", "{{", "<", "  "])
        edit = plan(shown, parsed, start, end, typed, settings, unmarked=rng.random() < 0.5)
        found.append(None if edit is None else (edit.start, edit.end, edit.delta, edit.errored))
    return found


def _sniffs(rng: random.Random) -> list:
    pieces = ["fn f() {}", "#if A", "{{ x }}", "${y}", "@if", "@else", "import x;", "// #", "let a = 1;", "\n", "é"]
    found = []
    for _ in range(300):
        data = "".join(rng.choice(pieces) for _ in range(rng.randrange(6))).encode()
        start = rng.randrange(len(data) + 1)
        found.append((sniff.may_be_template(data), sniff.marks_near(data, start, rng.randrange(4))))
    return found


def test_bytes_are_searched_without_asking_for_a_byte_value(monkeypatch):
    expected = (_plans(TEXT, random.Random(1)), _sniffs(random.Random(2)))
    assert any(p is not None for p in expected[0]) and any(a for a, _ in expected[1])  # both answers occur
    monkeypatch.setattr(sniff, "_MARKS", tuple(_Needle(mark) for mark in sniff._MARKS))
    monkeypatch.setattr(comment_edits, "_MARKER", _Needle(comment_edits._MARKER))
    monkeypatch.setattr(comment_edits, "_ENCODED_BREAKS", tuple(_Needle(b) for b in getattr(
        comment_edits, "_ENCODED_BREAKS", ())), raising=False)
    _Needle.asked = 0
    assert (_plans(TEXT, random.Random(1)), _sniffs(random.Random(2))) == expected
    assert _Needle.asked == 0  # `in` asked each needle (the old code: thousands here)
