"""The dependency graph of WGSL's uniformity analysis (WGSL spec, "Uniformity Analysis").

An edge X -> Y reads "X is non-uniform if Y is". A node that reaches
MAY_BE_NON_UNIFORM is possibly non-uniform; the path that gets there is the
explanation a kernel author needs, and the labelled nodes on it become notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.text import Span

MAY_BE_NON_UNIFORM = 0
# Uniform within each subgroup but not across the workgroup (Tint: subgroup_id, and the results
# of subgroup operations): non-uniform for barriers, uniform for subgroup-scope builtins.
MAY_BE_NON_UNIFORM_IN_WORKGROUP = 1


@dataclass(frozen=True)
class Label:
    kind: str  # "branch" (control flow depends on it), "source" (where non-uniformity comes from), "passed"
    message: str
    span: Span
    # Where Tint points instead when the value reaches the requirement through control flow
    # (a parameter's declaration rather than its use).
    control_span: Span | None = None


@dataclass
class Graph:
    edges: list[list[int]] = field(default_factory=lambda: [[], []])
    labels: dict[int, Label] = field(default_factory=dict)

    def node(self, *depends_on: int, label: Label | None = None) -> int:
        self.edges.append([d for d in depends_on if d is not None])
        index = len(self.edges) - 1
        if label is not None:
            self.labels[index] = label
        return index

    def add_edge(self, source: int, target: int) -> None:
        if target is not None:
            self.edges[source].append(target)

    def path_to(self, start: int, goal: int | set[int] = MAY_BE_NON_UNIFORM) -> list[int] | None:
        """A shortest dependency path from `start` to a goal node, or None."""
        goals = goal if isinstance(goal, set) else {goal}
        parents = {start: None}
        frontier = [start]
        while frontier:
            following = []
            for node in frontier:
                if node in goals:
                    path = []
                    while node is not None:
                        path.append(node)
                        node = parents[node]
                    return path[::-1]
                for target in self.edges[node]:
                    if target not in parents:
                        parents[target] = node
                        following.append(target)
            frontier = following
        return None

    def reaches(self, start: int, goal: int) -> bool:
        return self.path_to(start, goal) is not None
