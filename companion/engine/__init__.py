"""The pure rules engine: commands in, events out, state derived from events.

Nothing in this package imports hardware, web, database, clock or random
modules; dice, deck seeds and time arrive as command arguments.
"""
