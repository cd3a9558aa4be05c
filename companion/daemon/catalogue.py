"""The games the box offers: the shipped editions (Millionaire Elite first) and the table's own boards made
from them, each edition's rules built once and kept (a table's board again whenever its file changes)."""

import os
from typing import Any

from companion.editions import load_edition, rules_for, shipped
from companion.editions.boards import BoardStore


class Catalogue:
    """The editions a new game can be, read from the shipped editions and the table's BoardStore."""

    def __init__(self, boards: BoardStore):
        self.boards = boards
        self._rules_cache: dict[str, Any] = {}

    def editions(self, lang: str) -> list[tuple[str, str]]:
        """The shipped editions, Millionaire Elite first (the box's own game; the lists open on it), each
        followed by the table's own board made from it, if one is saved."""
        ours = {info.base: info for info in self.boards.list()}
        out = []
        for name in sorted(shipped(), key=lambda e: (e != "elite", e)):
            edition = self.edition_rules(name).edition
            out.append((name, edition.names.get(lang, edition.name)))
            if name in ours:
                out.append((ours[name].ref, ours[name].names.get(lang, ours[name].name)))
        return out

    def edition_file(self, edition: str) -> str:
        """What load_edition reads for an edition the lists name: a shipped id, or a table's board's file."""
        path = self.boards.edition_path(edition)
        return str(path) if path is not None else edition

    def edition_rules(self, edition: str) -> Any:
        """The rules of an edition the lists name (an unknown one is refused by load_edition)."""
        if self.boards.base_of_ref(edition) is not None:  # a table's board changes: read it as it is now
            path = self.edition_file(edition)
            try:
                stamp = os.stat(path).st_mtime_ns
            except OSError:
                stamp = None
            key = f"{edition}@{stamp}"
            if key not in self._rules_cache:
                for old in [k for k in self._rules_cache if k.startswith(f"{edition}@")]:
                    del self._rules_cache[old]  # only the board as it is now is kept
                self._rules_cache[key] = rules_for(load_edition(path))
            return self._rules_cache[key]
        if edition not in self._rules_cache:
            self._rules_cache[edition] = rules_for(load_edition(edition))
        return self._rules_cache[edition]
