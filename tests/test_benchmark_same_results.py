"""benchmarks/same_results.py finds every difference between two checkouts' diagnostics and none between a
checkout and itself: the check that speed work leaves results as they were must be able to fail."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

from benchmarks import same_results

ROOT = Path(__file__).resolve().parent.parent
# A missing ';' made by deleting it, and one typed over: the fresh, edited and typed paths all word it.
CASES = [
    same_results.case("deleted", "fn f() -> i32 {\n  let a = 1;\n  return a;\n}\n",
                      "fn f() -> i32 {\n  let a = 1\n  return a;\n}\n"),
    same_results.case("typed", "fn f() -> i32 {\n  return 2;\n}\n",
                      "fn f() -> i32 {\n  let b = 3\n  return 2;\n}\n"),
]


def test_an_edit_turns_its_base_into_the_mutant():
    rng = random.Random(7)
    alphabet = "ab;{} \n\u00e9\u4e16\U0001f600"
    for _ in range(2000):
        base = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        start, end, new = same_results._edit(base, text)
        data = base.encode()
        assert (data[:start] + new.encode() + data[end:]).decode() == text
        assert start <= end <= len(data)


def test_a_checkout_agrees_with_itself(capsys):
    assert same_results.main(["--against", str(ROOT), "--corpus", "/nonexistent", "--mutants", "8"]) == 0
    assert '"differences": 0' in capsys.readouterr().out


def test_a_changed_message_is_found_on_every_path(tmp_path):
    other = tmp_path / "other"
    shutil.copytree(ROOT / "coop_lsp", other / "coop_lsp", ignore=shutil.ignore_patterns("__pycache__"))
    diagnostics = other / "coop_lsp" / "syntax" / "diagnostics.py"
    text = diagnostics.read_text()
    assert text.count("f\"expected '{token}'\"") == 1
    diagnostics.write_text(text.replace("f\"expected '{token}'\"", "f\"expected '{token}' there\""))
    outputs, _ = same_results.results_of(CASES, {"here": (ROOT, sys.executable), "there": (other, sys.executable)})
    found = same_results.compare(CASES, outputs["here"], outputs["there"])
    # (The editor path sees it too: the code actions over the edit carry their diagnostic.)
    assert {(d["case"], d["path"]) for d in found["differences"]} == \
        {(name, path) for name in ("deleted", "typed") for path in ("fresh", "edited", "typed", "editor")}
    assert all("' there" in d["first"] for d in found["differences"] if d["path"] != "editor")
    assert all("code_actions" in d["first"] for d in found["differences"] if d["path"] == "editor")
    assert same_results.compare(CASES, outputs["here"], outputs["here"])["differences"] == []


def test_a_changed_hover_is_found_by_the_editor_path_alone(tmp_path):
    # Hovering a function's name shows its header: both cases' `f` does, and no diagnostic reads it.
    other = tmp_path / "other"
    shutil.copytree(ROOT / "coop_lsp", other / "coop_lsp", ignore=shutil.ignore_patterns("__pycache__"))
    hover = other / "coop_lsp" / "ide" / "hover.py"
    text = hover.read_text()
    header = 'return _squash(analysis.data[start:end].decode("utf-8", errors="replace"))'
    assert text.count(header) == 1
    hover.write_text(text.replace(header, header.replace("return _squash(", "return ' ' + _squash(")))
    outputs, _ = same_results.results_of(CASES, {"here": (ROOT, sys.executable), "there": (other, sys.executable)})
    found = same_results.compare(CASES, outputs["here"], outputs["there"])
    assert {d["path"] for d in found["differences"]} == {"editor"}
    assert {d["case"] for d in found["differences"]} == {"deleted", "typed"}
    assert all("hover at offsets" in d["first"] for d in found["differences"])
    assert found["compared"]["editor answers"] > 0


def test_an_editor_feature_one_checkout_lacks_is_left_out_and_a_missing_version_is_a_difference():
    ours = {"final": {"hover": ["a", "b"], "folding_ranges": "x"}}
    assert same_results._editor_differences(ours, {"final": {"hover": ["a", "b"]}}) == (2, "")
    assert same_results._editor_differences(ours, {"final": {"hover": ["a", "c"]}}) == \
        (2, "final: hover at offsets 2")
    assert same_results._editor_differences(ours, {}) == (0, "final: answered only here")
    assert same_results._editor_differences({"final": {"hover": ["a", "b", "c"], "folding_ranges": "x"}},
                                            {"final": {"hover": ["z", "b", "z"], "folding_ranges": "y"}}) == \
        (4, "final: folding_ranges; final: hover at offsets 1,3")


def test_edits_that_only_move_functions_find_a_moved_replay_that_lost_its_subgroup_sizes(tmp_path):
    # Session 21 found by hand that a replayed uniformity failure moved by an edit above its function lost
    # `depends`, so a subgroup-size warning came back as an error; one-edit semantic mutants never moved such a
    # function. The move cases, over the bases that expect that warning, find the fault put back.
    other = tmp_path / "other"
    shutil.copytree(ROOT / "coop_lsp", other / "coop_lsp", ignore=shutil.ignore_patterns("__pycache__"))
    reuse = other / "coop_lsp" / "analysis" / "uniformity" / "reuse.py"
    text = reuse.read_text()
    assert text.count("self.span(f.call), f.depends)") == 1
    reuse.write_text(text.replace("self.span(f.call), f.depends)", "self.span(f.call))"))
    bases = [(name, text) for name, text in same_results.differential.load_bases(None)
             if "U002 [warning]" in text and "subgroup size" in text]
    made = same_results.move_cases(bases, 8, 1)
    assert len(made) == 8 and all("[moved: " in case["name"] for case in made)
    outputs, _ = same_results.results_of(made, {"here": (ROOT, sys.executable), "there": (other, sys.executable)})
    found = same_results.compare(made, outputs["here"], outputs["there"])
    assert {d["path"] for d in found["differences"]} >= {"edited", "typed", "incremental there"}
    assert "incremental here" not in {d["path"] for d in found["differences"]}
    assert all("U002" in d["first"] for d in found["differences"] if d["path"] != "editor")
    assert same_results.compare(made, outputs["here"], outputs["here"])["differences"] == []
    # A fault both checkouts share is found within each: the edited path against the fresh lint.
    shared = same_results.compare(made, outputs["there"], outputs["there"])["differences"]
    assert {d["path"] for d in shared} == {"incremental here", "incremental there"}


def test_a_move_changes_only_lines_outside_the_function_it_moves():
    bases = same_results.differential.load_bases(None)
    made = same_results.move_cases(bases, 200, 4)
    assert len(made) >= 190
    assert sum(same_results._LANE_WORDS.search(case["base"]) is not None for case in made) > 100
    for case in made:
        target = int(case["name"].rsplit(" at ", 1)[1].rstrip("]"))
        # The edit ends at or before the start of the function it moves, which keeps its text.
        assert case["end"] <= len(case["base"][:target].encode())
        assert case["text"].endswith(case["base"][target:])
