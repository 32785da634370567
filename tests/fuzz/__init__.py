"""Fuzzing and stress tests: generated and mutated WGSL, invariants, a server under a random edit stream.

The reusable pieces (generator, mutators, invariant checks, child-process
runner) live here so that the long campaigns in `benchmarks/fuzz_*.py` use
exactly what the short runs in the test suite use; see docs/robustness.md.
"""
