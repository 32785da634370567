"""A replayed uniformity result moved to where its function now is says what a fresh analysis says."""

from __future__ import annotations

from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.test_lint_reuse import as_edit


SPLIT = """enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn before() {
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if (li < 32u) {
    buf[li] = subgroupAdd(buf[li]);
  }
}
"""


def test_a_moved_failure_keeps_the_subgroup_sizes_it_depends_on() -> None:
    # A replayed failure moved below an edited function kept everything but `depends` (what the lanes'
    # divergence depends on), and the subgroup-size warning became the error of certain divergence.
    reuse, document = Reuse(), Document(SPLIT)
    first = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result.diagnostics
    assert any("diverge at subgroup sizes 64 and 128" in d.message for d in first)
    for moved in (SPLIT.replace("before() {", "before() {\n  let x = 1u;"), SPLIT.replace("before() {", "before() {\n"),
                  SPLIT):
        span, inserted = as_edit(document.source.data, moved.encode())
        document.replace(span, inserted)
        result = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result
        assert reuse.summaries.replayed >= 1
        assert result.diagnostics == lint_source(moved).diagnostics
