"""The rule registry: one entry per diagnostic code.

Every layer that reports something registers its rules here, and the CLI,
the server, the generated docs and suppression all read this one table. The
registry knows no layer: coop_lsp/lint/catalogue.py, above the layers that
report, imports them all.
A rule's `name` is what a kernel author writes in WGSL to control it:
`diagnostic(off, coop.<name>)` or `@diagnostic(off, coop.<name>)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .diagnostic import Severity

RULE_NAMESPACE = "coop"
_CODE = re.compile(r"^[A-Z]\d{3}$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    summary: str
    severity: Severity
    layer: str
    explanation: str
    example: str = ""
    fix: str = ""
    # Syntax errors stop compilation in every compiler; hiding them would
    # only move the error to pipeline creation.
    suppressible: bool = True

    @property
    def qualified_name(self) -> str:
        return f"{RULE_NAMESPACE}.{self.name}"


_RULES: dict[str, Rule] = {}
_BY_NAME: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    if not _CODE.match(rule.code):
        raise ValueError(f"rule code {rule.code!r} must be a letter and three digits")
    if not _NAME.match(rule.name):
        raise ValueError(f"rule name {rule.name!r} must be a WGSL identifier in snake_case")
    for table, key in ((_RULES, rule.code), (_BY_NAME, rule.name)):
        existing = table.get(key)
        if existing is not None and existing != rule:
            raise ValueError(f"rule {key!r} registered twice")
    _RULES[rule.code] = rule
    _BY_NAME[rule.name] = rule
    return rule


def rule(code: str) -> Rule:
    return _RULES[code]


def find(code_or_name: str) -> Rule | None:
    """Looks a rule up by code (`S001`), name (`missing_token`) or qualified name."""
    key = code_or_name.strip()
    if key.startswith(RULE_NAMESPACE + "."):
        key = key[len(RULE_NAMESPACE) + 1 :]
    return _RULES.get(key.upper()) or _BY_NAME.get(key)


def registered() -> list[Rule]:
    """The rules registered so far, by code. Every rule of every layer: lint/catalogue.py."""
    return sorted(_RULES.values(), key=lambda r: r.code)
