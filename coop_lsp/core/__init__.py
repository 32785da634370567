"""Types every layer shares: source text with positions, diagnostics, the rule registry."""
