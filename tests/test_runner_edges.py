"""Edge tiles and bounds checks (issue 24, items 5 and 6), on lavapipe.

tile_edges.wgsl is a 16x16-tile matrix kernel whose dispatch rounds up but which handles no partial
tile: at N = 33 its last tile column reads B and writes C past the end of each row. `--edges` runs it at
sizes that are not multiples of 16 and finds them wrong; the bounds-check comparison (a second run with
canary bytes after every buffer, on Dawn also without bounds checks) finds the out-of-bounds read and
write themselves. guarded.wgsl checks every index and passes both."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from coop_lsp.cli.main import main as cli_main
from coop_lsp.runner.bounds import CANARY, compare_runs
from coop_lsp.runner.description import load_run_description
from coop_lsp.runner.edges import edge_variants
from coop_lsp.runner.execute import run_kernel

FIXTURES = Path(__file__).parent / "fixtures" / "runner"


def test_edges_of_an_unguarded_tile_are_caught_by_the_check_and_by_the_bounds_check_comparison(adapter):
    assert edge_variants(FIXTURES / "tile_edges.run.toml", names=("N",)) == [{"N": 25}, {"N": 31}, {"N": 33}]
    at_33 = load_run_description(FIXTURES / "tile_edges.run.toml", size_values={"N": 33})
    report = run_kernel(FIXTURES / "tile_edges.wgsl", at_33, backend="emulate", bounds_check=True)
    text = report.render()
    assert report.status == "incorrect" and report.checks[0].verdict == "incorrect", text
    assert not report.bounds["in_bounds"]
    assert "bounds checks: 'c' differs with canaries after every buffer" in text
    assert "the kernel reads out of bounds" in text
    assert "past the end of 'c' were written: the kernel writes out of bounds" in text


def test_the_same_kernel_at_whole_tiles_is_in_bounds(adapter):
    report = run_kernel(FIXTURES / "tile_edges.wgsl", FIXTURES / "tile_edges.run.toml", backend="emulate",
                        bounds_check=True)
    assert report.status == "correct" and report.bounds["in_bounds"], report.render()
    assert "bounds checks: the same results with canaries after every buffer" in report.render()


def test_edges_of_a_guarded_kernel_are_all_correct(adapter, capsys):
    assert cli_main(["run", str(FIXTURES / "guarded.wgsl"), "--edges", "N"]) == 0, capsys.readouterr().out
    rows = dict(re.split(r"\s{2,}", line)[:2] for line in capsys.readouterr().out.splitlines()[1:5])
    assert rows == {"(as described)": "correct", "N=25": "correct", "N=31": "correct", "N=33": "correct"}


def test_an_edge_size_the_dispatch_cannot_cover_is_exit_2_and_runs_nothing(tmp_path, capsys):
    run = tmp_path / "exact.run.toml"
    run.write_text((FIXTURES / "guarded.run.toml").read_text().replace('"cdiv(N, 8)"', '"N / 8"'))
    assert cli_main(["run", str(FIXTURES / "guarded.wgsl"), "--run", str(run), "--edges"]) == 2
    captured = capsys.readouterr()
    assert "--edges N = 25: exact.run.toml: dispatch[0]: 25 / 8 is not whole" in captured.err
    assert captured.out == ""  # nothing ran


def test_the_comparison_itself():
    first = {"c": np.array([1.0, 2.0, np.nan], np.float32)}
    assert compare_runs(first, {"c": first["c"].copy()}, {"c": bytes([CANARY]) * 8}, "again").in_bounds
    moved = compare_runs(first, {"c": np.array([1.0, 5.0, np.nan], np.float32)}, {"c": bytes([CANARY, 0, 0])},
                         "again")
    assert moved.differs == [{"name": "c", "index": 1, "with": 2.0, "without": 5.0, "count": 1}]
    assert moved.written_past_end == [{"name": "c", "bytes": 2}]
