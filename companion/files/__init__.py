"""The box's own small files, written whole or not at all."""
