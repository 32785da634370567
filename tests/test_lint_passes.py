"""The analysis passes are one list (lint/passes.py) that both the engine and the rule catalogue read."""

from __future__ import annotations

import importlib

from coop_lsp.core import rules as registry
from coop_lsp.lint import engine, passes
from coop_lsp.lint.catalogue import all_rules
from coop_lsp.lint.passes import PASSES, AnalysisPass

KERNEL = ("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
          "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
          "    if (c[i] > 0.0) { workgroupBarrier(); }\n}\n")


def test_every_analysis_rule_in_the_catalogue_belongs_to_a_pass():
    listed = set()
    for analysis in PASSES:
        for name in analysis.rule_modules:
            module = importlib.import_module(name)
            listed |= {value.code for value in vars(module).values() if isinstance(value, registry.Rule)}
    catalogued = {rule.code for rule in all_rules() if rule.layer == "analysis"}
    assert catalogued and catalogued <= listed


def test_the_engine_runs_the_list_and_a_failing_pass_hides_no_other(monkeypatch):
    def broken(context):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "PASSES", PASSES + (AnalysisPass("the test pass", broken, ()),))
    found = engine.lint_source(KERNEL).diagnostics
    assert any(d.code == "X001" and "internal error in the test pass: RuntimeError: boom" in d.message
               for d in found)
    assert any(d.code.startswith("U") for d in found)  # the uniformity pass still reported

    monkeypatch.setattr(engine, "PASSES", ())
    assert not any(d.code.startswith("U") for d in engine.lint_source(KERNEL).diagnostics)
    assert passes.PASSES == PASSES
