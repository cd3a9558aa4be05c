"""`companion doctor`: every part of the box checked (OK / WARN / FAIL) with the one line that fixes it."""
