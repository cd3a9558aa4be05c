"""The study's charts with matplotlib (the Agg backend: no display), each as PNG and SVG.

Game length, wins by seat, payback by industry, and what the edition has: the share
price path (Elite), the charity fund (Classic); for --compare, each measure's paired
difference with its 95% interval. The files carry no date, so the same study draws the
same SVG.
"""

from __future__ import annotations

from pathlib import Path

from companion.sim.report import industries, say
from companion.words import messages

TITLES = {
    "en": {
        "rounds": "Game length",
        "rounds_x": "rounds",
        "games": "games",
        "wins": "Wins by seat",
        "payback": "Rent earned / paid for plots and buildings, by industry",
        "ratio": "payback",
        "price": "Share price, mean over the games still going",
        "round": "round",
        "fund": "Charity fund, mean over the games still going",
        "compare": "B - A, 95% paired interval",
        "diff": "difference",
    },
    "ru": {
        "rounds": "Длина партии",
        "rounds_x": "раунды",
        "games": "партии",
        "wins": "Победы по местам",
        "payback": "Рента / уплаченное за участки и постройки, по отраслям",
        "ratio": "окупаемость",
        "price": "Курс акций, среднее по идущим партиям",
        "round": "раунд",
        "fund": "Благотворительный фонд, среднее по идущим партиям",
        "compare": "B − A, 95% парный интервал",
        "diff": "разница",
    },
}


def pyplot():
    """matplotlib's pyplot on the Agg backend (ImportError when the `sim` extra is missing)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "companion-sim"  # the same ids every time
    return plt


def save(fig, folder: Path, name: str) -> list[Path]:
    paths = []
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        path = folder / f"{name}.{ext}"
        fig.savefig(path, format=ext, metadata=meta, bbox_inches="tight", dpi=100)
        paths.append(path)
    return paths


def draw(summary: dict, records, edition, folder: str | Path, lang: str = "en", prefix: str = "sim") -> list[Path]:
    """Every chart this study has, into folder as PREFIX-NAME.png and .svg; the paths written."""
    plt = pyplot()
    t = TITLES.get(lang, TITLES["en"])
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    name = messages.in_language(edition.name, edition.names, lang)
    written: list[Path] = []

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist([r.rounds for r in records], bins=min(30, max(5, len(records) // 3)), color="#4477aa")
    ax.set(title=f"{name}: {t['rounds']}", xlabel=t["rounds_x"], ylabel=t["games"])
    written += save(fig, out, f"{prefix}-rounds")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.5))
    seats = list(summary["wins_by_seat"])
    ax.bar(seats, [summary["wins_by_seat"][p] for p in seats], color="#228833")
    ax.set(title=f"{name}: {t['wins']}", ylabel=t["games"])
    written += save(fig, out, f"{prefix}-wins")
    plt.close(fig)

    rows = [(k, v) for k, v in industries(summary, edition).items() if v["payback"] is not None]
    if rows and any(v["rent"] for _, v in rows):
        fig, ax = plt.subplots(figsize=(7, 0.35 * len(rows) + 1.2))
        labels = [messages.industry_name(edition, k, lang) for k, _ in rows][::-1]
        ax.barh(labels, [v["payback"] for _, v in rows][::-1], color="#ccbb44")
        ax.axvline(1.0, color="#555555", linewidth=0.8)
        ax.set(title=f"{name}: {t['payback']}", xlabel=t["ratio"])
        written += save(fig, out, f"{prefix}-payback")
        plt.close(fig)

    if "shares" in summary:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        path = summary["shares"]["price_path"]
        ax.plot(range(1, len(path) + 1), path, color="#aa3377")
        ax.set(title=f"{name}: {t['price']}", xlabel=t["round"])
        written += save(fig, out, f"{prefix}-share-price")
        plt.close(fig)

    if "charity" in summary:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        path = summary["charity"]["fund_path"]
        ax.plot(range(1, len(path) + 1), path, color="#66ccee")
        ax.set(title=f"{name}: {t['fund']}", xlabel=t["round"])
        written += save(fig, out, f"{prefix}-charity")
        plt.close(fig)
    return written


def draw_compare(
    result: dict, label_a: str, label_b: str, folder: str | Path, lang: str = "en", prefix: str = "sim"
) -> list[Path]:
    """Each measure's B - A with its 95% paired interval, one panel a measure (their scales differ)."""
    plt = pyplot()
    t = TITLES.get(lang, TITLES["en"])
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    names = list(result)
    fig, axes = plt.subplots(len(names), 1, figsize=(6, 0.9 * len(names) + 1), squeeze=False)
    for ax, m in zip(axes[:, 0], names):
        row = result[m]
        ax.errorbar(
            [row["diff"]],
            [0],
            xerr=[[row["diff"] - row["low"]], [row["high"] - row["diff"]]],
            fmt="o",
            color="#4477aa",
            capsize=4,
        )
        ax.axvline(0, color="#999999", linewidth=0.8)
        ax.set_yticks([0], [say("measure_" + m, lang)])
    axes[0, 0].set_title(f"{t['compare']}: {label_b} − {label_a}", fontsize=9)
    axes[-1, 0].set_xlabel(t["diff"])
    fig.tight_layout()
    written = save(fig, out, f"{prefix}-compare")
    plt.close(fig)
    return written
