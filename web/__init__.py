"""The virtual table: a web page standing in for the box's OLED, buttons and reader on simulated hardware.

`web.app.create_app(table)` builds the Flask app around the service object it is
handed (the `VirtualTable` protocol); `web.serve.VirtualTableServer` serves it with
waitress in a background thread. Nothing here reaches the game, the ledger or the
hardware itself (tests/test_layers.py); docs/virtual-table.md says how to use it.
"""
