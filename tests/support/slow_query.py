"""A stand-in for a driver that hangs during an adapter query (used by tests/test_devices.py)."""

import time

time.sleep(60)
