"""Running recursive analyses over very deep trees.

The checkers recurse over expressions. A file with 10,000 nested parentheses
exceeds Python's default recursion limit; such input is retried on a thread
with a large stack and a raised limit instead of failing.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

DEEP_STACK_BYTES = 512 * 1024 * 1024
DEEP_RECURSION_LIMIT = 400_000


def call_with_deep_stack(action: Callable[[], T]) -> T:
    try:
        return action()
    except RecursionError:
        pass
    outcome: dict[str, object] = {}

    def run() -> None:
        previous = sys.getrecursionlimit()
        sys.setrecursionlimit(DEEP_RECURSION_LIMIT)
        try:
            outcome["value"] = action()
        except BaseException as error:  # noqa: BLE001 - re-raised on the calling thread
            outcome["error"] = error
        finally:
            sys.setrecursionlimit(previous)

    saved = threading.stack_size()
    threading.stack_size(DEEP_STACK_BYTES)
    try:
        worker = threading.Thread(target=run, name="coop-lsp-deep-analysis")
        worker.start()
    finally:
        threading.stack_size(saved)
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[return-value]
