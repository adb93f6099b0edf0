"""Game-independent algorithms that work through the Ruleset API or a game's search model."""
