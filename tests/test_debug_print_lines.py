"""`// coop: print` and `// coop: watch` comments are found wherever they stand, with the same spans and
fixes whether the lint reads every line or only the lines that name `coop:` (debug_prints.py)."""

from __future__ import annotations

from coop_lsp.analysis.debug_prints import debug_print_diagnostics
from coop_lsp.semantic.checker import check
from coop_lsp.syntax import parse

KERNEL = """\
// coop: watch first
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
// é coop: not a print, and // coop: print "x=%u", 1u
@compute @workgroup_size(1)
fn main() {
  let v = 1.0; /* é, ü */ // coop: print "v=%f", v
  out[0] = v;
}
// coop: print "last=%d" 2"""


def _found(text: str) -> list[tuple[str, str, str]]:
    parsed = parse(text)
    data = parsed.source.data
    out = []
    _, model = check(parsed)
    for d in debug_print_diagnostics(parsed.root, parsed.source, model):
        cut = d.fixes[0].edits[0].span if d.fixes else None
        out.append((d.code, data[d.span.start:d.span.end].decode(),
                    data[cut.start:cut.end].decode() if cut is not None else ""))
    return out


def test_each_marked_comment_is_found_once_with_its_span_and_fix() -> None:
    assert _found(KERNEL) == [
        ("R002", "// coop: watch first", "// coop: watch first\n"),
        ("R002", '// coop: print "x=%u", 1u', ' // coop: print "x=%u", 1u'),
        ("R002", '// coop: print "v=%f", v', ' // coop: print "v=%f", v'),
        ("R002", '// coop: print "last=%d" 2', '// coop: print "last=%d" 2'),
        ("R003", '// coop: print "last=%d" 2', ""),
    ]


def test_windows_line_ends_stay_in_the_span() -> None:
    assert _found(KERNEL.replace("\n", "\r\n")) == [
        ("R002", "// coop: watch first\r", "// coop: watch first\r\n"),
        ("R002", '// coop: print "x=%u", 1u\r', ' // coop: print "x=%u", 1u\r'),
        ("R002", '// coop: print "v=%f", v\r', ' // coop: print "v=%f", v\r'),
        ("R002", '// coop: print "last=%d" 2', '// coop: print "last=%d" 2'),
        ("R003", '// coop: print "last=%d" 2', ""),
    ]


def test_bytes_that_are_not_utf8_keep_the_offsets_of_the_replaced_text() -> None:
    found = _found(KERNEL.encode() + b'\n// coop: print "a" \xff\n')
    assert found[-2:] == [("R002", '// coop: print "a" \ufffd', '// coop: print "a" \ufffd\n'),
                          ("R003", '// coop: print "a" \ufffd', "")]


def test_a_kernel_without_the_marker_has_no_findings() -> None:
    assert _found(KERNEL.replace("coop:", "note:")) == []
