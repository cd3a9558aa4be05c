"""The table service: one game paired with its ledger, the single writer, and what reads it."""
