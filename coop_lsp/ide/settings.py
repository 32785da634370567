"""User settings an editor sends (dialect, targets, rule switches) and how they shape diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..core.diagnostic import Diagnostic, Severity
from ..core.rules import find as find_rule
from ..semantic.builtins.language import DIALECT_NAMES

_SEVERITIES = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO,
               "information": Severity.INFO, "hint": Severity.HINT}


@dataclass(frozen=True)
class Settings:
    dialect: str | None = None  # "wgpu", "chromium" or "standard"; None follows the module's enables
    targets: tuple[str, ...] = ()  # device profile names
    rules: dict = field(default_factory=dict)  # code, name or coop.<name> -> bool
    severities: dict = field(default_factory=dict)  # code, name or coop.<name> -> "error"/"warning"/...
    # Wait until a document has been quiet this long before checking it; None: the server's default.
    diagnostics_delay_ms: float | None = None

    @classmethod
    def from_json(cls, value) -> "Settings":
        """Lenient: whatever a client sends, unknown or ill-typed entries are ignored."""
        if not isinstance(value, dict):
            return cls()
        dialect = value.get("dialect")
        dialect = dialect if dialect in DIALECT_NAMES else None
        targets = value.get("targets")
        targets = tuple(str(x) for x in targets) if isinstance(targets, list) else ()
        rules = {str(k): bool(v) for k, v in value.get("rules", {}).items()} \
            if isinstance(value.get("rules"), dict) else {}
        severities = {str(k): _SEVERITIES[str(v).lower()] for k, v in value.get("severities", {}).items()
                      if str(v).lower() in _SEVERITIES} if isinstance(value.get("severities"), dict) else {}
        delay = value.get("diagnosticsDelayMs")
        delay = float(delay) if isinstance(delay, (int, float)) and not isinstance(delay, bool) \
            and 0 <= delay <= 10_000 else None
        return cls(dialect, targets, rules, severities, delay)

    def _lookup(self, table: dict, code: str):
        rule = find_rule(code)
        keys = [code] + ([rule.name, rule.qualified_name] if rule is not None else [])
        for key in keys:
            if key in table:
                return table[key]
        return None

    def apply(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        if not self.rules and not self.severities:
            return diagnostics
        out = []
        for diagnostic in diagnostics:
            rule = find_rule(diagnostic.code)
            suppressible = rule is None or rule.suppressible
            if suppressible and self._lookup(self.rules, diagnostic.code) is False:
                continue
            severity = self._lookup(self.severities, diagnostic.code) if suppressible else None
            out.append(replace(diagnostic, severity=severity) if severity is not None else diagnostic)
        return out
