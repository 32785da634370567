"""Remembering the answers of pure functions that a lint asks again and again with the same arguments."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)


def memoized(limit: int = 4096) -> Callable[[F], F]:
    """Keeps the results of a function of positional, hashable arguments (types, operators).

    Unlike functools.lru_cache, an argument that cannot be hashed is not an
    error: the function is simply called. The memory is bounded by `limit`
    answers and forgotten at once when full, since a process lints many files
    and the answers that matter repeat within one file.
    """

    def decorate(function: F) -> F:
        kept: dict = {}

        @functools.wraps(function)
        def call(*args):
            try:
                return kept[args]
            except KeyError:
                pass
            except TypeError:
                return function(*args)
            result = function(*args)
            if len(kept) >= limit:
                kept.clear()
            kept[args] = result
            return result

        call.forget = kept.clear  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return decorate
