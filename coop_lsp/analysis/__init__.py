"""Analysis layer: uniformity, device configuration checks, portability. Never runs code."""
