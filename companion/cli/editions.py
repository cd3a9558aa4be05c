"""`companion editions`, `check-edition FILE`: the shipped editions, and an edition file checked and counted."""

import argparse

from companion.cli.common import CommandFactory, out
from companion.editions import load_edition, shipped
from companion.words import messages
from companion.words.messages import label


def cmd_editions(args: argparse.Namespace) -> None:
    for name in shipped():
        ed = load_edition(name)
        # the edition's name in the screen's language (name_en, name_ru), else as its file writes it
        shown = messages.in_language(ed.name, ed.names, args.lang)
        out(
            label(
                "edition_line", args.lang, id=name, name=shown, low=ed.players_min, high=ed.players_max, rules=ed.rules
            )
        )


def cmd_check_edition(args: argparse.Namespace) -> None:
    ed = load_edition(args.file)
    out(
        label(
            "edition_ok",
            args.lang,
            file=args.file,
            name=ed.name,
            cells=len(ed.cells),
            plots=len(ed.plots),
            cards=sum(len(d) for d in ed.decks.values()),
        )
    )
    # names per language: what a screen in another language shows as the file writes it
    own = ed.language.split("-")[0].split("_")[0]
    for lang in messages.LANGUAGES:
        if lang == own:
            continue
        missing = (
            sum(1 for c in ed.cells if lang not in c.names),
            sum(1 for i in ed.industries.values() if lang not in i.names),
            sum(1 for c in ed.cards.values() if lang not in c.texts),
        )
        if any(missing):
            out(
                label(
                    "names_fallback",
                    args.lang,
                    tongue=lang,
                    cells=missing[0],
                    all_cells=len(ed.cells),
                    industries=missing[1],
                    all_industries=len(ed.industries),
                    cards=missing[2],
                    all_cards=len(ed.cards),
                )
            )
    # what is still a placeholder (docs/board-sources.md, the file's [box] marks: companion/editions/boards.py)
    from companion.editions import boards

    counts = boards.counts(ed)
    out(
        messages.render(
            "board_marks",
            {
                "total": counts.total,
                "confirmed": counts.confirmed,
                "placeholder": counts.placeholder,
                "sourced": counts.sourced,
            },
            args.lang,
        )
    )
    for sort, row in counts.by_sort.items():
        out(
            messages.render(
                "board_marks_sort", {"sort": messages.render(f"board_sort_{sort}", {}, args.lang), **row}, args.lang
            )
        )


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """editions, check-edition."""
    command("editions", help="list shipped editions").set_defaults(func=cmd_editions)
    p = command("check-edition", help="validate an edition file")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_edition)
