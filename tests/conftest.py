from __future__ import annotations

import pytest

from coop_lsp.devices.tint import TintOracle, TintUnavailable, tint_available


@pytest.fixture(scope="session")
def tint():
    """The pinned Tint on Dawn's Null backend; tests that need it skip without it."""
    if not tint_available():
        pytest.skip("wgpudawn is not installed")
    oracle = TintOracle()
    try:
        oracle.compile("")
    except TintUnavailable as error:
        pytest.skip(f"Tint is unavailable: {error}")
    yield oracle
    oracle.close()
