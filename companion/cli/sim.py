"""`companion sim EDITION --games N ...`: play a study, print its summary (or JSON), draw its charts.

A broken invariant in any game prints the seed and a 1-minimal script that reproduces it
(companion/sim/shrink.py), saved beside the charts when --charts is given, and the
command exits with code 9 (a bug halted it: docs/exit-codes.md).
"""

from __future__ import annotations

import argparse
import difflib
import errno
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.bots.strategies import NAMES
from companion.cli.common import CommandFactory, option_pairs
from companion.editions import load_edition, shipped
from companion.errors import EXIT_HALTED, EXIT_OK, BadInput, EditionError
from companion.sim import report
from companion.sim.runner import SEATS, GameRecord, Study, option_text, play_many
from companion.sim.shrink import confirm, shrink
from companion.words import messages

if TYPE_CHECKING:
    from companion.engine.board import Edition


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """sim."""
    p = command("sim", help="simulate games with bots and report what a table asks (docs/simulation.md)")
    p.add_argument("edition", help="shipped edition id or path to an edition file")
    p.add_argument("--games", type=int, default=100, help="how many games (seeds SEED .. SEED+N-1)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1, help="the first game's seed")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option for every game")
    p.add_argument(
        "--strategy",
        action="extend",
        nargs="+",
        metavar="NAME",
        help=f"the seats' strategies in seat order, repeated round the table ({', '.join(NAMES)})",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes to play in, 0 for one a core (the games are the same whatever the number)",
    )
    p.add_argument(
        "--round-cap",
        type=int,
        default=1000,
        help="a game still going after this many rounds is ended and wealth counted",
    )
    p.add_argument("--json", action="store_true", help="the summary as JSON")
    p.add_argument("--charts", metavar="DIR", help="write the charts (PNG and SVG) into DIR")
    p.add_argument(
        "--compare",
        action="append",
        metavar="KEY=VALUE",
        help="also play the same seeds with this option changed and print each difference "
        "with a 95%% interval paired by seed",
    )
    p.add_argument("--no-invariants", action="store_true", help="skip the invariant checks (speed studies)")
    p.set_defaults(func=run)


def number(value: int, option: str, low: int, high: int, lang: str) -> int:
    if not low <= value <= high:
        raise BadInput(report.say("bad_number", lang, option=option, low=low, high=high, value=value))
    return value


def pairs(items: list[str] | None, flag: str, lang: str) -> dict[str, str]:
    """`KEY=VALUE` words as {key: value}; a word without `=` is one line naming the flag it came with."""
    for item in items or ():
        key, sep, _ = item.partition("=")
        if not sep or not key:
            raise BadInput(report.say("option_form", lang, flag=flag, item=item))
    return option_pairs(items, lang)


def load(ref: str, options: dict[str, str], given: dict[str, str], flag: str, lang: str) -> Edition:
    """The edition under these options. An unknown edition, or an option `given` with `flag` that the
    edition lacks or whose value it cannot take, is one line in the language naming what was typed and
    with which flag (--option or --compare), with a close match for a mistyped key; the loader's own line
    (companion/editions: EditionProblem) names the edition's file and the key instead."""
    try:
        return load_edition(ref, options or None)
    except EditionError as exc:
        if exc.key in ("edition", "file") and not Path(ref).is_file():
            raise BadInput(report.say("no_edition", lang, name=ref, shipped=", ".join(shipped()))) from None
        if not exc.key.startswith("options."):
            raise  # the edition file itself is damaged: the loader's line names it
        defaults = load_edition(ref)
        name = messages.in_language(defaults.name, defaults.names, lang)
        for key, value in given.items():
            item = f"{key}={value}"
            if key not in defaults.options:
                close = difflib.get_close_matches(key, sorted(defaults.options), n=1)
                hint = (
                    report.say("did_you_mean", lang, close=close[0])
                    if close
                    else report.say("known_options", lang, known=", ".join(sorted(defaults.options)))
                )
                raise BadInput(
                    report.say("bad_option_key", lang, flag=flag, item=item, edition=name, name=key, hint=hint)
                ) from None
            try:
                load_edition(ref, {key: value})
            except EditionError:
                raise BadInput(
                    report.say(
                        "bad_option_value",
                        lang,
                        flag=flag,
                        item=item,
                        value=value,
                        name=key,
                        default=option_text(defaults.options[key]),
                    )
                ) from None
        raise


def writable_folder(folder: str) -> None:
    """Make the charts' folder now, before any game, so a path that cannot take them (an existing
    file, a read-only place) is said before the study is played, not after it is thrown away."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    if not os.access(path, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def progress_bar(total: int, label: str) -> Any:
    """A tqdm bar on standard error (silent when it is no terminal); a no-op without tqdm."""
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        return None
    return tqdm(total=total, desc=label, unit="game", disable=None, file=sys.stderr, leave=False)


def play(study: Study, jobs: int, label: str) -> list[GameRecord]:
    bar = progress_bar(study.games, label)
    try:
        return play_many(study, jobs, bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    number(args.games, "--games", 1, 1_000_000, lang)
    number(args.jobs, "--jobs", 0, 256, lang)
    jobs = args.jobs or os.cpu_count() or 1
    number(args.round_cap, "--round-cap", 1, 100_000, lang)
    number(args.seed, "--seed", 0, (1 << 63), lang)
    for name in args.strategy or ():
        if name not in NAMES:
            raise BadInput(report.say("bad_strategy", lang, name=name, names=", ".join(NAMES)))
    options = pairs(args.option, "--option", lang)
    edition = load(args.edition, options, options, "--option", lang)  # a bad edition or option: one line, here
    number(args.players, "--players", edition.players_min, min(edition.players_max, len(SEATS)), lang)
    if len(args.strategy or ()) > args.players:
        unused = args.strategy[args.players :]
        raise BadInput(
            report.say(
                "too_many_strategies", lang, count=len(args.strategy), players=args.players, unused=", ".join(unused)
            )
        )
    other_options = None
    if args.compare:  # checked before any game is played
        changed = pairs(args.compare, "--compare", lang)
        other_options = {**options, **changed}
        if load(args.edition, other_options, changed, "--compare", lang).options == edition.options:
            raise BadInput(report.say("same_options", lang, options=" ".join(args.compare)))
        if args.games < 2:  # one pair has no spread: its interval would be -inf .. inf
            raise BadInput(report.say("compare_games", lang, games=args.games))
    if args.charts:
        writable_folder(args.charts)
    study = Study(
        args.edition,
        args.games,
        args.seed,
        args.players,
        tuple(sorted(options.items())),
        tuple(args.strategy or ()),
        not args.no_invariants,
        args.round_cap,
    )
    started = time.perf_counter()
    records = play(study, jobs, args.edition)
    seconds = time.perf_counter() - started
    summary = report.summarize(records)
    code = EXIT_OK
    out: dict[str, Any] = {"summary": summary}
    lines = report.summary_lines(summary, edition, lang)
    rounds = sum(r.rounds for r in records)
    lines.append(
        report.say(
            "speed",
            lang,
            games=len(records),
            seconds=report.num(round(seconds, 1), lang),
            rate=report.num(round(len(records) / seconds, 1), lang),
            rounds=report.num(round(rounds / seconds), lang),
        )
    )
    failures = [r for r in records if r.failure]
    for r in failures[:3]:  # the first few: each shrink replays the game many times
        message = (r.failure or {})["message"]
        small = shrink(r.lines, message)
        lines.append(report.say("failure", lang, seed=r.seed, message=message))
        lines.append(report.say("failure_script", lang, count=len(small)))
        lines += small
        out.setdefault("failures", []).append(
            {"seed": r.seed, "message": message, "script": small, "confirmed": confirm(small) == message}
        )
        if args.charts:
            path = Path(args.charts) / f"failure-seed-{r.seed}.game"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(small) + "\n", encoding="utf-8")
            lines.append(report.say("failure_saved", lang, path=path))
        code = EXIT_HALTED
    if other_options is not None:
        other = Study(
            args.edition,
            args.games,
            args.seed,
            args.players,
            tuple(sorted(other_options.items())),
            study.strategies,
            study.invariants,
            study.round_cap,
        )
        other_records = play(other, jobs, " ".join(args.compare))
        label_a = ", ".join(f"{k}={options.get(k, option_text(edition.options.get(k)))}" for k in changed)
        label_b = ", ".join(f"{k}={v}" for k, v in changed.items())
        result = report.compare(records, other_records)
        out["compare"] = {"a": label_a, "b": label_b, "measures": result, "b_summary": report.summarize(other_records)}
        lines += report.compare_lines(result, label_a, label_b, lang)
        if any(r.failure for r in other_records):
            code = EXIT_HALTED
    if args.charts:
        try:
            written = charts(args, summary, records, edition, lang, out)
        except ImportError:
            lines.append(report.say("no_charts", lang))
        except OSError:
            show(args, out, lines)  # the study stands: its report first, then the one line of the error
            raise
        else:
            lines.append(report.say("charts", lang, path=", ".join(str(p) for p in written)))
    show(args, out, lines)
    return code


def show(args: argparse.Namespace, out: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        print("\n".join(lines))


def charts(
    args: argparse.Namespace,
    summary: dict[str, Any],
    records: list[GameRecord],
    edition: Edition,
    lang: str,
    out: dict[str, Any],
) -> list[Path]:
    from companion.sim import charts as drawing

    prefix = f"sim-{edition.id}"
    written = drawing.draw(summary, records, edition, args.charts, lang, prefix)
    if "compare" in out:
        c = out["compare"]
        written += drawing.draw_compare(c["measures"], c["a"], c["b"], args.charts, lang, prefix)
    return written
