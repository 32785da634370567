"""Malicious repositories, one per attack vector (SECURITY.md): each is refused with one line that names the
file, the key and the reason, and the test proves that nothing was written, loaded or read.

Every fixture is a repository of the attacker's (`repo/`) next to a folder of the user's (`outside/`)
holding a secret and the files an attack would write. coop-lint runs in the repository, as CI and an
editor do. An audit hook records what the interpreter does meanwhile: opening a file, loading a
library, starting a process.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from pathlib import Path

import pytest

from coop_lsp.cli.main import main
from coop_lsp.runner.description import load_run_description, parse_run_description, sidecar_path

ROOT = Path(__file__).resolve().parent.parent
SECRET = "SECRET_7f3a9c"
KERNEL = ("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
          "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
          "    c[i] = f32(i);\n}\n")
RUN = ('dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\n'
       '[check]\nkind = "expression"\noutput = "c"\nexpected = "{expected}"\n')

_EVENTS: list[tuple[str, tuple]] = []
_WATCH = threading.local()


def _hook(event: str, args: tuple) -> None:
    if getattr(_WATCH, "on", False) and (event in ("open", "os.system", "subprocess.Popen", "os.exec", "os.spawn",
                                                  "os.posix_spawn", "pickle.find_class", "os.remove", "os.rename")
                                         or event.startswith("ctypes.")):
        _EVENTS.append((event, args))


sys.addaudithook(_hook)  # cannot be removed; records only while a test watches


class Attack:
    def __init__(self, tmp_path: Path) -> None:
        self.before: list[str] = []
        self.repo = tmp_path / "repo"
        self.outside = tmp_path / "outside"
        self.repo.mkdir()
        self.outside.mkdir()
        self.secret = self.outside / "secret.wgsl"
        self.secret.write_text(f"const {SECRET}: u32 = 1u;\nfn leak() {{ let x: u32 = {SECRET}; }}\n")
        self.marker = self.outside / "owned"

    def write(self, name: str, text: str) -> Path:
        path = self.repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def run(self, capsys, *argv: str) -> tuple[int, str, str]:
        """coop-lint in the repository, watched; (exit status, stdout, stderr)."""
        self.before = sorted(p.name for p in self.outside.iterdir())
        _EVENTS.clear()
        _WATCH.on = True
        try:
            code = main(list(argv))
        finally:
            _WATCH.on = False
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    def assert_untouched(self, out: str = "", err: str = "") -> None:
        """Nothing outside the repository was opened, nothing was loaded or started, nothing written."""
        outside = str(self.outside.resolve())
        touched = [str(args[0]) for event, args in _EVENTS
                   if event in ("open", "os.remove", "os.rename") and args and args[0] is not None]
        assert not [p for p in touched if str(Path(p).resolve()).startswith(outside)], touched
        started = [e for e, _ in _EVENTS if e not in ("open", "os.remove", "os.rename")]
        assert not started, started
        assert not self.marker.exists()
        assert sorted(p.name for p in self.outside.iterdir()) == self.before
        assert SECRET not in out and SECRET not in err


@pytest.fixture
def attack(tmp_path, monkeypatch):
    made = Attack(tmp_path)
    monkeypatch.chdir(made.repo)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))  # the user's cache folder
    monkeypatch.delenv("COOP_LINT_CACHE_DIR", raising=False)
    return made


def one_line_error(err: str, *parts: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("coop-lint: error: "), err
    assert "Traceback" not in err
    for part in parts:
        assert part in lines[0], (part, lines[0])
    return lines[0]


# ------------------------------------------------------------------ run descriptions
@pytest.mark.parametrize("expected, refused", [
    ("np.save('{marker}', c)", "'np.save'"),
    ("c.tofile('{marker}')", "'.tofile'"),
    ("np.lib.format.open_memmap('{marker}', mode='w+', shape=(4,))", "'np.lib'"),
    ("np.savetxt('{marker}', c)", "'np.savetxt'"),
])
def test_a_run_description_that_writes_a_file(attack, capsys, expected, refused):
    kernel = attack.write("k.wgsl", KERNEL)
    attack.write("k.run.toml", RUN.format(expected=expected.format(marker=attack.marker)))
    code, out, err = attack.run(capsys, "run", str(kernel))
    assert code == 2
    one_line_error(err, "k.run.toml", "check.expected", refused, "is not allowed")
    attack.assert_untouched(out, err)


@pytest.mark.parametrize("expected, refused", [
    ("np.ctypeslib.load_library('libc.so.6', '/lib/x86_64-linux-gnu').system(b'touch {marker}')",
     "'np.ctypeslib'"),
    ("c.ctypes.data_as(c.ctypes)", "'.ctypes'"),
    ("c.__class__.__base__.__subclasses__()", "'__class__'"),
    ("__import__('ctypes').CDLL(None).system(b'touch {marker}')", "'__import__'"),
])
def test_a_run_description_that_reaches_libc_or_ctypes(attack, capsys, expected, refused):
    kernel = attack.write("k.wgsl", KERNEL)
    attack.write("k.run.toml", RUN.format(expected=expected.format(marker=attack.marker)))
    code, out, err = attack.run(capsys, "run", str(kernel))
    assert code == 2
    one_line_error(err, "k.run.toml", "check.expected", refused)
    attack.assert_untouched(out, err)
    assert not any(event.startswith("ctypes.") for event, _ in _EVENTS)


@pytest.mark.parametrize("file", ["../outside/data.npy", "{outside}/data.npy", "linked.npy"])
def test_a_run_description_whose_file_escapes(attack, capsys, file):
    import numpy as np

    np.save(attack.outside / "data.npy", np.arange(4, dtype=np.float32))
    os.symlink(attack.outside / "data.npy", attack.repo / "linked.npy")
    kernel = attack.write("k.wgsl", KERNEL)
    attack.write("k.run.toml", 'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\nfill = "file"\n'
                               f'file = "{file.format(outside=attack.outside)}"\n')
    code, out, err = attack.run(capsys, "run", str(kernel))
    assert code == 2
    one_line_error(err, "k.run.toml", "binding[0].file", "leaves the workspace")
    opened = [str(args[0]) for event, args in _EVENTS if event == "open"]
    assert not [p for p in opened if "data.npy" in p]


def test_a_run_description_whose_template_include_escapes(attack):
    attack.write("k.wgsl", KERNEL)
    path = attack.write("k.run.toml", 'dispatch = [1]\n[template]\ninclude = ["../outside"]\n')
    with pytest.raises(Exception) as caught:
        load_run_description(path, attack.repo)
    assert "template.include[0]: '../outside' leaves the workspace" in str(caught.value)


# ------------------------------------------------------------------ the result cache
class _Builds:
    """What a pickle-reading cache would construct: a call of os.system."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_committed_cache_built_to_construct_objects(attack, capsys, tmp_path):
    from coop_lsp import __version__

    attack.write("k.wgsl", "@compute @workgroup_size(1)\nfn main() {\n  let x: u32 = 1.5;\n}\n")
    clean = main(["--no-cache", "--output-format", "concise", "k.wgsl"]), capsys.readouterr().out
    # The attacker commits .coop-lint-cache/ with entries for this very file (its key worked out by a run
    # of coop-lint against that folder), each a pickle that would call os.system.
    committed = attack.repo / ".coop-lint-cache"
    main(["--cache-dir", str(committed), "--output-format", "concise", "k.wgsl"])
    capsys.readouterr()
    entries = [p for p in (committed / __version__).iterdir() if not p.name.startswith(".")]
    assert entries
    for entry in entries:
        header, version, _ = entry.read_bytes().split(b"\n", 2)
        entry.unlink()
        entry.write_bytes(header + b"\n" + version + b"\n" + pickle.dumps({entry.name: _Builds(attack.marker)}))
    # By default the cache is the user's, not the repository's: the committed folder is never opened.
    code, out, err = attack.run(capsys, "--output-format", "concise", "k.wgsl")
    assert (code, out) == clean and err == ""
    assert not [a for e, a in _EVENTS if e == "open" and ".coop-lint-cache" in str(a[0])]
    attack.assert_untouched(out, err)
    # Pointed at it explicitly, its entries are read as data: refused with one note, linted afresh.
    code, out, err = attack.run(capsys, "--cache-dir", str(committed), "--output-format", "concise", "k.wgsl")
    assert (code, out) == clean
    assert err.count("\n") == 1 and "coop-lint: note: ignoring a corrupt cache entry" in err
    assert not [e for e, _ in _EVENTS if e == "pickle.find_class"]
    attack.assert_untouched(out, err)


@pytest.mark.parametrize("payload", [
    b'{"KEY": [{"__class__": "os.system", "args": ["touch MARKER"]}]}',
    b'{"KEY": [["E001", "m", 0, 0, 4, [], [["t", true, [[0, 0, "x"]]]]], "junk"]}',
    b'{"KEY": [["E001", "m", 5, 1, 4, [], []]]}',
    b'{"KEY": [["E001", "m", 0, 0, 99, [], []]]}',
    b'[' * 100000,
], ids=["an object", "junk", "a reversed span", "a severity", "deep nesting"])
def test_a_forged_json_cache_entry_is_refused_as_data(attack, capsys, payload):
    from coop_lsp import __version__

    attack.write("k.wgsl", "@compute @workgroup_size(1)\nfn main() {\n  let x: u32 = 1.5;\n}\n")
    cache = attack.repo / "cache"
    first = attack.run(capsys, "--cache-dir", str(cache), "--output-format", "concise", "k.wgsl")
    [entry] = [p for p in (cache / __version__).iterdir() if not p.name.startswith(".")]
    header, version, _ = entry.read_bytes().split(b"\n", 2)
    entry.unlink()
    forged = payload.replace(b"KEY", entry.name.encode()).replace(b"MARKER", str(attack.marker).encode())
    entry.write_bytes(header + b"\n" + version + b"\n" + forged)
    code, out, err = attack.run(capsys, "--cache-dir", str(cache), "--output-format", "concise", "k.wgsl")
    assert (code, out) == first[:2]
    assert "ignoring a corrupt cache entry" in err and err.count("\n") == 1
    attack.assert_untouched(out, err)


# ------------------------------------------------------------------ includes and imports
def test_an_include_that_climbs_out_of_the_workspace(attack, capsys):
    attack.write("shaders/k.wgsl", '#include "../../outside/secret.wgsl"\n'
                                   "@compute @workgroup_size(1) fn main() {}\n")
    code, out, err = attack.run(capsys, "--no-cache", "--output-format", "concise", "shaders/k.wgsl")
    assert code == 2
    [line] = [line for line in out.splitlines() if line.startswith("shaders/")]
    assert line.startswith("shaders/k.wgsl:1:")
    assert "M011" in line and "'../../outside/secret.wgsl' leaves the workspace" in line
    attack.assert_untouched(out, err)


def test_an_absolute_include(attack, capsys):
    attack.write("k.wgsl", f'#include "{attack.secret}"\n@compute @workgroup_size(1) fn main() {{}}\n')
    code, out, err = attack.run(capsys, "--no-cache", "--output-format", "concise", "k.wgsl")
    assert code == 2 and "M011" in out and "leaves the workspace" in out
    attack.assert_untouched(out, err)


def test_a_symbolic_link_include(attack, capsys):
    os.symlink(attack.secret, attack.repo / "common.wgsl")
    os.symlink(attack.outside, attack.repo / "lib")
    attack.write("k.wgsl", '#include "common.wgsl"\n#include "lib/secret.wgsl"\n'
                           "@compute @workgroup_size(1) fn main() {}\n")
    code, out, err = attack.run(capsys, "--no-cache", "--output-format", "concise", "k.wgsl")
    assert code == 2
    lines = [line for line in out.splitlines() if line.startswith("k.wgsl:")]
    assert len(lines) == 2 and all("M011" in line and "leaves the workspace" in line for line in lines)
    assert "'common.wgsl'" in lines[0] and "'lib/secret.wgsl'" in lines[1]
    attack.assert_untouched(out, err)


def test_an_include_folder_given_with_I_is_read(attack, capsys):
    # The explicit way to use files outside: the person running coop-lint names the folder.
    (attack.outside / "common.wgsl").write_text("const TILE: u32 = 8u;\n")
    attack.write("k.wgsl", '#include "common.wgsl"\n@compute @workgroup_size(1) fn main() { let t = TILE; }\n')
    code, out, err = main(["--no-cache", "--output-format", "concise", "-I", str(attack.outside), "k.wgsl"]), \
        *capsys.readouterr()
    assert "M011" not in out and "leaves the workspace" not in out


def test_a_wesl_import_that_leaves_the_workspace(attack, capsys):
    (attack.outside / "secret.wesl").write_text(f"fn {SECRET}() -> u32 {{ return 1u; }}\n")
    attack.write("main.wesl", "import super::super::outside::secret;\n"
                              "@compute @workgroup_size(1) fn main() { let x = secret::f(); }\n")
    attack.write("wesl.toml", '[package]\nname = "evil"\nroot = "."\n')
    code, out, err = attack.run(capsys, "--no-cache", "--output-format", "concise", "main.wesl")
    assert code == 2
    assert "M011" in out and "module 'super::super::outside::secret' leaves the workspace" in out
    attack.assert_untouched(out, err)


def test_a_wesl_package_root_outside_the_workspace(attack, capsys):
    (attack.outside / "secret.wesl").write_text(f"fn {SECRET}() -> u32 {{ return 1u; }}\n")
    attack.write("wesl.toml", '[package]\nname = "evil"\nroot = "../outside"\n')
    attack.write("main.wesl", "import package::secret;\n@compute @workgroup_size(1) fn main() {}\n")
    code, out, err = attack.run(capsys, "--no-cache", "--output-format", "concise", "main.wesl")
    assert code == 2 and "M011" in out and "leaves the workspace" in out
    attack.assert_untouched(out, err)


def test_a_wesl_toml_above_the_workspace_is_not_read(attack, capsys, tmp_path):
    (tmp_path / "wesl.toml").write_text('[package]\nname = "above"\nroot = "outside"\n')
    attack.write("util.wesl", "fn one() -> u32 { return 1u; }\n")
    attack.write("main.wesl", "import package::util::one;\n@compute @workgroup_size(1) fn main() { _ = one(); }\n")
    code, out, err = attack.run(capsys, "--no-cache", "--output-format", "concise", "main.wesl")
    assert code == 0, out
    assert not [a for e, a in _EVENTS if e == "open" and Path(str(a[0])).name == "wesl.toml"]
    attack.assert_untouched(out, err)


def test_a_naga_oil_module_linked_from_outside(attack, capsys):
    (attack.outside / "secret.wgsl").write_text(f"#define_import_path evil::secret\nconst {SECRET} = 1u;\n")
    os.symlink(attack.outside / "secret.wgsl", attack.repo / "secret.wgsl")
    attack.write("k.wgsl", "#import evil::secret\n@compute @workgroup_size(1) fn main() {}\n")
    code, out, err = attack.run(capsys, "--no-cache", "--output-format", "concise", "k.wgsl")
    assert code == 1 and "M010" in out
    attack.assert_untouched(out, err)


def test_in_the_editor_a_refused_include_is_an_error_diagnostic(attack):
    from coop_lsp.core.diagnostic import Severity
    from coop_lsp.lint.templates import TemplateOptions, lint_template
    from coop_lsp.source import FileCache

    path = attack.write("k.wgsl", '#include "../outside/secret.wgsl"\n@compute @workgroup_size(1) fn main() {}\n')
    # The server's file cache knows the workspace folders (not the server's current folder).
    lint = lint_template(path, path.read_bytes(), TemplateOptions(), cache=FileCache(workspace=(attack.repo,)))
    [refused] = [d for d in lint.main if d.code == "M011"]
    assert refused.severity == Severity.ERROR and "leaves the workspace" in refused.message
    assert SECRET not in " ".join(d.message for d in lint.main)


# ------------------------------------------------------------------ configuration
@pytest.mark.parametrize("config, key", [
    ('[tool.coop-lint]\nbaseline = "../outside/baseline.json"\n', "baseline"),
    ('[tool.coop-lint]\nbaseline = "/tmp/coop-lint-attack-baseline.json"\n', "baseline"),
    ('[tool.coop-lint]\nbaseline = "linked/baseline.json"\n', "baseline"),
    ('[[tool.coop-lint.variants]]\nfiles = ["*.wgsl"]\ninclude = ["../outside"]\n', "variants[0].include"),
])
def test_a_configuration_whose_paths_escape(attack, capsys, config, key):
    os.symlink(attack.outside, attack.repo / "linked")
    attack.write("pyproject.toml", config)
    attack.write("k.wgsl", "@compute @workgroup_size(1) fn main() {}\n")
    for argv in (["--no-cache", "k.wgsl"], ["--no-cache", "--write-baseline", "b.json", "k.wgsl"]):
        code, out, err = attack.run(capsys, *argv)
        assert code == 2
        one_line_error(err, "pyproject.toml", key, "leaves the project folder")
        attack.assert_untouched(out, err)
    assert not Path("/tmp/coop-lint-attack-baseline.json").exists()


def test_no_configuration_key_names_a_program():
    # The whole list of keys: none of them is a command, an executable or a plugin to load.
    from coop_lsp.lint import config

    keys = set(config._TOP_KEYS) | set(config._VARIANT_KEYS) | set(config._SET_KEYS) | set(config._OVERRIDE_KEYS)
    keys |= set(config._FORMAT_KEYS)
    assert keys == {"select", "ignore", "severity", "dialect", "targets", "exclude", "per-file-ignores", "overrides",
                    "hosts", "variants", "baseline", "format", "files", "include", "override-file-defines", "sets",
                    "name", "defines", "indent-width", "line-width"}


# ------------------------------------------------------------------ the legitimate forms
def test_every_examples_run_description_is_still_accepted():
    found = sorted(ROOT.glob("examples/**/*.run.toml"))
    assert len(found) >= 9
    for path in found:
        description = load_run_description(path, ROOT)
        if description.check.kind == "expression":
            from coop_lsp.runner.check_expression import validate
            validate(description.check.expected)


def test_a_run_description_beside_its_kernel_in_a_subfolder(attack):
    import numpy as np

    (attack.repo / "data").mkdir()
    np.save(attack.repo / "data" / "a.npy", np.arange(4, dtype=np.float32))
    kernel = attack.write("kernels/k.wgsl", KERNEL)
    sidecar_path(kernel).write_text('dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\n'
                                    'fill = "file"\nfile = "../data/a.npy"\n'
                                    '[check]\nkind = "expression"\noutput = "c"\n'
                                    'expected = "c.reshape(2, 2).sum(axis=1).repeat(2) * 0 + np.arange(4)"\n')
    description = load_run_description(sidecar_path(kernel), attack.repo)
    assert description.bindings[0].file == (attack.repo / "data" / "a.npy").resolve()
    assert parse_run_description(RUN.format(expected="c.mean() + c.T.shape[0]")).check.kind == "expression"


def test_a_repository_whose_git_config_names_a_program(attack, capsys):
    # coop-lint asks git which files it ignores; a .git/config that came with a downloaded repository may
    # name a file-system monitor program, which `git ls-files` would run.
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(attack.repo)], check=True)
    hook = attack.repo / "monitor.sh"
    hook.write_text(f"#!/bin/sh\ntouch {attack.marker}\necho 0\n")
    hook.chmod(0o755)
    subprocess.run(["git", "-C", str(attack.repo), "config", "core.fsmonitor", str(hook)], check=True)
    attack.write("k.wgsl", "@compute @workgroup_size(1) fn main() {}\n")
    code, out, err = attack.run(capsys, "--no-cache", ".")
    assert code == 0 and "1 file" in out + err
    assert not attack.marker.exists()


@pytest.mark.parametrize("given, host", [("2087", "127.0.0.1"), (":2087", "127.0.0.1"), ("0.0.0.0:2087", "0.0.0.0")])
def test_the_server_listens_on_this_machine_unless_told_otherwise(monkeypatch, given, host):
    import coop_lsp.server.idle_gc as idle_gc
    import coop_lsp.server.server as server_module
    from coop_lsp.server.main import main as server_main

    bound, stopped = [], []

    class Server:
        protocol = None

        def start_tcp(self, host, port):
            bound.append((host, port))

        def stop_workers(self):
            stopped.append(True)  # when the server ends, its check workers end with it

    monkeypatch.setattr(server_module, "create_server", lambda **_: Server())
    monkeypatch.setattr(idle_gc, "defer_full_collections", lambda: None)
    server_main(["--tcp", given])
    assert bound == [(host, 2087)]
    assert stopped == [True]
