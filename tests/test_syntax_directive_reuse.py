"""A directive's findings are reused from the last version like a declaration's, with whether the module has an
error in their key (`_declaration_findings`): a word in a directive belongs to no declaration or statement, so the
module is its construct, and a reserved word there is reported only while the module parses."""

from __future__ import annotations

from coop_lsp.syntax import diagnostics as syntax, parse
from coop_lsp.syntax.reuse import DeclarationReuse
from tests.support.typing_workload import typed_versions


def _reused_findings(versions: list[bytes]) -> list[list]:
    reuse = DeclarationReuse()
    found = []
    for data in versions:
        reuse.begin()
        found.append([(d.code, d.span, d.message, d.fixes)
                      for d in syntax.syntax_diagnostics(parse(data), explain=False, reuse=reuse)])
        reuse.end()
    return found


def test_a_reused_directive_has_the_findings_it_has_alone_whether_or_not_the_module_has_an_error() -> None:
    """A reserved word in a directive is reported only while the module has no error (the module is its construct),
    so the same directive's findings change with an error elsewhere."""
    clean, broken = b"enable __x;\nfn f() {}\n", b"enable __x;\nfn f() { let }\n"
    versions = [clean, broken, clean, clean, broken, broken, clean]
    fresh = [[(d.code, d.span, d.message, d.fixes) for d in syntax.syntax_diagnostics(parse(data), explain=False)]
             for data in versions]
    assert any("reserved" in f[2] for f in fresh[0]) and not any("reserved" in f[2] for f in fresh[1])
    assert _reused_findings(versions) == fresh


def test_directives_are_checked_once_while_a_statement_is_typed(monkeypatch) -> None:
    """Before, the three 'enable' directives of the benchmark's document were searched (a query each) on every
    version."""
    checked = []
    nodes_by_type = syntax._nodes_by_type
    monkeypatch.setattr(syntax, "_nodes_by_type", lambda part: checked.append(part.type) or nodes_by_type(part))
    reuse = DeclarationReuse()
    versions = 0
    for parsed in typed_versions():
        reuse.begin()
        syntax.syntax_diagnostics(parsed, reuse=reuse, deferred=[])
        reuse.end()
        versions += 1
    assert versions > 60 and checked.count("enable_directive") == 3, checked  # the first version only
