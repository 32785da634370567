"""Runs a kernel with its run description and checks the results: the runner's entry point.

    report = run_kernel(Path("gemm.wgsl"))             # reads gemm.run.toml beside it
    print(report.render("text"))

The kernel runs in a child process (coop_lsp.runner.worker) with a time
limit; a kernel that hangs or crashes the driver is killed and reported, and
the caller keeps running.
"""

from __future__ import annotations

import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace

from ..semantic.builtins.language import DAWN_MATRIX_FEATURE, EXTENSION
from ..syntax import nodes as sn
from .description import (BACKENDS, RunDescription, RunDescriptionError, default_tolerance, load_run_description,
                          sidecar_path)
from .kernel import KernelError, KernelModule, load_kernel
from .lowering import emulate, emulated_matrix_bytes, to_tint, uses_subgroup_operations
from .roofline import describe as describe_roofline
from .roofline import roofline_of
from .binding_sizes import too_small
from .blame import BLAME_OUTPUT
from .bounds import CANARY, compare_runs
from .subgroups import judged_size, without_size_control

DTYPES = {"f32": "float32", "f16": "float16", "i32": "int32", "u32": "uint32", "i8": "int8", "u8": "uint8"}
ELEMENT_BYTES = {"f32": 4, "f16": 2, "i32": 4, "u32": 4, "i8": 1, "u8": 1}
# How a kernel may declare the array that holds a binding's data. WGSL has no
# 8-bit type, so bytes come packed in words; f16 data may be read as words too,
# which is how fast kernels copy 8 halves at a time (vec4<u32>).
KERNEL_VIEWS = {"i8": {"i32", "u32"}, "u8": {"u32", "i32"}, "f16": {"f16", "u32"}}


@dataclass
class OutputCheck:
    name: str
    verdict: str  # "correct" or "incorrect"
    max_abs_error: float
    max_rel_error: float
    worst_index: list[int]
    worst_value: float
    expected_value: float
    atol: float
    rtol: float
    # Where the kernel's own precision judged it: "f16 accumulation over K = 4096", and the bound at the
    # worst element (the expected error of that accumulation there).
    judged: str = ""
    bound: float | None = None
    within_output_tolerance: bool = True  # whether the output type's tolerance alone passes it
    # Why an incorrect result may be the kernel's own precision, and how to judge it, where the runner
    # could not judge that precision itself (an expression check whose reference is no visible product).
    hint: str = ""


@dataclass
class RunReport:
    kernel: str
    status: str = "error"  # correct, incorrect, unchecked, failed, timeout, cancelled, error
    entry_point: str = ""
    backend: str = ""  # "dawn" or "wgpu"
    emulated: bool = False
    notes: list[str] = field(default_factory=list)
    adapter: str = ""
    error: str = ""
    stage: str = ""
    checks: list[OutputCheck] = field(default_factory=list)
    timing: dict = field(default_factory=dict)
    tflops: float | None = None
    gbps: float | None = None
    robustness: bool = True
    dispatch: tuple = ()
    wall_s: float = 0.0
    # Fractions of the adapter's peak, from the device profile that names it.
    peak_fraction: float | None = None
    memory_fraction: float | None = None
    peak_profile: str = ""
    peak_basis: str = ""  # which matrix peak, and why: the configuration the kernel multiplies with
    peak_missing: str = ""  # why a profile that names the adapter gave no matrix peak
    toggles: list[str] = field(default_factory=list)
    # Compiler errors placed in the user's kernel: {"line", "column" (1-based), "message", "exact"}; exact is
    # False where the error was in code the runner generated and points at the nearest line of the kernel.
    source_errors: list[dict] = field(default_factory=list)
    # Where the run sits on the target's roofline (see roofline.py).
    roofline: dict = field(default_factory=dict)
    # Subgroups: the size the emulation ran, or on Dawn what a probe pipeline like the kernel's read back
    # ({"used": n, "range": {...}}); the kernel's @subgroup_size where it pins one.
    subgroups: dict = field(default_factory=dict)
    # The bounds-check comparison (coop_lsp.runner.bounds): {"in_bounds", "lines", "differs", ...}.
    bounds: dict = field(default_factory=dict)
    # coop-lint's findings that foretold a failure to compile or create the pipeline (runner.predictions).
    predicted: list[dict] = field(default_factory=list)
    pinned_subgroup_size: int | None = None
    # Who wrote the wrong elements (coop_lsp.runner.blame_report): filled by an instrumented re-run.
    blame: dict = field(default_factory=dict)
    workgroup_invocations: int | None = None
    # Prints and watches (coop_lsp.runner.debug_print): {"sites", "records", "count", "limit", "overflow", ...}.
    debug: dict = field(default_factory=dict)
    # The run's one lint of the kernel as it ran (lint.LintResult; None where the run stopped before it):
    # the performance advice reads it instead of linting again. Not part of the report's JSON.
    lint: object = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.status in ("correct", "unchecked")

    def to_json(self) -> dict:
        # asdict would deep-copy the lint's syntax tree and semantic model: left out before copying.
        out = asdict(replace(self, lint=None))
        del out["lint"]
        return out

    def render(self, fmt: str = "text") -> str:
        if fmt == "json":
            return json.dumps(self.to_json(), indent=2)
        return _render(self, markdown=fmt == "markdown")


def _render(r: RunReport, markdown: bool) -> str:
    lines = []
    head = f"{r.kernel}: {r.status.upper()}"
    if r.timing:
        head += f", {r.timing['median_ms']:.3f} ms"
    if r.tflops is not None:
        head += f", {r.tflops:.3g} TFLOP/s"
    lines.append(f"## {head}" if markdown else head)
    if markdown:
        lines.append("")
    bullet = "- " if markdown else "  "
    if r.backend:
        where = "Dawn (wgpudawn)" if r.backend == "dawn" else "wgpu-native (wgpu)"
        how = "emulated in plain WGSL" if r.emulated else "native"
        lines.append(f"{bullet}backend: {where}, {how}; adapter: {r.adapter or '?'}")
    if r.backend == "dawn":
        lines.append(f"{bullet}robustness (bounds checks): {'on (Dawn default)' if r.robustness else 'off (disable_robustness)'}"
                     + (f"; device toggles: {', '.join(r.toggles)}" if r.toggles else ""))
    if r.subgroups:
        lines.append(f"{bullet}{_subgroup_line(r)}")
    for note in r.notes:
        lines.append(f"{bullet}note: {note}")
    if r.error:
        lines.append(f"{bullet}error{' while ' + r.stage if r.stage else ''}: {r.error}")
    if r.predicted:
        from .predictions import prediction_lines

        lines += prediction_lines(r.predicted, bullet)
    for e in r.source_errors:
        where = "" if e["exact"] else " (in code the runner generated for this line)"
        lines.append(f"{bullet}{r.kernel}:{e['line']}:{e['column']}: {e['message']}{where}")
    for c in r.checks:
        index = ", ".join(str(i) for i in c.worst_index)
        if c.judged:
            lines.append(_precision_line(c, bullet))
            continue
        lines.append(f"{bullet}{c.name}: {c.verdict}, max abs error {c.max_abs_error:.3g}, max rel error "
                     f"{c.max_rel_error:.3g} (worst at [{index}]: {c.worst_value:.6g}, expected "
                     f"{c.expected_value:.6g}; tolerance atol {c.atol:.3g} + rtol {c.rtol:.3g})"
                     + (f"; {c.hint}" if c.hint else ""))
    lines += [f"{bullet}{line}" for line in r.bounds.get("lines", [])]
    if r.debug:
        from .debug_print import render_lines

        lines += render_lines(r.debug, bullet)
    if r.timing:
        tm = r.timing
        lines.append(f"{bullet}time: median {tm['median_ms']:.4f} ms, min {tm['min_ms']:.4f}, max {tm['max_ms']:.4f} "
                     f"over {tm['repetitions']} runs after {tm['warmup']} warm-up ({tm['source']})")
        if "independent_ms" in tm:
            verdict = "agrees" if tm["agreement"] <= AGREEMENT_TOLERANCE else "DISAGREES"
            lines.append(f"{bullet}independent check: {tm['independent_ms']:.4f} ms per dispatch by the host clock "
                         f"over {tm['independent_dispatches']} back-to-back dispatches; {verdict} with the "
                         f"timestamps ({tm['agreement']:.1%} apart)")
    if r.tflops is not None or r.gbps is not None:
        parts = []
        if r.tflops is not None:
            parts.append(f"{r.tflops:.4g} TFLOP/s")
        if r.gbps is not None:
            parts.append(f"{r.gbps:.4g} GB/s")
        if r.peak_fraction is not None:
            parts.append(f"{r.peak_fraction:.1%} of the matrix peak")
        if r.memory_fraction is not None:
            parts.append(f"{r.memory_fraction:.1%} of the memory bandwidth")
        lines.append(f"{bullet}throughput: {', '.join(parts)}"
                     + (f" (peaks from the {r.peak_profile} profile" + (f"; {r.peak_basis}" if r.peak_basis else "")
                        + ")" if r.peak_profile else ""))
    if r.roofline:
        lines.append(f"{bullet}{describe_roofline(r.roofline)}")
    if r.blame:
        from .blame_report import blame_lines

        lines += blame_lines(r.blame, bullet, r.kernel)
    return "\n".join(lines) + "\n"


def _subgroup_line(r: RunReport) -> str:
    s = r.subgroups
    if s.get("emulated"):
        return f"subgroup size: {s['used']} lanes (emulated)"
    limits = s.get("range", {})
    low = next((v for k, v in limits.items() if "min" in k), None)
    high = next((v for k, v in limits.items() if "max" in k), None)
    offered = f"; the adapter offers {low} to {high}" if low and high else ""
    if "used" in s:
        how = "pinned by @subgroup_size" if r.pinned_subgroup_size else "read back from a probe pipeline with the kernel's workgroup size"
        return f"subgroup size: {s['used']} lanes ({how}){offered}"
    return f"subgroup size: unknown (the probe failed: {s.get('probe_error', '?')}){offered}"


def _precision_line(c: OutputCheck, bullet: str) -> str:
    index = ", ".join(str(i) for i in c.worst_index)
    where = (f"max abs error {c.max_abs_error:.3g} (worst at [{index}]: {c.worst_value:.6g}, expected "
             f"{c.expected_value:.6g}; bound there {c.bound:.3g})")
    if c.verdict == "correct":
        strict = "" if c.within_output_tolerance else (
            f"; beyond the output type's tolerance (atol {c.atol:.3g} + rtol {c.rtol:.3g}), which --strict applies")
        return f"{bullet}{c.name}: correct: within the error of {c.judged}; {where}{strict}"
    return f"{bullet}{c.name}: incorrect beyond the error of {c.judged}: {where}"


# ------------------------------------------------------------------ preparation
def apply_constants(text: str, constants: dict, module: KernelModule | None = None) -> str:
    """Rewrites the values of module-scope consts (`const M: u32 = 1024u;`) named in [constants].

    `module`: `text` already loaded, where the caller has it. Without it the text is only parsed: the
    consts are found in the syntax tree, and a run checks the text it runs once, with the values in."""
    if module is None:
        from ..syntax import parse

        parsed = parse(text)
        if parsed.root.has_error:
            # A tree with errors may lack the values to rewrite: stop with the kernel's own errors, as
            # loading it says them.
            parsed = load_kernel(text).parsed
    else:
        parsed = module.parsed
    data = parsed.source.data

    def node_text(node) -> str:
        return data[node.start_byte:node.end_byte].decode()

    edits = []
    found = set()
    for node in parsed.root.named_children:
        if node.type != "const_declaration":
            continue
        name = node_text(sn.name(node))
        if name not in constants:
            continue
        value = sn.value(node)
        declared = sn.declared_type(node)
        v = constants[name]
        literal = ("true" if v else "false") if isinstance(v, bool) else repr(v)
        if declared is not None:
            literal = f"{node_text(declared)}({literal})"
        edits.append((value.start_byte, value.end_byte, literal.encode()))
        found.add(name)
    missing = [n for n in constants if n not in found]
    if missing:
        raise RunDescriptionError(f"constants.{missing[0]}: the kernel has no module-scope const '{missing[0]}'")
    for start, end, new in sorted(edits, reverse=True):
        data = data[:start] + new + data[end:]
    return data.decode()


def _overrides(module: KernelModule, overrides: dict) -> dict:
    names = {module.node_text(sn.name(n)) for n in module.parsed.root.named_children
             if n.type == "override_declaration"}
    for name in overrides:
        if name not in names:
            raise RunDescriptionError(f"overrides.{name}: the kernel has no override '{name}'"
                                      + (" (it is a const: use [constants])" if re.search(
                                          rf"\bconst\s+{re.escape(name)}\b", module.text) else ""))
    return {k: (float(v) if not isinstance(v, bool) else float(v)) for k, v in overrides.items()}


def _inputs(desc: RunDescription, module: KernelModule):
    import numpy as np

    declared = {(b.group, b.binding): b for b in module.bindings}
    described = {(b.group, b.binding): b for b in desc.bindings}
    for slot, decl in declared.items():
        if slot not in described:
            raise RunDescriptionError(
                f"binding: the kernel's '{decl.name}' (@group({slot[0]}) @binding({slot[1]}), line {decl.line}) "
                f"is not described; add a [[binding]] with group = {slot[0]}, binding = {slot[1]}")
    arrays, job = {}, []
    for slot, b in described.items():
        decl = declared.get(slot)
        if decl is None:
            raise RunDescriptionError(f"{b.key}: the kernel declares no @group({slot[0]}) @binding({slot[1]})")
        if b.fields is not None:
            array = _struct_input(b, decl)
            arrays[b.name or decl.name] = array
            job.append((b, decl, b.name or decl.name, array))
            continue
        expected = decl.element
        if expected is not None and expected not in KERNEL_VIEWS.get(b.type, {b.type}):
            raise RunDescriptionError(f"{b.key}.type: '{b.type}' but '{decl.name}' holds {expected} "
                                      f"(line {decl.line})")
        name = b.name or decl.name
        dtype = np.dtype(DTYPES[b.type])
        if b.fill == "zeros":
            array = np.zeros(b.size, dtype)
        elif b.fill == "constant":
            array = np.full(b.size, b.value, dtype)
        elif b.fill == "random":
            rng = np.random.default_rng(b.seed)
            low, high = b.range
            if dtype.kind == "f":
                array = rng.uniform(low, high, b.size).astype(dtype)
            else:
                array = rng.integers(int(low), int(high), b.size, endpoint=True).astype(dtype)
        else:
            try:
                loaded = np.load(b.file, allow_pickle=False)
            except Exception as error:  # noqa: BLE001 - a bad file is the user's mistake, reported with its key
                raise RunDescriptionError(f"{b.key}.file: cannot read {b.file.name}: {error}") from None
            if loaded.size != b.size:
                raise RunDescriptionError(f"{b.key}.file: {b.file.name} has {loaded.size} elements, size is {b.size}")
            array = loaded.reshape(-1).astype(dtype)
        arrays[name] = array
        job.append((b, decl, name, array))
    _refuse_small_matrix_buffers(desc, module)
    return arrays, job


def _refuse_small_matrix_buffers(desc: RunDescription, module: KernelModule) -> None:
    """A buffer below the subgroup-matrix minimum binding size (binding_sizes.py) is refused, not run."""
    sizes = {(b.group, b.binding): b.size * ELEMENT_BYTES[b.type] for b in desc.bindings if b.fields is None}
    for access, have in too_small(module, sizes):
        b = next(b for b in desc.bindings if (b.group, b.binding) == (access.group, access.binding))
        m = access.matrix
        # Dawn's wording (wgpudawn 0.32 refuses the bind group), with where the size comes from.
        raise RunDescriptionError(
            f"{b.key}.size: the binding size of '{access.variable}' ({have} bytes: {b.size} x {b.type}) is smaller "
            f"than the minimum binding size ({access.bytes}): the {access.call} on line {access.line} moves a "
            f"{m.rows}x{m.columns} {m.element.describe()} matrix, {m.rows} x {m.columns} x {m.element.byte_size} "
            "bytes (Dawn refuses the bind group; gpuweb #6310, #6334); make the buffer at least that large")


def _struct_input(b, decl):
    """The bytes of a struct binding filled by field name; `fields` on anything else is the user's mistake."""
    import numpy as np

    from .structs import struct_bytes

    if decl.struct is None:
        raise RunDescriptionError(f"{b.key}.fields: '{decl.name}' (line {decl.line}) is a "
                                  f"'{decl.store.describe()}', not a struct; describe it with type and size")
    data = struct_bytes(decl.struct, b.fields or {}, f"{b.key}.fields", decl.name)
    data += bytes(-len(data) % 4)  # buffer sizes are whole words
    b.size = len(data)
    return np.frombuffer(data, np.uint8).copy()


# ------------------------------------------------------------------ checking
def _compare(name: str, got, ref, atol: float | None, rtol: float | None, element: str, k: int, shape,
             bound=None, judged: str = "", masks: dict | None = None):
    import numpy as np

    got = np.asarray(got, dtype=np.float64).reshape(shape)
    ref = np.asarray(ref, dtype=np.float64).reshape(shape)
    default_atol, default_rtol = default_tolerance(element, k)
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    atol_eff = atol if atol is not None else default_atol * max(1.0, scale)
    rtol_eff = rtol if rtol is not None else default_rtol
    diff = np.abs(got - ref)
    diff = np.where(np.isfinite(diff), diff, np.inf)
    allowed = atol_eff + rtol_eff * np.abs(ref)
    strict_correct = bool(np.all(diff <= allowed))
    if bound is not None:  # the kernel's own accumulation error, where it exceeds the output type's tolerance
        allowed = np.maximum(allowed, bound)
    excess = diff / np.where(allowed > 0, allowed, 1e-300)
    worst = np.unravel_index(int(np.argmax(excess)), shape) if ref.size else (0,)
    mask = np.abs(ref) > max(scale * 1e-6, 1e-30)
    rel = float(np.max(diff[mask] / np.abs(ref[mask]))) if mask.any() else 0.0
    correct = bool(np.all(diff <= allowed))
    if masks is not None:  # the blame reads every wrong element, not only the worst
        masks[name] = (~(diff <= allowed), got, ref)
    return OutputCheck(name, "correct" if correct else "incorrect", float(np.max(diff)) if diff.size else 0.0, rel,
                       [int(i) for i in worst], float(got[worst]), float(ref[worst]), float(atol_eff), float(rtol_eff),
                       judged if bound is not None else "",
                       float(np.asarray(bound).reshape(shape)[worst]) if bound is not None else None,
                       strict_correct)


def _matrix(array, rows: int, cols: int, layout: str, key: str):
    if array.size < rows * cols:
        raise RunDescriptionError(f"{key}: the binding has {array.size} elements, fewer than {rows} x {cols}")
    flat = array.reshape(-1)[: rows * cols]
    return flat.reshape(rows, cols) if layout == "row" else flat.reshape(cols, rows).T


def check_results(desc: RunDescription, inputs: dict, outputs: dict, types: dict,
                  accumulators: set[str] = frozenset(), strict: bool = False,
                  masks: dict | None = None) -> list[OutputCheck]:
    """`accumulators`: the element types of the kernel's result matrices; with f16 among them a check is
    judged against the error f16 accumulation gives (coop_lsp.runner.precision) where the runner sees the
    matrix product (a gemm check, or an expression that is one), unless `strict` or a tolerance is given;
    an incorrect expression check whose product it cannot see names f16 accumulation as the likely cause."""
    import numpy as np

    c = desc.check
    if c.kind == "none":
        return []
    if c.kind == "gemm":
        for role in ("a", "b", "c"):
            if getattr(c, role) not in inputs:
                raise RunDescriptionError(f"check.{role}: no binding named '{getattr(c, role)}' "
                                          f"(bindings: {', '.join(inputs)})")
        if c.c not in outputs:
            raise RunDescriptionError(f"check.c: '{c.c}' is not written by the kernel (not read_write)")
        wide = lambda x: x.astype(np.int64) if x.dtype.kind in "iu" else x.astype(np.float64)  # noqa: E731
        a = wide(_matrix(inputs[c.a], c.m, c.k, c.layout_a, "check.a"))
        b = wide(_matrix(inputs[c.b], c.k, c.n, c.layout_b, "check.b"))
        ref = a @ b
        if c.accumulate:
            ref = ref + wide(_matrix(inputs[c.c], c.m, c.n, c.layout_c, "check.c"))
        got = _matrix(outputs[c.c], c.m, c.n, c.layout_c, "check.c")
        bound, judged = None, ""
        if "f16" in accumulators and not strict and c.atol is None and c.rtol is None:
            from .precision import accumulation_bound

            bound = accumulation_bound(a.astype(np.float64), b.astype(np.float64), ref, c.k, "f16")
            judged = f"f16 accumulation over K = {c.k}"
        return [_compare(c.c, got, ref, c.atol, c.rtol, types[c.c], c.k, (c.m, c.n), bound, judged, masks)]
    if c.output not in outputs:
        raise RunDescriptionError(f"check.output: '{c.output}' is not a binding the kernel writes "
                                  f"(written: {', '.join(outputs) or 'none'})")
    from .check_expression import evaluate_check

    namespace = {"np": np, **desc.sizes, **{k: v.copy() for k, v in inputs.items()}}
    expected = np.asarray(evaluate_check(c.expected, namespace))
    got = outputs[c.output].reshape(-1)
    if expected.size != got.size:
        if expected.size > got.size:
            raise RunDescriptionError(f"check.expected: gives {expected.size} elements, '{c.output}' has {got.size}")
        got = got[: expected.size]
    own_precision = "f16" in accumulators and not strict and c.atol is None and c.rtol is None
    product = _visible_product(c.expected, namespace) if own_precision else None
    if product is not None and product[0].shape[0] * product[1].shape[1] == expected.size:
        from .precision import accumulation_bound

        a, b = product
        k = a.shape[1]
        bound = accumulation_bound(a, b, a @ b, k, "f16").reshape(-1)
        return [_compare(c.output, got, expected.reshape(-1), c.atol, c.rtol, types[c.output], k,
                         (expected.size,), bound, f"f16 accumulation over K = {k}", masks)]
    check = _compare(c.output, got, expected.reshape(-1), c.atol, c.rtol, types[c.output],
                     desc.sizes.get("K", 1), (expected.size,), masks=masks)
    if own_precision and check.verdict == "incorrect":
        check.hint = ("the kernel accumulates in f16 (a subgroup_matrix_result<f16>, T050), whose rounding "
                      "error grows with K, and this expression is not a matrix product the runner can see "
                      "('A @ B', np.matmul or np.dot, reshaped at most), so it was judged at the output type's "
                      "tolerance; to judge it at f16 accumulation's own precision use [check] kind = \"gemm\", "
                      "or give the error you accept with atol")
    return [check]


def _visible_product(expression: str, namespace: dict):
    """(A, B) as 2-D float64 arrays where the expected expression is their matrix product (`A @ B`,
    `np.matmul(A, B)` or `np.dot(A, B)`, possibly reshaped, flattened or converted): then the runner knows
    the K an accumulator sums over and the products it sums. None for any other expression."""
    import ast

    import numpy as np

    from .check_expression import evaluate_check

    try:
        node = ast.parse(expression, mode="eval").body
    except SyntaxError:
        return None
    # Reshaping or converting the product keeps its elements in order.
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("reshape", "ravel", "flatten", "astype"):
        node = node.func.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        operands = (node.left, node.right)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("matmul", "dot") \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "np" and len(node.args) == 2:
        operands = tuple(node.args)
    else:
        return None
    try:
        a, b = (np.asarray(evaluate_check(ast.unparse(operand), namespace), dtype=np.float64) for operand in operands)
    except (RunDescriptionError, TypeError, ValueError):
        return None
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        return None
    return a, b


# ------------------------------------------------------------------ backends
_PROBES: dict = {}

_DAWN_PROBE = """
import json, sys
try:
    import wgpudawn
    from wgpudawn.backends.dawn import extras
    extras.set_instance_extras(enable_toggles=["allow_unsafe_apis", "vulkan_enable_f16_on_nvidia"])
    a = wgpudawn.gpu.request_adapter_sync(power_preference="high-performance")
    ok = a is not None and "chromium-experimental-subgroup-matrix" in a.features \
        and str(a.info.get("adapter_type", "")).lower() not in ("cpu", "unknown") \
        and "null" not in str(a.info.get("backend_type", "")).lower()
except Exception:
    ok = False
sys.stderr.write(json.dumps({"ok": bool(ok)}) + "\\n")
"""


_WGPU_PROBE = """
import json, sys
try:
    import wgpu
    a = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    out = {"ok": a is not None, "device": a.info.get("device", "") if a else "",
           "reason": "" if a else "wgpu-native found no adapter"}
except Exception as error:
    out = {"ok": False, "device": "", "reason": f"{type(error).__name__}: {error}"}
sys.stderr.write(json.dumps(out) + "\\n")
"""


def wgpu_adapter(timeout_s: float = 60.0) -> tuple[bool, str]:
    """(found, adapter name or the reason there is none) for wgpu-native, asked once per process in a child."""
    if "wgpu" not in _PROBES:
        import importlib.util

        if importlib.util.find_spec("wgpu") is None:
            _PROBES["wgpu"] = (False, "the wgpu package (wgpu-native) is not installed")
        else:
            env = {k: v for k, v in os.environ.items() if k != "WGPU_BACKEND_TYPE"}
            env.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())
            try:
                done = subprocess.run([sys.executable, "-c", _WGPU_PROBE], capture_output=True, text=True,
                                      timeout=timeout_s, env=env)
                last = [line for line in done.stderr.splitlines() if line.startswith("{")]
                found = json.loads(last[-1]) if last else {"ok": False, "reason": done.stderr.strip()[-300:]}
                _PROBES["wgpu"] = (bool(found["ok"]), found.get("device") or found.get("reason", ""))
            except (subprocess.TimeoutExpired, OSError, ValueError) as error:
                _PROBES["wgpu"] = (False, f"probing wgpu-native failed: {error}")
    return _PROBES["wgpu"]


def dawn_gpu_available(timeout_s: float = 30.0) -> bool:
    """Whether Dawn finds a real GPU with subgroup matrices (asked once per process, in a child)."""
    if "dawn" not in _PROBES:
        env = {k: v for k, v in os.environ.items() if k != "WGPU_BACKEND_TYPE"}
        try:
            done = subprocess.run([sys.executable, "-c", _DAWN_PROBE], capture_output=True, text=True,
                                  timeout=timeout_s, env=env)
            last = [line for line in done.stderr.splitlines() if line.startswith("{")]
            _PROBES["dawn"] = bool(last and json.loads(last[-1]).get("ok"))
        except (subprocess.TimeoutExpired, OSError, ValueError):
            _PROBES["dawn"] = False
    return _PROBES["dawn"]


def choose_backend(dialect: str, requested: str) -> tuple[str, bool]:
    """(api, emulate) for a kernel of `dialect`: api is "dawn" or "wgpu"."""
    if requested not in BACKENDS:
        raise KernelError(f"unknown backend '{requested}' (one of {', '.join(BACKENDS)})")
    if requested == "emulate":
        return "wgpu", True
    if requested == "dawn":
        return "dawn", False
    if requested == "wgpu":
        if dialect != "plain":
            raise KernelError("wgpu-native cannot enable the cooperative-matrix feature from Python; run this "
                              "kernel with --backend dawn (it is translated to Tint's dialect) or --backend emulate")
        return "wgpu", False
    if dialect == "plain":
        return "wgpu", False
    return ("dawn", False) if dawn_gpu_available() else ("wgpu", True)


# ------------------------------------------------------------------ the run
def run_kernel(kernel: Path | str, description: RunDescription | Path | None = None, backend: str = "auto",
               text: str | None = None, workspace: Path | None = None, timeout_s: float | None = None,
               api: str | None = None, emulate_kernel: bool | None = None,
               robustness: bool | None = None, progress=None, cancel=None, strict: bool = False,
               bounds_check: bool = False, adapter: str | None = None, debug: dict | None = None,
               blame: str = "off", _record_stores: bool = False) -> RunReport:
    """Runs `kernel` (a path, or a display name with `text`) and returns the report; never raises for the
    kernel's or the description's mistakes, which become the report's error. `progress(step)` hears each
    step of the worker ("compiling the kernel", ...); setting the `cancel` event kills the run. `strict` judges
    results by the output type's tolerance even where the kernel accumulates in a narrower type. `bounds_check`
    runs the kernel a second time without bounds checks and compares (coop_lsp.runner.bounds). `adapter` picks
    one adapter of several ("uuid:..." or "index:N", coop_lsp.runner.adapters); by default the API's choice.
    `debug`: {"watches": ["EXPR@LINE", ...], "limit": records, "watch_lanes": "subgroup"|"workgroup"|"all"}
    for the kernel's prints and watches (coop_lsp.runner.debug_print), which run whenever the kernel has some.
    `blame`: "on" re-runs the kernel with every store recorded and names who wrote each wrong element
    (report.blame); "failed" does so only when a check fails."""
    started = time.perf_counter()
    given = (text, api)  # the blame's re-run starts from what the caller gave
    kernel_path = Path(kernel)
    report = RunReport(kernel=kernel_path.name)
    try:
        if text is None:
            text = kernel_path.read_text()
        if description is None or isinstance(description, Path):
            path = description or sidecar_path(kernel_path)
            if not path.exists():
                raise RunDescriptionError(f"no run description: write {path.name} beside the kernel "
                                          "(see docs/runner.md)")
            description = load_run_description(path, workspace)
        desc = description
        if desc.constants:
            # Written in before the one lint of the run: the kernel is checked as it runs.
            text = apply_constants(text, desc.constants)
        from .debug_print import sites_of

        sites, text = sites_of(text, debug)
        module = load_kernel(text)
        report.lint = module.result
        entry = module.entry_point(desc.entry_point)
        report.entry_point = entry.name
        overrides = _overrides(module, desc.overrides)
        inputs, bindings = _inputs(desc, module)
        plan = None
        if _record_stores:
            from .blame import instrument

            plan = instrument(module, entry.name, _written_elements(bindings), desc.dispatch)
            text, module = plan.text, load_kernel(plan.text)
            report.notes += plan.notes
        if desc.check.kind == "expression":
            from .check_expression import compile_check

            # Before the kernel runs: a name the run does not bind is the description's mistake.
            compile_check(desc.check.expected, ["np", *desc.sizes, *inputs])
        if api is None:
            api, emulated = choose_backend(module.dialect, backend)
        else:
            emulated = bool(emulate_kernel)
        report.backend, report.emulated = api, emulated
        report.robustness = desc.robustness if robustness is None else robustness
        report.toggles = list(desc.toggles) if api == "dawn" else []
        report.dispatch = desc.dispatch
        features = []
        lanes = judged_size(desc, entry, module)
        report.pinned_subgroup_size = entry.subgroup_size
        if plan is not None and emulated:
            plan.lanes = lanes  # the emulation's subgroups are runs of `lanes` local indices
        report.workgroup_invocations = entry.invocations(desc.overrides)
        if emulated and module.dialect != "plain":
            report.subgroups = {"used": lanes, "emulated": True}
        if entry.subgroup_size is not None:
            report.notes.append(f"'{entry.name}' pins @subgroup_size({entry.subgroup_size}): judged at "
                                f"{entry.subgroup_size} lanes only")
        kept_subgroups = False
        instrumented = None
        if sites:
            from .debug_print import instrument_module

            instrumented, text, module = instrument_module(text, module, sites, entry.name, emulated, lanes, debug)
            bindings = bindings + [instrumented.slot]
        budget = None  # the loop-budget flag's buffer, on lavapipe
        if emulated and (module.dialect != "plain" or uses_subgroup_operations(module)):
            if api == "wgpu" and "llvmpipe" in wgpu_adapter()[1]:
                budget = _budget_slot(module)
            at = budget[0] if budget else None
            if "subgroup_size_control" in module.enables:
                lowered, kept_subgroups = _emulation(without_size_control(module), lanes, api, budget_binding=at)
            else:
                lowered, kept_subgroups = _emulation(text, lanes, api, module, budget_binding=at)
            code = lowered.text
            if instrumented is not None:
                from .debug_print import emulated_shares

                code = emulated_shares(code, instrumented)
            report.notes += lowered.notes
            if module.dialect == "wgpu":
                report.notes.append("the wgpu (naga) dialect was emulated, not run on matrix hardware")
        elif api == "dawn" and module.dialect != "plain":
            lowered = to_tint(text, module)
            code = lowered.text
            report.notes += lowered.notes
            features += [*EXTENSION["subgroups"].features, DAWN_MATRIX_FEATURE]
        else:
            code = text
        if "f16" in module.enables:
            features += EXTENSION["f16"].features
        if "subgroups" in module.enables and (not emulated or kept_subgroups):
            features += EXTENSION["subgroups"].features
        if "subgroup_size_control" in module.enables and api == "dawn" and not emulated:
            features.append("subgroup-size-control")
        run_bindings = bindings + ([budget[1]] if budget else []) + ([plan.slot] if plan else [])
        result, outputs = _execute(code, entry.name, overrides, desc, run_bindings, api, features,
                                   report.robustness, timeout_s or desc.timeout_s, report, progress, cancel,
                                   original_text=text, adapter=adapter)
        if outputs is not None and budget and outputs.pop(BUDGET_OUTPUT, [0])[0]:
            report.notes.append(BUDGET_SPENT)
        if instrumented is not None and outputs:
            from .debug_print import decode

            report.debug = decode(outputs.pop(instrumented.slot[2]), instrumented)
        if result is None:
            _explain_failure(report, module, code)
            if not emulated:
                from .predictions import predicted_findings

                report.predicted = predicted_findings(text, report.adapter, report.stage)
            return report
        report.adapter = _adapter_name(result.get("adapter", {}))
        if result.get("subgroups"):
            report.subgroups = result["subgroups"]
        _huge_dispatch_note(report)
        types = {name: b.type for b, _, name, _ in bindings}
        from .precision import accumulator_types

        masks = {} if plan else None
        record = outputs.pop(BLAME_OUTPUT, None)
        report.checks = check_results(desc, inputs, outputs, types, accumulator_types(module.model), strict,
                                      masks=masks)
        if plan is not None:
            from .blame_report import read_blame

            report.blame = read_blame(plan, record, masks, desc, bindings, report)
        report.status = ("unchecked" if not report.checks else
                         "correct" if all(c.verdict == "correct" for c in report.checks) else "incorrect")
        _timing(report, result, desc, bindings)
        if bounds_check:
            _bounds_check(report, code, entry.name, overrides, desc, run_bindings, api, features, outputs,
                          progress, cancel, timeout_s, text)
    except (RunDescriptionError, KernelError, OSError) as error:
        report.status = "error"
        report.error = str(error)
    finally:
        report.wall_s = time.perf_counter() - started
    if blame == "on" and report.status in ("correct", "incorrect", "unchecked") \
            or blame == "failed" and report.status == "incorrect":
        from .blame_report import blame_rerun

        blame_rerun(report, lambda: run_kernel(
            kernel, description, backend, given[0], workspace, timeout_s, given[1], emulate_kernel, robustness,
            progress, cancel, strict, bounds_check=False, adapter=adapter, debug=debug, blame="off",
            _record_stores=True))
    return report


def _written_elements(bindings) -> dict:
    """Binding name -> how many scalars the kernel's array holds, for every binding it may write."""
    counts = {}
    for b, decl, name, array in bindings:
        if decl.space == "storage" and decl.access in ("read_write", "write") and getattr(decl, "element", None):
            width = ELEMENT_BYTES.get(decl.element, array.itemsize)
            counts[decl.name] = array.nbytes // width
    return counts


def _bounds_check(report, code, entry, overrides, desc, bindings, api, features, outputs, progress, cancel,
                  timeout_s, text) -> None:
    """The second run of the bounds-check comparison: canaries after every storage buffer, and on Dawn no
    bounds checks; its results against the first run's."""
    import copy

    from .bounds import PADDING_BYTES

    once = copy.copy(desc)
    once.warmup, once.repetitions = 0, 1
    second = RunReport(kernel=report.kernel)
    tails: dict = {}
    how = ("without Dawn's bounds checks (disable_robustness) and with canaries after every buffer"
           if api == "dawn" else "with canaries after every buffer (an out-of-bounds read sees them, not zeros)")
    result, second_outputs = _execute(code, entry, overrides, once, bindings, api, features, False,
                                      timeout_s or desc.timeout_s, second, progress, cancel, original_text=text,
                                      padding=PADDING_BYTES, tails=tails)
    comparison = compare_runs(outputs, second_outputs, tails, how)
    if result is None:
        comparison.error = second.error or second.status
    report.bounds = comparison.__dict__ | {"in_bounds": comparison.in_bounds, "lines": comparison.lines()}
    if not comparison.in_bounds and not comparison.error and report.status == "correct":
        report.status = "incorrect"


# Timings further apart than this are reported as disagreeing: the GPU's clock
# and the host's should tell the same story for a kernel that fills the GPU.
AGREEMENT_TOLERANCE = 0.05


def _timing(report: RunReport, result: dict, desc: RunDescription, bindings) -> None:
    gpu = result.get("gpu_ms") or []
    independent = result.get("independent") or {}
    per_dispatch = (independent["wall_ms"] / independent["dispatches"]) if independent.get("dispatches") else None
    if gpu:
        times, source = gpu, "GPU timestamps"
    elif per_dispatch is not None:
        times = [per_dispatch]
        source = f"wall clock over {independent['dispatches']} back-to-back dispatches (no GPU timestamps)"
    else:
        return
    median = statistics.median(times)
    report.timing = {"median_ms": median, "min_ms": min(times), "max_ms": max(times),
                     "stdev_ms": statistics.pstdev(times), "repetitions": len(times), "warmup": desc.warmup,
                     "source": source}
    if gpu and per_dispatch:
        report.timing["independent_ms"] = per_dispatch
        report.timing["independent_dispatches"] = independent["dispatches"]
        report.timing["agreement"] = abs(median - per_dispatch) / per_dispatch
    if median > 0 and desc.flops:
        report.tflops = desc.flops / (median * 1e-3) / 1e12
    nbytes = desc.bytes
    if nbytes is None and desc.check.kind == "gemm":
        c = desc.check
        sizes = {name: ELEMENT_BYTES[b.type] for b, _, name, _ in bindings}
        nbytes = (c.m * c.k * sizes.get(c.a, 4) + c.k * c.n * sizes.get(c.b, 4)
                  + c.m * c.n * sizes.get(c.c, 4) * (2 if c.accumulate else 1))
    if median > 0 and nbytes:
        report.gbps = nbytes / (median * 1e-3) / 1e9
    _against_peak(report, desc, bindings)
    report.roofline = roofline_of(report.tflops, report.gbps, report.peak_fraction, report.memory_fraction,
                                  report.peak_profile, report.peak_missing)


def _against_peak(report: RunReport, desc: RunDescription, bindings) -> None:
    from ..devices.profiles import shipped_profiles

    name = report.adapter.strip().lower()
    profile = next((p for p in shipped_profiles().values()
                    if name and p.title.lower() == name and (p.peak_tflops or p.peak_memory_gbps)), None)
    if profile is None:
        return
    report.peak_profile = profile.name
    element, report.peak_basis = _multiplied_element(report, desc, bindings)
    if report.tflops is not None and element in profile.peak_tflops:
        report.peak_fraction = report.tflops / profile.peak_tflops[element]
    elif report.tflops is not None:
        report.peak_missing = (f"the {profile.name} profile has no matrix peak for "
                               f"{element + ' ' if element else ''}multiplies")
    if report.gbps is not None and profile.peak_memory_gbps:
        report.memory_fraction = report.gbps / profile.peak_memory_gbps


def _multiplied_element(report: RunReport, desc: RunDescription, bindings) -> tuple[str | None, str]:
    """The component type whose matrix peak the run is measured against, and why that one.

    The kernel's own multiplies decide (the most frequent configuration among its call sites); a kernel
    without matrix multiplies falls back on the element type of a GEMM check's `a` binding."""
    from ..analysis.performance import multiply_configurations

    lint = report.lint
    configurations = []
    if lint is not None and lint.parsed is not None and lint.model is not None:
        configurations = multiply_configurations(lint.parsed.root, lint.source, lint.model)
    if configurations:
        component, result = max(set(configurations), key=configurations.count)
        return component, f"{component} matrix peak: the kernel multiplies {component} matrices into {result}"
    if desc.check.kind == "gemm":
        element = next((b.type for b, _, binding_name, _ in bindings if binding_name == desc.check.a), None)
        return element, (f"{element} matrix peak: no multiply in the kernel, check.a '{desc.check.a}' holds {element}"
                         if element else "")
    return None, ""


def _stage_of(job_dir: Path) -> str:
    try:
        return (job_dir / "stage").read_text() or "starting"
    except OSError:
        return "starting"


# The worker's own start (Python, the GPU API's import, the adapter and device) is the tool's cost, not the
# kernel's: on a busy machine it alone can take seconds, and a kernel's time limit of a few seconds would
# then kill kernels that never ran. The limit therefore starts once the device is open; start-up has its
# own allowance, so a driver that hangs while opening the device is still killed and reported.
STARTUP_ALLOWANCE_S = 60.0
_STARTUP_STAGES = ("starting", "opening the device")


def _wait(process: subprocess.Popen, job_dir: Path, timeout_s: float, progress, cancel) -> str:
    """"exited", "timeout" or "cancelled"; tells `progress` each new step the worker announces."""
    deadline = time.monotonic() + max(timeout_s, STARTUP_ALLOWANCE_S)
    announced = None
    started_kernel = False
    while True:
        try:
            process.wait(timeout=min(0.1, max(0.0, deadline - time.monotonic())))
            return "exited"
        except subprocess.TimeoutExpired:
            pass
        # The worker rewrites the file for each step; an empty read is a rewrite in progress.
        stage = _stage_of(job_dir)
        if not started_kernel and stage not in _STARTUP_STAGES:
            started_kernel = True
            deadline = time.monotonic() + timeout_s
        if progress is not None and stage not in (announced, "starting"):
            announced = stage
            progress(stage)
        if cancel is not None and cancel.is_set():
            return "cancelled"
        if time.monotonic() >= deadline:
            return "timeout"


def _execute(code, entry, overrides, desc, bindings, api, features, robustness, timeout_s, report,
             progress=None, cancel=None, original_text: str = "", padding: int = 0, tails: dict | None = None,
             adapter: str | None = None):
    """One run in a worker. With `padding`, every buffer gets that many canary bytes after its data (the
    bounds-check comparison), and `tails` receives what the written buffers hold there afterwards."""
    import numpy as np

    with tempfile.TemporaryDirectory(prefix="coop-run-") as tmp:
        job_dir = Path(tmp)
        job_bindings = []
        for b, decl, name, array in bindings:
            entry_data = {"group": b.group, "binding": b.binding, "space": decl.space, "access": decl.access,
                          "input": f"in_{b.group}_{b.binding}.bin"}
            if padding and decl.space == "storage":
                entry_data.update(padding=padding, canary=CANARY)
            (job_dir / entry_data["input"]).write_bytes(array.tobytes())
            if decl.space == "storage" and decl.access in ("read_write", "write"):
                entry_data["output"] = f"out_{b.group}_{b.binding}.bin"
            job_bindings.append(entry_data)
        job = {"api": api, "code": code, "entry_point": entry, "overrides": overrides, "dispatch": list(desc.dispatch),
               "subgroup_size": report.pinned_subgroup_size, "workgroup_invocations": report.workgroup_invocations,
               "bindings": job_bindings, "features": sorted(set(features)), "warmup": desc.warmup,
               "repetitions": desc.repetitions, "robustness": robustness, "toggles": list(desc.toggles),
               "adapter": adapter}
        (job_dir / "job.json").write_text(json.dumps(job))
        env = dict(os.environ)
        env.pop("WGPU_BACKEND_TYPE", None)  # the Tint oracle's Null backend must not leak into real runs
        env.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())
        env["COOP_LSP_RUNNER_PARENT"] = str(os.getpid())  # the worker dies with us (worker._die_with_parent)
        log = (job_dir / "log.txt").open("w")
        process = subprocess.Popen([sys.executable, "-m", "coop_lsp.runner.worker", str(job_dir)],
                                   stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=env,
                                   start_new_session=True)
        _RUNNING.add(process)
        try:
            try:
                ended = _wait(process, job_dir, timeout_s, progress, cancel)
            except BaseException:  # Ctrl-C in `coop-lint run`: the worker is in its own session, end it too
                _kill(process)
                raise
            report.adapter = _adapter_name(_read_json(job_dir / "adapter.json"))
            if ended != "exited":
                _kill(process)
                stage = _stage_of(job_dir)
                report.stage = stage
                if ended == "cancelled":
                    report.status, report.error = "cancelled", f"cancelled while {stage}"
                else:
                    report.status = "timeout"
                    if stage in _STARTUP_STAGES:
                        report.error = (f"killed after {max(timeout_s, STARTUP_ALLOWANCE_S):g} s while {stage}: "
                                        "the GPU driver did not open a device in that time")
                    else:
                        report.error = (f"killed after {timeout_s:g} s (time limit) while {stage}; the kernel may "
                                        "loop forever or be far slower than expected")
                return None, {}
        finally:
            log.close()
            _RUNNING.discard(process)
        result_file = job_dir / "result.json"
        if not result_file.exists():
            stage = _stage_of(job_dir)
            tail = (job_dir / "log.txt").read_text(errors="replace").strip().splitlines()[-5:]
            report.status, report.stage = "failed", stage
            report.error = (f"the worker died with {_exit_reason(process.returncode)} while {stage}"
                            + (": " + " | ".join(tail) if tail else ""))
            return None, {}
        result = json.loads(result_file.read_text())
        if not result.get("ok"):
            report.status, report.stage = "failed", result.get("stage", "")
            report.error = result.get("error", "unknown error")
            report.source_errors = compile_errors(report.error, code, original_text)
            return None, {}
        outputs = {}
        for (b, decl, name, array), entry_data in zip(bindings, job_bindings):
            if "output" in entry_data:
                whole = (job_dir / entry_data["output"]).read_bytes()
                raw = whole[: array.nbytes]
                outputs[name] = np.frombuffer(raw, dtype=array.dtype).copy()
                if tails is not None and padding:
                    start = -(-max(array.nbytes, 4) // 4) * 4
                    tails[name] = whole[start:start + padding]
        return result, outputs


# Workers in flight, so that a server whose client has gone can end them at once
# instead of waiting out their time limits (stop_all_runs).
_RUNNING: set = set()


def stop_all_runs() -> None:
    """Kills every worker in flight; the runs waiting on them report the kill."""
    for process in list(_RUNNING):
        _kill(process)


# Errors that name no cause: a device lost on the way, or a driver that gave up compiling.
_DEVICE_LOST = re.compile(r"device is lost|device lost|VK_ERROR_DEVICE_LOST", re.IGNORECASE)
_DRIVER_GAVE_UP = re.compile(r"VK_ERROR_UNKNOWN|GPUInternalError")


def _explain_failure(report: RunReport, module, code: str) -> None:
    """Notes for failures whose error text does not say why."""
    lost = _DEVICE_LOST.search(report.error) is not None
    if lost:
        report.notes.append(f"the GPU device was lost while {report.stage or 'running'}; the run's worker process "
                            "ended with it, and the next run opens a new device")
    if report.emulated and report.stage in ("compiling the kernel", "creating the pipeline") \
            and (lost or _DRIVER_GAVE_UP.search(report.error)):
        report.notes.append(_emulation_size(module, code))


BUDGET_OUTPUT = "__loop_budget"
BUDGET_SPENT = ("lavapipe's loop budget ran out (65,535 loop iterations per invocation, all of the shader's loops "
                "together): from then on every loop stopped after one iteration, so the results are not the "
                "kernel's; emulate it at a smaller size (see docs/runner.md)")


def _budget_slot(module):
    """((group, binding), the binding entry) of the flag the emulation raises when lavapipe's loop budget
    runs out: the first binding number after the kernel's own in group 0."""
    import numpy as np

    used = [b.binding for b in module.bindings if b.group == 0]
    at = (0, max(used) + 1 if used else 0)
    slot = (SimpleNamespace(group=at[0], binding=at[1]), SimpleNamespace(space="storage", access="read_write"),
            BUDGET_OUTPUT, np.zeros(1, np.uint32))
    return at, slot


def _emulation(text: str, subgroup_size: int, api: str, module=None, budget_binding=None):
    """(the emulation of `text`, whether it keeps the kernel's subgroup operations): they run on the
    adapter's own subgroups where those have the emulated size, which lavapipe's fixed 8 lanes tell
    (other adapters report a range of sizes, not the one they pick)."""
    native = None
    if api == "wgpu" and "llvmpipe" in wgpu_adapter()[1]:
        from ..devices.profiles import shipped_profiles

        lavapipe = shipped_profiles().get("lavapipe")
        if lavapipe is not None and lavapipe.subgroup_min == lavapipe.subgroup_max:
            native = lavapipe.subgroup_min
    lowered = emulate(text, subgroup_size, native_subgroup_size=native, module=module,
                      budget_binding=budget_binding)
    return lowered, native == subgroup_size


def _emulation_size(module, code: str) -> str:
    held = emulated_matrix_bytes(module)
    total = sum(size for _, size in held)
    largest = ", ".join(f"'{name}' {size / 1024:g} KiB" for name, size in held[:3])
    # The fallback for matrix operations outside workgroup-uniform control flow has lane 0 do the work.
    whole = "if (coop_emu_lane != 0u)" in code
    lanes = re.search(r"coop_emu_lane = \w+ % (\d+)u;", code)
    share = total if whole or lanes is None else total / int(lanes.group(1))
    how = "each invocation holds whole matrices" if whole else \
        f"each invocation holds its lane's share, {share / 1024:g} KiB of private memory"
    return (f"the emulated kernel is {len(code.encode()) / 1024:.0f} KiB of WGSL; its matrices take {total / 1024:g} "
            f"KiB per subgroup ({largest or 'none'}) and {how}; drivers may refuse to compile emulations this "
            "large: fewer or smaller result tiles per subgroup emulate more easily (see docs/runner.md)")


def _adapter_name(info: dict) -> str:
    return info.get("device", "") or info.get("description", "")


def _read_json(path: Path) -> dict:
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _exit_reason(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.wait()


def _huge_dispatch_note(report: RunReport) -> None:
    # Measured with Mesa 22.3's lavapipe: a dispatch of 2^32 workgroups or more runs only the product
    # modulo 2^32 (65535^3 runs 196,607), silently; the results and the time are of that fraction.
    x, y, z = report.dispatch
    if x * y * z >= 1 << 32 and "llvmpipe" in report.adapter:
        report.notes.append(f"lavapipe ran only {x * y * z % (1 << 32):,} of the {x * y * z:,} workgroups "
                            "(it counts a dispatch's workgroups in 32 bits)")


# Tint's messages look like ":12:5 error: ..." (Dawn prefixes them with its own text).
_COMPILER_MESSAGE = re.compile(r"(?m)(?:^|\s):(\d+):(\d+) (error|warning): (.*)$")
# naga's (wgpu-native): "Shader '' parsing error: <message>" then "┌─ wgsl:1:8" on a following line.
_NAGA_MESSAGE = re.compile(r"(?m)(?:parsing|validation) error: (.*)\n\s*\u250c\u2500 wgsl:(\d+):(\d+)")


def compile_errors(error: str, compiled: str, original: str) -> list[dict]:
    """The compiler's errors in `error`, placed in `original` (the user's kernel) through a line diff
    with `compiled` (what the runner handed to the compiler: constants rewritten, a dialect
    translated or emulated). A line the runner generated maps to the nearest original line before it."""
    import difflib

    found = [(int(m.group(1)), int(m.group(2)), m.group(4).strip())
             for m in _COMPILER_MESSAGE.finditer(error) if m.group(3) == "error"]
    found += [(int(m.group(2)), int(m.group(3)), m.group(1).strip()) for m in _NAGA_MESSAGE.finditer(error)]
    if not found:
        return []
    compiled_lines, original_lines = compiled.splitlines(), original.splitlines()
    mapping: dict[int, tuple[int, bool]] = {}
    matcher = difflib.SequenceMatcher(None, compiled_lines, original_lines, autojunk=False)
    for tag, c0, c1, o0, o1 in matcher.get_opcodes():
        for i in range(c0, c1):
            if tag == "equal":
                mapping[i + 1] = (o0 + (i - c0) + 1, True)
            elif tag == "replace" and c1 - c0 == o1 - o0:
                mapping[i + 1] = (o0 + (i - c0) + 1, True)  # the same line with rewritten values
            else:
                mapping[i + 1] = (max(1, o0), False)
    out = []
    for line, column, message in found:
        target, exact = mapping.get(line, (1, False))
        out.append({"line": target, "column": column if exact else 1, "message": message, "exact": exact})
    return out
