"""coop-lint as CI runs it: output format, exit codes, standard input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "coop_lsp.cli.main", *args], input=stdin,
                          capture_output=True, cwd=cwd or ROOT)


def test_clean_examples_exit_zero():
    completed = run("examples")
    assert completed.returncode == 0, completed.stdout.decode()
    assert completed.stdout == b""


def test_findings_exit_one_with_path_line_column_code_and_caret(tmp_path):
    bad = tmp_path / "kernel.wgsl"
    bad.write_text("fn f() {\n  let x = 1\n}\n")
    completed = run(str(bad))
    assert completed.returncode == 1
    lines = completed.stdout.decode().splitlines()
    assert lines[0] == f"{bad}:2:12: S001 [error] expected ';' after 'let' declaration"
    assert lines[1] == "2 |   let x = 1"
    assert lines[2] == " " * (len("2 | ") + 11) + "^"


def test_folders_are_searched_for_wgsl_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.wgsl").write_text("fn f() { let x = 1 & 2 | 3; }\n")
    (tmp_path / "notes.txt").write_text("fn (")
    completed = run("--no-source", "--quiet", str(tmp_path))
    assert completed.returncode == 1
    assert completed.stdout.decode().splitlines() == [
        f"{tmp_path / 'sub' / 'a.wgsl'}:1:24: S002 [error] mixing '&' and '|' requires parentheses"]


def test_standard_input_with_a_display_name():
    completed = run("--no-source", "--stdin-filename", "shader.wgsl", "-", stdin=b"fn f( {}")
    assert completed.returncode == 1
    assert completed.stdout.decode().startswith("shader.wgsl:1:6: S001")


def test_usage_errors_exit_two():
    assert run().returncode == 2
    assert run("--no-such-flag").returncode == 2
    missing = run("does/not/exist.wgsl")
    assert missing.returncode == 2
    assert b"no such file or directory" in missing.stderr


def test_unreadable_file_exits_two(tmp_path):
    folder_named_like_a_file = tmp_path / "x.wgsl"
    folder_named_like_a_file.mkdir()
    (folder_named_like_a_file / "inner.wgsl").write_text("fn f() {}\n")
    completed = run(str(folder_named_like_a_file / "inner.wgsl"), str(tmp_path / "gone.wgsl"))
    assert completed.returncode == 2


def test_binary_file_does_not_crash(tmp_path):
    blob = tmp_path / "blob.wgsl"
    blob.write_bytes(bytes(range(256)) * 64)
    completed = run(str(blob))
    assert completed.returncode == 1
    assert b"S005" in completed.stdout
    assert b"Traceback" not in completed.stderr


PUSH_CONSTANT = """struct Params { scale: f32 }
var<push_constant> params: Params;

@compute @workgroup_size(64)
fn main() {
    _ = params.scale;
}
"""


def test_dialect_decides_whose_compiler_counts_for_a_module_without_enables(tmp_path):
    # Plain WGSL with naga's push constants: a portability warning by default, an error when the
    # project says it ships to Chrome (Tint), a warning again for wgpu.
    kernel = tmp_path / "kernel.wgsl"
    kernel.write_text(PUSH_CONSTANT)
    codes = {}
    for dialect in ("auto", "chromium", "wgpu"):
        out = run("--dialect", dialect, "--output-format", "json", str(kernel)).stdout.decode()
        codes[dialect] = [(d["code"], d["severity"]) for d in json.loads(out)]
    assert codes == {"auto": [("T013", "warning")], "chromium": [("T001", "error")], "wgpu": [("T013", "warning")]}


def test_dialect_from_the_configuration_file(tmp_path):
    (tmp_path / "coop-lint.toml").write_text('dialect = "standard"\n')
    (tmp_path / "kernel.wgsl").write_text(PUSH_CONSTANT)
    completed = run("kernel.wgsl", cwd=tmp_path)
    assert completed.returncode == 1 and b"T001 [error]" in completed.stdout, completed.stdout.decode()


def test_reader_that_stops_early_gets_no_traceback(tmp_path):
    # `coop-lint . | head -1`: the pipe closes while findings are still being written.
    for index in range(40):
        (tmp_path / f"k{index}.wgsl").write_text("fn f() {\n  let x = 1\n}\n" * 50)
    process = subprocess.Popen([sys.executable, "-m", "coop_lsp.cli.main", str(tmp_path)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline().endswith(b"S001 [error] expected ';' after 'let' declaration\n")
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=60) == 141  # as if killed by SIGPIPE
    assert b"Traceback" not in stderr, stderr.decode()


# -- no silent pass: a path that checks nothing says so -------------------------

def test_a_folder_without_wgsl_files_is_named_with_the_reason(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.md").write_text("# kernels live elsewhere\n")
    completed = run(str(tmp_path / "docs"))
    assert completed.returncode == 0
    err = completed.stderr.decode().splitlines()
    assert err == [f"coop-lint: warning: {tmp_path / 'docs'}: nothing to lint: no .wgsl files in it",
                   "No files were checked."]


def test_a_git_ignored_folder_is_named_with_the_reason(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("generated/\n")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "k.wgsl").write_text("fn f() {}\n")
    completed = run("generated", cwd=tmp_path)
    assert completed.returncode == 0
    assert ("coop-lint: warning: generated: nothing to lint: its .wgsl files are ignored by git"
            in completed.stderr.decode())


def test_a_folder_excluded_by_the_configuration_is_named_with_the_reason(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.coop-lint]\nexclude = ["vendor"]\n')
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "k.wgsl").write_text("fn f() {}\n")
    completed = run("vendor", cwd=tmp_path)
    assert completed.returncode == 0
    assert "vendor: nothing to lint: its .wgsl files are excluded by the configuration's `exclude`" in \
        completed.stderr.decode()


def test_the_summary_counts_the_files_checked(tmp_path):
    (tmp_path / "a.wgsl").write_text("fn f() { let x = 1 & 2 | 3; }\n")
    (tmp_path / "b.wgsl").write_text("fn g() {}\n")
    completed = run(str(tmp_path))
    assert completed.stdout.decode().splitlines()[-1] == "Found 1 finding in 1 file (1 fixable with --fix). 2 files checked."


# -- --watch ----------------------------------------------------------------------

def test_watch_relints_changed_files_and_prints_only_what_changed(tmp_path):
    import os
    import select
    import time

    (tmp_path / "a.wgsl").write_text("fn f() {}\n")
    (tmp_path / "b.wgsl").write_text("fn g() {}\n")
    proc = subprocess.Popen([sys.executable, "-m", "coop_lsp.cli.main", "--watch", "--no-source", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    seen = []

    def read_until(fragment: str, timeout: float = 30.0) -> None:
        # Raw reads of the pipe: a buffered readline could hold lines that select() no longer sees.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if fragment in "".join(seen):
                return
            ready, _, _ = select.select([proc.stdout], [], [], 0.2)
            if ready:
                seen.append(os.read(proc.stdout.fileno(), 65536).decode())
        raise AssertionError(f"no {fragment!r} within {timeout} s; output so far:\n{''.join(seen)}")

    try:
        read_until("watching 2 files")
        time.sleep(0.1)
        (tmp_path / "a.wgsl").write_text("fn f() { let x = 1 & 2 | 3; }\n")
        read_until("S002")
        assert "b.wgsl" not in "".join(seen).split("watching 2 files")[1]  # b did not change: not printed
        (tmp_path / "a.wgsl").write_text("fn f() { let x = (1 & 2) | 3; }\n")
        read_until("a.wgsl: no findings")
        (tmp_path / "c.wgsl").write_text("fn h() { let y = 1 }\n")
        read_until("c.wgsl:1:19: S001")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
