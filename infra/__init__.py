"""Storage adapters behind one small store interface."""
