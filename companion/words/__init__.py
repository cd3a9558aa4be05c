"""All the wording: the catalogues (locale/<lang>/LC_MESSAGES/*.po, read by catalog.py), plural forms, the game's terms, rendered at the edge."""
