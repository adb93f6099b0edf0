"""Royal Court's rules library: pure game logic, no I/O, no clock, no web framework."""
