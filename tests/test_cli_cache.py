"""coop-lint in CI: worker processes (--jobs) and the result cache (--cache-dir, --no-cache)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import coop_lsp.cli.main as cli
from coop_lsp.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
GEMM = (ROOT / "examples" / "chromium" / "gemm_blocked.wgsl").read_bytes()
BROKEN = b"@compute @workgroup_size(1)\nfn main() {\n  let x = 1\n}\n"
TYPED = b"@compute @workgroup_size(1)\nfn main() {\n  let x: u32 = 1.5;\n}\n"


def project(tmp_path: Path, files: dict[str, bytes], config: str | None = None) -> Path:
    folder = tmp_path / "project"
    folder.mkdir(exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    if config is not None:
        (folder / "pyproject.toml").write_text(config)
    return folder


def lint(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--output-format", "concise", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def entries(cache: Path) -> list[Path]:
    return [p for p in cache.rglob("*") if p.is_file() and p.parent.parent == cache]


def test_a_run_writes_its_entries_as_one_file_named_under_every_key(tmp_path, capsys):
    # Creating a file costs far more than naming it: the entries of a run share one file.
    folder = project(tmp_path, {f"k{i}.wgsl": data for i, data in enumerate([BROKEN, TYPED, GEMM] * 2)})
    cache = tmp_path / "cache"
    first = lint(capsys, "--jobs", "2", "--cache-dir", str(cache), str(folder))
    found = entries(cache)
    assert len(found) == 3  # one per distinct file
    assert len({p.stat().st_ino for p in found}) == 1 and found[0].stat().st_nlink == 3
    assert lint(capsys, "--jobs", "2", "--cache-dir", str(cache), str(folder)) == first
    # A new file's entry is a second file; the first run's entries stay as they were.
    (folder / "new.wgsl").write_bytes(TYPED.replace(b"1.5", b"2.5"))
    second = lint(capsys, "--cache-dir", str(cache), str(folder))
    assert len(entries(cache)) == 4 and len({p.stat().st_ino for p in entries(cache)}) == 2
    assert lint(capsys, "--cache-dir", str(cache), str(folder)) == second == lint(capsys, "--no-cache", str(folder))


def test_without_hard_links_each_entry_is_a_file_of_its_own(tmp_path, capsys, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    folder = project(tmp_path, {"a.wgsl": BROKEN, "b.wgsl": TYPED, "c.wgsl": GEMM})
    cache = tmp_path / "cache"
    monkeypatch.setattr(os, "link", refuse)
    first = lint(capsys, "--cache-dir", str(cache), str(folder))
    assert len({p.stat().st_ino for p in entries(cache)}) == 3
    assert not [p for p in (cache).rglob(".tmp-*")]
    assert lint(capsys, "--cache-dir", str(cache), str(folder)) == first == lint(capsys, "--no-cache", str(folder))


def test_second_run_reads_the_cache_and_reports_the_same(tmp_path, capsys):
    folder = project(tmp_path, {"a.wgsl": BROKEN, "b.wgsl": TYPED, "c.wgsl": GEMM})
    cache = tmp_path / "cache"
    first = lint(capsys, "--cache-dir", str(cache), str(folder))
    assert len(entries(cache)) == 3
    assert (cache / ".gitignore").read_text().endswith("*\n")
    # The entries are what the second run reports: change one and the report changes with it.
    second = lint(capsys, "--cache-dir", str(cache), str(folder))
    assert second == first
    uncached = lint(capsys, "--no-cache", str(folder))
    assert uncached == first
    for entry in entries(cache):
        entry.write_bytes(entry.read_bytes().replace(b"S001", b"S999"))
    assert "S999" in lint(capsys, "--cache-dir", str(cache), str(folder))[1]


def test_a_run_the_cache_answers_never_imports_the_checker(tmp_path):
    # Importing the checker costs about as much as reading 500 cached results: a cached CI run must not.
    folder = project(tmp_path, {"a.wgsl": TYPED, "b.wgsl": GEMM})
    script = ("import sys\nfrom coop_lsp.cli.main import main\n"
              "code = main(['--output-format', 'concise', '--cache-dir', sys.argv[1], sys.argv[2]])\n"
              "print('exit', code, 'coop_lsp.lint.engine' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", script, str(tmp_path / "cache"), str(folder)],
                           capture_output=True, text=True, timeout=120) for _ in range(2)]
    assert runs[0].stdout.splitlines()[-1] == "exit 1 True"
    assert runs[1].stdout.splitlines()[-1] == "exit 1 False"
    assert runs[1].stdout == runs[0].stdout.replace("True", "False")


def test_no_cache_writes_nothing(tmp_path, capsys):
    folder = project(tmp_path, {"a.wgsl": BROKEN})
    cache = tmp_path / "cache"
    lint(capsys, "--no-cache", "--cache-dir", str(cache), str(folder))
    assert not cache.exists()


def test_cache_is_invalidated_when_targets_change(tmp_path, capsys):
    folder = project(tmp_path, {"gemm.wgsl": GEMM})
    # The configuration rules only: on the H100 the kernel's scalar f16 loads also get P006.
    cache = ["--cache-dir", str(tmp_path / "cache"), "--select", "D"]
    assert lint(capsys, *cache, "--target", "nvidia-h100", str(folder))[0] == 0
    code, out, _ = lint(capsys, *cache, "--target", "apple-m", str(folder))
    assert code == 1 and "D001" in out
    assert lint(capsys, *cache, "--target", "nvidia-h100", str(folder))[0] == 0


def test_cache_is_invalidated_when_the_configuration_changes(tmp_path, capsys):
    folder = project(tmp_path, {"a.wgsl": TYPED}, config="[tool.coop-lint]\n")
    cache = ["--cache-dir", str(tmp_path / "cache")]
    code, out, _ = lint(capsys, *cache, str(folder))
    assert code == 1 and "T0" in out
    (folder / "pyproject.toml").write_text('[tool.coop-lint]\nignore = ["T"]\n')
    assert lint(capsys, *cache, str(folder)) == (0, "", "No findings in 1 file.\n")
    (folder / "pyproject.toml").write_text('[tool.coop-lint]\ntargets = ["apple-m"]\n')
    folder.joinpath("a.wgsl").write_bytes(GEMM)
    assert "D001" in lint(capsys, *cache, str(folder))[1]


def test_corrupt_cache_entries_are_ignored_with_one_note(tmp_path, capsys):
    folder = project(tmp_path, {"a.wgsl": BROKEN, "b.wgsl": TYPED})
    cache = tmp_path / "cache"
    expected = lint(capsys, "--cache-dir", str(cache), str(folder))
    for entry in entries(cache):
        entry.write_bytes(b"\x00\xffnot a cache entry")
    code, out, err = lint(capsys, "--cache-dir", str(cache), str(folder))
    assert (code, out) == expected[:2]
    notes = [line for line in err.splitlines() if "note:" in line]
    assert len(notes) == 1 and "corrupt" in notes[0]
    # Rewritten: the next run is quiet again.
    assert lint(capsys, "--cache-dir", str(cache), str(folder)) == expected


def test_entries_of_another_version_are_ignored_with_a_note(tmp_path, capsys):
    folder = project(tmp_path, {"a.wgsl": BROKEN})
    cache = tmp_path / "cache"
    expected = lint(capsys, "--cache-dir", str(cache), str(folder))
    (entry,) = entries(cache)
    header, version, payload = entry.read_bytes().split(b"\n", 2)
    entry.write_bytes(header + b"\n0.0.1-other\n" + payload.replace(b"S001", b"S999"))
    code, out, err = lint(capsys, "--cache-dir", str(cache), str(folder))
    assert (code, out) == expected[:2]
    assert "0.0.1-other" in err and len(err.strip().splitlines()) == 1


def test_a_cache_entry_cannot_make_coop_lint_run_code(tmp_path, capsys):
    import pickle

    folder = project(tmp_path, {"a.wgsl": BROKEN})
    cache = tmp_path / "cache"
    expected = lint(capsys, "--cache-dir", str(cache), str(folder))
    (entry,) = entries(cache)
    header, version, _ = entry.read_bytes().split(b"\n", 2)
    marker = tmp_path / "ran"
    entry.write_bytes(header + b"\n" + version + b"\n" + pickle.dumps(_Evil(str(marker))))
    code, out, err = lint(capsys, "--cache-dir", str(cache), str(folder))
    assert (code, out) == expected[:2] and "corrupt" in err
    assert not marker.exists()


class _Evil:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


def test_unwritable_cache_is_ignored_with_one_note(tmp_path, capsys):
    folder = project(tmp_path, {"a.wgsl": BROKEN, "b.wgsl": TYPED})
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, out, err = lint(capsys, "--cache-dir", str(blocker / "cache"), str(folder))
    assert (code, out) == lint(capsys, "--no-cache", str(folder))[:2]
    assert len(err.strip().splitlines()) == 1 and "cannot write the cache" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_cache_the_workers_cannot_write_is_noted_once(tmp_path, capsys, jobs):
    # The folder is there, but a file stands where the entries of this version go: each worker that
    # writes its files' entries fails, and the run says so once.
    from coop_lsp import __version__

    folder = project(tmp_path, {f"k{i}.wgsl": data for i, data in enumerate([BROKEN, TYPED, GEMM] * 2)})
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / __version__).write_text("not a folder")
    code, out, err = lint(capsys, "--jobs", jobs, "--cache-dir", str(cache), str(folder))
    assert (code, out) == lint(capsys, "--no-cache", str(folder))[:2]
    assert len(err.strip().splitlines()) == 1 and "cannot write the cache" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_cache_folder_is_ignored_with_one_note(tmp_path, capsys):
    folder = project(tmp_path, {"a.wgsl": BROKEN, "b.wgsl": TYPED})
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o555)
    try:
        code, out, err = lint(capsys, "--cache-dir", str(cache), str(folder))
    finally:
        cache.chmod(0o755)
    assert len(err.strip().splitlines()) == 1 and "cannot write the cache" in err


def test_jobs_give_the_same_report_as_one_process(tmp_path, capsys):
    files = {f"k{i}.wgsl": data for i, data in enumerate([BROKEN, TYPED, GEMM] * 3)}
    folder = project(tmp_path, files)
    one = lint(capsys, "--no-cache", "--jobs", "1", "--output-format", "json", str(folder))
    three = lint(capsys, "--no-cache", "--jobs", "3", "--output-format", "json", str(folder))
    assert one == three


def _dies_on_boom(job):
    if b"BOOM" in job.data:
        os.kill(os.getpid(), signal.SIGKILL)
    return cli_run_job(job)


cli_run_job = cli.run_job


def test_a_worker_that_dies_costs_only_its_file(tmp_path, capsys, monkeypatch):
    files = {"a.wgsl": BROKEN, "b.wgsl": TYPED, "boom.wgsl": b"// BOOM\n" + TYPED, "d.wgsl": BROKEN,
             "e.wgsl": TYPED}
    folder = project(tmp_path, files)
    cache = tmp_path / "cache"
    monkeypatch.setattr(cli, "run_job", _dies_on_boom)
    code, out, _ = lint(capsys, "--jobs", "2", "--cache-dir", str(cache), str(folder))
    by_file = {}
    for line in out.splitlines():
        if ": " in line and line.startswith(str(folder)):
            by_file.setdefault(Path(line.split(":")[0]).name, []).append(line)
    assert code == 1
    (boom,) = by_file["boom.wgsl"]
    assert "X001" in boom and "SIGKILL" in boom
    for name in ("a.wgsl", "d.wgsl"):
        assert any("S001" in line for line in by_file[name])
    for name in ("b.wgsl", "e.wgsl"):
        assert any(" T0" in line for line in by_file[name])
    # The lost file's X001 is not cached: the next run checks it.
    monkeypatch.setattr(cli, "run_job", cli_run_job)
    assert "X001" not in lint(capsys, "--jobs", "2", "--cache-dir", str(cache), str(folder))[1]


def test_entries_in_the_older_pickle_format_are_ignored_with_a_note(tmp_path, capsys):
    # Format 2 entries were pickles: left by an earlier coop-lint of this version, they are never unpickled.
    folder = project(tmp_path, {"a.wgsl": BROKEN})
    cache = tmp_path / "cache"
    expected = lint(capsys, "--cache-dir", str(cache), str(folder))
    (entry,) = entries(cache)
    _, version, payload = entry.read_bytes().split(b"\n", 2)
    entry.write_bytes(b"coop-lint-cache 2\n" + version + b"\n" + payload)
    code, out, err = lint(capsys, "--cache-dir", str(cache), str(folder))
    assert (code, out) == expected[:2]
    assert err.strip() == f"coop-lint: note: ignoring cache entries in an older format in {cache} (they are rewritten)"
    assert lint(capsys, "--cache-dir", str(cache), str(folder)) == expected


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG_CACHE_HOME is the Linux convention")
def test_the_default_cache_is_the_users_not_the_projects(tmp_path, capsys, monkeypatch):
    folder = project(tmp_path, {"a.wgsl": BROKEN})
    monkeypatch.chdir(folder)
    monkeypatch.delenv("COOP_LINT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    lint(capsys, "a.wgsl")
    assert entries(tmp_path / "xdg" / "coop-lint") and not (folder / ".coop-lint-cache").exists()
