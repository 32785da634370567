"""Puts the coop-lsp server and its Python dependencies into vscode-client/bundled/libs,
for one `vsce package --target`:

    python3 vscode-client/scripts/bundle_server.py linux-x64

The extension runs `python -m coop_lsp.server.main` with this folder first on
sys.path, using whatever Python >= 3.11 the machine has, so one folder must
serve every CPython version we support. Pure-Python packages are the same for
all of them; the compiled ones differ in file name (`_binding.cpython-312-...so`),
so the folder is the union of one `pip install --target` per version.

coop-lsp itself is built here with `pip wheel`: this works whether the WGSL
grammar is its own package (tree-sitter-wgsl/, today) or compiled into
coop-lsp's wheel (an abi3 extension). Either way it is built for this machine's
platform, so a target other than the host's needs its wheels in
--local-wheels (built on that platform).

Downloads come from PyPI at build time; the .vsix then needs no network.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLIENT = Path(__file__).resolve().parent.parent
ROOT = CLIENT.parent
DEFAULT_OUT = CLIENT / "bundled" / "libs"
PYTHON_VERSIONS = ["3.11", "3.12", "3.13", "3.14"]

# vsce's --target names -> the wheel platform tags pip may pick for it (newest policy first).
PLATFORMS = {
    "linux-x64": ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64", "linux_x86_64"],
    "linux-arm64": ["manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64", "linux_aarch64"],
    "darwin-arm64": ["macosx_11_0_arm64", "macosx_14_0_arm64"],
    "darwin-x64": ["macosx_10_9_x86_64", "macosx_10_13_x86_64"],
    "win32-x64": ["win_amd64"],
}
HOST_TARGET = {("Linux", "x86_64"): "linux-x64", ("Linux", "aarch64"): "linux-arm64",
               ("Darwin", "arm64"): "darwin-arm64", ("Darwin", "x86_64"): "darwin-x64",
               ("Windows", "AMD64"): "win32-x64"}.get((platform.system(), platform.machine()))


def log(message: str) -> None:
    print(f"==> {message}", file=sys.stderr, flush=True)


def pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"bundle_server: `pip {' '.join(args[:2])} ...` failed (output above); "
                         "it needs PyPI (or pip's cache) and, for coop-lsp's grammar, a C compiler")


def build_local_wheels(into: Path) -> None:
    """coop-lsp's wheel, and the grammar's when it is still its own distribution."""
    log("building coop-lsp's wheel")
    pip("wheel", "--no-deps", "--quiet", "-w", str(into), str(ROOT))
    wanted = [line for line in (ROOT / "pyproject.toml").read_text().splitlines() if "tree-sitter-wgsl" in line
              and line.strip().startswith('"')]
    if wanted and (ROOT / "tree-sitter-wgsl" / "setup.py").exists():
        log("building the WGSL grammar's wheel (tree-sitter-wgsl/)")
        pip("wheel", "--no-deps", "--quiet", "-w", str(into), str(ROOT / "tree-sitter-wgsl"))


def project_version() -> str:
    text = (ROOT / "coop_lsp" / "__init__.py").read_text()
    match = re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.M)
    if match is None:
        raise SystemExit("bundle_server: no __version__ in coop_lsp/__init__.py")
    return match.group(1)


def install_for(version: str, target: str, wheels: Path, into: Path, constraints: Path | None) -> None:
    platform_args = [arg for tag in PLATFORMS[target] for arg in ("--platform", tag)]
    args = ["install", "--quiet", "--target", str(into), "--only-binary", ":all:", "--implementation", "cp",
            "--python-version", version, *platform_args, "--find-links", str(wheels), "--no-compile"]
    if constraints is not None:
        args += ["--constraint", str(constraints)]
    # The wheel by its path, so that nothing of that name on PyPI can be taken instead.
    own = sorted(wheels.glob(f"coop_lsp-{project_version()}-*.whl"))
    if not own:
        raise SystemExit(f"bundle_server: no coop_lsp-{project_version()}-*.whl in {wheels}")
    pip(*args, *map(str, own))


def distributions(folder: Path) -> dict[str, str]:
    found = {}
    for info in folder.glob("*.dist-info"):
        name, _, version = info.name[: -len(".dist-info")].partition("-")
        found[name.lower().replace("_", "-")] = version
    return found


def merge(source: Path, into: Path) -> list[str]:
    """Copies what `into` lacks (the other versions' compiled modules); returns those paths."""
    added = []
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        destination = into / relative
        if path.is_dir() or destination.exists():
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, destination)
        added.append(str(relative))
    return added


def precompile(libs: Path, versions: list[str]) -> list[str]:
    """Byte-compiles the bundle with each supported CPython found here.

    Compiling lsprotocol's types alone takes seconds, and the extension's folder may be read-only,
    so without these the first start (and maybe every start) pays it. unchecked-hash: the files
    never change after packaging, and unpacking a .vsix does not keep modification times, which
    the default (timestamp) mode would compare.
    """
    done = []
    for version in versions:
        # PATH first; then interpreters installed beside it that PATH does not select (pyenv, /usr/bin).
        candidates = [shutil.which(f"python{version}"), f"/usr/bin/python{version}", f"/usr/local/bin/python{version}",
                      *sorted(map(str, Path.home().glob(f".pyenv/versions/{version}.*/bin/python{version}")))]
        errors = []
        for python in dict.fromkeys(c for c in candidates if c is not None and Path(c).exists()):
            result = subprocess.run([python, "-m", "compileall", "-q", "-j", "0", "--invalidation-mode",
                                     "unchecked-hash", str(libs)], capture_output=True, text=True)
            if result.returncode == 0:
                done.append(version)
                break
            errors.append(f"{python}: {result.stderr.strip()[-120:]}")
        else:
            if errors:
                log(f"no python{version} here could byte-compile the bundle ({'; '.join(errors)}); skipped")
    log(f"byte-compiled for CPython {', '.join(done) or 'none (no python3.X here)'}")
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", choices=sorted(PLATFORMS), help="vsce --target name")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--local-wheels", type=Path,
                        help="coop-lsp's wheels built on the target platform (default: build them here, "
                             "which only serves the host platform)")
    options = parser.parse_args()
    if options.local_wheels is None and options.target != HOST_TARGET:
        raise SystemExit(f"bundle_server: coop-lsp's grammar is compiled, and this machine builds for {HOST_TARGET}, "
                         f"not {options.target}: pass --local-wheels with wheels built on {options.target}")

    out: Path = options.out
    with tempfile.TemporaryDirectory(prefix="coop-bundle-") as scratch_name:
        scratch = Path(scratch_name)
        wheels = options.local_wheels or scratch / "wheels"
        if options.local_wheels is None:
            build_local_wheels(wheels)
        if out.exists():
            shutil.rmtree(out)
        versions: dict[str, dict[str, str]] = {}
        constraints = scratch / "constraints.txt"
        for index, version in enumerate(PYTHON_VERSIONS):
            folder = out if index == 0 else scratch / f"py{version}"
            log(f"installing coop-lsp and its dependencies for CPython {version} ({options.target})")
            try:
                install_for(version, options.target, wheels, folder, constraints if index else None)
            except SystemExit:
                if version == PYTHON_VERSIONS[0]:
                    raise
                # A version too new for some dependency's wheels is left out, and said so.
                log(f"no wheels for CPython {version}: the bundle will not run on it")
                continue
            versions[version] = distributions(folder)
            if index == 0:
                # Every later version resolves to exactly these releases, so the union is consistent.
                constraints.write_text("".join(f"{name}=={v}\n" for name, v in versions[version].items()))
            else:
                merge(folder, out)
        # Console scripts point at the build machine's interpreter; the extension never uses them.
        shutil.rmtree(out / "bin", ignore_errors=True)
        for cache in out.rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
        compiled = precompile(out, sorted(versions))
    manifest = {
        "target": options.target,
        "coop_lsp": project_version(),
        "python_versions": sorted(versions),
        "bytecode_for": compiled,
        "distributions": versions[PYTHON_VERSIONS[0]],
    }
    # Read by the extension: which CPython versions the compiled modules exist for, and the version it
    # bundles (compared with what the server says at initialize).
    (out.parent / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    log(f"bundled coop-lsp {manifest['coop_lsp']} for CPython {', '.join(manifest['python_versions'])} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
