"""Performance rules: what made matrix kernels measurably slow, quoted with the target's measured cost."""

from .checks import performance_diagnostics

__all__ = ["performance_diagnostics"]
