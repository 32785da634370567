"""Extensions that need a device feature (D003): an error per configured target that lacks it;
with no target, no error, and an information note naming the known targets that lack it."""

from __future__ import annotations

import pytest

from coop_lsp.core.diagnostic import Severity
from coop_lsp.lint import lint_source

CLIP = """enable clip_distances;
struct V { @builtin(position) p: vec4f, @builtin(clip_distances) c: array<f32, 2> }
@vertex fn vs() -> V { return V(); }
"""
FRAMEBUFFER_FETCH = """enable chromium_experimental_framebuffer_fetch;
@fragment fn fs(@color(0) c: vec4f) -> @location(0) vec4f { return c; }
"""

PIXEL_LOCAL = """enable chromium_experimental_pixel_local;
struct Attachments { a: u32, b: i32, c: f32 }
var<pixel_local> attachments: Attachments;
@fragment fn fs(@builtin(position) position: vec4f) { attachments.a += u32(position.x); }
"""


def findings(text: str, *targets: str):
    return [(d.code, d.severity, d.message) for d in lint_source(text, targets=targets).diagnostics]


def test_a_target_without_the_feature_gets_an_error_naming_it():
    (code, severity, message), = findings(CLIP, "apple-m")
    assert (code, severity) == ("D003", Severity.ERROR)
    assert "'clip-distances'" in message and "apple-m" in message


def test_a_target_with_the_feature_is_quiet():
    # The H100's captured feature list has clip-distances (benchmarks/results/adapter_dawn_h100.json).
    assert findings(CLIP, "nvidia-h100") == []


def test_each_target_that_lacks_it_is_named_once():
    named = [m for c, _, m in findings(CLIP, "nvidia-h100", "apple-m", "lavapipe") if c == "D003"]
    assert len(named) == 2 and "apple-m" in named[0] + named[1] and "lavapipe" in named[0] + named[1]


def test_with_no_target_only_a_note_lists_the_targets_that_lack_it():
    (code, severity, message), = findings(CLIP)
    assert (code, severity) == ("D003", Severity.INFO)
    assert "apple-m" in message and "nvidia-h100" not in message


def test_framebuffer_fetch_no_known_target_has():
    (code, severity, message), = findings(FRAMEBUFFER_FETCH)
    assert severity is Severity.INFO and "'framebuffer-fetch'" in message and "nvidia-h100" in message
    assert [c for c, s, _ in findings(FRAMEBUFFER_FETCH, "nvidia-h100") if s is Severity.ERROR] == ["D003"]


@pytest.mark.parametrize("extension, feature", [
    ("dual_source_blending", "dual-source-blending"),
    ("primitive_index", "primitive-index"),
    ("chromium_experimental_pixel_local", "pixel-local-storage"),
])
def test_every_feature_extension_is_known(extension, feature):
    text = f"enable {extension};\n@compute @workgroup_size(1) fn main() {{}}\n"
    errors = [m for c, s, m in findings(text, "lavapipe") if c == "D003"]
    assert errors and feature in errors[0]


def test_extensions_every_known_target_has_give_no_note():
    assert findings("enable f16;\n@compute @workgroup_size(1) fn main() { _ = 1h; }\n") == []


def test_pixel_local_memory_is_valid_wgsl_only_the_device_can_refuse_it():
    # Tint accepts this on a device with pixel-local storage; Dawn's test/tint has it.
    (code, severity, message), = findings(PIXEL_LOCAL)
    assert (code, severity) == ("D003", Severity.INFO) and "pixel-local-storage" in message
    assert [(c, s) for c, s, _ in findings(PIXEL_LOCAL, "nvidia-h100")] == [("D003", Severity.ERROR)]
