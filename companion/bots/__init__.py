"""The bots in one place: the autoplayer and its hints, the demo bot, the simulator's strategies."""
