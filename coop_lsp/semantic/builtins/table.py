"""The declarative builtin table: one record per builtin function, per dialect.

The same records drive overload resolution, hover documentation, completion,
signature help and the generated reference docs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import types as t
from .signature import Overload

# naga's 64-bit scalars (its SHADER_INT64 and SHADER_FLOAT64 capabilities): its math, bit and select builtins take
# them wherever they take i32, u32 or f32 (checked against naga-cli). Tint has none: a module that names one
# already gets the portability note, so accepting them here lets nothing through for Tint.
WIDE_INTEGERS = (t.Scalar("i64"), t.Scalar("u64"))
WIDE_FLOATS = (t.Scalar("f64"),)

FLOATS = (t.ABSTRACT_FLOAT, t.F32, t.F16) + WIDE_FLOATS
CONCRETE_FLOATS = (t.F32, t.F16)
INTEGERS = (t.ABSTRACT_INT, t.I32, t.U32)
CONCRETE_INTEGERS = (t.I32, t.U32)
BIT_INTEGERS = CONCRETE_INTEGERS + WIDE_INTEGERS  # the bit builtins (the subgroup ones stay 32-bit)
SIGNED = (t.ABSTRACT_INT, t.ABSTRACT_FLOAT, t.I32, t.F32, t.F16, t.Scalar("i64")) + WIDE_FLOATS
NUMERIC = (t.ABSTRACT_INT, t.ABSTRACT_FLOAT, t.I32, t.U32, t.F32, t.F16) + WIDE_INTEGERS + WIDE_FLOATS
SCALARS = NUMERIC + (t.BOOL,)

# ------------------------------------------------------------ classification words
# A builtin's memory role: what it does with the matrix memory its pointer parameter names.
LOAD, STORE, MULTIPLY, NO_MEMORY = "load", "store", "multiply", ""
MEMORY_ROLES = (LOAD, STORE, MULTIPLY, NO_MEMORY)

# A builtin's uniformity requirement: which control flow may call it (analysis/uniformity/levels.py turns
# these into Tint's rule names and scopes; MATRIX's rule name is the dialect's).
BARRIER, DERIVATIVE, SUBGROUP, MATRIX, NO_REQUIREMENT = "barrier", "derivative", "subgroup", "matrix", ""
UNIFORMITY_REQUIREMENTS = (BARRIER, DERIVATIVE, SUBGROUP, MATRIX, NO_REQUIREMENT)

# The uniformity of a builtin's result: the same in every active invocation of a subgroup, different in
# every invocation, or (FOLLOWS_ARGUMENTS) as uniform as its arguments and the control flow at the call.
SUBGROUP_UNIFORM, NON_UNIFORM, FOLLOWS_ARGUMENTS = "subgroup uniform", "non-uniform", ""
RESULT_UNIFORMITIES = (SUBGROUP_UNIFORM, NON_UNIFORM, FOLLOWS_ARGUMENTS)


@dataclass(frozen=True)
class Builtin:
    name: str
    overloads: tuple[Overload, ...]
    doc: str
    example: str = ""
    category: str = ""
    # The extension that must be enabled to call it, if any.
    enable: str | None = None
    # A call whose value is dropped is an error (WGSL's @must_use).
    must_use: bool = True
    # Tint's spelling of the deprecation warning, for the old load/store forms.
    deprecated_message: str = ""
    # The shader stages that may call it; empty for every stage.
    stages: tuple[str, ...] = ()
    # Its classification, in the words above. None means not classified yet: the guard test
    # (tests/test_language_facts.py) refuses a table builtin without them, so that a new builtin cannot
    # silently lose its uniformity requirement or be missed by the performance rules and the runner.
    uniformity: str | None = None  # the control flow it must be called from
    result: str | None = None  # how uniform its result is
    memory: str | None = None  # load, store, multiply or none

    def signatures(self) -> list[str]:
        return [o.describe(self.name) for o in self.overloads]


class BuiltinTable:
    """The builtins one dialect offers; later additions override earlier ones of the same name."""

    def __init__(self, name: str, *groups: list[Builtin]) -> None:
        self.name = name
        self._by_name: dict[str, Builtin] = {}
        for group in groups:
            for builtin in group:
                self._by_name[builtin.name] = builtin

    def get(self, name: str) -> Builtin | None:
        return self._by_name.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def __iter__(self):
        return iter(self._by_name.values())
