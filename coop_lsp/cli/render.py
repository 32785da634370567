"""coop-lint's output formats: text (with a code frame), concise, json, sarif, github, junit.

Lines and columns shown to people are 1-based and count characters;
`FileReport.source` is the file as linted (the host file for embedded WGSL),
and every span is a byte range in it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .. import __version__
from ..core.diagnostic import Diagnostic, Severity
from ..core.rules import find as find_rule
from ..core.text import SourceText

FORMATS = ("text", "concise", "json", "sarif", "github", "junit")


@dataclass(slots=True)
class FileReport:
    display: str  # the name shown: as given on the command line, or --stdin-filename
    source: SourceText | None  # None when the file could not be read
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None  # why it could not be linted
    fixed: int = 0  # fixes applied (with --fix)
    notes: list[str] = field(default_factory=list)  # e.g. fixes refused


def fixable(diagnostic: Diagnostic) -> bool:
    return any(f.safe and f.edits for f in diagnostic.fixes)


def _start_end(source: SourceText, diagnostic_span) -> tuple[tuple[int, int], tuple[int, int]]:
    start = source.position(diagnostic_span.start)
    end = source.position(diagnostic_span.end)
    return (start.line + 1, start.column + 1), (end.line + 1, end.column + 1)


# -- text ------------------------------------------------------------------

def headline(path: str, source: SourceText, diagnostic: Diagnostic) -> str:
    start = source.position(diagnostic.span.start)
    return (f"{path}:{start.line + 1}:{start.column + 1}: {diagnostic.code} "
            f"[{diagnostic.severity.label}] {diagnostic.message}")


def frame(source: SourceText, diagnostic: Diagnostic) -> str:
    start = source.position(diagnostic.span.start)
    end = source.position(diagnostic.span.end)
    line = source.line_text(start.line).replace("\t", " ")
    width = (end.column if end.line == start.line else len(line)) - start.column
    gutter = f"{start.line + 1} | "
    caret = " " * (len(gutter) + start.column) + "^" * max(width, 1)
    lines = [gutter + line, caret]
    for related in diagnostic.related:
        where = source.position(related.span.start)
        lines.append(f"{' ' * (len(gutter) - 2)}= note: {related.message} (line {where.line + 1}, "
                     f"column {where.column + 1})")
    if fixable(diagnostic):
        fix = next(f for f in diagnostic.fixes if f.safe)
        lines.append(f"{' ' * (len(gutter) - 2)}= fix (--fix): {fix.title}")
    return "\n".join(lines) + "\n"


def render_text(out: TextIO, reports: list[FileReport], show_source: bool = True) -> None:
    for report in reports:
        for diagnostic in report.diagnostics:
            out.write(headline(report.display, report.source, diagnostic) + "\n")
            if show_source:
                out.write(frame(report.source, diagnostic))


# -- json ------------------------------------------------------------------

def _location(source: SourceText, span) -> dict:
    (line, column), (end_line, end_column) = _start_end(source, span)
    return {"location": {"line": line, "column": column}, "end_location": {"line": end_line, "column": end_column}}


def render_json(out: TextIO, reports: list[FileReport]) -> None:
    items = []
    for report in reports:
        for d in report.diagnostics:
            rule = find_rule(d.code)
            fix = next((f for f in d.fixes if f.safe), None) or (d.fixes[0] if d.fixes else None)
            items.append({
                "filename": report.display,
                "code": d.code,
                "name": rule.name if rule else None,
                "severity": d.severity.label,
                "message": d.message,
                **_location(report.source, d.span),
                "span": {"start": d.span.start, "end": d.span.end},
                "fix": None if fix is None else {
                    "title": fix.title, "applicability": "safe" if fix.safe else "unsafe",
                    "edits": [{"content": e.new_text, **_location(report.source, e.span)} for e in fix.edits]},
                "related": [{"message": r.message, **_location(report.source, r.span)} for r in d.related],
            })
    json.dump(items, out, indent=2, ensure_ascii=False)
    out.write("\n")


# -- sarif -----------------------------------------------------------------

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}


def artifact_uri(display: str) -> str:
    """A path relative to the working folder where it lies below it (what code scanning expects), else a file URI."""
    path = Path(display)
    try:
        relative = path.resolve().relative_to(Path.cwd().resolve())
        return relative.as_posix()
    except (ValueError, OSError):
        pass
    if path.is_absolute():
        return path.as_uri()
    return Path(display).as_posix()


def rule_help_markdown(rule) -> str:
    parts = [rule.summary, "", rule.explanation]
    if rule.example:
        parts += ["", "Example:", "", "```wgsl", rule.example, "```"]
    if rule.fix:
        parts += ["", f"Fix: {rule.fix}"]
    if rule.suppressible:
        parts += ["", f"Suppress in WGSL with `diagnostic(off, {rule.qualified_name});`."]
    return "\n".join(parts)


def _sarif_region(source: SourceText, span) -> dict:
    (line, column), (end_line, end_column) = _start_end(source, span)
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def sarif_document(reports: list[FileReport]) -> dict:
    from ..lint.catalogue import all_rules  # every layer's rules: only SARIF lists them all

    rules = all_rules()
    index = {rule.code: i for i, rule in enumerate(rules)}
    descriptors = [{
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.explanation or rule.summary},
        "help": {"text": rule_help_markdown(rule).replace("```wgsl\n", "").replace("```", ""),
                 "markdown": rule_help_markdown(rule)},
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
        "properties": {"tags": [rule.layer], "suppressible": rule.suppressible,
                       **({"qualifiedName": rule.qualified_name} if rule.suppressible else {})},
    } for rule in rules]
    results = []
    invocations_notes = []
    for report in reports:
        if report.error:
            invocations_notes.append({"level": "error", "message": {"text": f"{report.display}: {report.error}"}})
            continue
        uri = artifact_uri(report.display)
        for d in report.diagnostics:
            result = {
                "ruleId": d.code,
                "level": _SARIF_LEVEL[d.severity],
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": _sarif_region(report.source, d.span)}}],
            }
            if d.code in index:
                result["ruleIndex"] = index[d.code]
            if d.related:
                result["relatedLocations"] = [{
                    "id": i,
                    "message": {"text": r.message},
                    "physicalLocation": {"artifactLocation": {"uri": uri},
                                         "region": _sarif_region(report.source, r.span)},
                } for i, r in enumerate(d.related)]
            fix = next((f for f in d.fixes if f.safe), None)
            if fix is not None and fix.edits:
                result["fixes"] = [{"description": {"text": fix.title}, "artifactChanges": [{
                    "artifactLocation": {"uri": uri},
                    "replacements": [{"deletedRegion": _sarif_region(report.source, e.span),
                                      "insertedContent": {"text": e.new_text}} for e in fix.edits]}]}]
            results.append(result)
    invocation = {"executionSuccessful": not invocations_notes}
    if invocations_notes:
        invocation["toolExecutionNotifications"] = invocations_notes
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "coop-lint", "version": __version__, "rules": descriptors}},
            "columnKind": "unicodeCodePoints",
            "invocations": [invocation],
            "results": results,
        }],
    }


def render_sarif(out: TextIO, reports: list[FileReport]) -> None:
    json.dump(sarif_document(reports), out, indent=2, ensure_ascii=False)
    out.write("\n")


# -- github ----------------------------------------------------------------

_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice",
                 Severity.HINT: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(out: TextIO, reports: list[FileReport]) -> None:
    for report in reports:
        for d in report.diagnostics:
            (line, column), (end_line, end_column) = _start_end(report.source, d.span)
            # GitHub's endColumn is inclusive; ours (exclusive) less one.
            end_column = max(column, end_column - 1) if end_line == line else max(1, end_column - 1)
            out.write(f"::{_GITHUB_LEVEL[d.severity]} file={_escape_property(report.display)},line={line},"
                      f"col={column},endLine={end_line},endColumn={end_column},"
                      f"title={_escape_property(d.code)}::{_escape_data(d.message)}\n")


# -- junit -----------------------------------------------------------------

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str, attribute: bool = False) -> str:
    text = _XML_INVALID.sub("\ufffd", text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if attribute:
        text = text.replace('"', "&quot;").replace("\n", "&#10;")
    return text


def render_junit(out: TextIO, reports: list[FileReport]) -> None:
    failures = sum(1 for r in reports if r.diagnostics)
    errors = sum(1 for r in reports if r.error)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    counts = f'tests="{len(reports)}" failures="{failures}" errors="{errors}"'
    out.write(f'<testsuites name="coop-lint" {counts}>\n')
    out.write(f'  <testsuite name="coop-lint" {counts}>\n')
    for report in reports:
        name = _xml(report.display, attribute=True)
        out.write(f'    <testcase name="{name}" classname="coop-lint" file="{name}">')
        if report.error:
            out.write(f'\n      <error message="{_xml(report.error, True)}" type="io"/>\n    ')
        elif report.diagnostics:
            count = len(report.diagnostics)
            lines = "\n".join(headline(report.display, report.source, d) for d in report.diagnostics)
            out.write(f'\n      <failure message="{count} finding{"s" if count != 1 else ""}" type="coop-lint">'
                      f"{_xml(lines)}</failure>\n    ")
        out.write("</testcase>\n")
    out.write("  </testsuite>\n</testsuites>\n")


# -- statistics --------------------------------------------------------------

def statistics(reports: list[FileReport]) -> list[dict]:
    table: dict[str, dict] = {}
    for report in reports:
        for d in report.diagnostics:
            rule = find_rule(d.code)
            row = table.setdefault(d.code, {"code": d.code, "name": rule.name if rule else "", "count": 0,
                                            "fixable": 0})
            row["count"] += 1
            row["fixable"] += fixable(d)
    return sorted(table.values(), key=lambda r: (-r["count"], r["code"]))


def render_statistics(out: TextIO, reports: list[FileReport], as_json: bool) -> None:
    rows = statistics(reports)
    if as_json:
        json.dump(rows, out, indent=2)
        out.write("\n")
        return
    width = max((len(str(r["count"])) for r in rows), default=1)
    for row in rows:
        marker = "[*] " if row["fixable"] else "    "
        out.write(f"{row['count']:>{width}}  {row['code']}  {marker}{row['name']}\n")
