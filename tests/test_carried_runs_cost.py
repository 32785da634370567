"""What an unchanged function costs a typed character in the semantic layer: the Python operations and calls in
coop_lsp/semantic/ per function, found as the difference between two modules of 6 and 24 functions typed into
alike. Carried one declaration at a time (before carried_runs.py and module_symbols.py) they were about 900
operations and 8 calls (its symbol's __init__, its header and body records' applications, the body's model
segment and uses); in runs, the loops are C's.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import coop_lsp.semantic
from benchmarks.common import matrix_library_kernel
from coop_lsp.core.text import Span


def _work_per_version(functions: int) -> dict:
    """Python operations and calls in coop_lsp/semantic/ while a typed character's version is checked (the one
    before it having the same syntax error in the same body, as the typing benchmark types)."""
    from tests.test_edit_cost import Editor
    folder = str(Path(coop_lsp.semantic.__file__).parent)
    text = matrix_library_kernel(random.Random(5), functions=functions)
    loop = text.index("for (", text.index("fn gemm_1("))
    text = f"{text[:loop]}// {text[loop:]}"
    line = text.index("\n", loop) + 1
    editor = Editor(text)
    editor.change(f"{text[:line]}let y = 1\n{text[line:]}")
    counts = {"operations": 0, "calls": 0}

    def trace(frame, event, arg):
        # (the semantic layer's frames, and the dataclasses' generated ones it calls, as Symbol's __init__)
        name = frame.f_code.co_filename
        if not (name.startswith(folder) or name == "<string>"):
            return None
        if event == "call":
            counts["calls"] += 1
            frame.f_trace_opcodes, frame.f_trace_lines = True, False
        elif event == "opcode":
            counts["operations"] += 1
        return trace

    editor.document.replace(Span(line + len("let y = 1"), line + len("let y = 1")), ".")
    assert editor.document.tree.root_node.has_error
    sys.settrace(trace)
    try:
        editor.analyse()
    finally:
        sys.settrace(None)
    assert editor.reuse.bodies.carry.carried >= 2 * functions
    return counts


def test_an_unchanged_function_costs_a_typed_character_few_python_operations_and_calls() -> None:
    small, large = _work_per_version(6), _work_per_version(24)
    per_function = {name: (large[name] - small[name]) / 18 for name in small}
    assert per_function["operations"] <= 350, per_function
    assert per_function["calls"] <= 2, per_function
