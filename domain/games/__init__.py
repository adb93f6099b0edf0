"""One module per game; each defines a Ruleset subclass."""
