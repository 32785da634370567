"""coop-lsp installs the ways users install it, from a clean clone, with a C compiler and PyPI only.

The sdist and the wheel are built once (the wheel from the sdist, as `./dev release` does); each
install goes into a fresh venv (or pipx's / uv's own), and must lint the examples exactly as the
repository's coop-lint does and answer LSP `initialize` over stdio. The grammar is compiled by the
sdist install, the git install, and pipx and uv (each builds from the clone), four compiles of
parser.c in all besides the wheel's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from coop_lsp import __version__

from .install_support import (
    check_installed, clean_clone, clean_env, fresh_venv, missing_prerequisite, reference_findings, run,
)

pytestmark = pytest.mark.install

TAG = f"v{__version__}"
# Installed into a throwaway venv, only to install coop-lsp the way their users do.
TOOL_INSTALLERS = {"uv": "uv==0.13.9", "pipx": "pipx==1.18.4"}


@pytest.fixture(scope="session")
def install_workspace(tmp_path_factory):
    why = missing_prerequisite()
    if why:
        pytest.skip(why)
    return tmp_path_factory.mktemp("install")


@pytest.fixture(scope="session")
def clone(install_workspace):
    return clean_clone(install_workspace / "coop-lsp", tag=TAG)


@pytest.fixture(scope="session")
def expected(clone):
    return reference_findings(clone)


@pytest.fixture(scope="session")
def artifacts(clone, install_workspace):
    """The sdist and the abi3 wheel, built from the clone by `python -m build` (wheel from sdist)."""
    dist = install_workspace / "dist"
    run([sys.executable, "-m", "build", "--outdir", dist, clone], env=clean_env())
    sdists, wheels = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    assert [path.name for path in sdists] == [f"coop_lsp-{__version__}.tar.gz"]
    assert [path.name for path in wheels] == [f"coop_lsp-{__version__}-cp311-abi3-linux_x86_64.whl"]
    return {"sdist": sdists[0], "wheel": wheels[0]}


@pytest.fixture(scope="session")
def wheel_venv(artifacts, install_workspace):
    bin_dir = fresh_venv(install_workspace / "venv-wheel")
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", artifacts["wheel"]], env=clean_env())
    return bin_dir


def test_the_release_artifacts_pass_twine_check(artifacts):
    done = run([sys.executable, "-m", "twine", "check", "--strict", artifacts["sdist"], artifacts["wheel"]])
    assert done.stdout.count("PASSED") == 2


def test_the_sdist_carries_the_grammar_sources_once(artifacts):
    import tarfile

    with tarfile.open(artifacts["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"setup.py", "coop_lsp/syntax/_grammar.c", "tree-sitter-wgsl/src/parser.c",
            "tree-sitter-wgsl/src/scanner.c", "tree-sitter-wgsl/src/tree_sitter/parser.h"} <= names
    assert not [name for name in names if name.endswith("parser.c") and not name.startswith("tree-sitter-wgsl/")]


def test_install_from_the_wheel(wheel_venv, clone, expected):
    check_installed(wheel_venv, clone, expected, __version__, clean_env())


def test_install_from_the_sdist(artifacts, install_workspace, clone, expected):
    bin_dir = fresh_venv(install_workspace / "venv-sdist")
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", artifacts["sdist"]], env=clean_env())
    check_installed(bin_dir, clone, expected, __version__, clean_env())


def test_install_from_a_git_url_at_the_tag(install_workspace, clone, expected):
    bin_dir = fresh_venv(install_workspace / "venv-git")
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", f"git+file://{clone}@{TAG}"],
        env=clean_env())
    check_installed(bin_dir, clone, expected, __version__, clean_env())


@pytest.mark.parametrize("installer", sorted(TOOL_INSTALLERS))
def test_install_as_a_tool(installer, install_workspace, clone, expected):
    tools = install_workspace / f"with-{installer}"
    tool_bin = fresh_venv(tools / "installer")
    done = run([tool_bin / "python", "-m", "pip", "install", "--quiet", TOOL_INSTALLERS[installer]],
               env=clean_env(), check=False)
    if done.returncode != 0:
        pytest.skip(f"{TOOL_INSTALLERS[installer]} does not install here: {done.stderr.strip()[-300:]}")
    on_path = tools / "bin"
    # Each tool builds from a clone of its own: a build/ left by another in-tree build would be reused.
    source = clean_clone(tools / "coop-lsp")
    if installer == "uv":
        env = clean_env(UV_TOOL_DIR=str(tools / "uv-tools"), UV_TOOL_BIN_DIR=str(on_path), UV_NO_PROGRESS="1")
        command = [tool_bin / "uv", "tool", "install", "--python", sys.executable, source]
    else:
        env = clean_env(PIPX_HOME=str(tools / "pipx-home"), PIPX_BIN_DIR=str(on_path),
                        PIPX_MAN_DIR=str(tools / "man"))
        command = [tool_bin / "pipx", "install", "--python", sys.executable, source]
    run(command, env=env)
    check_installed(on_path, clone, expected, __version__, clean_env())


def test_a_missing_or_foreign_grammar_module_is_one_line_and_status_2(wheel_venv, clone):
    # -I: the installed package, never a coop_lsp/ in the current folder.
    site = Path(run([wheel_venv / "python", "-I", "-c", "import coop_lsp, os; print(os.path.dirname(coop_lsp.__file__))"],
                    env=clean_env()).stdout.strip())
    compiled = site / "syntax" / "_grammar.abi3.so"
    assert wheel_venv.parent in site.parents and compiled.is_file()
    # A module built for another CPython, then no module at all.
    foreign = compiled.with_name("_grammar.cpython-39-x86_64-linux-gnu.so")
    compiled.rename(foreign)
    try:
        for expected_words in ("built for another Python", None):
            if expected_words is None:
                foreign.unlink()
                expected_words = "is missing from"
            for command, arguments in (("coop-lint", ["examples"]), ("coop-lsp", [])):
                done = run([wheel_venv / command, *arguments], cwd=clone, env=clean_env(), check=False)
                assert done.returncode == 2
                assert done.stdout == ""
                lines = done.stderr.strip().splitlines()
                assert len(lines) == 1 and expected_words in lines[0] and "_grammar" in lines[0], done.stderr
                assert lines[0].startswith(f"{command}: error: broken install: ")
    finally:
        if not compiled.exists():
            run([wheel_venv / "python", "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps",
                 next(clone.parent.glob("dist/*.whl"))], env=clean_env())


def test_a_failed_compile_says_which_step_and_what_it_needs(install_workspace):
    # No compiler: pip's output ends with our line, not only gcc's "No such file or directory". A clone
    # of its own: pip builds in the source tree, and setuptools would reuse another install's build/.
    source = clean_clone(install_workspace / "coop-lsp-no-cc")
    done = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", install_workspace / "no-cc",
                source], env=clean_env(CC="/nonexistent/cc"), check=False)
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "coop-lsp: compiling the WGSL grammar" in output
    assert "This step needs a C compiler" in output and "Python.h" in output
