"""The checks an edition file must pass beyond its own shape: card effects, cell parameters, decks."""

from typing import Any

from companion.engine.base import RulesBase
from companion.engine.board import Edition, check_number, keyname, shown
from companion.engine.cards import EFFECT_TEXTS
from companion.errors import EditionProblem


class EditionChecks(RulesBase):
    """Edition checks: what the rules read from an edition file, checked when it loads."""

    @classmethod
    def check_effect(cls, effect: Any, source: str, path: str) -> None:
        """One card effect: a verb of these rules and only its arguments, each of its type and range."""
        if not isinstance(effect, dict) or "do" not in effect:
            raise EditionProblem("edition_effect_table", source, path)
        verb = effect["do"]
        if not isinstance(verb, str) or verb not in cls.EFFECTS:
            raise EditionProblem(
                "edition_effect", source, f"{path}.do", value=shown(verb), known=", ".join(sorted(cls.EFFECTS))
            )
        needed = cls.EFFECTS[verb]
        for key in needed:
            if key not in effect:
                raise EditionProblem("edition_effect_needs", source, f"{path}.{key}", effect=verb)
        takes = (*needed, *cls.EFFECT_OPTIONAL.get(verb, ()))
        for key, value in effect.items():
            where = f"{path}.{keyname(key)}"
            if key == "do":
                continue
            if key not in takes:
                raise EditionProblem(
                    "edition_effect_arg" if takes else "edition_effect_no_args",
                    source,
                    where,
                    effect=verb,
                    known=", ".join(takes),
                )
            if key in cls.EFFECT_NUMBERS:
                check_number(value, cls.EFFECT_NUMBERS[key], source, where)
            elif key in EFFECT_TEXTS:
                if not isinstance(value, str):
                    raise EditionProblem("edition_text", source, where, value=shown(value))
            elif not isinstance(value, bool):  # a flag (collect)
                raise EditionProblem("edition_kind_bool", source, where, value=shown(value))

    @classmethod
    def check_edition(cls, edition: Edition) -> None:
        """Cross-checks a module needs beyond the file's own shape; subclasses extend.

        The core checks what it reads: the parameters of non-plot cells, card cells'
        decks, the decks named by options and effects, and that [slot] and [extra]
        hold only what the rules module reads.
        """
        src = edition.source
        kinds = {c.kind for c in edition.cells}
        if "detention" in kinds or "go_to_detention" in kinds:
            if len(edition.cells_of_kind("detention")) != 1:
                raise EditionProblem("edition_one_detention", src, "cells")
        for cell in edition.cells:
            where = f"cells[{cell.index}]"
            if cell.kind == "card" and cell.deck is None:
                raise EditionProblem("edition_card_cell_deck", src, f"{where}.deck")
            if cell.kind != "card" and cell.deck is not None:
                raise EditionProblem("edition_deck_only_card", src, f"{where}.deck")
            known = cls.CELL_PARAMS.get(cell.kind, {})
            for key, value in cell.params.items():
                if key not in known:
                    raise EditionProblem(
                        "edition_cell_key",
                        src,
                        f"{where}.{keyname(key)}",
                        cell_kind=cell.kind,
                        known=", ".join(("id", "kind", "name", *known)),
                    )
                check_number(value, known[key], src, f"{where}.{key}")
        for i, deck in enumerate(edition.options.get("discard_decks", ())):
            if not isinstance(deck, str) or deck not in edition.decks:
                raise EditionProblem("edition_no_deck", src, f"options.discard_decks[{i}]", value=shown(deck))
        for card in edition.cards.values():
            for eff in card.effects:
                if eff["do"] == "move_to" and edition.cell(eff["cell"]) is None:
                    raise EditionProblem(
                        "edition_move_to", src, f"decks.{card.deck}.{card.id}", value=shown(eff["cell"])
                    )
                if eff["do"] == "move_nearest" and eff["kind"] not in kinds:
                    raise EditionProblem(
                        "edition_move_nearest", src, f"decks.{card.deck}.{card.id}", value=shown(eff["kind"])
                    )
                if eff["do"] == "move_nearest" and "deck" in eff and eff["deck"] not in edition.decks:
                    raise EditionProblem(
                        "edition_no_deck", src, f"decks.{card.deck}.{card.id}", value=shown(eff["deck"])
                    )
                for account in (eff.get("to"), eff.get("from")):
                    if account is not None and account not in cls.SYSTEM_ACCOUNTS:
                        raise EditionProblem(
                            "edition_account",
                            src,
                            f"decks.{card.deck}.{card.id}",
                            value=shown(account),
                            known=", ".join(cls.SYSTEM_ACCOUNTS),
                        )
        if edition.slot and not cls.READS_SLOT:
            raise EditionProblem("edition_no_slot", src, "slot")
        for key in edition.extra:
            if key not in cls.EXTRA_KEYS:
                raise EditionProblem(
                    "edition_extra_key" if cls.EXTRA_KEYS else "edition_extra_none",
                    src,
                    f"extra.{keyname(key)}",
                    known=", ".join(cls.EXTRA_KEYS),
                )
