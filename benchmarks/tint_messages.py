"""The error messages Tint's WGSL resolver and validator can raise, read from a Dawn checkout.

    .venv/bin/python -m benchmarks.tint_messages /work/.mirror/google+dawn/repo [--json out.json]

The checkout (a work tree, or a bare/mirror git directory read at HEAD) stays
outside this repository. Every `AddError(...) << ...` chain in
src/tint/lang/wgsl/resolver/*.cc (tests left out), and every error that the
uniformity analysis reports, becomes one message template: the string
literals of the chain joined, each computed part written `{}`. Each template
gets a short id (its file and the first words of its text) and a regular
expression that matches what Tint prints for it; tests/spec/TINT_COVERAGE.json
maps each id to the spec case where Tint and coop-lint agree on it, or to the
reason it does not apply (see benchmarks/tint_coverage.py, which builds it).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

RESOLVER = "src/tint/lang/wgsl/resolver"
FILES = ("resolver.cc", "validator.cc", "dependency_graph.cc", "sem_helper.cc", "uniformity.cc")

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_STYLED_LITERAL = re.compile(r'style::\w+\(\s*"((?:[^"\\]|\\.)*)"\s*\)')
_ADD_ERROR = re.compile(r"\bAddError\s*\(")
# Marks a styled literal (style::Type("i32"), style::Attribute("@id")) in a template until its pattern is made:
# Tint prints code styles between single quotes, so the pattern lets quotes stand around it (written \x27, so that
# a pattern with its apostrophes removed, as benchmarks.tint_coverage.matches tries, still compiles).
_CODE = "\ue000"  # private use: never in a message, and not whitespace (strip keeps it)
_REPORT = re.compile(r"\breport\s*\(")


@dataclass(frozen=True)
class Message:
    id: str
    file: str
    line: int
    template: str  # literal text with {} for each computed part
    pattern: str  # a regular expression for Tint's printed message


def read_sources(checkout: Path) -> dict[str, str]:
    """name -> text of each resolver file, from a work tree or from a git directory's HEAD."""
    out = {}
    for name in FILES:
        path = checkout / RESOLVER / name
        if path.is_file():
            out[name] = path.read_text(encoding="utf-8")
            continue
        shown = subprocess.run(["git", "-C", str(checkout), "show", f"HEAD:{RESOLVER}/{name}"],
                               capture_output=True, text=True)
        if shown.returncode != 0:
            raise SystemExit(f"{checkout}: cannot read {RESOLVER}/{name}: {shown.stderr.strip()}")
        out[name] = shown.stdout
    return out


def _strip_comments(text: str) -> str:
    """Comments become spaces of the same length, so offsets (and line numbers) stay."""
    def blank(match: re.Match) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\]|\\.)*"', lambda m: m.group(0) if m.group(0).startswith('"')
                  else blank(m), text, flags=re.DOTALL)


def _statement_end(text: str, start: int) -> int:
    """The offset of the `;` that ends the statement starting at `start` (outside strings and brackets)."""
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char == '"':
            index = _STRING.match(text, index).end()
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth < 0:
                return index
        elif char == ";" and depth == 0:
            return index
        index += 1
    return index


def _split_stream(chain: str) -> list[str]:
    """The operands of a `a << b << c` chain (top-level `<<` only)."""
    parts, depth, current, index = [], 0, [], 0
    while index < len(chain):
        char = chain[index]
        if char == '"':
            end = _STRING.match(chain, index).end()
            current.append(chain[index:end])
            index = end
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if depth == 0 and chain.startswith("<<", index):
            parts.append("".join(current).strip())
            current = []
            index += 2
            continue
        current.append(char)
        index += 1
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def _summands(operand: str) -> list[str]:
    """`a + "b" + (c ? "d" : "e")` split at its top-level plus signs (none inside strings or brackets)."""
    parts, depth, start, in_string, index = [], 0, 0, False, 0
    while index < len(operand):
        char = operand[index]
        if in_string:
            if char == "\\":
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "+" and depth == 0:
            parts.append(operand[start:index])
            start = index + 1
        index += 1
    parts.append(operand[start:])
    return [p for p in parts if p.strip()]


def _summand_template(summand: str) -> str:
    literal = _STRING.fullmatch(summand.strip())
    if literal:
        return literal.group(1)
    # A computed summand; one that picks between literals (`c ? "many" : "few"`) keeps them, as ids were made.
    return "{}".join(_STRING.findall(summand)) or "{}"


def _template(operands: list[str]) -> str:
    pieces = []
    for operand in operands:
        styled = _STYLED_LITERAL.fullmatch(operand)
        literals = _STRING.findall(operand)
        if styled:
            pieces.append(_CODE + styled.group(1) + _CODE)
        elif literals and re.fullmatch(r'(\s*"(?:[^"\\]|\\.)*"\s*)+', operand):
            pieces.append("".join(literals))
        elif literals and _has_choice(operand):  # (more ? "many" : "few") + " arguments"
            pieces.append("".join(_STRING.fullmatch(part.strip()).group(1) if _STRING.fullmatch(part.strip())
                                  else "{}" for part in _summands(operand)))
        elif literals and "+" in operand:  # "a" + x + "b", x + "b": each computed summand is a {}
            pieces.append("".join(_summand_template(part) for part in _summands(operand)))
        else:
            pieces.append("{}")
    text = "".join(pieces)
    text = text.replace('\\"', '"').replace("\\n", " ").replace("\\'", "'")
    if text.rstrip().endswith(":"):  # the rest is streamed in after the call (the names of a cycle)
        text = text.rstrip() + " {}"
    return re.sub(r"(\{\})+", "{}", text)


def _has_choice(operand: str) -> bool:
    """Whether a `?:` choice sits outside the operand's string literals."""
    return "?" in _STRING.sub('""', operand)


def _pattern(template: str) -> str:
    parts = [re.escape(p).replace(_CODE, r"\x27?") for p in template.strip().split("{}")]
    return r"\s*" + ".*?".join(parts)  # Tint keeps a message's leading space (" The type ...")


def _slug(template: str) -> str:
    words = re.findall(r"[a-z0-9_]+", template.lower().replace("{}", " "))
    return "-".join(words[:7]) or "computed"


def extract(sources: dict[str, str]) -> list[Message]:
    found: list[Message] = []
    seen_ids: dict[str, int] = {}
    seen_templates: set[str] = set()
    for name, raw in sources.items():
        text = _strip_comments(raw)
        for marked, offset in _error_templates(name, text):
            template = marked.replace(_CODE, "")
            if not template.strip("{} ") or template in seen_templates:
                continue
            seen_templates.add(template)
            base = f"{name.removesuffix('.cc')}:{_slug(template)}"
            seen_ids[base] = seen_ids.get(base, 0) + 1
            ident = base if seen_ids[base] == 1 else f"{base}-{seen_ids[base]}"
            found.append(Message(ident, name, text.count("\n", 0, offset) + 1, template.strip(), _pattern(marked)))
    return found


def _error_templates(name: str, text: str):
    for match in _ADD_ERROR.finditer(text):
        # Skip the definitions of the AddError helpers themselves.
        before = text[max(0, match.start() - 40) : match.start()]
        if re.search(r"(Diagnostic&|::)\s*$", before):
            continue
        end = _statement_end(text, match.start())
        close = _statement_end(text, match.end())  # the `)` closing AddError's arguments
        chain = text[close + 1 : end]
        if "<<" not in chain:
            # `auto& err = AddError(...); err << "..."`: the next statement streams into it.
            variable = re.search(r"(\w+)\s*=\s*$", text[max(0, match.start() - 60) : match.start()])
            if variable is None:
                continue
            follow = re.search(rf"\b{variable.group(1)}\s*<<", text[end : end + 400])
            if follow is None:
                continue
            start = end + follow.end()
            chain = text[start : _statement_end(text, start)]
        yield _template(_split_stream(chain.lstrip("<").strip() if not chain.strip().startswith("<<")
                                      else chain.strip()[2:])), match.start()
    if name == "uniformity.cc":
        yield from _uniformity_templates(text)


def _uniformity_templates(text: str):
    """Uniformity failures are reported through a local `report(source, message, note)` helper."""
    for match in _REPORT.finditer(text):
        end = _statement_end(text, match.end())
        arguments = text[match.end() : end]
        if text[match.start() - 5 : match.start()].strip().endswith(("auto", "=")):
            continue
        if not re.search(r"false\s*$", arguments):
            continue  # a note
        literals = _STRING.findall(arguments)
        if literals:
            yield "".join(literals), match.start()
            continue
        stream = text.rfind("ss <<", 0, match.start())
        if stream >= 0:
            chain = text[stream + len("ss <<") : _statement_end(text, stream)]
            yield _template(_split_stream(chain)), match.start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a google/dawn checkout (work tree or git directory)")
    parser.add_argument("--json", type=Path, help="write the messages here")
    args = parser.parse_args(argv)
    messages = extract(read_sources(args.checkout))
    for message in messages:
        print(f"{message.id:70} {message.template}")
    print(f"{len(messages)} messages", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps([asdict(m) for m in messages], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
