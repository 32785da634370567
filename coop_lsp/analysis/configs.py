"""Configuration checks: does each target GPU offer the matrix shapes, sizes and features a kernel uses?

A kernel that compiles can still fail at pipeline creation on an adapter
without its matrix configuration, or run on one GPU and not another. The
targets are device profiles (coop_lsp/devices/profiles); every check runs
against every target at once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import tree_sitter as ts

from ..core.diagnostic import Diagnostic, Severity
from ..core.rules import Rule, register
from ..core.text import SourceText, Span
from ..devices.profiles import MatrixConfig, Profile, shipped_profiles
from ..semantic import types as t
from ..semantic.builtins.language import DIALECT, DIALECTS_BY_PRECEDENCE, ENABLE_FEATURES, MULTIPLY, matrix_builtin_names
from ..semantic.model import SemanticModel
from ..syntax import nodes as sn

UNSUPPORTED_CONFIG = register(Rule(
    code="D001", name="unsupported_matrix_config", severity=Severity.ERROR, layer="analysis",
    summary="A matrix multiply whose shape and element types the target GPU does not offer.",
    explanation="Tint accepts any matrix shape; the adapter's list of subgroup matrix configurations is "
                "checked only when the pipeline is created, on the user's machine. This checks every "
                "multiply against every target's list and names the nearest configurations it does offer.",
    example="subgroupMatrixMultiply<f32>(a, b)   // a: subgroup_matrix_left<f16, 16, 16>, "
            "b: subgroup_matrix_right<f16, 12, 16> -> N = 12 exists nowhere",
    fix="Change the tile shape to one the message lists, or drop the target.",
))

# Dawn (measured: wgpudawn 0.32, Null backend) and the gpuweb draft ("Attributes") both refuse a pipeline
# whose workgroup_size.x is not a multiple of the adapter's maxSubgroupSize once the shader uses subgroup
# matrices: an error in Tint's and the proposal's dialects. naga's keeps the partial-subgroup warning.
_NAGA = DIALECT["wgpu"].name

WORKGROUP_SUBGROUPS = register(Rule(
    code="D002", name="partial_subgroup", severity=Severity.WARNING, layer="analysis",
    summary="A workgroup whose x size is not a multiple of the target's subgroup size.",
    explanation="Subgroups are cut from the workgroup in order; when the x size is not a multiple of the "
                "subgroup size, the last subgroup is partial, and matrix operations need full subgroups. With "
                "Tint's or the proposal's subgroup matrices it is an error: Dawn refuses the pipeline unless "
                "workgroup_size.x is a multiple of the device's maxSubgroupSize, and so does the gpuweb draft "
                "(proposals/subgroup-matrix.md, Attributes). In naga's dialect it stays a warning.",
))

MISSING_FEATURE = register(Rule(
    code="D003", name="missing_device_feature", severity=Severity.ERROR, layer="analysis",
    summary="The kernel needs a device feature the target does not have.",
    explanation="Each `enable` needs a device feature: f16 needs shader-f16, subgroups needs subgroups, "
                "clip_distances, dual_source_blending and primitive_index the features of those names, "
                "chromium_experimental_framebuffer_fetch needs framebuffer-fetch, "
                "chromium_experimental_pixel_local a pixel-local-storage feature; matrix kernels need subgroup "
                "matrix support. On a device without the feature Tint rejects the module ('extension ... is "
                "not allowed in the current environment'). With targets configured, each target that does not "
                "list the feature gets an error; with none, a note names the known targets that lack it.",
))

UNSUPPORTED_DIALECT = register(Rule(
    code="D004", name="unsupported_dialect", severity=Severity.ERROR, layer="analysis",
    summary="The kernel's matrix dialect has no runtime on the target.",
    explanation="naga's coop_mat kernels run where wgpu exposes cooperative matrices; Tint's subgroup "
                "matrices where Dawn exposes them. A target lists the dialects it can run.",
))

TARGET_PROBLEM = register(Rule(
    code="D005", name="target_problem", severity=Severity.WARNING, layer="analysis",
    summary="A configured target that cannot be used: unknown name, broken profile, no adapter.",
    explanation="The other checks still run; only the checks against this target are skipped.",
))

_MULTIPLIES = matrix_builtin_names(MULTIPLY)
# The WebGPU device feature each extension needs (Dawn allows the extension only on a device created
# with one of them). Subgroup matrices are checked below with their configurations.
_ENABLE_FEATURES = ENABLE_FEATURES


@dataclass(frozen=True)
class MatrixUse:
    span: Span
    builtin: str
    component: str
    result: str
    m: int
    n: int
    k: int

    def describe(self) -> str:
        return f"{self.component} x {self.component} -> {self.result} at M={self.m}, N={self.n}, K={self.k}"


def configuration_diagnostics(root: ts.Node, source: SourceText, model: SemanticModel,
                              targets: list[Profile], problems: list[str]) -> list[Diagnostic]:
    out = [Diagnostic(TARGET_PROBLEM.code, problem, Span(0, 0), Severity.WARNING) for problem in problems]
    if not targets:
        return out + _features_without_targets(root, source, model)
    uses = _matrix_uses(root, source, model)
    dialect = next((d.name for d in DIALECTS_BY_PRECEDENCE if d.name in model.matrix_dialects), None)
    for target in targets:
        out.extend(_check_target(root, source, model, target, uses, dialect))
    return out


def _check_target(root, source, model, target: Profile, uses: list[MatrixUse], dialect: str | None):
    out = []
    for extension, features in _ENABLE_FEATURES.items():
        if extension in model.enables and not target.features & set(features):
            span = _enable_span(root, source, extension)
            out.append(Diagnostic(MISSING_FEATURE.code, f"'enable {extension};' needs the device feature "
                                                        f"{_feature_names(features)}, which {target.label} does "
                                                        "not list: Tint rejects the module there ('extension is "
                                                        "not allowed in the current environment')", span))
    if dialect is not None:
        first = uses[0].span if uses else Span(0, 0)
        if not target.configs:
            return out + [Diagnostic(MISSING_FEATURE.code, f"{target.label} has no subgroup matrix support: this "
                                                           "kernel cannot run there (coop-lint run --backend emulate "
                                                           "runs it as plain WGSL)", first)]
        if dialect not in target.dialects:
            out.append(Diagnostic(UNSUPPORTED_DIALECT.code, f"{target.label} runs the {', '.join(target.dialects)} "
                                                            f"matrix dialect(s), not {dialect}", first))
    for use in uses:
        if any(_fits(use, config) for config in target.configs):
            continue
        nearest = sorted(target.configs, key=lambda c: _distance(use, c))[:3]
        listed = "; ".join(c.describe() for c in nearest)
        hint = _one_change(use, target.configs)
        out.append(Diagnostic(UNSUPPORTED_CONFIG.code,
                              f"'{use.builtin}' with {use.describe()} is not offered by {target.label}; nearest: "
                              f"{listed}{hint}", use.span))
    if dialect is not None:
        out.extend(_workgroup_sizes(root, source, model, target, dialect))
    return out


def _features_without_targets(root, source, model) -> list[Diagnostic]:
    """With no target configured nothing is an error; the note names the shipped targets that lack it."""
    out = []
    for extension, features in _ENABLE_FEATURES.items():
        if extension not in model.enables:
            continue
        lacking = [p.name for p in _shipped().values() if not p.features & set(features)]
        if not lacking:
            continue
        out.append(Diagnostic(MISSING_FEATURE.code, f"'enable {extension};' needs the device feature "
                                                    f"{_feature_names(features)}; of the known targets, "
                                                    f"{', '.join(sorted(lacking))} do not list it (configure "
                                                    "targets to check the ones you ship to)",
                              _enable_span(root, source, extension), Severity.INFO))
    return out


def _feature_names(features: tuple[str, ...]) -> str:
    return " or ".join(f"'{f}'" for f in features)


@functools.lru_cache(maxsize=1)
def _shipped() -> dict[str, Profile]:
    return shipped_profiles()


def _fits(use: MatrixUse, config: MatrixConfig) -> bool:
    return (use.component, use.result, use.m, use.n, use.k) == (config.component, config.result, config.m,
                                                                 config.n, config.k)


def _distance(use: MatrixUse, config: MatrixConfig) -> tuple:
    return (use.component != config.component, use.result != config.result,
            abs(use.m - config.m) + abs(use.n - config.n) + abs(use.k - config.k))


def _one_change(use: MatrixUse, configs) -> str:
    for config in configs:
        if (config.component, config.result) != (use.component, use.result):
            continue
        changes = [(axis, getattr(use, axis), getattr(config, axis)) for axis in "mnk"
                   if getattr(use, axis) != getattr(config, axis)]
        if len(changes) == 1:
            axis, have, want = changes[0]
            return f" (changing {axis.upper()} from {have} to {want} would fit)"
    return ""


def _matrix_uses(root: ts.Node, source: SourceText, model: SemanticModel) -> list[MatrixUse]:
    uses = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            use = _use_of(node, source, model)
            if use is not None:
                uses.append(use)
        stack.extend(node.children)
    return sorted(uses, key=lambda u: u.span.start)


def _use_of(call: ts.Node, source: SourceText, model: SemanticModel) -> MatrixUse | None:
    callee = sn.callee(call)
    if callee is None:
        return None
    name_node = sn.name(callee) if callee.type == "templated_identifier" else callee
    name = source.slice(Span(name_node.start_byte, name_node.end_byte))
    if name not in _MULTIPLIES:
        return None
    arguments = sn.arguments(call)
    args = [a for a in (arguments.named_children if arguments is not None else []) if not a.is_extra]
    types = [t.store_type(model.type_at(a.start_byte, a.end_byte, a.type) or t.ERROR) for a in args]
    result = model.type_at(call.start_byte, call.end_byte, "call_expression")
    if len(types) < 2 or not all(isinstance(x, t.CoopMatrix) for x in types[:2]) or not isinstance(result, t.CoopMatrix):
        return None
    left, right = types[0], types[1]
    span = Span(name_node.start_byte, name_node.end_byte)
    if name == "coopMultiplyAdd":  # A (M x K) x B (K x N) + C (M x N), all square in naga 29
        return MatrixUse(span, name, left.element.describe(), result.element.describe(), left.rows, right.columns,
                         left.columns)
    # Tint: left<T, K, M> has K columns and M rows; right<T, N, K> has N columns.
    return MatrixUse(span, name, left.element.describe(), result.element.describe(), left.rows, right.columns,
                     left.columns)


def _enable_span(root: ts.Node, source: SourceText, extension: str) -> Span:
    for child in root.named_children:
        if child.type == "enable_directive":
            for name in child.children_by_field_name("extension"):
                if source.slice(Span(name.start_byte, name.end_byte)) == extension:
                    return Span(name.start_byte, name.end_byte)
    return Span(0, 0)


def _workgroup_sizes(root: ts.Node, source: SourceText, model: SemanticModel, target: Profile,
                     dialect: str | None = None) -> list[Diagnostic]:
    out = []
    for function in root.named_children:
        if function.type != "function_declaration":
            continue
        attributes = {source.slice(Span(sn.name(a).start_byte, sn.name(a).end_byte)): a
                      for a in function.children if a.type == "attribute" and sn.name(a) is not None}
        size = attributes.get("workgroup_size")
        if "compute" not in attributes or size is None:
            continue
        arguments = sn.arguments(size)
        first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
        x = _constant(first, source, model)
        if x is not None and x % target.subgroup_max != 0:
            span = Span(first.start_byte, first.end_byte)
            if dialect != _NAGA:
                out.append(Diagnostic(WORKGROUP_SUBGROUPS.code,
                                      f"the x-dimension of workgroup_size ({x}) must be a multiple of the device "
                                      f"maxSubgroupSize ({target.subgroup_max} on {target.label}) when the shader "
                                      "uses a subgroup matrix: pipeline creation fails (Dawn; the subgroup_matrix "
                                      "draft, proposals/subgroup-matrix.md, Attributes)", span, Severity.ERROR))
                continue
            out.append(Diagnostic(WORKGROUP_SUBGROUPS.code,
                                  f"workgroup_size x = {x} is not a multiple of the subgroup size "
                                  f"{target.subgroup_max} on {target.label}: the last subgroup is partial, and "
                                  "matrix operations need full subgroups", span))
    return out


def _constant(node: ts.Node | None, source: SourceText, model: SemanticModel) -> int | None:
    if node is None:
        return None
    text = source.slice(Span(node.start_byte, node.end_byte))
    if node.type == "int_literal":
        digits = text.rstrip("iu")
        return int(digits, 16) if digits.lower().startswith("0x") else int(digits)
    if node.type == "identifier":
        symbol = model.symbol_at(node.start_byte, node.end_byte)
        if symbol is not None and isinstance(symbol.value, int) and not isinstance(symbol.value, bool):
            return symbol.value
    return None
