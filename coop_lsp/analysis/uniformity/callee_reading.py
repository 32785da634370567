"""Whether a callee's new summary reads, to a caller's analysis, as the one it read before (reuse.py).

A caller's analysis (analyzer._FunctionAnalysis._user_call) reads a callee's
summary thus: the requirements on the control flow at the call, on each
argument and on what each pointer argument points to, each with its
requirement, message, builtin, span and notes (its `target` and `call` are
the callee's own and are not read); whether the returned value may be
non-uniform and on which parameters it depends; which pointer parameters are
written, whether with a non-uniform value and depending on which parameters.
Nothing else (the return value's note is the callee's, never the caller's).

The order of the lists and of the dictionaries' items decides the order of
the caller's requirements and graph nodes, so both must be the same. The
spans may differ: the callee's text may have moved or changed before them.
The caller copies each into its own results and never compares or orders
them, so where everything else is the same its result is the old one with
each span replaced by its counterpart: `spans` collects that replacement,
keyed by the old span's offsets. An old place that would need two different
new ones leaves the summaries unlike (the replacement is by offsets).
"""

from __future__ import annotations


def read_alike(old, new, spans: dict) -> bool:
    """Whether a caller reads `new` as it read `old`, adding to `spans` each old place's new one."""
    if old.return_non_uniform != new.return_non_uniform:
        return False
    if list(old.return_parameters) != list(new.return_parameters):
        return False
    old_writes, new_writes = old.pointer_writes, new.pointer_writes
    if len(old_writes) != len(new_writes):
        return False
    for (index, (non_uniform, depends)), (new_index, (new_non_uniform, new_depends)) in zip(
            old_writes.items(), new_writes.items()):
        if index != new_index or non_uniform != new_non_uniform or list(depends) != list(new_depends):
            return False
    if not _requirements_alike(old.call_site, new.call_site, spans):
        return False
    return _by_index_alike(old.parameters, new.parameters, spans) and \
        _by_index_alike(old.pointees, new.pointees, spans)


def _by_index_alike(old: dict, new: dict, spans: dict) -> bool:
    if len(old) != len(new):
        return False
    for (index, requirements), (new_index, new_requirements) in zip(old.items(), new.items()):
        if index != new_index or not _requirements_alike(requirements, new_requirements, spans):
            return False
    return True


def _requirements_alike(old: list, new: list, spans: dict) -> bool:
    if len(old) != len(new):
        return False
    for before, after in zip(old, new):
        if before.requirement != after.requirement or before.message != after.message \
                or before.builtin != after.builtin or not _place_alike(before.span, after.span, spans):
            return False
        notes, new_notes = before.inner_notes, after.inner_notes
        if len(notes) != len(new_notes):
            return False
        for note, new_note in zip(notes, new_notes):
            if note.message != new_note.message or not _place_alike(note.span, new_note.span, spans):
                return False
    return True


def _place_alike(old, new, spans: dict) -> bool:
    if old is None or new is None:
        return old is new
    key = (old.start, old.end)
    known = spans.get(key)
    if known is None:
        spans[key] = new
        return True
    return known.start == new.start and known.end == new.end
