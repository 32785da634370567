"""GPU failures tied to the findings that predicted them (issue 24, item 8).

The GPU message is the one Dawn gave on the H100 for gpu.cpp's 8x8 kernel; no adapter here creates
Dawn pipelines, so the failed run is rebuilt from it and the report is rendered as a real one is."""

from __future__ import annotations

from pathlib import Path

from coop_lsp.runner.execute import RunReport
from coop_lsp.runner.predictions import predicted_findings

KERNEL = (Path(__file__).parent / "fixtures" / "runner" / "gemm_8x8_f16.wgsl").read_text()
DAWN_ERROR = ("Error while creating the pipeline: Unknown configuration is M(8), N(8), K(0), f16 "
              "(from the H100 run of gpu.cpp's kernel, issue 24)")


def failed_report(adapter: str) -> RunReport:
    report = RunReport(kernel="gemm_8x8_f16.wgsl", status="failed", backend="dawn", adapter=adapter,
                       stage="creating the pipeline", error=DAWN_ERROR)
    report.predicted = predicted_findings(KERNEL, adapter, report.stage)
    return report


def test_a_pipeline_failure_on_the_h100_shows_the_d001_that_predicted_it_with_its_fix():
    text = failed_report("NVIDIA H100 80GB HBM3").render()
    assert "error while creating the pipeline: " + DAWN_ERROR in text
    assert "coop-lint predicted this failure:" in text
    assert "D001 (line 12): 'subgroupMatrixMultiply' with f16 x f16 -> f16 at M=8, N=8, K=8 is not offered by " \
           "nvidia-h100" in text
    assert "(changing M from 8 to 16 would fit)" in text
    assert "fix: Change the tile shape" in text


def test_an_adapter_without_a_profile_is_checked_against_every_profile():
    report = failed_report("Some Future GPU")
    assert report.predicted and {p["target"] for p in report.predicted} == {""}
    assert "findings against its device profiles that may explain this failure" in report.render()


def test_failures_after_the_pipeline_exists_are_not_attributed():
    assert predicted_findings(KERNEL, "NVIDIA H100 80GB HBM3", "running the kernel") == []
