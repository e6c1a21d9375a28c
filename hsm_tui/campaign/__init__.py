"""Campaign and encounter state (plain data) and the combat engine that advances it."""
