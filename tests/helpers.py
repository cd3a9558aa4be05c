"""Test helpers shared by the edition test files: a game, a run of commands, an edited edition, a checked autoplay game."""

from companion import cli
from companion.bots.autoplay import play
from companion.editions import HERE, parse_edition, rules_for, set_options
from companion.engine.game import Game
from companion.words.messages import CATALOGS, LANGUAGES


def new(rules, players=("Anna", "Boris"), seed=1):
    """A fresh game of these rules."""
    return Game.start(rules, seed, list(players))


def run(game, *lines):
    """Apply command lines in order; returns the state after the last one."""
    for line in lines:
        game.apply(line)
    return game.state


def edition_variant(edition_id, options=None, replace=None):
    """The shipped edition file as a table would edit its own copy: `replace` is a list of
    (old, new) text replacements (each old text must be there; the first one is replaced),
    `options` a dict of [options] keys to set (companion.editions.set_options). Returns Rules."""
    text = (HERE / f"{edition_id}.toml").read_text(encoding="utf-8")
    for old, new_text in replace or ():
        assert old in text, old
        text = text.replace(old, new_text, 1)
    if options:
        text = set_options(text, options, f"{edition_id}-variant.toml")
    return rules_for(parse_edition(text, f"{edition_id}-variant.toml"))


def teleporting(edition_id, options=None, replace=None):
    """Rules whose `land CELL` may jump any distance: tests use it to put a token anywhere
    (with any other option or text changes of edition_variant)."""
    return edition_variant(edition_id, {"land_checks_distance": False, **(options or {})}, replace)


def play_checked(rules, seed, players, max_events=3000):
    """A seeded autoplay game (companion.bots.autoplay.play), checked as a table would audit it:
    every event's postings sum to zero, no player's cash is ever negative, the game ends
    with a winner, Game.replay gives the identical state, and every note code emitted has
    a template in every language. Returns the Game."""
    game = Game.start(rules, seed, list(players))

    def submit(line):
        event = game.apply(line)
        assert all(game.state.cash(p) >= 0 for p in game.state.players), event
        return event

    play(submit, game, seed, max_events=max_events)
    s = game.state
    assert s.phase == "over" and s.winner, (
        f"seed {seed}: no winner after event {len(game.events)} ({game.events[-1].command}); "
        f"pending {s.pending}, debts {s.debts}"
    )
    codes = set()
    for event in game.events:  # the start event included
        assert sum(p.amount for p in event.postings) == 0, event
        codes.update(n.code for n in event.notes)
    assert Game.replay(rules, game.events).state.signature() == s.signature()
    for code in codes:
        for language in LANGUAGES:
            assert code in CATALOGS[language], (code, language)
    return game


def cli_run(capsys, *argv):
    """Run the `companion` command in-process: (exit code, standard output, standard error)."""
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err
