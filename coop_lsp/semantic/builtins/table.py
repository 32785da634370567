"""The declarative builtin table: one record per builtin function, per dialect.

The same records drive overload resolution, hover documentation, completion,
signature help and the generated reference docs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import types as t
from .signature import Overload

FLOATS = (t.ABSTRACT_FLOAT, t.F32, t.F16)
CONCRETE_FLOATS = (t.F32, t.F16)
INTEGERS = (t.ABSTRACT_INT, t.I32, t.U32)
CONCRETE_INTEGERS = (t.I32, t.U32)
SIGNED = (t.ABSTRACT_INT, t.ABSTRACT_FLOAT, t.I32, t.F32, t.F16)
NUMERIC = (t.ABSTRACT_INT, t.ABSTRACT_FLOAT, t.I32, t.U32, t.F32, t.F16)
SCALARS = NUMERIC + (t.BOOL,)


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
