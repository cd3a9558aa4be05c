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
    details = "\n".join(f"{kind}: {item}" for kind in ("lost", "doubled", "false_failed", "unresolved", "problems")
                        for item in getattr(summary, kind)[:10])
    assert summary.kills >= 1 and not summary.problems, f"{summary.line()}\n{details}"
    assert any(k.startswith("socket") for k in summary.requests) and summary.requests.get("reader"), \
        f"a client booked nothing, so the run proves little: {summary.line()}"
    assert (len(summary.lost), len(summary.doubled), len(summary.false_failed)) == (0, 0, 0), \
        f"{summary.line()}\n{details}"
