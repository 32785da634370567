"""coop-lint: the command-line front end for CI and pre-commit."""
