"""Every hook of .pre-commit-hooks.yaml, as users get it: pre-commit installs a clean clone with pip.

`pre-commit try-repo <clone> --files ...` runs every hook once on good files. `try-repo` makes a
new store (and so a new install of coop-lsp) on every call, whatever PRE_COMMIT_HOME says: about
four minutes a call on this loaded 2-core machine. So each hook id is then run the way users run
it, `pre-commit run <hook-id> --files ...` with a .pre-commit-config.yaml naming the clone at its
commit, in a fresh PRE_COMMIT_HOME that installs coop-lsp once for all of them. The files are
staged, as in a commit: pre-commit sees a fix or format hook's change only on tracked files.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

from .install_support import ROOT, clean_clone, clean_env, missing_prerequisite, run

pytestmark = pytest.mark.install

CLEAN = """\
@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] = data[id.x] * 2u;
}
"""
# Formatted, and T003: a float where a u32 is expected.
ERROR = CLEAN.replace("data[id.x] * 2u;", "1.5;")
# No finding, but not in coop-lint format's layout.
UNFORMATTED = """\
@group(0) @binding(0) var<storage,read_write> data:array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id:vec3<u32>) { data[id.x]=data[id.x]*2u; }
"""
HOST_CLEAN = '# wgsl\nKERNEL = """\n@compute @workgroup_size(64) fn main() {}\n"""\n'
HOST_ERROR = '# wgsl\nKERNEL = """\n@compute @workgroup_size(64) fn main() { let x: u32 = 1.5; }\n"""\n'

FILES = {"clean.wgsl": CLEAN, "clean_b.wgsl": CLEAN.replace("2u", "3u"), "error.wgsl": ERROR,
         "unformatted.wgsl": UNFORMATTED, "clean.py": HOST_CLEAN, "error.py": HOST_ERROR}
# For each hook: files it must pass on, and a file it must fail on.
CASES = {
    "coop-lint": (["clean.wgsl", "clean_b.wgsl"], "error.wgsl"),
    "coop-lint-fix": (["clean.wgsl", "clean_b.wgsl"], "error.wgsl"),
    "coop-lint-embedded": (["clean.py"], "error.py"),
    "coop-lint-format": (["clean.wgsl", "clean_b.wgsl"], "unformatted.wgsl"),
    "coop-lint-format-check": (["clean.wgsl", "clean_b.wgsl"], "unformatted.wgsl"),
}


def _hook_ids() -> list[str]:
    return [hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())]


def test_every_hook_has_a_case():
    assert sorted(_hook_ids()) == sorted(CASES)


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory):
    why = missing_prerequisite()
    if why:
        pytest.skip(why)
    workspace = tmp_path_factory.mktemp("pre-commit")
    clone = clean_clone(workspace / "coop-lsp")
    commit = run(["git", "-C", clone, "rev-parse", "HEAD"]).stdout.strip()
    user = workspace / "kernels"
    user.mkdir()
    run(["git", "init", "--quiet", user])
    config = {"repos": [{"repo": str(clone), "rev": commit, "hooks": [{"id": hook} for hook in _hook_ids()]}]}
    (user / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    for name, text in FILES.items():
        (user / name).write_text(text)
    run(["git", "-C", user, "add", "."])
    env = clean_env(PRE_COMMIT_HOME=str(workspace / "home"), PRE_COMMIT_COLOR="never")
    return clone, user, env


def _pre_commit(hook_repo, *arguments: str):
    clone, user, env = hook_repo
    for name, text in FILES.items():  # a fix or format hook may have rewritten one
        (user / name).write_text(text)
    return run([sys.executable, "-m", "pre_commit", *arguments], cwd=user, env=env, check=False)


def test_try_repo_installs_the_clone_and_every_hook_passes_good_files(hook_repo):
    clone = hook_repo[0]
    done = _pre_commit(hook_repo, "try-repo", str(clone), "--files", "clean.wgsl", "clean_b.wgsl", "clean.py")
    assert done.returncode == 0, done.stdout + done.stderr
    verdicts = dict(re.findall(r"^(coop-lint[^.\n]*?)\.{3,}.*?(Passed|Failed|Skipped)$", done.stdout, re.M))
    names = [hook["name"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())]
    assert verdicts == {name: "Passed" for name in names}, done.stdout


@pytest.mark.parametrize("hook", sorted(CASES))
def test_the_hook_passes_good_files_and_fails_a_bad_one(hook_repo, hook):
    good, bad = CASES[hook]
    passed = _pre_commit(hook_repo, "run", hook, "--files", *good)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout
    failed = _pre_commit(hook_repo, "run", hook, "--files", *good, bad)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Failed" in failed.stdout
    assert not any(f"{name}:" in failed.stdout for name in good)
