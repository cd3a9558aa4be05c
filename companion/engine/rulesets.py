"""Which rules module an edition file's `rules = "..."` names."""
from companion.engine.elite import EliteRules

RULESETS = {
    "elite": EliteRules,
}
