"""Rules of the lint layer itself."""

from ..core.diagnostic import Severity
from ..core.rules import Rule, register

INTERNAL_ERROR = register(Rule(
    code="X001", name="internal_error", severity=Severity.ERROR, layer="lint",
    summary="coop-lint failed while checking this file; please report it.",
    explanation="A check raised an unexpected exception. The other checks still ran, so the rest of "
                "the diagnostics are valid; this one says that some may be missing.",
    suppressible=False,
))

UNUSED_SUPPRESSION = register(Rule(
    code="A001", name="unused_suppression", severity=Severity.WARNING, layer="lint",
    summary="A diagnostic filter that suppresses nothing.",
    explanation="A `diagnostic(off, coop.<rule>)` directive or `@diagnostic(...)` attribute that controls no "
                "finding stays in the code after the problem it silenced is gone, ready to hide the next one. "
                "coop-lint audits the filters of its own rules whose checks ran on the file (configuration rules "
                "only when targets are given) and of the Tint uniformity rules it models "
                "(`chromium.subgroup_matrix_uniformity`, `subgroup_uniformity`, `derivative_uniformity`). "
                "Filters of rules only Tint checks are left alone. Like ruff's RUF100.",
    example="diagnostic(off, coop.deprecated_builtin);   // no deprecated call left in the file",
    fix="Removes the directive or attribute (safe: it controls nothing).",
))

# Reported by the runner (coop-lint run, the editor's Run kernel); declared here so that the catalogue,
# which the lint layer keeps, holds it without importing the runner.
KERNEL_COMPILE_ERROR = register(Rule(
    code="R001", name="kernel_compile_error", severity=Severity.ERROR, layer="runner",
    summary="The GPU's compiler rejected the kernel when it was run.",
    explanation="Reported after 'Run kernel' (the editor's code lens or `coop-lint run`) when the "
                "backend's compiler (Tint in Dawn, naga in wgpu-native) or the driver refused the kernel "
                "although coop-lint's own checks passed, e.g. a feature the backend has not implemented. "
                "The message is the compiler's; where the error was in code the runner generated (a "
                "translation or the emulation) it points at the nearest line of your kernel. It stays "
                "until the document is edited.",
    suppressible=False,
))

WRONG_RESULT_WRITER = register(Rule(
    code="R004", name="wrong_result_writer", severity=Severity.WARNING, layer="runner",
    summary="After a run whose check failed: this store wrote wrong elements of the output.",
    explanation="Reported after 'Run kernel' in the editor when the run's check found wrong elements. As "
                "`coop-lint run` does on a wrong result, the kernel is run a second time with every store "
                "recorded (docs/debugging-blame.md), and each store that wrote wrong elements is marked with "
                "how many, which workgroups, subgroups and lanes wrote them, and the first wrong elements with "
                "their values and the expected ones (the related information). Wrong elements that no store "
                "reached are marked on the entry point. A store that wrote wrong values is where they surface, "
                "not always where the fault is: when a whole tile is wrong, look at what was computed before the "
                "store. It stays until the document is edited.",
    suppressible=False,
))
