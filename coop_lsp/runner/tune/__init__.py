"""`coop-lint tune`: each target's best variant of a kernel, over a search space, on every adapter there is.

space.py builds the candidates (variant sets x define axes x size axes), prune.py lints each for each
target and prunes what the target cannot run, session.py runs the rest through an executor (local.py:
this host's adapters, no engine; cluster.py: a Dask cluster) into a result file (results.py, resumable,
locked), and report.py makes the tables, the JSON for backends and the HTML page. docs/tune.md.
"""
