"""The soak run of issue 21 (tests/soak.py), small: a few kill -9s of the daemon while the control socket,
two phones and the reader book, and faults in the state folder between them. Nothing acknowledged is lost,
nothing is booked twice, nothing told "failed" is booked. SOAK_KILLS, SOAK_SEED and SOAK_LOG_DIR set the
count, the seed and where the daemon's output and every request's record go."""
import os

from soak import run_soak


def test_kill_9s_while_everyone_books_lose_double_and_falsely_fail_nothing(tmp_path):
    kills = int(os.environ.get("SOAK_KILLS", "8"))
    summary = run_soak(tmp_path / "box", kills=kills, log_dir=tmp_path / "log" if "SOAK_LOG_DIR" not in os.environ
                       else None)
    print(summary.line())
    details = "\n".join(f"{kind}: {item}" for kind in ("lost", "doubled", "false_failed", "unresolved", "problems")
                        for item in getattr(summary, kind)[:10])
    assert not summary.problems, details
    assert summary.requests.get("socket1") and summary.requests.get("banker") and summary.requests.get("reader"), \
        f"a client booked nothing, so the run proves little: {summary.line()}"
    assert (len(summary.lost), len(summary.doubled), len(summary.false_failed)) == (0, 0, 0), \
        f"{summary.line()}\n{details}"
