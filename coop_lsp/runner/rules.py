"""Rules of the kernel runner: what running a kernel found that no static check could."""

from ..core.diagnostic import Severity
from ..core.rules import Rule, register

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
