"""Coverage of Tint's validator: each error Tint's WGSL resolver can raise, and the spec case where we agree on it.

tests/spec/TINT_COVERAGE.json (built by benchmarks/tint_coverage.py from a
Dawn checkout) names, for each message, either a spec case or the reason the
message is out of scope. Here every named case must exist, be compared with
Tint, still make Tint report that message first, and still agree with
coop-lint; the share of language-level messages covered is printed with the
agreement rates.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.tint_coverage import OUT_OF_SCOPE, coverage, matches

from .support import agreement
from .support.compare import check_against_tint, check_expected
from .support.spec import load_cases

SPEC = Path(__file__).parent / "spec"
TABLE = json.loads((SPEC / "TINT_COVERAGE.json").read_text())
ROWS = TABLE["messages"]
CASES = {f"{suite}/{case.id}": case for suite in ("syntax", "semantic", "uniformity", "tint_messages")
         for case in load_cases(SPEC / suite)}
# Cases found among mutants for messages no hand-written case showed (benchmarks/tint_coverage.py --mine).
MINED = load_cases(SPEC / "tint_messages")
COVERED = [row for row in ROWS if "case" in row]


@pytest.mark.parametrize("case", MINED, ids=[c.id for c in MINED])
def test_mined_case(case):
    check_expected(case)


def test_every_message_has_a_case_or_a_reason():
    scopes = {kind for kind, _, _ in OUT_OF_SCOPE} | {"open", "by hand"}
    for row in ROWS:
        assert ("case" in row) != ("scope" in row), row["id"]
        if "scope" in row:
            assert row["scope"] in scopes, row
            assert row["scope"] == "open" or row.get("reason"), row["id"]
    ids = [row["id"] for row in ROWS]
    assert len(ids) == len(set(ids))


def test_named_cases_exist_and_are_compared_with_tint():
    for row in COVERED:
        case = CASES.get(row["case"])
        assert case is not None, f"{row['id']}: no spec case {row['case']!r}"
        assert case.tint_mode == "compare", f"{row['id']}: {row['case']} is not compared with Tint"


@pytest.mark.tint
@pytest.mark.parametrize("row", COVERED, ids=[row["id"] for row in COVERED])
def test_covered_message_still_agrees(row, tint):
    case = CASES[row["case"]]
    verdict = tint.compile(case.source)
    assert verdict.errors, f"{row['case']}: Tint accepts it now"
    first = verdict.errors[0].message
    assert matches(row["pattern"], first), \
        f"{row['case']}: Tint's first error is {first!r}, not {row['template']!r}"
    agrees, why = check_against_tint(case, tint)
    assert agrees, why


def test_coverage_is_printed_with_the_agreement():
    figures = coverage(TABLE)
    agreement.figure("Tint validator coverage",
                     f"{figures['covered']}/{figures['language_level']} language-level resolver/validator errors "
                     f"shown by an agreeing spec case ({100 * figures['share']:.1f}%); {figures['messages']} "
                     f"messages, out of scope: " + ", ".join(f"{k} {v}" for k, v in sorted(figures['out_of_scope'].items())))
    assert figures["covered"] == len(COVERED)
