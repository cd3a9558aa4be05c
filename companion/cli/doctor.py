"""`companion doctor`: every part of the box checked, the line that fixes each problem, and a redacted bundle."""

import argparse

from companion.cli.common import CommandFactory, out
from companion.doctor.report import box_config, bundle, context, lines, run_checks, write_bundle
from companion.doctor.result import FAIL
from companion.doctor.system import ROOT_ENV, System
from companion.words import messages

EXIT_PROBLEM = 1  # some check failed (a WARN alone exits 0)


def cmd_doctor(args: argparse.Namespace) -> int:
    system = System(args.root)
    config, verdict = box_config(system, args.config)
    ctx = context(system, config, args.lang)
    results = [verdict, *run_checks(ctx)]
    report = lines(results, args.lang)
    for line in report:
        out(line)
    if args.bundle:
        path = write_bundle(args.bundle, bundle(ctx, report, args.lang))
        out(messages.render("doctor_bundle_written", {"path": str(path)}, args.lang))
    return EXIT_PROBLEM if any(r.status == FAIL for r in results) else 0


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """doctor."""
    p = command("doctor", help="check every part of the box (OK / WARN / FAIL) and say how to fix each problem")
    p.add_argument("--config", help="the configuration file (default: /etc/companion/companion.toml if present)")
    p.add_argument("--bundle", metavar="FILE", help="also write the report, redacted (no PINs, codes, keys), to FILE")
    p.add_argument("--root", help=f"read the machine under this folder instead of / (tests; default ${ROOT_ENV})")
    p.set_defaults(func=cmd_doctor)
