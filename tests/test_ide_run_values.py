"""A run's records as the editor shows them (coop_lsp.ide.run_values): the shapes a GPU run is slow to
produce (a line that ran several times, several subgroups, dropped records, elements nobody wrote), from
report data as `coop-lint run --format json` writes it. tests/test_server_run_values.py runs real kernels."""

from __future__ import annotations

from coop_lsp.core.text import SourceText, Span
from coop_lsp.ide.run_values import blame_diagnostics, site_values, value_text

LOOP = """\
fn main(@builtin(local_invocation_index) li: u32) {
    for (var k = 0u; k < 4u; k++) {
        acc += x[k]; // coop: watch acc, k
    }
}
"""


def record(site, lane, values, subgroup=0, workgroup=(0, 0, 0)):
    return {"site": site, "workgroup": list(workgroup), "subgroup": subgroup, "lane": lane, "values": values}


def debug(records, overflow=0):
    return {"sites": [{"index": 0, "kind": "watch", "line": 3, "column": 22, "format": "",
                       "expressions": ["acc", "k"], "types": ["f32", "u32"], "shares": {}}],
            "records": records, "count": len(records) + overflow, "limit": len(records), "overflow": overflow,
            "lanes": "emulated subgroups of 4 lanes"}


def test_a_line_that_ran_several_times_shows_each_lanes_values_in_order():
    records = [record(0, lane, [float(lane + k), k]) for lane in range(2) for k in range(4)]
    (site,) = site_values(debug(records), SourceText(LOOP))
    assert site.label == ("lane 0: acc=0.0 k=0 → acc=1.0 k=1 → acc=2.0 k=2 … (×4), "
                          "lane 1: acc=1.0 k=0 → acc=2.0 k=1 → acc=3.0 k=2 … (×4) (8 records, 2 lanes)")
    source = SourceText(LOOP)
    assert site.hint_at == source.line_end(2) and source.slice(site.span) == "// coop: watch acc, k"
    assert "| workgroup | subgroup | lane | `acc` | `k` |" in site.table
    assert "| (0, 0, 0) | 0 | 1 | 4.0 | 3 |" in site.table


def test_several_subgroups_and_workgroups_are_named_and_dropped_records_counted():
    records = [record(0, 0, [1.5, 0], subgroup=s, workgroup=(w, 0, 0)) for w in range(2) for s in range(3)]
    (site,) = site_values(debug(records, overflow=12), SourceText(LOOP))
    assert site.label.startswith("wg 0,0,0 sg 0 lane 0: acc=1.5 k=0, wg 0,0,0 sg 1 lane 0: ")
    assert site.label.endswith(", … (6 lanes)")
    assert "12 record(s) of the run were dropped past the cap of 6" in site.table


def test_a_site_no_recorded_lane_reached_says_so():
    (site,) = site_values(debug([]), SourceText(LOOP))
    assert site.label == "not reached by the recorded lanes"
    assert "did not run for the recorded lanes" in site.table


def test_values_read_as_numbers():
    assert [value_text(v) for v in (3.0, 0.1, 1e9, float("nan"), -float("inf"), True, 7)] == \
        ["3.0", "0.1", "1e+09", "NaN", "-inf", "true", "7"]
    assert value_text([[1.0, 2.0], [3.0, 4.0]]) == "((1.0, 2.0), (3.0, 4.0))"
    assert value_text(list(range(40)), 12) == "(0, 1, 2, 3…"


def test_elements_nobody_wrote_are_marked_on_the_entry_point():
    blame = {"outputs": [{"output": "c", "shape": [32, 32], "elements": 1024, "wrong": 256, "written": 768,
                          "wrong_unwritten": 256, "first": [], "writers": [], "groups": 0,
                          "unwritten": {"first": {"row": 16, "column": 16}, "low": [16, 16], "high": [31, 31]}}],
             "sites": []}
    (found,) = blame_diagnostics(blame, SourceText(LOOP), Span(3, 7))
    assert found.code == "R004" and found.span == Span(3, 7)
    assert "256 wrong element(s) of 'c' were never written by any store (rows 16..31, columns 16..31, " \
           "first at c[16, 16])" in found.message
    assert blame_diagnostics({"error": "the instrumented re-run stopped"}, SourceText(LOOP)) == []
