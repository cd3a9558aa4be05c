"""The soak run of issue 21 (tests/soak.py), small: kill -9s of the daemon while the control socket, two
phones and the reader book, and faults in the state folder between them. Nothing acknowledged is lost,
nothing is booked twice, nothing told "failed" is booked. SOAK_KILLS (8), SOAK_SEED, SOAK_LOG_DIR,
SOAK_STALLS, SOAK_READER and SOAK_BUDGET set the run (docs/reliability.md); on a loaded machine the kills
stop after SOAK_BUDGET seconds (here 150 unless set), so the test ends in about three minutes at most."""

import os

from soak import run_soak


def test_kill_9s_while_everyone_books_lose_double_and_falsely_fail_nothing(tmp_path):
    log = None if os.environ.get("SOAK_LOG_DIR") else tmp_path / "log"
    summary = run_soak(tmp_path / "box", log_dir=log, budget=float(os.environ.get("SOAK_BUDGET", "150")))
    print(summary.line())
    details = "\n".join(
        f"{kind}: {item}"
        for kind in ("lost", "doubled", "false_failed", "unresolved", "problems")
        for item in getattr(summary, kind)[:10]
    )
    assert summary.kills >= 1 and not summary.problems, f"{summary.line()}\n{details}"
    assert any(k.startswith("socket") for k in summary.requests) and summary.requests.get("reader"), (
        f"a client booked nothing, so the run proves little: {summary.line()}"
    )
    assert (len(summary.lost), len(summary.doubled), len(summary.false_failed)) == (0, 0, 0), (
        f"{summary.line()}\n{details}"
    )


def test_a_roll_whose_ack_was_lost_is_not_booked_again_after_a_kill(tmp_path):
    """The reader's firmware in a process of its own outlives each kill, as the Pico on its cable does. In
    every round the reader hears nothing from the Pi for a moment while a ROLL of its own is booked, and the
    daemon is killed before the ACK gets through: the reader sends that ROLL again to the next daemon, which
    must not book it a second time (issue 21, point 2)."""
    summary = run_soak(
        tmp_path / "box",
        kills=6,
        seed=3,
        log_dir=tmp_path / "log",
        reader="pty",
        faults=("ack_lost",),
        budget=120.0,
        stalls=0,
    )
    print(summary.line())
    details = "\n".join(
        f"{kind}: {item}"
        for kind in ("lost", "doubled", "false_failed", "problems")
        for item in getattr(summary, kind)[:10]
    )
    assert summary.faults.get("ack_lost") and not summary.problems, f"{summary.line()}\n{details}"
    assert (len(summary.lost), len(summary.doubled), len(summary.false_failed)) == (0, 0, 0), (
        f"{summary.line()}\n{details}"
    )
