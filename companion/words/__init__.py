"""All the wording: catalogues, plural forms, the game's terms, rendered at the edge."""
