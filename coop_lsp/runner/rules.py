"""Rules of the kernel runner: what running a kernel found that no static check could.

Declared in the lint layer's rules (the catalogue of every rule lives there, and the runner
depends on lint, never the other way); named here for the runner's code.
"""

from ..lint.rules import KERNEL_COMPILE_ERROR

__all__ = ["KERNEL_COMPILE_ERROR"]
