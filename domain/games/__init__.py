"""One package per game: its rules, bots, solver, data tables and terminal drawing, and the
`GAME` entry (domain/capabilities.py) that domain/registry.py lists."""
