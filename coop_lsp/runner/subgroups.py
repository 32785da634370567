"""Subgroup sizes in a run: which size the kernel is judged at, and what the emulation can pretend.

A kernel that pins its size (`enable subgroup_size_control;` and
`@subgroup_size(N)` on its entry point) is judged at N only: the emulation
runs N-lane subgroups, and a run description that asks for another size is
a mistake. naga does not know the extension, so the emulated text drops it
and the attribute (the emulation's subgroup size does what they said).
"""

from __future__ import annotations

from ..syntax import nodes as sn
from .description import RunDescription, RunDescriptionError
from .kernel import EntryPoint, KernelModule


def judged_size(desc: RunDescription, entry: EntryPoint, module: KernelModule) -> int:
    """The subgroup size the emulation runs this entry point with."""
    pinned = entry.subgroup_size
    given = desc.subgroup_size
    if pinned is not None:
        if desc.subgroup_size_given and given != pinned:
            line = entry.node.start_point[0] + 1
            raise RunDescriptionError(f"emulation.subgroup_size: {given}, but '{entry.name}' (line {line}) pins "
                                      f"@subgroup_size({pinned}); a pinned kernel is judged at that size only")
        return pinned
    return given


def without_size_control(module: KernelModule) -> str:
    """The kernel's text with `subgroup_size_control` and `@subgroup_size(...)` removed, for naga."""
    edits = []
    for node in module.parsed.root.named_children:
        if node.type == "enable_directive":
            names = [module.node_text(e) for e in node.children_by_field_name("extension")]
            if "subgroup_size_control" in names:
                kept = [n for n in names if n != "subgroup_size_control"]
                replacement = f"enable {', '.join(kept)};" if kept else "// enable subgroup_size_control (emulated)"
                edits.append((node.start_byte, node.end_byte, replacement))
        elif node.type == "function_declaration":
            for attribute in node.children:
                name = sn.name(attribute) if attribute.type == "attribute" else None
                if name is not None and module.node_text(name) == "subgroup_size":
                    edits.append((attribute.start_byte, attribute.end_byte, ""))
    data = module.data
    for start, end, new in sorted(edits, reverse=True):
        data = data[:start] + new.encode() + data[end:]
    return data.decode()
