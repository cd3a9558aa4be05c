"""Adapters between the hardware (the reader link, buttons, the screen) and the daemon."""
