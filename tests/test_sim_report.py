"""`companion sim`: the summary a table reads (English and Russian), --json, --compare's paired
intervals, and input errors said in one line."""

import json

import pytest

from companion.cli import main
from companion.sim.report import paired, t_975


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_summary_says_what_a_table_asks(capsys):
    code, out, err = run(capsys, "--lang", "en", "sim", "monopoly", "--games", "4", "--seed", "2")
    assert code == 0, err
    assert out.startswith("Monopoly: 4 games of 4 players, seeds 2 to 5")
    for phrase in (
        "game length in rounds: mean",
        "events per game",
        "wins by seat: Anna",
        "wins by strategy",
        "bankruptcies:",
        "what pays back",
        "plots that pay back best",
        "games/s",
    ):
        assert phrase in out
    assert "None" not in out and "_" not in out.split("what pays back")[1].split("games/s")[0]


def test_the_summary_in_russian_names_plots_and_industries_in_russian(capsys):
    code, out, _ = run(capsys, "--lang", "ru", "sim", "elite", "--games", "2", "--round-cap", "60")
    assert code == 0
    assert "2 партии, игроков: 4" in out
    assert "длина партии в раундах" in out and "курс акций" in out
    assert "что окупается" in out
    assert "central" not in out  # industry ids become the rulebook's names


def test_elite_and_classic_report_their_own_things(capsys):
    _, out, _ = run(capsys, "--lang", "en", "sim", "elite", "--games", "2", "--round-cap", "80", "--json")
    summary = json.loads(out)["summary"]
    assert summary["shares"]["price_path"][0] > 0
    assert len(summary["shares"]["price_path"]) <= 80
    _, out, _ = run(capsys, "--lang", "en", "sim", "classic", "--games", "3", "--json")
    summary = json.loads(out)["summary"]
    assert "charity" in summary and summary["charity"]["fund_path"]
    assert summary["games"] == 3 and sum(summary["wins_by_seat"].values()) == pytest.approx(3)


def test_compare_pairs_the_same_seeds_and_gives_an_interval(capsys):
    code, out, err = run(
        capsys, "--lang", "en", "sim", "monopoly", "--games", "5", "--json", "--compare", "free_parking_pot=true"
    )
    assert code == 0, err
    data = json.loads(out)
    c = data["compare"]
    assert c["a"] == "free_parking_pot=false"  # the edition's own value, as a table types it
    assert c["b"] == "free_parking_pot=true"
    for row in c["measures"].values():
        assert row["low"] <= row["diff"] <= row["high"] and row["pairs"] == 5
    assert c["b_summary"]["options"] == {"free_parking_pot": "true"}
    assert "pot" in c["b_summary"]  # the pot was collected under B
    code, out, _ = run(capsys, "--lang", "en", "sim", "monopoly", "--games", "3", "--compare", "free_parking_pot=true")
    assert "95% interval (paired t)" in out and "rounds: A" in out


def test_paired_t_interval_by_hand():
    # differences 1, 2, 3, 4: mean 2.5, sd 1.291, t(3) = 3.182 -> 2.5 +- 2.054
    row = paired([0, 0, 0, 0], [1, 2, 3, 4])
    assert row["diff"] == 2.5
    assert row["low"] == pytest.approx(0.446, abs=0.002) and row["high"] == pytest.approx(4.554, abs=0.002)
    # Student's t, 97.5th percentile, from the printed tables
    for df, t in ((1, 12.706), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (100, 1.984)):
        assert t_975(df) == pytest.approx(t, abs=0.002)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["sim", "monopoly", "--games", "2", "--strategy", "reckless"], "no strategy called 'reckless'"),
        (["sim", "monopoly", "--games", "0"], "--games must be a whole number from 1"),
        (["sim", "monopoly", "--players", "9"], "--players must be a whole number from 2 to 8"),
        (["sim", "monopoly", "--games", "1", "--option", "no_such_option=1"], "no_such_option"),
        (["sim", "monopoly", "--games", "1", "--compare", "free_parking_pot=false"], "changes nothing"),
    ],
)
def test_bad_input_is_one_line(capsys, argv, words):
    code, out, err = run(capsys, "--lang", "en", *argv)
    assert code == 4
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
