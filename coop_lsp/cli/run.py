"""coop-lint run KERNEL.wgsl [--run RUN.toml] [--backend auto|dawn|wgpu|emulate] [--format text|json|markdown]

Compiles, runs and checks a kernel with its run description (by default
KERNEL.run.toml beside it; see docs/runner.md). Exit status: 0 when the
results are correct (or unchecked), 1 when they are wrong or the run failed
(time-out, compile error, lost device), 2 on usage errors and mistakes in the
run description.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..runner.description import BACKENDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coop-lint run", description="Run a kernel, check its results, time it.")
    parser.add_argument("kernel", metavar="KERNEL.wgsl")
    parser.add_argument("--run", metavar="RUN.toml", help="the run description (default: KERNEL.run.toml beside it)")
    parser.add_argument("--backend", choices=BACKENDS, default="auto",
                        help="auto (default): Dawn on a GPU with subgroup matrices for matrix kernels, else "
                             "emulation on wgpu-native; wgpu-native for plain WGSL")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="kill the run after this long "
                        "(default: the description's timing.timeout_s, 60)")
    parser.add_argument("--no-robustness", action="store_true",
                        help="Dawn only: run without bounds checks (device toggle disable_robustness)")
    parser.add_argument("--show-lowered", action="store_true",
                        help="print the WGSL that would run (emulated or translated) and exit")
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from ..runner.description import RunDescriptionError, load_run_description, sidecar_path
    from ..runner.execute import run_kernel
    from ..runner.kernel import KernelError

    kernel = Path(args.kernel)
    if not kernel.is_file():
        print(f"coop-lint: error: {kernel}: no such file", file=sys.stderr)
        return 2
    if args.show_lowered:
        from ..runner.lowering import emulate, to_tint
        try:
            text = kernel.read_text()
            print((to_tint(text) if args.backend == "dawn" else emulate(text)).text, end="")
        except KernelError as error:
            print(f"coop-lint: error: {error}", file=sys.stderr)
            return 2
        return 0
    run_path = Path(args.run) if args.run else sidecar_path(kernel)
    try:
        description = load_run_description(run_path, workspace=Path.cwd() if _inside(run_path) else None)
    except RunDescriptionError as error:
        print(f"coop-lint: error: {error}", file=sys.stderr)
        return 2
    report = run_kernel(kernel, description, backend=args.backend, timeout_s=args.timeout,
                        robustness=False if args.no_robustness else None)
    print(report.render(args.format), end="")
    if report.status == "error":
        return 2
    return 0 if report.ok else 1


def _inside(path: Path) -> bool:
    return path.resolve().is_relative_to(Path.cwd().resolve())
