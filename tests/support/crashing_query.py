"""A stand-in for a driver that crashes during an adapter query (used by tests/test_devices.py)."""

import os

os.abort()
