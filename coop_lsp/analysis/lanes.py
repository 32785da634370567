"""Subgroup sizes against the targets: a pinned size each target must offer, and lane arithmetic that
assumes one size where a target may choose another.

A subgroup-matrix GEMM that took its lane as `local_invocation_index % 32u`
and its subgroup as `local_invocation_index / 32u` corrupted its results on
GPUs that ran it with 16 lanes; ONNX Runtime now pins the size with
`@subgroup_size(32)`. These checks run against every configured target.
"""

from __future__ import annotations

import tree_sitter as ts

from ..core.diagnostic import Diagnostic, Severity
from ..core.rules import Rule, register
from ..core.text import SourceText, Span
from ..devices.profiles import Profile
from ..semantic.model import SemanticModel
from ..syntax import nodes as sn

PINNED_SIZE = register(Rule(
    code="D010", name="subgroup_size_not_offered", severity=Severity.ERROR, layer="analysis",
    summary="`@subgroup_size(N)` outside the subgroup sizes a target offers.",
    explanation="A compute entry point that pins its subgroup size with `@subgroup_size(N)` "
                "(`enable subgroup_size_control;`) can only be created on an adapter whose subgroup sizes "
                "include N; Tint checks only that N is a power of two. This checks N against every target's "
                "range.",
    example="@compute @workgroup_size(64) @subgroup_size(64) fn main() {}   // NVIDIA runs 32 lanes only",
    fix="Pin a size every target offers, or drop the pin and derive lanes from subgroup_invocation_id.",
))

FIXED_LANES = register(Rule(
    code="D011", name="fixed_subgroup_size_arithmetic", severity=Severity.WARNING, layer="analysis",
    summary="Lane or subgroup indices computed with one subgroup size where a target may choose another.",
    explanation="`local_invocation_index / 32u` is the subgroup index and `% 32u` the lane only when "
                "subgroups have 32 lanes. A target whose adapter may choose another size (Intel 8 to 32, AMD "
                "32 or 64) then runs a subgroup operation with lanes the arithmetic did not expect, and the "
                "results are silently wrong. Reported beside subgroup or subgroup-matrix operations only.",
    example="let subgroup = local_invocation_index / 32u;   // Intel may run 16 lanes",
    fix="Use @builtin(subgroup_invocation_id) and @builtin(subgroup_id), or pin the size with "
        "`enable subgroup_size_control;` and `@subgroup_size(32)`.",
))

_LANE_BUILTINS = ("local_invocation_index", "local_invocation_id")
_SUBGROUP_SIZES = (4, 8, 16, 32, 64, 128)


def lane_diagnostics(root: ts.Node, source: SourceText, model: SemanticModel,
                     targets: list[Profile]) -> list[Diagnostic]:
    if not targets:
        return []
    out = []
    entries = [s for s in model.symbols if s.kind == "function" and s.stage == "compute"]
    for entry in entries:
        if entry.subgroup_size is None:
            continue
        attribute = _attribute(entry.declaration, source, "subgroup_size")
        for target in targets:
            low, high = target.subgroup_min, target.subgroup_max
            if low and not low <= entry.subgroup_size <= high:
                out.append(Diagnostic(PINNED_SIZE.code,
                                      f"@subgroup_size({entry.subgroup_size}) is not a subgroup size "
                                      f"{target.label} offers ({_range(low, high)}): creating the pipeline fails "
                                      "there", attribute, PINNED_SIZE.severity))
    found = [(entry, node, size) for entry in entries
             for node, size in _fixed_lane_arithmetic(entry.declaration, source)]
    # The walk for subgroup operations only where there is lane arithmetic for it to matter to.
    if not found or not _uses_subgroups(root, source, model):
        return out
    for entry, node, size in found:
        if entry.subgroup_size == size:
            continue  # pinned to the size the arithmetic assumes
        # A size no target runs is a tile width, not a subgroup; a target that runs only this size is safe.
        runs_it = [t for t in targets if t.subgroup_min and t.subgroup_min <= size <= t.subgroup_max]
        others = [t for t in runs_it if (t.subgroup_min, t.subgroup_max) != (size, size)]
        if not others:
            continue
        names = "; ".join(f"{t.label}: {_range(t.subgroup_min, t.subgroup_max)}" for t in others[:3])
        expression = source.slice(Span(node.start_byte, node.end_byte))
        out.append(Diagnostic(FIXED_LANES.code,
                              f"'{expression}' assumes {size}-lane subgroups, but a target may choose another "
                              f"size ({names}): lane and subgroup indices are then wrong for the subgroup "
                              "operations here; use @builtin(subgroup_invocation_id) / @builtin(subgroup_id), "
                              f"or pin the size with @subgroup_size({size}) (enable subgroup_size_control)",
                              Span(node.start_byte, node.end_byte), FIXED_LANES.severity))
    return out


def allowed_subgroup_sizes(targets: list[Profile]) -> tuple[int, ...]:
    """Every power of two from each target's smallest to its largest subgroup size; () without targets
    (then any size WGSL allows counts) or where no target knows its sizes."""
    if any(not target.subgroup_min for target in targets):
        return ()
    sizes = {size for target in targets
             for size in _SUBGROUP_SIZES if target.subgroup_min <= size <= target.subgroup_max}
    return tuple(sorted(sizes))


def _range(low: int, high: int) -> str:
    return f"{low} lanes" if low == high else f"{low} to {high} lanes"


def _attribute(function: ts.Node, source: SourceText, name: str) -> Span:
    for attribute in function.children:
        if attribute.type == "attribute":
            ident = sn.name(attribute)
            if ident is not None and source.slice(Span(ident.start_byte, ident.end_byte)) == name:
                return Span(attribute.start_byte, attribute.end_byte)
    return Span(function.start_byte, function.start_byte)


def _uses_subgroups(root: ts.Node, source: SourceText, model: SemanticModel) -> bool:
    if model.matrix_dialects:
        return True
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            callee = sn.callee(node)
            if callee is not None:
                name_node = sn.name(callee) if callee.type == "templated_identifier" else callee
                name = source.slice(Span(name_node.start_byte, name_node.end_byte))
                if name.startswith(("subgroup", "quad")):
                    return True
        stack.extend(node.children)
    return False


def _fixed_lane_arithmetic(function: ts.Node, source: SourceText):
    """`lane / N` and `lane % N` (N a plausible subgroup size) where lane is the invocation's index in the
    workgroup: the builtin parameter itself, its `.x`, or a let bound to either. Flagged only where a target
    runs that size and may also run another."""
    text = lambda n: source.slice(Span(n.start_byte, n.end_byte))  # noqa: E731
    lanes: set[str] = set()
    parameters = sn.parameters(function)
    for parameter in parameters.named_children if parameters is not None else []:
        if parameter.type != "parameter":
            continue
        for attribute in parameter.children:
            if attribute.type != "attribute":
                continue
            arguments = sn.arguments(attribute)
            values = [text(a) for a in arguments.named_children] if arguments is not None else []
            name = sn.name(parameter)
            if values and values[0] in _LANE_BUILTINS and name is not None:
                lanes.add(text(name) + (".x" if values[0] == "local_invocation_id" else ""))
    body = sn.body(function)
    if body is None or not lanes:
        return
    found = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "let_declaration":  # a var may change (`var i = lane; ... i += 32u`)
            value, name = sn.value(node), sn.name(node)
            if value is not None and name is not None and text(value).replace(" ", "") in lanes:
                lanes.add(text(name))
        if node.type == "binary_expression" and node.child_count == 3:
            left, operator, right = node.children
            size = _int(text(right))
            if operator.type in ("/", "%") and size in _SUBGROUP_SIZES and text(left).replace(" ", "") in lanes:
                found.append((node, size))
        stack.extend(reversed(node.children))
    yield from sorted(found, key=lambda item: item[0].start_byte)


def _int(text: str) -> int | None:
    digits = text.rstrip("iu")
    try:
        return int(digits, 0)
    except ValueError:
        return None
