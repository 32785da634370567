"""A lint leaves no reference cycles behind: what it built is freed the moment the last reference to its
result goes, not at the cyclic garbage collector's next full pass.

The server keeps full collections for idle moments and coop-lint's workers lint file after file, so a lint
whose model sits in a cycle (a recursive closure holding the checker was enough) keeps every earlier
version's model alive until a full collection, and makes each collection walk them. These tests lint with
the collector off and in its debugging mode that keeps what it finds, and ask that it find nothing.
"""

from __future__ import annotations

import gc
import random
import types
from pathlib import Path

import pytest

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.lint.config import Settings
from coop_lsp.lint.files import PLAIN, lint_file
from coop_lsp.source.preprocess import expand

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.wgsl"))
TEMPLATE = ROOT / "examples" / "templates" / "cpp" / "gemm.wgsl"


_OURS = ("coop_lsp.", "tree_sitter")
_OUR_FILES = str(ROOT / "coop_lsp")


def _is_ours(thing) -> bool:
    """Whether `thing` is made by this project's code: an instance of its classes or of tree-sitter's, one
    of its functions, or a frame running it. A cycle of ours always holds one of these."""
    if isinstance(thing, types.FrameType):
        return thing.f_code.co_filename.startswith(_OUR_FILES)
    module = thing.__module__ if isinstance(thing, types.FunctionType) else type(thing).__module__
    return isinstance(module, str) and module.startswith(_OURS)


def _name(thing) -> str:
    return thing.__qualname__ if isinstance(thing, types.FunctionType) else type(thing).__qualname__


def _cyclic_garbage(action) -> list[str]:
    """The types of what `action()` left in reference cycles (after a first call, so that lazy imports and
    caches filled on first use are not counted).

    Only cycles that hold something of ours count. Other threads of the same process free their own
    cycles whenever they run, during `action()` too: an earlier test's Dask client leaves Tornado's loop
    thread behind, whose timeouts' callbacks became garbage in the middle of a lint here."""
    action()
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        action()
        gc.collect()
        if not any(_is_ours(thing) for thing in gc.garbage):
            return []
        return sorted({_name(thing) for thing in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()
        if enabled:
            gc.enable()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_linting_an_example_leaves_no_cycles(path):
    settings, data = Settings(), path.read_bytes()
    assert _cyclic_garbage(lambda: lint_file(data, settings, None, kind=PLAIN)) == []


def test_linting_a_matrix_heavy_kernel_with_calls_between_functions_leaves_no_cycles():
    # The aliasing check walks the call graph callees first: the walk used to be a closure calling itself.
    data = matrix_heavy_kernel(random.Random(7), functions=4).encode()
    settings = Settings()
    assert _cyclic_garbage(lambda: lint_file(data, settings, None, kind=PLAIN)) == []


def test_expanding_a_template_with_conditions_and_macros_leaves_no_cycles():
    data = TEMPLATE.read_bytes()
    for defines in ({"TILE_8": "1"}, {"TILE_16": "1", "ACC_F16": "1"}):
        assert _cyclic_garbage(lambda: expand(TEMPLATE, data, defines)) == []


def test_evaluating_conditions_through_macros_leaves_no_cycles():
    # `#if` operands that are macros are evaluated through each other: that evaluation used to be a closure
    # calling itself.
    data = (b"#define LEVEL 2\n#define DOUBLE (LEVEL * 2)\n#if DOUBLE > 3 && defined(LEVEL)\n"
            b"const tile = 16u;\n#else\nconst tile = 8u;\n#endif\n")
    expansion = expand(None, data)
    assert b"16u" in expansion.data and b"8u" not in expansion.data
    assert _cyclic_garbage(lambda: expand(None, data)) == []
