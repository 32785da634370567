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


# Compared and hashed by value like a frozen dataclass, but made without frozen's object.__setattr__ per field
# (a branch, a source and a passed value each make one): nothing assigns a field after it is made.
@dataclass(unsafe_hash=True)
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
    # Breadth-first searches already made, by start node (see _search); forgotten when the graph changes.
    _searches: dict[int, tuple[dict, dict | None]] = field(default_factory=dict, repr=False, compare=False)
    # Each node's incoming edges (see reaching); forgotten with the searches.
    _incoming_edges: list[list[int]] | None = field(default=None, repr=False, compare=False)
    # How many nodes the graph had when the two above were made: a new node makes them stale, and is found
    # so when they are next read. The graph gains tens of thousands of nodes between two reads, so node()
    # does not forget them itself. An edge added to an old node forgets them at once.
    _made_at: int = field(default=-1, repr=False, compare=False)

    def node(self, *depends_on: int, label: Label | None = None) -> int:
        edges = self.edges
        edges.append([d for d in depends_on if d is not None] if None in depends_on else list(depends_on))
        if label is not None:
            self.labels[len(edges) - 1] = label
        return len(edges) - 1

    def pair(self, first: int, second: int) -> int:
        """node(first, second) for two nodes known to exist: the walk's most frequent node (a binary
        operation, a variable read in some control flow), made without node()'s general handling."""
        edges = self.edges
        edges.append([first, second])
        return len(edges) - 1

    def copies(self, values) -> range:
        """One unlabelled node per value, each depending on it (a loop's placeholders), numbered in order."""
        edges = self.edges
        start = len(edges)
        edges.extend([[value] for value in values])
        return range(start, len(edges))

    def add_edge(self, source: int, target: int) -> None:
        if target is not None:
            self._forget()
            self.edges[source].append(target)

    def add_edges(self, pairs) -> None:
        """add_edge for each (source, target) pair, in order. An edge from a node to itself is left out:
        every search has met the node before it reads its edges, so such an edge changes no answer."""
        self._forget()
        edges = self.edges
        for source, target in pairs:
            if target is not None and target != source:
                edges[source].append(target)

    def _forget(self) -> None:
        if self._searches:
            self._searches.clear()
        self._incoming_edges = None

    def _current(self) -> None:
        """Forgets the searches and the incoming edges if nodes were added since they were made."""
        if self._made_at != len(self.edges):
            self._forget()
            self._made_at = len(self.edges)

    def path_to(self, start: int, goal: int | set[int] = MAY_BE_NON_UNIFORM) -> list[int] | None:
        """A shortest dependency path from `start` to a goal node, or None.

        Among goals at the same distance, the one a breadth-first search meets
        first wins. A whole search from `start` made before (by reaches) answers
        any goal; without one, the search stops at the first goal it meets.
        """
        self._current()
        found = self._searches.get(start)
        if found is None:
            return self._first_path(start, goal if isinstance(goal, set) else (goal,))
        parents, rank = found
        if isinstance(goal, set):
            found = [g for g in goal if g in parents]
            if not found:
                return None
            if len(found) > 1:
                if rank is None:
                    rank = {node: order for order, node in enumerate(parents)}
                    self._searches[start] = (parents, rank)
                found.sort(key=rank.__getitem__)
            node = found[0]
        elif goal in parents:
            node = goal
        else:
            return None
        return _walk_back(parents, node)

    def _first_path(self, start: int, goals) -> list[int] | None:
        """path_to without a search made before: the same breadth-first search, stopped at the first goal
        it meets. That goal is the nearest, and the first at its distance in the search's order, so it is
        the one a whole search would rank first. A function asks this of each requirement that depends on
        one of its parameters: searching the whole graph every time made that quadratic in its size."""
        if start in goals:
            return [start]
        parents, met = self._breadth_first(start, goals)
        return None if met is None else _walk_back(parents, met)

    def _search(self, start: int) -> tuple[dict, dict | None]:
        """Every node reachable from `start`, each with the node it was first reached from, in the order
        a breadth-first search meets them (a dict keeps its insertion order)."""
        self._current()
        found = self._searches.get(start)
        if found is None:
            found = self._searches[start] = (self._breadth_first(start, ())[0], None)
        return found

    def _breadth_first(self, start: int, goals) -> tuple[dict, int | None]:
        """The nodes reached from `start`, each with the node it was first reached from, until the first of
        `goals` is met (returned with them) or every reachable node is."""
        edges = self.edges
        parents = {start: None}
        frontier = [start]
        while frontier:
            following = []
            for node in frontier:
                for target in edges[node]:
                    if target not in parents:
                        parents[target] = node
                        if target in goals:
                            return parents, target
                        following.append(target)
            frontier = following
        return parents, None

    def reaches(self, start: int, goal: int) -> bool:
        return goal in self._search(start)[0]

    def spread(self, starts, seen: set[int]) -> set[int]:
        """Adds to `seen` the starts and every node they depend on, directly or not, and returns it; what is
        in `seen` already is not searched again.

        A forward search touches only what the starts depend on, each edge once: where it meets no goal,
        no start reaches one, and the backward searches of reaching (with the incoming-edge index of the
        whole graph that they need) are not worth making.
        """
        edges = self.edges
        found = [start for start in starts if start not in seen]
        seen.update(found)
        push, add = found.append, seen.add
        # (Only the set is asked for, so the nodes are searched in the order they are found: the loop runs
        # over the list as it grows, without a pop for each.)
        for node in found:
            for target in edges[node]:
                if target not in seen:
                    add(target)
                    push(target)
        return seen

    def reaching(self, goals, known: set[int] | None = None) -> set[int]:
        """Every node from which some goal can be reached (the goals included).

        One backward search answers "can this node reach a goal?" for every node at once. A function
        asks that of each of its requirements and almost all answer no: a forward search per
        requirement, each as large as the graph, made evaluation quadratic in the function's size.
        `known`, the answer for some of the goals, is not searched again: what reaches it is in it.
        """
        if not self.edges:
            return set()
        incoming = self._incoming()
        if known is None:
            found = set(goals)
            frontier = list(found)
        else:
            found = set(known)
            frontier = [goal for goal in goals if goal not in found]
            found.update(frontier)
        while frontier:
            following = []
            for node in frontier:
                for source in incoming[node]:
                    if source not in found:
                        found.add(source)
                        following.append(source)
            frontier = following
        return found

    def _incoming(self) -> list[list[int]]:
        self._current()
        incoming = self._incoming_edges
        if incoming is None:
            incoming = [[] for _ in self.edges]
            for source, targets in enumerate(self.edges):
                for target in targets:
                    incoming[target].append(source)
            self._incoming_edges = incoming
        return incoming


def _walk_back(parents: dict, node: int) -> list[int]:
    """The path from a search's start to `node`, through the node each was first reached from."""
    path = []
    while node is not None:
        path.append(node)
        node = parents[node]
    return path[::-1]
