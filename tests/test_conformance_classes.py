"""The conformance benchmark tells Tint's environment-only rejections (valid WGSL the device or browser
does not allow) from language errors by Tint's own message; checked here on what the pinned Tint says."""

from __future__ import annotations

import pytest

from benchmarks.conformance import rejection_kind

PIXEL_LOCAL = """enable chromium_experimental_pixel_local;
struct Attachments { a: u32 }
var<pixel_local> attachments: Attachments;
@fragment fn fs() { attachments.a = 1u; }
"""
MISSING_ENABLE = """@fragment fn fs(@builtin(primitive_index) p: u32) -> @location(0) vec4f { return vec4f(f32(p)); }
"""
NAGA_ONLY = """var<push_constant> k: u32;
"""


@pytest.mark.tint
def test_an_extension_the_device_lacks_is_environment_only(tint):
    message = tint.compile(PIXEL_LOCAL).errors[0].message
    assert rejection_kind(message) == "environment", message


@pytest.mark.tint
@pytest.mark.parametrize("source", [MISSING_ENABLE, NAGA_ONLY], ids=["missing enable", "naga-only feature"])
def test_what_the_author_can_fix_in_the_wgsl_is_a_language_error(tint, source):
    message = tint.compile(source).errors[0].message
    assert rejection_kind(message) == "language", message


def test_an_unshipped_language_feature_is_environment_only():
    # Tint's own text (validator.cc) for binding arrays where the browser has not shipped them.
    assert rejection_kind("use of 'binding_array' requires the 'sized_binding_array' language feature, "
                          "which is not allowed in the current environment") == "environment"
