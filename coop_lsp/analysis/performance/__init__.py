"""Performance rules: what made matrix kernels measurably slow, quoted with the target's measured cost."""

from .checks import performance_diagnostics
from .facts import multiply_configurations

__all__ = ["multiply_configurations", "performance_diagnostics"]
