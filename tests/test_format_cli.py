"""`coop-lint format`: rewrite, --check and --diff for CI, standard input, configuration, host files, bad input."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

from coop_lsp.cli.main import main
from coop_lsp.syntax import parse

ROOT = Path(__file__).resolve().parent.parent
UGLY = "fn main(){let x=1;}\n"
PRETTY = "fn main() {\n    let x = 1;\n}\n"


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_format_rewrites_only_the_files_that_change(tmp_path: Path, capsys):
    ugly, pretty = write(tmp_path, "a.wgsl", UGLY), write(tmp_path, "b.wgsl", PRETTY)
    before = pretty.stat().st_mtime_ns
    assert main(["format", str(tmp_path)]) == 0
    assert ugly.read_text() == PRETTY and pretty.stat().st_mtime_ns == before
    assert "1 file reformatted" in capsys.readouterr().err
    assert main(["format", "--check", str(tmp_path)]) == 0


def test_check_and_diff_exit_1_when_a_file_would_change_and_write_nothing(tmp_path: Path, capsys):
    ugly = write(tmp_path, "k.wgsl", UGLY)
    assert main(["format", "--check", str(ugly)]) == 1
    assert f"would reformat {ugly}" in capsys.readouterr().out
    assert main(["format", "--diff", str(ugly)]) == 1
    diff = capsys.readouterr().out
    assert "-fn main(){let x=1;}" in diff and "+    let x = 1;" in diff
    assert ugly.read_text() == UGLY


def test_a_file_with_a_syntax_error_is_left_alone_with_the_error_named(tmp_path: Path, capsys):
    broken = write(tmp_path, "broken.wgsl", "fn main() {\n  let x = 1\n}\n")
    assert main(["format", str(broken)]) == 2
    err = capsys.readouterr().err
    assert f"{broken}: not formatted: line 2, column 12: expected ';' after 'let' declaration (S001;" in err
    assert broken.read_text() == "fn main() {\n  let x = 1\n}\n"


def test_standard_input_goes_to_standard_output(monkeypatch, capsysbinary):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(UGLY.encode())))
    assert main(["format", "-"]) == 0
    assert capsysbinary.readouterr().out == PRETTY.encode()


def test_options_come_from_the_format_table_and_the_command_line(tmp_path: Path):
    write(tmp_path, "pyproject.toml", "[tool.coop-lint.format]\nindent-width = 2\nline-width = 40\n")
    kernel = write(tmp_path, "k.wgsl", "fn f(first: f32, second: f32, third: f32) {}\n")
    assert main(["format", str(kernel)]) == 0
    assert kernel.read_text() == "fn f(\n  first: f32,\n  second: f32,\n  third: f32\n) {}\n"
    assert main(["format", "--line-width", "100", "--indent-width", "4", str(kernel)]) == 0
    assert kernel.read_text() == "fn f(first: f32, second: f32, third: f32) {}\n"


def test_an_unknown_format_option_is_a_configuration_error(tmp_path: Path, capsys):
    write(tmp_path, "pyproject.toml", "[tool.coop-lint.format]\ntab-width = 2\n")
    kernel = write(tmp_path, "k.wgsl", PRETTY)
    assert main(["format", str(kernel)]) == 2
    assert "format.tab-width: unknown key" in capsys.readouterr().err


def test_wgsl_strings_in_host_files_are_formatted_where_the_string_allows_it(tmp_path: Path, capsys):
    source = (
        'import wgpu\n'
        '# wgsl\n'
        'KERNEL = """\n'
        '    fn main(){let x=1;}\n'
        '"""\n'
        'ESCAPED = (  # wgsl\n'
        '    "fn g(){let y=2;}\\n"\n'
        ')\n'
    )
    host = write(tmp_path, "kernels.py", source)
    assert main(["format", "--hosts", str(host)]) == 0
    assert host.read_text() == source.replace("    fn main(){let x=1;}\n",
                                              "    fn main() {\n        let x = 1;\n    }\n")
    assert "kernels.py:7: WGSL string left alone: the string has escape sequences" in capsys.readouterr().err
    assert main(["format", "--hosts", "--check", str(host)]) == 0


def test_rust_raw_strings_and_js_templates_are_formatted_in_place(tmp_path: Path):
    rust = write(tmp_path, "lib.rs", 'fn f() {\n    // wgsl\n    let s = r#"\nfn main(){}\n"#;\n}\n')
    js = write(tmp_path, "k.ts", "const k = /* wgsl */ `\n  fn main(){return;}\n`;\nconst one = /* wgsl */ 'fn g(){}';\n")
    assert main(["format", "--hosts", str(rust), str(js)]) == 0
    assert rust.read_text() == 'fn f() {\n    // wgsl\n    let s = r#"\nfn main() {}\n"#;\n}\n'
    assert js.read_text() == ("const k = /* wgsl */ `\n  fn main() {\n      return;\n  }\n`;\n"
                              "const one = /* wgsl */ 'fn g(){}';\n")


def test_bad_input_gets_a_message_or_a_no_op_quickly(tmp_path: Path, capsys):
    garbage = write(tmp_path, "garbage.wgsl", bytes(range(256)) * 4000)  # 1 MB of every byte value
    nothing = write(tmp_path, "nul.wgsl", b"\0" * 100_000)
    broken = write(tmp_path, "broken.wgsl", ("fn f() { let x = ; }\n" * 50_000).encode())  # 1 MB
    for path in (garbage, nothing, broken):
        before = path.read_bytes()
        started = time.perf_counter()
        parse(before)
        parsing = time.perf_counter() - started
        started = time.perf_counter()
        assert main(["format", str(path)]) == 2
        # A second per MB; tree-sitter's error recovery alone can take longer on a busy machine, so
        # the bound is never below the time of one parse (benchmarks/format.py records the figures).
        assert time.perf_counter() - started < max(1.0 * len(before) / 1e6, 1.5 * parsing) + 0.5
        assert path.read_bytes() == before
    err = capsys.readouterr().err
    assert "garbage.wgsl: not formatted: the file is not UTF-8 text" in err
    assert "nul.wgsl: not formatted: line 1, column 1" in err
    # Named, or (on a busy machine, where error recovery passes the budget) refused for taking too long.
    assert "broken.wgsl: not formatted: line 1, column 17: expected an expression here" in err or \
        "broken.wgsl: not formatted: it did not parse within" in err


def test_the_pre_commit_hooks_run_coop_lint_format():
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()  # no YAML parser among the dependencies
    assert "- id: coop-lint-format\n" in text and "  entry: coop-lint format --force-exclude\n" in text
    assert "- id: coop-lint-format-check\n" in text and "  entry: coop-lint format --force-exclude --check\n" in text
