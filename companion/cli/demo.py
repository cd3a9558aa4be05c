"""`companion demo`: the daemon on simulated hardware with the virtual table, or a bot playing through the reader."""

import argparse

from companion.cli.common import CommandFactory


def cmd_demo(args: argparse.Namespace) -> int:
    from companion.daemon.demo import run_demo

    return run_demo(
        args.seed,
        args.lang,
        args.delay,
        args.edition,
        args.events,
        args.dir,
        args.bot,
        args.port,
        args.players,
        args.new,
    )


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """demo."""
    p = command(
        "demo",
        help="the daemon on simulated hardware and the virtual table at http://127.0.0.1:8000/ "
        "(--bot: a sample game played through the reader instead)",
    )
    p.add_argument(
        "--dir",
        help="the games folder (default: ./demo-games, kept between runs so a restart "
        "resumes the game; --bot: a fresh temporary folder)",
    )
    p.add_argument("--new", action="store_true", help="end and archive the game in play and start a fresh one")
    p.add_argument("--bot", action="store_true", help="a seeded bot plays a game through the reader and exits")
    p.add_argument("--port", type=int, default=8000, help="the virtual table's port (127.0.0.1)")
    p.add_argument(
        "--players", type=int, default=None, help="players in the game the demo starts (default 3; --bot: 4)"
    )
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--edition", default="elite")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between events")
    p.add_argument("--events", type=int, default=150, help="stop and count wealth after this many events")
    p.set_defaults(func=cmd_demo)
