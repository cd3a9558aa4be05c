"""The bots in one place: the seeded autoplayer the demo, the benchmarks and tests play with (autoplay.py,
its candidate commands picked in hints.py), the simulator's strategies (strategies.py), one module per
edition holding both its hints and its strategy (generic.py, millionaire.py, elite.py, monopoly.py,
madmillionaire.py), and what they share (shared.py, picking.py, temper.py)."""
