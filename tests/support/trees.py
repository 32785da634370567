"""Small helpers over syntax trees and the public kernels the shortcut tests compare on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

# Public kernels kept outside the repository (see the NOTES.md in each folder); tests skip without them.
PUBLIC_CORPORA = [Path("/work/corpus/conformance"), Path("/work/corpus/templates")]


def every_node(node) -> Iterator:
    """Every node below `node` (itself included), ERROR and MISSING ones too; iterative, any depth."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def public_kernel_sample(seed: int, count: int = 40) -> list[Path]:
    """`count` files of the public corpora, the same ones for the same seed."""
    files = [p for corpus in PUBLIC_CORPORA if corpus.is_dir() for p in sorted(corpus.rglob("*.wgsl"))]
    return random.Random(seed).sample(files, min(len(files), count))


def counted_instances(monkeypatch, cls) -> list:
    """A list that grows by one for every `cls` made while the test runs."""
    made: list = []
    initializer = cls.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        initializer(self, *args, **kwargs)

    monkeypatch.setattr(cls, "__init__", counted)
    return made


def with_junk(rng: random.Random, text: str, count: int, junk: list[str]) -> Iterator[str]:
    """`count` versions of `text`, each with two pieces of `junk` inserted at random places."""
    for _ in range(count):
        at = rng.randrange(len(text) + 1)
        first = text[:at] + rng.choice(junk) + text[at:]
        later = rng.randrange(len(first) + 1)
        yield first[:later] + rng.choice(junk) + first[later:]


def public_kernels_with_junk(sample_seed: int, junk_seed: int, junk: list[str], per_file: int = 2,
                             largest: int = 60_000) -> Iterator[tuple[Path, str]]:
    """(file, version) for junk inserted into a sample of the public kernels (files over `largest` characters
    are left out: a junk test reads each version several times)."""
    rng = random.Random(junk_seed)
    for path in public_kernel_sample(sample_seed):
        text = path.read_text(encoding="utf-8", errors="replace")
        if len(text) <= largest:
            for version in with_junk(rng, text, per_file, junk):
                yield path, version
