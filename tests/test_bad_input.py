"""Bad input never crashes or hangs the syntax layer; it gets a clear diagnostic.

Each input runs in a child process with a generous limit, so that a hang
fails this test instead of stalling the suite. The limit is a hang detector,
not a speed target (speed is measured in benchmarks/).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap

import pytest

from coop_lsp.lint import lint_source

HANG_LIMIT_S = 300  # a 10 MB kernel takes 25-55 s alone, and the suite runs a test per core beside it

_KERNEL = textwrap.dedent("""\
    @group(0) @binding(0) var<storage, read_write> data: array<vec4<f32>>;
    @compute @workgroup_size(64)
    fn main(@builtin(global_invocation_id) id: vec3<u32>) {
      let v = data[id.x];
      data[id.x] = vec4<f32>(v.x * 2.0, v.y + 1.0, select(0.0, 1.0, v.z > 0.0), f32(id.y & 3u));
    }
    """)


def _lint_in_child(make_input: str) -> dict:
    """Builds an input in a child process (from Python source) and lints it there."""
    program = textwrap.dedent(f"""\
        import json, random, sys
        from coop_lsp.lint import lint_source
        data = {make_input}
        result = lint_source(data)
        print(json.dumps({{
            "count": len(result.diagnostics),
            "codes": sorted({{d.code for d in result.diagnostics}}),
            "messages": [d.message for d in result.diagnostics[:5]],
            "in_range": all(0 <= d.span.start <= d.span.end <= len(result.source.data)
                            for d in result.diagnostics),
        }}))
        """)
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                               timeout=HANG_LIMIT_S)
    assert completed.returncode == 0, completed.stderr[-2000:]
    return json.loads(completed.stdout)


BAD_INPUTS = {
    "binary garbage": ("bytes(random.Random(7).randrange(256) for _ in range(1_000_000))", {"S001", "S005"}),
    "10 MB kernel": ("__import__('benchmarks.common').common.synthetic_kernel(target_bytes=10_000_000)", set()),
    "directive after declarations": (f"{_KERNEL!r} + 'enable f16;'", {"S001"}),
    "10 MB kernel with a syntax error": (
        "(lambda k: k[: len(k) // 2] + 'fn broken() { let x = 1 }' + k[len(k) // 2 :])"
        "(__import__('benchmarks.common').common.synthetic_kernel(target_bytes=10_000_000))", {"S001"}),
    "10,000 nested parentheses": ("'fn f() { let x = ' + '(' * 10000 + '1' + ')' * 10000 + '; }'", set()),
    "10,000 unclosed parentheses": ("'fn f() { let x = ' + '(' * 10000 + '1; }'", {"S001"}),
    "10,000 unclosed braces": ("'fn f() ' + '{' * 10000", {"S001"}),
    "100,000 template-like openers": ("'fn f() { let x = ' + 'a<' * 100000 + 'b; }'", {"S002"}),
    "unterminated block comment": ("'fn f() {}\\n/* /* */ never closed\\nfn g() {}'", {"S004"}),
    "non-UTF-8 bytes": ("b'fn f() { let x\\xff\\xfe = 1; }'", {"S005"}),
    "NUL bytes": ("b'fn f() {\\x00\\x00 let x = 1; }'", {"S001"}),
    "empty file": ("''", set()),
    "only a BOM": ("'\\ufeff'", set()),
}


@pytest.mark.parametrize("name", BAD_INPUTS)
def test_bad_input_gets_diagnostics_not_a_crash(name):
    make_input, expected_codes = BAD_INPUTS[name]
    report = _lint_in_child(make_input)
    assert report["in_range"]
    assert expected_codes <= set(report["codes"]), report
    if not expected_codes:
        assert report["count"] == 0, report


def test_diagnostics_are_capped_per_code():
    text = "fn f() { " + "let a = 1 & 2 | 3; " * 500 + "}"
    codes = [d.code for d in lint_source(text).diagnostics]
    assert codes.count("S002") == 101  # 100 findings and one "too many" note


def test_random_edits_of_a_kernel_never_crash():
    rng = random.Random(11)
    alphabet = list("{}()[]<>;:,.=+-*/&|!~@ \n") + ["fn", "let", "var", "loop", "/*", "*/", "0x1p", "1u"]
    for _ in range(300):
        text = list(_KERNEL)
        for _ in range(rng.randrange(1, 6)):
            position = rng.randrange(len(text) + 1)
            if rng.random() < 0.5 and text:
                del text[position : position + rng.randrange(1, 8)]
            else:
                text[position:position] = rng.choice(alphabet)
        source = "".join(text)
        result = lint_source(source)
        for diagnostic in result.diagnostics:
            assert 0 <= diagnostic.span.start <= diagnostic.span.end <= len(result.source.data)
            assert diagnostic.message
