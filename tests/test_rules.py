"""The rule registry is consistent: stable codes, WGSL-usable names, complete docs."""

from __future__ import annotations

import re

from coop_lsp.core import rules
from coop_lsp.lint.catalogue import all_rules


def test_every_rule_is_documented_and_named_for_wgsl():
    every = all_rules()
    assert every, "no rules registered"
    for rule in every:
        assert re.fullmatch(r"[A-Z]\d{3}", rule.code)
        # The name goes into `diagnostic(off, coop.<name>)`: a WGSL identifier.
        assert re.fullmatch(r"[a-z][a-z0-9_]*", rule.name)
        assert rule.summary.endswith(".")
        assert len(rule.explanation) > 40


def test_lookup_by_code_name_and_qualified_name():
    assert rules.find("S002").name == "mixed_operators"
    assert rules.find("mixed_operators").code == "S002"
    assert rules.find("coop.mixed_operators").code == "S002"
    assert rules.find("s002").code == "S002"
    assert rules.find("nonexistent") is None


def test_registering_a_conflicting_rule_fails():
    existing = rules.find("S001")
    clash = rules.Rule(code="S001", name="another_name", summary="x.", severity=existing.severity,
                       layer="syntax", explanation="y" * 50)
    try:
        rules.register(clash)
    except ValueError:
        pass
    else:
        raise AssertionError("a second rule with the same code must be refused")
