"""Backups a family carries away: one zip archive of the box (ledgers, archive, card map, anchors, the box's own
files, the config) with a manifest of checksums; a restore checked whole, staged and applied at the next start."""
