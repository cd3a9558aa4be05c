"""`companion bench web`, run small: the phone page on waitress on loopback answers both the static file and
the table view with no error, every commit reaches every live page, and it prints each row with its median,
p99 and whether the target is met (no timing is asserted: figures on a shared machine are for reading)."""

import re

from companion.bench import web as bench_web
from companion.cli import main as cli_main

NUMBER = r"\d+(?:\.\d+)?"


def test_it_prints_the_rows_and_whether_each_target_is_met(capsys):
    assert bench_web.main(pages=6, commits=12, rounds=1, seconds=0.3, threads=2, history=20) == 0
    out = capsys.readouterr().out
    assert re.search(r"phone page on waitress at 127\.0\.0\.1:\d+: 64 threads \(phone\.threads\)", out)
    assert re.search(r"\(errors: 0\)", out)  # every request answered 200
    assert re.search(rf"static file /phone/static/phone\.js \(\d+ bytes\) +{NUMBER} req/s", out)
    assert re.search(rf"table view /phone/table \(\d+ bytes\) +{NUMBER} req/s", out)
    assert re.search(rf"table view / static file: {NUMBER} \((met|NOT met): target at least 0\.50\)", out)
    assert re.search(rf"1 live page \(baseline\) +{NUMBER} +{NUMBER}  ms", out)
    # 12 commits x 6 pages: every arrival counted, none missing
    assert re.search(rf"6 live pages: each arrival \(72 samples\) +{NUMBER} +{NUMBER}  ms", out)
    assert re.search(rf"6 live pages: until the last page has it +{NUMBER} +{NUMBER}  ms", out)
    assert re.search(rf"the booking alone \(submit returned\) +{NUMBER} +{NUMBER}  ms", out)
    assert "missed a page" not in out
    assert re.search(rf"p99 until the last of 6 pages: {NUMBER} ms \((met|NOT met): target under 100 ms\)", out)


def test_the_command_line_runs_it(capsys):
    assert cli_main(["bench", "web", "--pages", "2", "--events", "10", "--runs", "1"]) in (0, None)
    out = capsys.readouterr().out
    assert "table view / static file:" in out and "2 live pages: each arrival (20 samples)" in out


def test_p99_is_the_nearest_rank():
    assert bench_web.p99([float(v) for v in range(1, 101)]) == 99.0
    assert bench_web.p99([5.0, 1.0, 3.0]) == 5.0  # fewer than 100: the worst
    assert bench_web.p99([float(v) for v in range(1, 201)]) == 198.0
