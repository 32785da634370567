"""What a failed run's report adds when the GPU's own error does not say why.

The error texts are those the H100 gave (NVIDIA 580, wgpudawn 0.32.0.4 and
wgpu 0.32.0) for emulated kernels its driver would not compile; no GPU is
needed to check how the runner reads them.
"""

from __future__ import annotations

from pathlib import Path

from coop_lsp.runner.execute import RunReport, _explain_failure
from coop_lsp.runner.kernel import load_kernel
from coop_lsp.runner.lowering import emulate, emulated_matrix_bytes

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

DAWN_DRIVER_GAVE_UP = ("GPUInternalError: CreateComputePipelines failed with VK_ERROR_UNKNOWN\n"
                       " - While initializing [ComputePipeline (unlabeled)]")
WGPU_DEVICE_LOST = ("GPUValidationError: Validation Error\n\nCaused by:\n  In wgpuDeviceCreateComputePipeline\n"
                    "    Parent device is lost")
PRECISE = ("GPUValidationError: The total use of workgroup storage (54272 bytes) is larger than the maximum "
           "allowed (49152 bytes).")


def _failed(path: Path, error: str, emulated: bool = True) -> RunReport:
    text = path.read_text()
    report = RunReport(kernel=path.name, status="failed", stage="creating the pipeline", error=error,
                       emulated=emulated)
    _explain_failure(report, load_kernel(text), emulate(text).text)
    return report


def test_emulated_matrix_memory_counts_each_variable():
    held = dict(emulated_matrix_bytes(load_kernel((EXAMPLES / "chromium" / "gemm_tiled.wgsl").read_text())))
    assert held["acc"] == 16 * 16 * 16 * 4  # 4 x 4 result tiles of 16 x 16 f32
    assert held["left"] == held["right"] == 4 * 16 * 16 * 2  # four f16 tiles each


def test_driver_that_gives_up_on_an_emulation_gets_its_size():
    report = _failed(EXAMPLES / "chromium" / "gemm_tiled.wgsl", DAWN_DRIVER_GAVE_UP)
    [note] = report.notes
    # 32 lanes share the subgroup's 20 KiB of matrices
    assert "matrices take 20 KiB per subgroup ('acc' 16 KiB" in note
    assert "each invocation holds its lane's share, 0.625 KiB of private memory" in note
    assert "KiB of WGSL" in note and "fewer or smaller result tiles" in note


def test_lost_device_is_named_and_the_emulation_explained():
    report = _failed(EXAMPLES / "chromium" / "gemm_int8.wgsl", WGPU_DEVICE_LOST)
    lost, size = report.notes
    assert lost.startswith("the GPU device was lost while creating the pipeline")
    assert "'ta' 2 KiB" in size
    # its matrix loop starts at subgroup_id, so the emulation falls back to whole matrices in lane 0
    assert "each invocation holds whole matrices" in size


def test_an_error_that_names_its_cause_gets_no_guess():
    assert _failed(EXAMPLES / "chromium" / "gemm_tiled.wgsl", PRECISE).notes == []


def test_a_native_run_gets_no_emulation_note():
    report = _failed(EXAMPLES / "chromium" / "gemm_tiled.wgsl", DAWN_DRIVER_GAVE_UP, emulated=False)
    assert report.notes == []
