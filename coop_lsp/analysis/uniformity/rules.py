"""Rules of the uniformity analysis."""

from ...core.diagnostic import Severity
from ...core.rules import Rule, register

UNIFORMITY = register(Rule(
    code="U001", name="uniformity", severity=Severity.ERROR, layer="analysis",
    summary="A builtin called where Tint cannot prove uniformity; Tint rejects the kernel.",
    explanation="Barriers, subgroup operations and matrix builtins must run in uniform control flow, with "
                "uniform arguments for matrix builtins. This reproduces Tint's verdict and its notes: the "
                "branch the call depends on and where the non-uniform value comes from. Tint's own rule "
                "names control it: `diagnostic(off, chromium.subgroup_matrix_uniformity)`, "
                "`diagnostic(off, subgroup_uniformity)`; barriers cannot be switched off.",
    example="if lid > 3u { let m = subgroupMatrixLoad<...>(&A, 0u, 16u); }   // lid: local_invocation_index",
    fix="Make the condition uniform (e.g. branch on subgroup_id), or, when U003 shows the code is "
        "subgroup-uniform, switch Tint's rule off in the smallest scope.",
    suppressible=False,
))

SUBGROUP_DIVERGENCE = register(Rule(
    code="U002", name="subgroup_divergence", severity=Severity.ERROR, layer="analysis",
    summary="A subgroup or matrix builtin in control flow that really diverges inside a subgroup.",
    explanation="Invocations of one subgroup take different paths here (the condition depends on "
                "subgroup_invocation_id, local_invocation_index or another per-invocation value), so some "
                "lanes miss the cooperative operation and the result is undefined. Turning Tint's diagnostic "
                "off does not make the kernel correct; this finding stays. Divergence is judged at every "
                "subgroup size the targets allow (4 to 128 without targets; a pinned @subgroup_size only): a "
                "loop whose trip count is the same in every lane (`for (var c = lane % 4u; c < 32u; c += 4u)`, "
                "`for (var i = lane; i < 256u; i += subgroup_size)`) does not diverge; a branch that splits a "
                "subgroup only at some sizes (`if lane < 16u`) or only when invocations are not numbered "
                "into subgroups in order (`if local_invocation_index < 32u` in a 64-invocation workgroup; "
                "`if local_invocation_id.x < 32u` in a 64x2 workgroup; `if global_invocation_id.x >= 96u` "
                "with 64-wide workgroups, where only one workgroup sees both sides) is a warning that names "
                "the sizes or the mapping; a bounds check on global_invocation_id.x at a multiple of the "
                "workgroup width, and a loop from local_invocation_id.x or global_invocation_id.x stepping "
                "by the width up to a multiple of it (`<` or `<=`), do not diverge; divergence at every "
                "allowed size is an error. "
                "A loop whose trip count cannot be shown the same in every lane stays an error, with the "
                "reason in a note.",
    example="if sid % 2u == 0u { acc = subgroupMatrixMultiplyAccumulate(a, b, acc); }   // sid: subgroup_invocation_id",
))

TINT_TOO_STRICT = register(Rule(
    code="U003", name="subgroup_uniform", severity=Severity.WARNING, layer="analysis",
    summary="Tint rejects a call that is uniform in every subgroup.",
    explanation="Tint approximates subgroup uniformity with workgroup uniformity. A value such as the result "
                "of subgroupBroadcastFirst or subgroupAdd is the same in every lane of a subgroup, so a branch "
                "on it keeps subgroups converged, yet Tint reports it. The fix switches Tint's rule off in the "
                "smallest scope that covers the call.",
    fix="Adds `@diagnostic(off, chromium.subgroup_matrix_uniformity)` (or the rule concerned) to the enclosing "
        "statement or function.",
))

UNKNOWN_DIAGNOSTIC_RULE = register(Rule(
    code="U004", name="unknown_diagnostic_rule", severity=Severity.WARNING, layer="analysis",
    summary="A diagnostic rule name that no compiler recognizes.",
    explanation="Tint silently ignores rule names in unknown namespaces, so `diagnostic(off, "
                "chromium_experimental.subgroup_matrix_uniformity)` (the name in older design documents) "
                "switches nothing off: the check stays on. Tint's real name is "
                "`chromium.subgroup_matrix_uniformity`.",
    example="diagnostic(off, chromium_experimental.subgroup_matrix_uniformity);",
    fix="Rewrites the name to the one Tint recognizes.",
))

SUPPRESSION_HIDES_DIVERGENCE = register(Rule(
    code="A002", name="suppression_hides_divergence", severity=Severity.WARNING, layer="analysis",
    summary="A uniformity suppression that hides a call whose lanes really diverge.",
    explanation="Production kernels switch Tint's uniformity check off (`diagnostic(off, subgroup_uniformity)`, "
                "`diagnostic(off, chromium.subgroup_matrix_uniformity)`, globally or on a function or statement) "
                "to get past a compiler that is stricter than needed (U003). The same filter also hides calls "
                "that are not subgroup-uniform: there the lanes of one subgroup take different paths and the "
                "cooperative operation's result is undefined. coop-lint's subgroup analysis finds such a call "
                "(U002) under the filter; this finding points at the filter, with the call as related location.",
    example="diagnostic(off, chromium.subgroup_matrix_uniformity);\n"
            "...  if sid < 16u { acc = subgroupMatrixMultiplyAccumulate(a, b, acc); }   // sid: subgroup_invocation_id",
    fix="Make the call uniform within each subgroup, then narrow the filter to the statement that needs it. "
        "Removing the filter is not offered as a fix: Tint would then reject the kernel.",
))
