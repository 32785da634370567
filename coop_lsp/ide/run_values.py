"""What a kernel run saw, placed back in the editor: watch and print values as inlay hints and hover
tables, and the blame of a failed check as diagnostics on the stores that wrote the wrong elements.

The runner hands these over as data (a run report's `debug` and `blame` parts, docs/debugging.md and
docs/debugging-blame.md); this layer never runs anything. Lines and columns there are 1-based and count
characters of the kernel as it ran, which is the document's text of the version that ran.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..core.diagnostic import Diagnostic, Related
from ..core.text import Position, SourceText, Span, index_ranges
from ..lint.rules import WRONG_RESULT_WRITER

HINT_LANES = 4  # invocations named in a hint; the rest are counted
HINT_REPEATS = 3  # values per invocation in a hint, for a line that ran several times
HINT_CHARS = 24  # one value's text in a hint, at most
TABLE_ROWS = 64  # rows of a hover table; the rest are counted
RELATED_ELEMENTS = 4  # wrong elements named one by one in a blame diagnostic


@dataclass(frozen=True)
class SiteValues:
    """The records of one print or watch site: where it is, its hint and its hover table."""

    kind: str  # "print" or "watch"
    span: Span  # from the comment or call to the end of its line
    hint_at: int  # byte offset: the end of the site's line
    label: str
    table: str  # markdown


# ------------------------------------------------------------------ values as text
def value_text(value, limit: int | None = None) -> str:
    """A recorded value as a person reads it: floats keep a decimal point, vectors in parentheses, a
    matrix as its columns."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        if math.isnan(value):
            text = "NaN"
        elif math.isinf(value):
            text = "inf" if value > 0 else "-inf"
        elif value.is_integer() and abs(value) < 1e7:
            text = f"{value:.1f}"
        else:
            text = f"{value:.6g}"
    elif isinstance(value, list):
        text = "(" + ", ".join(value_text(v) for v in value) + ")"
    else:
        text = str(value)
    if limit is not None and len(text) > limit:
        text = text[:limit - 1] + "…"
    return text


def _values_text(site: dict, values: list, limit: int | None, formatter) -> str:
    if site["kind"] == "print" and formatter is not None:
        text = formatter(site["format"], values)
        return text if limit is None or len(text) <= limit else text[:limit - 1] + "…"
    if len(values) == 1:
        return value_text(values[0], limit)
    return " ".join(f"{e}={value_text(v, limit)}" for e, v in zip(site["expressions"], values))


def _who(record: dict, groups: int, subgroups: int) -> str:
    parts = []
    if groups > 1:
        parts.append("wg " + ",".join(str(v) for v in record["workgroup"]))
    if subgroups > 1 and record["subgroup"] is not None:
        parts.append(f"sg {record['subgroup']}")
    parts.append(f"lane {record['lane']}")
    return " ".join(parts)


# ------------------------------------------------------------------ prints and watches
def site_values(debug: dict, source: SourceText, formatter: Callable[[str, list], str] | None = None
                ) -> list[SiteValues]:
    """One entry per print or watch site of a run (`debug` as RunReport.debug); `formatter(fmt, values)`
    writes a print's line (the runner's own, so that the editor shows what `coop-lint run` prints)."""
    out = []
    records = debug.get("records", [])
    for site in debug.get("sites", []):
        line = site["line"] - 1
        if not 0 <= line < source.line_count:
            continue
        start = source.offset(Position(line, max(site["column"] - 1, 0)), "char")
        end = source.line_end(line)
        mine = [r for r in records if r["site"] == site["index"]]
        out.append(SiteValues(site["kind"], Span(start, max(start, end)), end, _label(site, mine, formatter),
                              _table(site, mine, debug, formatter)))
    return out


def _label(site: dict, records: list[dict], formatter) -> str:
    if not records:
        return "not reached by the recorded lanes"
    groups = len({tuple(r["workgroup"]) for r in records})
    subgroups = len({r["subgroup"] for r in records})
    by_invocation: dict[tuple, list] = {}
    for r in records:
        by_invocation.setdefault((tuple(r["workgroup"]), r["subgroup"], r["lane"]), []).append(r)
    parts = []
    for runs in list(by_invocation.values())[:HINT_LANES]:
        texts = [_values_text(site, r["values"], HINT_CHARS, formatter) for r in runs[:HINT_REPEATS]]
        more = f" … (×{len(runs)})" if len(runs) > HINT_REPEATS else ""
        parts.append(f"{_who(runs[0], groups, subgroups)}: {' → '.join(texts)}{more}")
    invocations = len(by_invocation)
    label = ", ".join(parts)
    if invocations > HINT_LANES:
        label += ", …"
    count = f"{invocations} lane{'s' if invocations != 1 else ''}"
    if len(records) != invocations:
        count = f"{len(records)} records, {count}"
    return f"{label} ({count})"


def _table(site: dict, records: list[dict], debug: dict, formatter) -> str:
    expressions = site["expressions"]
    if site["kind"] == "watch":
        head = f"**watch** `{', '.join(expressions)}`"
        columns = [f"`{e}`" for e in expressions]
    else:
        head = f"**print** `\"{site['format']}\"`"
        columns = ["output"] if formatter is not None else [f"`{e}`" for e in expressions]
    types = site.get("types") or []
    if types and site["kind"] == "watch":
        head += " (" + ", ".join(f"`{ty}`" for ty in types) + ")"
    lines = [f"{head}: {len(records)} record{'s' if len(records) != 1 else ''} in the last run"]
    if debug.get("lanes"):
        lines.append(f"\n_{debug['lanes']}_")
    if not records:
        lines.append("\nThe line did not run for the recorded lanes (watches record the first subgroup of the "
                     "first workgroup unless told otherwise).")
        return "\n".join(lines)
    subgroups = any(r["subgroup"] is not None for r in records)  # none in a kernel without subgroups
    ids = ["workgroup", *(["subgroup"] if subgroups else []), "lane"]
    lines += ["", "| " + " | ".join(ids + columns) + " |", "|" + "---|" * (len(ids) + len(columns))]
    for r in records[:TABLE_ROWS]:
        if site["kind"] == "print" and formatter is not None:
            cells = [formatter(site["format"], r["values"])]
        else:
            cells = [value_text(v) for v in r["values"]]
        cells = [c.replace("|", "\\|") for c in cells]
        subgroup = [str(r["subgroup"])] if subgroups else []
        lines.append("| " + " | ".join([_workgroup(r["workgroup"]), *subgroup, str(r["lane"]), *cells]) + " |")
    if len(records) > TABLE_ROWS:
        lines.append(f"\n… and {len(records) - TABLE_ROWS} more record(s) (the run's report has them all)")
    if debug.get("overflow"):
        lines.append(f"\n{debug['overflow']} record(s) of the run were dropped past the cap of {debug['limit']} "
                     "(`--print-limit`)")
    return "\n".join(lines)


def values_at(sites: list[SiteValues], offset: int) -> SiteValues | None:
    """The site whose comment or call (to the end of its line) holds `offset`."""
    for site in sites:
        if site.span.start <= offset <= site.span.end:
            return site
    return None


# ------------------------------------------------------------------ blame
def _at(p: dict) -> str:
    return f"[{p['row']}, {p['column']}]" if "row" in p else f"[{p['index']}]"


def _workgroup(values) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


def _writer(w: dict) -> str:
    text = f"workgroup {_workgroup(w['workgroup'])}"
    if "subgroup" in w:
        text += f", subgroup {w['subgroup']}"
        lanes = w.get("lanes")
        if lanes:
            text += f", lane{'s' if len(lanes) > 1 else ''} {index_ranges(lanes)}"
    elif "invocation" in w:
        text += f", invocation {w['invocation']}"
    return text




def _store_span(source: SourceText, line: int, column: int) -> Span | None:
    """The store statement at a 1-based line and column, up to its semicolon or the line's comment."""
    line -= 1
    if not 0 <= line < source.line_count:
        return None
    text = source.line_text(line)
    begin = max(column - 1, 0)
    rest = text[begin:].split("//", 1)[0]
    stop = rest.find(";")
    length = len(rest.rstrip()) if stop < 0 else stop + 1
    start = source.offset(Position(line, begin), "char")
    return Span(start, source.offset(Position(line, begin + max(length, 1)), "char"))


def blame_diagnostics(blame: dict, source: SourceText, entry_span: Span | None = None) -> list[Diagnostic]:
    """R004 on each store that wrote wrong elements of an output (`blame` as RunReport.blame), with the
    first of those elements and the writers as related information; the wrong elements no store reached
    go on `entry_span` (the entry point's name)."""
    if not blame or "error" in blame:
        return []
    out = []
    for output in blame.get("outputs", []):
        if not output.get("wrong"):
            continue
        name = output["output"]
        by_store: dict[tuple[int, int], list[dict]] = {}
        for w in output.get("writers", []):
            by_store.setdefault((w["line"], w["column"]), []).append(w)
        for (line, column), writers in by_store.items():
            span = _store_span(source, line, column)
            if span is None:
                continue
            count = sum(w["elements"] for w in writers)
            firsts = [e for e in output.get("first", [])
                      if e.get("writer") and (e["writer"]["line"], e["writer"]["column"]) == (line, column)]
            related = [Related(span, f"{name}{_at(e)} = {value_text(e['got'])}, expected "
                                     f"{value_text(e['expected'])}: written by {_writer(e['writer'])}")
                       for e in firsts[:RELATED_ELEMENTS]]
            related += [Related(span, f"{_writer(w)} wrote {w['elements']} wrong element(s), first at "
                                      f"{name}{_at(w['first'])}") for w in writers]
            more = output.get("groups", 0) - len(output.get("writers", []))
            who = (f"by {_writer(writers[0])}" if len(writers) == 1 else
                   f"by {len(writers)} writers, the most by {_writer(writers[0])} ({writers[0]['elements']})")
            first = (f"first {name}{_at(firsts[0])} = {value_text(firsts[0]['got'])}, expected "
                     f"{value_text(firsts[0]['expected'])}" if firsts else f"first at {name}{_at(writers[0]['first'])}")
            message = (f"the last run's check failed: this store wrote {count} of the {output['wrong']} wrong "
                       f"elements of '{name}' ({output['elements']} in all), {who}"
                       + (f" (and {more} more writers not listed)" if more > 0 else "") + f"; {first}")
            out.append(Diagnostic(WRONG_RESULT_WRITER.code, message, span, WRONG_RESULT_WRITER.severity,
                                  related=tuple(related)))
        unwritten = output.get("unwritten")
        if unwritten and entry_span is not None:
            low, high = unwritten["low"], unwritten["high"]
            where = (f"rows {low[0]}..{high[0]}, columns {low[1]}..{high[1]}" if len(low) == 2
                     else f"elements {unwritten.get('ranges', f'{low[0]}..{high[0]}')}")
            out.append(Diagnostic(WRONG_RESULT_WRITER.code,
                                  f"the last run's check failed: {output['wrong_unwritten']} wrong element(s) of "
                                  f"'{name}' were never written by any store ({where}, first at "
                                  f"{name}{_at(unwritten['first'])}): look at the loop bounds or the guards "
                                  "around the stores", entry_span, WRONG_RESULT_WRITER.severity))
    return out
