"""Reading Tint's error messages from its resolver source: each pattern must match what Tint prints."""

from __future__ import annotations

import re

from benchmarks.tint_messages import extract

VALIDATOR = """
bool Validator::Things() const {
    AddError(attr->source) << style::Attribute("@id") << " must be an " << style::Type("i32") << " or "
                           << style::Type("u32") << " value";
    AddError(a->source) << sem_.TypeNameOf(store_ty) + " cannot be used as the store type of a pointer";
    AddError(a->source) << " The type " << style::Type("atomic<vec2u>") << " cannot be used without the extension "
                        << style::Code(wgsl::Extension::kAtomicVec2UMinMax);
    return false;
}
"""

DEPENDENCY_GRAPH = """
void DependencyScanner::CyclicDependencyFound(const DependencyEdge& edge) {
    auto& err = AddError(edge.source) << "cyclic dependency found: ";
    err << KindOf(edge.from) << " -> " << KindOf(edge.to);
}
"""


def _message(template: str):
    [found] = [m for m in extract({"validator.cc": VALIDATOR}) if m.template == template]
    return found


def test_code_styled_literals_may_stand_between_quotes():
    # Tint prints code-styled parts of a message between single quotes.
    message = _message("@id must be an i32 or u32 value")
    assert re.fullmatch(message.pattern, "'@id' must be an 'i32' or 'u32' value")
    assert message.id == "validator:id-must-be-an-i32-or-u32"


def test_a_computed_first_summand_is_a_placeholder():
    message = _message("{} cannot be used as the store type of a pointer")
    assert re.fullmatch(message.pattern, "ptr<function, i32, read_write> cannot be used as the store type of a pointer")


def test_a_leading_space_is_allowed():
    message = _message("The type atomic<vec2u> cannot be used without the extension {}")
    assert re.fullmatch(message.pattern,
                        " The type 'atomic<vec2u>' cannot be used without the extension 'atomic_vec2u_min_max'")


def test_a_message_ending_in_a_colon_takes_what_is_streamed_in_later():
    [message] = extract({"dependency_graph.cc": DEPENDENCY_GRAPH})
    assert re.fullmatch(message.pattern, "cyclic dependency found: 'f' -> 'g' -> 'f'")
    assert message.id == "dependency_graph:cyclic-dependency-found"
