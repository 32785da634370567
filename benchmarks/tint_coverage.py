"""Build tests/spec/TINT_COVERAGE.json: each Tint resolver/validator error, and the spec case that shows we agree.

    .venv/bin/python -m benchmarks.tint_coverage /work/.mirror/google+dawn/repo

Messages come from benchmarks/tint_messages.py (read from the Dawn checkout
given on the command line; it stays outside this repository). Every spec
case that Tint is compared on is compiled by Tint; when coop-lint agrees with
Tint on it (verdict and first error line, as the spec tests check), the
message of Tint's first error is matched to its template and that case
becomes the message's evidence. A message no agreeing case shows is either
out of scope, with a reason (see OUT_OF_SCOPE), or open. Reasons written by
hand into the table (`"reason"`) are kept when the table is rebuilt.

tests/test_tint_coverage.py checks the table against Tint on every run and
prints the coverage next to the agreement rates.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from coop_lsp.devices.tint import TintOracle

from . import tint_messages

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "spec" / "TINT_COVERAGE.json"
SUITES = ("syntax", "semantic", "uniformity", "tint_messages")
MINED = ROOT / "tests" / "spec" / "tint_messages" / "mutants.wgsl"
_DIRECTIVE_OR_ANNOTATION = re.compile(r"^\s*//\s*(\^|<-|tint:|naga:)")

# Messages that are not rules of the WGSL a kernel author writes for a browser, and why. Matched in order
# against the message template; the first match gives the reason.
OUT_OF_SCOPE: list[tuple[str, str, str]] = [
    ("internal", r"chromium_internal|input_attachment|TraverseExpressions|unknown statement type|Unexpected "
                 r"template kind|invalid use of input/output address space|u16 is unsupported",
     "Chromium-internal: reachable only from Tint's own transforms or internal extensions, never from a page"),
    ("unshipped", r"pixel_local|texel_buffer|buffer_view|use of buffer|buffer types|buffer size|buffer variables|"
                  r"override-sized buffers|return type of .* (buffer|host-shareable|atomic|fixed footprint)|"
                  r"the (offset|size|offset and size) argument|chromium_print|immediate|binding_array|"
                  r"bufferView|bufferArrayView|barycentric|linear_indexing|subgroup_size|"
                  r"Builtin depth mode",
     "experimental language feature or extension that no shipping browser allows (Tint reports "
     "'not allowed in the current environment' first)"),
    ("environment", r"not allowed in the current environment",
     "depends on what the browser or device allows, not on the language (device features: rule D003)"),
    ("limit", r"exceeded limit|maximum is|max is|must not exceed|excessive number|max expression depth|"
              r"nesting depth|must be less than \{\}$|exceed 0xffffffff",
     "implementation limit reached only by generated programs of extreme size (WGSL's limits section)"),
]


def load_cases():
    sys.path.insert(0, str(ROOT))
    from tests.support.spec import load_cases as load

    cases = []
    for suite in SUITES:
        for case in load(ROOT / "tests" / "spec" / suite):
            cases.append((f"{suite}/{case.id}", case))
    return cases


def case_id(suite: str, case) -> str:
    return f"{suite}/{case.id}"


def matches(pattern: str, message: str) -> bool:
    """Whether Tint's printed `message` is an instance of a template's `pattern`.

    Tint prints styled pieces (`style::Attribute("@location")`, types, code) in
    quotes that the source text of the template does not show, so quotes are
    ignored on both sides.
    """
    return (re.fullmatch(pattern, message, flags=re.DOTALL) is not None
            or re.fullmatch(pattern.replace("'", ""), message.replace("'", ""), flags=re.DOTALL) is not None)


def best_template(message: str, messages: list[dict]) -> dict | None:
    """The template with the most literal text that matches `message` whole."""
    found = [m for m in messages if matches(m["pattern"], message)]
    return max(found, key=lambda m: len(m["template"].replace("{}", ""))) if found else None


def out_of_scope(template: str) -> tuple[str, str] | None:
    for kind, pattern, reason in OUT_OF_SCOPE:
        if re.search(pattern, template):
            return kind, reason
    return None


def build(messages: list[dict], previous: dict[str, dict]) -> dict:
    sys.path.insert(0, str(ROOT))
    from tests.support.compare import check_against_tint

    evidence: dict[str, str] = {}
    with TintOracle() as tint:
        for name, case in load_cases():
            if case.tint_mode != "compare":
                continue
            verdict = tint.compile(case.source)
            if verdict.failure or not verdict.errors:
                continue
            agrees, _ = check_against_tint(case, tint)
            if not agrees:
                continue
            template = best_template(verdict.errors[0].message, messages)
            if template is not None and template["id"] not in evidence:
                evidence[template["id"]] = name
    rows = []
    for message in messages:
        row = {"id": message["id"], "template": message["template"], "pattern": message["pattern"]}
        kept = previous.get(message["id"], {})
        if message["id"] in evidence:
            row["case"] = evidence[message["id"]]
        elif kept.get("reason") and kept.get("scope") == "by hand":
            row.update(scope="by hand", reason=kept["reason"])
        elif (scope := out_of_scope(message["template"])) is not None:
            row.update(scope=scope[0], reason=scope[1])
        else:
            row["scope"] = "open"
        rows.append(row)
    return {"about": "Tint's WGSL resolver/validator errors (src/tint/lang/wgsl/resolver, extracted by "
                     "benchmarks/tint_messages.py) and the spec case where Tint and coop-lint agree on each; "
                     "rebuilt by benchmarks/tint_coverage.py, checked by tests/test_tint_coverage.py.",
            "messages": rows}


def coverage(table: dict) -> dict:
    rows = table["messages"]
    covered = sum(1 for r in rows if "case" in r)
    out_of = {}
    for r in rows:
        if "case" not in r and r.get("scope") != "open":
            out_of[r["scope"]] = out_of.get(r["scope"], 0) + 1
    language = covered + sum(1 for r in rows if r.get("scope") == "open")
    return {"messages": len(rows), "covered": covered, "open": language - covered,
            "language_level": language, "out_of_scope": out_of,
            "share": covered / language if language else 0.0}


def mine(messages: list[dict], covered: set[str], mutants: int, seed: int, workers: int) -> list[tuple[str, str]]:
    """Cases for messages no spec case shows yet: the smallest one-edit mutant of our own spec cases and
    examples on which Tint reports that message first and coop-lint agrees on verdict and line."""
    from coop_lsp.lint import lint_source

    from . import differential

    bases = [(name, _without_annotations(text)) for name, text in differential.load_bases(None)]
    records, accepted = differential.run_campaign(bases, mutants, seed, workers, use_naga=False)
    wanted = {m["id"] for m in messages if m["id"] not in covered and out_of_scope(m["template"]) is None}
    found: dict[str, str] = {}
    with TintOracle() as tint:
        for record in records:
            if record["category"] != "both_reject" or not record.get("same_line"):
                continue
            template = best_template(record["compiler_first"][2], messages)
            if template is None or template["id"] not in wanted:
                continue
            text = differential.mutant_text(accepted, seed, record["index"])
            if template["id"] in found and len(found[template["id"]]) <= len(text):
                continue
            annotated = _annotated(text, lint_source(text))
            if annotated is not None:
                found[template["id"]] = annotated
    return sorted(found.items())


def _without_annotations(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not _DIRECTIVE_OR_ANNOTATION.match(line))


def _annotated(text: str, result) -> str | None:
    """The text with each of our diagnostics written under its line, as spec cases write them."""
    below: dict[int, list[str]] = {}
    for diagnostic in result.diagnostics:
        position = result.source.position(diagnostic.span.start)
        fragment = diagnostic.message.splitlines()[0][:60].rstrip()
        if position.column == 0:
            note = f"// <- {diagnostic.code} {fragment}"
        elif position.column >= 2:
            note = "//" + " " * (position.column - 2) + f"^ {diagnostic.code} {fragment}"
        else:
            return None  # column 1 cannot be pointed at
        below.setdefault(position.line, []).append(note)
    lines = []
    for number, line in enumerate(text.rstrip("\n").split("\n")):
        lines.append(line)
        lines.extend(below.get(number, []))
    return "\n".join(lines) + "\n"


def write_mined(cases: list[tuple[str, str]]) -> None:
    header = ("// One case per Tint resolver/validator error that no hand-written spec case showed: the smallest\n"
              "// one-edit mutant of our own spec cases and examples (benchmarks/differential.py) on which Tint\n"
              "// reports that error first and coop-lint agrees with it on the verdict and the line. Made by\n"
              "// `python -m benchmarks.tint_coverage DAWN --mine N`; each case is named after the message id\n"
              "// in tests/spec/TINT_COVERAGE.json, and its annotations are coop-lint's diagnostics at the time.\n")
    MINED.parent.mkdir(parents=True, exist_ok=True)
    MINED.write_text(header + "".join(f"\n// === {ident}\n{text}" for ident, text in cases))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a google/dawn checkout (work tree or git directory)")
    parser.add_argument("--mine", type=int, default=0, metavar="N",
                        help="also look for cases among N mutants of our spec cases and examples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    from dataclasses import asdict

    messages = [asdict(m) for m in tint_messages.extract(tint_messages.read_sources(args.checkout))]
    previous = {r["id"]: r for r in json.loads(TABLE.read_text())["messages"]} if TABLE.exists() else {}
    table = build(messages, previous)
    if args.mine:
        covered = {r["id"] for r in table["messages"] if "case" in r}
        mined = mine(messages, covered, args.mine, args.seed, args.workers)
        existing = [(c.name, c.source) for _, c in load_cases() if c.file == MINED]
        write_mined(sorted(dict(existing + mined).items()))
        print(f"{len(mined)} new cases in {MINED}")
        table = build(messages, previous)
    TABLE.write_text(json.dumps(table, indent=1) + "\n")
    figures = coverage(table)
    print(f"{figures['covered']} of {figures['language_level']} language-level messages covered "
          f"({100 * figures['share']:.1f}%); {figures['messages']} in all, out of scope: {figures['out_of_scope']}")
    print(f"wrote {TABLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
