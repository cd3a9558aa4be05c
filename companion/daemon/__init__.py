"""The long-running process that owns one game: the writer thread, its inbox and listeners, the game on the box."""
