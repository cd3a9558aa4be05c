"""What a table asks of a study, added up over its games: a summary dict, its words, paired comparisons.

`summarize` turns GameRecords into plain data (the `--json` output and what the charts
draw); `summary_lines` says it in English or Russian (the SIM catalogue in
companion/words/messages.py); `compare` pairs two studies of the same seeds and gives each
measure's mean difference with a 95% paired t interval (docs/simulation.md).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from companion.sim.runner import GameRecord
from companion.words import messages
from companion.words.grammar import plural

# the measures --compare pairs by seed: name -> what one game gives
MEASURES = {
    "rounds": lambda r: r.rounds,
    "events": lambda r: r.events,
    "bankruptcies": lambda r: len(r.bankrupt),
    "capped": lambda r: 1 if r.ended == "round_cap" else 0,
    "dividends": lambda r: r.dividends,
    "final_share_price": lambda r: r.share_price[-1] if r.share_price else 0,
    "jackpot_paid": lambda r: sum(r.jackpot_wins),
    "charity_final": lambda r: r.charity[-1] if r.charity else 0,
    "pot_paid": lambda r: sum(r.pot_taken),
}


def measures_for(records: Sequence[GameRecord]) -> list[str]:
    """The measures that say something for these games (an edition without shares has no dividends)."""
    out = ["rounds", "events", "bankruptcies", "capped"]
    if any(r.share_price for r in records):
        out += ["dividends", "final_share_price"]
    if any(r.jackpot_bets or r.jackpot_wins for r in records):
        out.append("jackpot_paid")
    if any(r.charity for r in records):
        out.append("charity_final")
    if any(r.pot_taken for r in records):
        out.append("pot_paid")
    return out


def spread(values: Sequence[float]) -> dict:
    """Mean, median, 10th and 90th percentile, least and most."""
    if not values:
        return {"mean": 0, "median": 0, "p10": 0, "p90": 0, "min": 0, "max": 0}
    ordered = sorted(values)

    def pct(q):
        return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]

    return {
        "mean": round(statistics.fmean(ordered), 2),
        "median": statistics.median(ordered),
        "p10": pct(0.1),
        "p90": pct(0.9),
        "min": ordered[0],
        "max": ordered[-1],
    }


def mean_path(paths: list[list[int]]) -> list[float]:
    """The mean of several per-round paths, round by round, over the games still going, for as long
    as at least a tenth of the games (and two) are: a mean over one long game says little."""
    least = max(2, len(paths) // 10) if len(paths) > 1 else 1
    out = []
    for i in range(max((len(p) for p in paths), default=0)):
        values = [p[i] for p in paths if len(p) > i]
        if len(values) < least:
            break
        out.append(round(statistics.fmean(values), 2))
    return out


def summarize(records: Sequence[GameRecord]) -> dict:
    """Everything the report says, as plain data (JSON)."""
    if not records:
        raise ValueError("no games")
    first = records[0]
    n = len(records)
    seats = first.players
    wins = {p: 0.0 for p in seats}
    strat_wins: dict[str, float] = {}
    strat_seats: dict[str, int] = {}
    for r in records:
        for st in r.strategies:
            strat_seats[st] = strat_seats.get(st, 0) + 1
        for w in r.winners:  # a shared win (a timed game's tie) counts in parts
            wins[w] = wins.get(w, 0) + 1 / len(r.winners)
            st = r.strategies[r.players.index(w)]
            strat_wins[st] = strat_wins.get(st, 0) + 1 / len(r.winners)
    rent: dict[str, int] = {}
    paid: dict[str, int] = {}
    built: dict[str, int] = {}
    for r in records:
        for key, into in ((r.rent, rent), (r.paid, paid), (r.built, built)):
            for pid, amount in key.items():
                into[pid] = into.get(pid, 0) + amount
    plots = {
        pid: {
            "rent": rent.get(pid, 0),
            "paid": paid.get(pid, 0),
            "built": built.get(pid, 0),
            "payback": round(rent.get(pid, 0) / (paid.get(pid, 0) + built.get(pid, 0)), 3)
            if paid.get(pid, 0) + built.get(pid, 0)
            else None,
        }
        for pid in sorted(set(rent) | set(paid) | set(built))
    }
    ended: dict[str, int] = {}
    for r in records:
        ended[r.ended] = ended.get(r.ended, 0) + 1
    first_bankrupt = [r.bankrupt[0][1] for r in records if r.bankrupt]
    out = {
        "edition": first.edition,
        "games": n,
        "players": len(seats),
        "seeds": [records[0].seed, records[-1].seed],
        "options": first.options,
        "strategies": {p: st for p, st in zip(seats, first.strategies)},
        "rounds": spread([r.rounds for r in records]),
        "events": spread([r.events for r in records]),
        "ended": dict(sorted(ended.items())),
        "wins_by_seat": {p: round(wins[p], 2) for p in seats},
        "wins_by_strategy": {
            st: {
                "wins": round(strat_wins.get(st, 0), 2),
                "seats": strat_seats[st],
                "share": round(strat_wins.get(st, 0) / strat_seats[st] * len(seats) / n, 3),
            }
            for st in sorted(strat_seats)
        },
        "bankruptcies": {
            "total": sum(len(r.bankrupt) for r in records),
            "per_game": round(sum(len(r.bankrupt) for r in records) / n, 2),
            "first_round": spread(first_bankrupt),
        },
        "plots": plots,
        "failures": [{"seed": r.seed, **(r.failure or {})} for r in records if r.failure],
    }
    if any(r.share_price for r in records):
        out["shares"] = {
            "price_path": mean_path([r.share_price for r in records]),
            "final_price": spread([r.share_price[-1] for r in records if r.share_price]),
            "dividends_per_game": spread([r.dividends for r in records]),
        }
    if any(r.jackpot_bets or r.jackpot_wins for r in records):
        wins_all = [w for r in records for w in r.jackpot_wins]
        out["jackpot"] = {
            "played": sum(r.jackpot_bets for r in records),
            "payouts": len(wins_all),
            "paid": sum(wins_all),
            "largest": max(wins_all, default=0),
        }
    if any(r.charity for r in records):
        taken = [t for r in records for t in r.fund_taken]
        out["charity"] = {
            "fund_path": mean_path([r.charity for r in records]),
            "final": spread([r.charity[-1] for r in records if r.charity]),
            "taken": len(taken),
            "taken_amount": sum(taken),
        }
    if any(r.pot_taken for r in records):
        pots = [t for r in records for t in r.pot_taken]
        out["pot"] = {"collected": len(pots), "paid": sum(pots), "largest": max(pots)}
    return out


def industries(summary: dict, edition) -> dict[str, dict]:
    """The plots' rent and price added up by industry (colour group), with the payback ratio."""
    out: dict[str, dict] = {}
    for pid, row in summary["plots"].items():
        cell = edition.plots.get(pid)
        if cell is None:
            continue
        into = out.setdefault(cell.industry, {"rent": 0, "paid": 0, "built": 0})
        for key in ("rent", "paid", "built"):
            into[key] += row[key]
    for row in out.values():
        cost = row["paid"] + row["built"]
        row["payback"] = round(row["rent"] / cost, 3) if cost else None
    return dict(sorted(out.items(), key=lambda kv: -(kv[1]["payback"] or 0)))


# ----- paired comparison ----------------------------------------------------------------------

# Student's t, 97.5th percentile, for 1 to 30 degrees of freedom (the printed tables)
T_975 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)


def t_975(df: int) -> float:
    """The 97.5th percentile of Student's t with df degrees of freedom: the table up to 30, then a
    Cornish-Fisher expansion around the normal quantile (good to 3 decimals there)."""
    if df <= 0:
        return math.inf
    if df <= len(T_975):
        return T_975[df - 1]
    z = 1.959964
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def paired(a: Sequence[float], b: Sequence[float]) -> dict:
    """Mean of b - a over pairs, and its 95% paired t interval."""
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    mean = statistics.fmean(diffs) if diffs else 0.0
    sd = statistics.stdev(diffs) if n > 1 else 0.0
    half = t_975(n - 1) * sd / math.sqrt(n) if n > 1 else math.inf
    return {
        "a": round(statistics.fmean(a), 3) if a else 0,
        "b": round(statistics.fmean(b), 3) if b else 0,
        "diff": round(mean, 3),
        "low": round(mean - half, 3),
        "high": round(mean + half, 3),
        "pairs": n,
    }


def compare(base: Sequence[GameRecord], other: Sequence[GameRecord]) -> dict:
    """Each measure under both option sets, paired by seed: {measure: paired(...)}."""
    by_seed = {r.seed: r for r in other}
    pairs = [(r, by_seed[r.seed]) for r in base if r.seed in by_seed]
    names = measures_for([r for pair in pairs for r in pair])
    return {m: paired([MEASURES[m](x) for x, _ in pairs], [MEASURES[m](y) for _, y in pairs]) for m in names}


# ----- the summary in words ---------------------------------------------------------------------


def say(key: str, lang: str, **params) -> str:
    table = messages.SIM.get(lang, messages.SIM["en"])
    return (table.get(key) or messages.SIM["en"][key]).format(**params)


def num(x, lang: str) -> str:
    """A number as the language writes it: 12.5 / 12,5; thousands apart; no minus on a zero."""
    if isinstance(x, float) and not x.is_integer():
        # two decimals for small numbers (a share of games, a payback ratio), one for the rest
        text = f"{x:,.2f}" if abs(x) < 10 else f"{x:,.1f}" if abs(x) < 1000 else f"{x:,.0f}"
        if text.lstrip("-").strip("0.,") == "":
            text = text.lstrip("-")  # no "-0.00"
    else:
        text = f"{int(x):,}"
    if lang == "ru":
        text = text.replace(",", "\u00a0").replace(".", ",")
    return text


def strategy_name(name: str, lang: str) -> str:
    """A strategy in words: its temper, and whether it plays the shared rules only."""
    shared = name.startswith("generic-")
    return say("strategy_" + name.removeprefix("generic-"), lang) + (say("generic", lang) if shared else "")


def summary_lines(summary: dict, edition, lang: str = "en", top: int = 5) -> list[str]:
    """The plain summary a table reads."""
    n = summary["games"]
    r = summary["rounds"]
    e = summary["events"]
    name = messages.in_language(edition.name, edition.names, lang)
    lines = [
        say(
            "head",
            lang,
            edition=name,
            games=n,
            games_word=plural(n, say("games_forms", lang)),
            players=summary["players"],
            first=summary["seeds"][0],
            last=summary["seeds"][1],
        )
    ]
    if summary["options"]:
        lines.append(say("options", lang, options=", ".join(f"{k}={v}" for k, v in summary["options"].items())))
    lines.append(
        say(
            "rounds",
            lang,
            mean=num(r["mean"], lang),
            median=num(r["median"], lang),
            p10=num(r["p10"], lang),
            p90=num(r["p90"], lang),
            max=num(r["max"], lang),
        )
    )
    lines.append(say("events", lang, mean=num(e["mean"], lang), median=num(e["median"], lang)))
    ended = summary["ended"]
    lines.append(
        say(
            "ended",
            lang,
            last=num(ended.get("finished", 0), lang),
            cap=num(ended.get("round_cap", 0), lang),
            stuck=num(ended.get("stuck", 0) + ended.get("invariant", 0), lang),
        )
    )
    lines.append(
        say("wins_seat", lang, wins=", ".join(f"{p} {num(w, lang)}" for p, w in summary["wins_by_seat"].items()))
    )
    lines.append(
        say(
            "wins_strategy",
            lang,
            wins=", ".join(
                f"{strategy_name(st, lang)} {num(v['wins'], lang)}/{v['seats']}"
                for st, v in summary["wins_by_strategy"].items()
            ),
        )
    )
    b = summary["bankruptcies"]
    if b["total"]:
        lines.append(
            say(
                "bankrupt",
                lang,
                total=num(b["total"], lang),
                per_game=num(b["per_game"], lang),
                first=num(b["first_round"]["median"], lang),
            )
        )
    else:
        lines.append(say("bankrupt_none", lang))
    inds = industries(summary, edition)
    # no rent at all (Mad Millionaire's businesses earn through publicity stunts): nothing to pay back
    shown = (
        [(k, v) for k, v in inds.items() if v["payback"] is not None]
        if any(row["rent"] for row in summary["plots"].values())
        else []
    )
    if shown:
        lines.append(say("industries", lang))
        for ind, row in shown:
            lines.append(
                say(
                    "payback_row",
                    lang,
                    name=messages.industry_name(edition, ind, lang),
                    rent=num(row["rent"], lang),
                    cost=num(row["paid"] + row["built"], lang),
                    ratio=num(round(row["payback"], 2), lang),
                )
            )
    plots = [(pid, row) for pid, row in summary["plots"].items() if row["payback"] is not None] if shown else []
    plots.sort(key=lambda kv: -kv[1]["payback"])
    if plots:
        lines.append(
            say(
                "best_plots",
                lang,
                plots=", ".join(
                    f"{messages.cell_name(edition, pid, lang)} {num(round(row['payback'], 2), lang)}"
                    for pid, row in plots[:top]
                ),
            )
        )
        lines.append(
            say(
                "worst_plots",
                lang,
                plots=", ".join(
                    f"{messages.cell_name(edition, pid, lang)} {num(round(row['payback'], 2), lang)}"
                    for pid, row in plots[-top:][::-1]
                ),
            )
        )
    if "shares" in summary:
        sh = summary["shares"]
        path = sh["price_path"]
        lines.append(
            say(
                "shares",
                lang,
                start=num(path[0] if path else 0, lang),
                final=num(sh["final_price"]["mean"], lang),
                low=num(sh["final_price"]["min"], lang),
                high=num(sh["final_price"]["max"], lang),
                dividends=num(sh["dividends_per_game"]["mean"], lang),
            )
        )
    if "jackpot" in summary:
        j = summary["jackpot"]
        lines.append(
            say(
                "jackpot",
                lang,
                played=num(j["played"], lang),
                payouts=num(j["payouts"], lang),
                paid=num(j["paid"], lang),
                largest=num(j["largest"], lang),
            )
        )
    if "charity" in summary:
        c = summary["charity"]
        lines.append(
            say(
                "charity",
                lang,
                final=num(c["final"]["mean"], lang),
                high=num(c["final"]["max"], lang),
                taken=num(c["taken"], lang),
                amount=num(c["taken_amount"], lang),
            )
        )
    if "pot" in summary:
        p = summary["pot"]
        lines.append(
            say(
                "pot",
                lang,
                collected=num(p["collected"], lang),
                paid=num(p["paid"], lang),
                largest=num(p["largest"], lang),
            )
        )
    return lines


def compare_lines(result: dict, label_a: str, label_b: str, lang: str = "en") -> list[str]:
    """Each measure: A, B, the difference B - A and its 95% paired interval."""
    lines = [say("compare_head", lang, a=label_a, b=label_b)]
    for m, row in result.items():
        low, high = row["low"], row["high"]
        sure = say("sure", lang) if low > 0 or high < 0 else say("unsure", lang)
        lines.append(
            say(
                "compare_row",
                lang,
                measure=say("measure_" + m, lang),
                a=num(float(row["a"]), lang),
                b=num(float(row["b"]), lang),
                diff=num(row["diff"], lang),
                low=num(low, lang),
                high=num(high, lang),
                sure=sure,
            )
        )
    return lines
