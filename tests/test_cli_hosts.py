"""WGSL tagged inside Python, JavaScript/TypeScript and Rust strings, with positions in the host file."""

from __future__ import annotations

from coop_lsp.cli.main import main
from coop_lsp.source.hosts import find_embedded

PYTHON = '''\
import x  # it's "quoted"
NOT_WGSL = """fn ( broken"""
TRAP = "# wgsl"
# wgsl
KERNEL = """
fn f() {
  let x = 1 & 2 | 3;
}
"""
OTHER = (  # wgsl
    "fn g() {\\n  let y = 1\\n}\\n"
)
'''

TYPESCRIPT = '''\
const a = /* wgsl */ `fn f() { let x = 1 & 2 | 3; }`;
const re = /`/g;
// wgsl
const b: string = `fn g() { let y = ${n} }`;
const c = wgsl`
fn h() {
  let z = 1
}`;
'''

RUST = '''\
fn main() {
    let c = '"';
    let l: &'static str = "not wgsl {";
    // wgsl
    const SRC: &str = r#"
fn f() { let x = 1 & 2 | 3; }
"#;
    let s = /* wgsl */ "fn g() {\\n  let y = 1\\n}";
}
'''


def concise(capsys, *argv):
    code = main(["--output-format", "concise", "-q", *argv])
    return code, capsys.readouterr().out.splitlines()


def test_python_strings_map_back_to_host_lines_and_columns(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.py").write_text(PYTHON)
    code, lines = concise(capsys, "k.py")
    assert code == 1
    # The second string has escapes: the missing ';' sits on the '\n' after '1'.
    assert lines == ["k.py:7:17: S002 [error] mixing '&' and '|' requires parentheses",
                     "k.py:11:27: S001 [error] expected ';' after 'let' declaration"]


def test_typescript_template_literals_and_the_wgsl_tag(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.ts").write_text(TYPESCRIPT)
    code, lines = concise(capsys, "k.ts")
    # `${n}` makes b's text a run-time value: it is skipped.
    assert [line.split(": ")[0] for line in lines] == ["k.ts:1:46", "k.ts:7:12"]
    embedded = find_embedded(TYPESCRIPT.encode(), "js")
    assert [e.skipped is not None for e in embedded] == [False, True, False]


def test_rust_raw_and_escaped_strings(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.rs").write_text(RUST)
    code, lines = concise(capsys, "k.rs")
    assert [line.split(": ")[:2] for line in lines] == [["k.rs:6:24", "S002 [error] mixing '&' and '|' requires "
                                                                      "parentheses"],
                                                        ["k.rs:8:46", "S001 [error] expected ';' after 'let' "
                                                                      "declaration"]]


def test_folders_lint_hosts_only_with_the_option(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.py").write_text(PYTHON)
    (tmp_path / "k.rs").write_text(RUST)
    assert concise(capsys, ".") == (0, [])
    code, lines = concise(capsys, "--hosts", ".")
    assert code == 1 and {line.split(":")[0] for line in lines} == {"k.py", "k.rs"}
    (tmp_path / "coop-lint.toml").write_text("hosts = true\n")
    assert len(concise(capsys, ".")[1]) == 4


def test_fix_edits_verbatim_strings_only(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.ts").write_text(TYPESCRIPT)
    (tmp_path / "k.rs").write_text(RUST)
    assert main(["--fix", "-q", "--no-source", "k.ts", "k.rs"]) == 1
    ts = (tmp_path / "k.ts").read_text()
    assert "`fn f() { let x = (1 & 2) | 3; }`" in ts and "  let z = 1;\n" in ts
    rs = (tmp_path / "k.rs").read_text()
    assert "fn f() { let x = (1 & 2) | 3; }" in rs
    # The escaped Rust string keeps its error: a fix there would need re-escaping.
    assert '"fn g() {\\n  let y = 1\\n}"' in rs
    assert capsys.readouterr().out.splitlines()[-1].startswith("k.rs:8:46: S001")
