"""The systemd unit (systemd-analyze verify, no warnings) and companion/daemon/systemd.py (sd_notify, watchdog)."""

import logging
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from companion.daemon import systemd
from companion.daemon.systemd import Watchdog, notify, watchdog_interval

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"
README = UNIT.parent / "README.md"
ANALYZE = "/usr/bin/systemd-analyze"


def unit_settings(text: str) -> dict[str, list[str]]:
    """Section.Key -> every value given (DeviceAllow= and the like repeat); comments and blank lines skipped."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return settings


def analyze() -> str:
    found = shutil.which("systemd-analyze") or (ANALYZE if os.access(ANALYZE, os.X_OK) else None)
    if found is None:
        pytest.fail("systemd-analyze is missing: install systemd (Debian: apt install systemd) to check the unit")
    return found


@pytest.fixture
def unit_copy(tmp_path: Path) -> Path:
    """The unit with ExecStart's program replaced by one that exists here (verify refuses a missing one)."""
    text = UNIT.read_text(encoding="utf-8")
    rewritten, count = re.subn(r"^ExecStart=\S+", lambda _: f"ExecStart={sys.executable}", text, flags=re.M)
    assert count == 1
    copy = tmp_path / "companion.service"
    copy.write_text(rewritten, encoding="utf-8")
    return copy


def run_analyze(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [analyze(), *args],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "SYSTEMD_LOG_COLOR": "0", "SYSTEMD_PAGER": "cat"},
    )


# (a) systemd-analyze verify: it prints warnings and still exits 0, so stderr must be empty


def test_the_unit_verifies_without_a_warning(unit_copy):
    result = run_analyze("verify", str(unit_copy))
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")


def test_verify_does_warn_about_a_mistake(unit_copy):
    """The check above can fail: a misspelt value is a warning on stderr (with exit code 0)."""
    unit_copy.write_text(unit_copy.read_text().replace("Type=notify", "Type=notifyy"))
    result = run_analyze("verify", str(unit_copy))
    assert "notifyy" in result.stderr


def test_the_security_score_is_the_one_the_readme_quotes(unit_copy):
    result = run_analyze("security", "--offline=true", str(unit_copy))
    assert result.returncode == 0, result.stderr
    score = re.search(r"Overall exposure level for companion\.service: (\d+\.\d)", result.stdout)
    assert score, result.stdout[-500:]
    assert float(score[1]) <= 1.5
    assert f"**{score[1]} OK**" in README.read_text(encoding="utf-8")


# (b) what the unit must say


def test_the_unit_has_what_the_daemon_relies_on():
    s = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert s["Service.Type"] == ["notify"]
    assert s["Service.NotifyAccess"] == ["main"]
    assert s["Service.ExecStart"] == ["/opt/companion/.venv/bin/companion run --config /etc/companion/companion.toml"]
    assert s["Service.WatchdogSec"] == ["10"]
    assert s["Service.Restart"] == ["on-failure"]
    assert s["Service.StateDirectory"] == ["companion"]
    assert s["Service.RuntimeDirectory"] == ["companion"]
    assert s["Service.WorkingDirectory"] == ["/run/companion"]  # lgpio's FIFO
    assert s["Service.User"] == s["Service.Group"] == ["companion"]
    assert {"gpio", "i2c", "spi", "dialout"} <= set(" ".join(s["Service.SupplementaryGroups"]).split())


def test_the_unit_caps_memory_with_room_for_the_daemon_and_for_a_zero_2_w():
    """MemoryHigh= above the daemon's measured ~60 MB with 50 phones (bench daemon), below MemoryMax=,
    and MemoryMax= well inside a Zero 2 W's 512 MB (issue 25)."""
    s = unit_settings(UNIT.read_text(encoding="utf-8"))
    high, most = (int(s[f"Service.{key}"][0].removesuffix("M")) for key in ("MemoryHigh", "MemoryMax"))
    assert 100 <= high < most <= 256


def test_the_unit_reaches_the_devices_and_nothing_else():
    s = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert s["Service.DevicePolicy"] == ["closed"]
    assert sorted(s["Service.DeviceAllow"]) == sorted(
        ["char-gpiochip rw", "/dev/i2c-1 rw", "/dev/spidev0.0 rw", "char-ttyACM rw"]
    )
    # PrivateDevices= would hide /dev/gpiochip*, /dev/i2c-1, /dev/spidev0.0 and /dev/ttyACM*
    assert all(v.lower() not in ("yes", "true", "on", "1") for v in s.get("Service.PrivateDevices", []))
    assert s["Service.ProtectSystem"] == ["strict"]
    assert s["Service.CapabilityBoundingSet"] == [""]


# (c) notify() against a real datagram socket


@pytest.fixture
def listener(tmp_path, monkeypatch):
    path = tmp_path / "notify"
    assert len(str(path)) < 108, "AF_UNIX paths are limited to 107 bytes"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        yield sock


def test_notify_delivers_each_message(listener):
    for message in ("READY=1", "WATCHDOG=1", "STATUS=game open: 4 players", "STOPPING=1"):
        assert notify(message) is True
        assert listener.recv(4096) == message.encode()


def test_notify_sends_several_assignments_as_one_datagram_of_lines(listener):
    assert notify("READY=1", "STATUS=line one\nline two") is True
    assert listener.recv(4096) == b"READY=1\nSTATUS=line one line two"


def test_notify_reaches_an_abstract_socket(monkeypatch):
    name = f"companion-test-{os.getpid()}-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify("READY=1") is True
        assert sock.recv(4096) == b"READY=1"


def test_notify_without_systemd_does_nothing(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("READY=1") is False
    monkeypatch.setenv("NOTIFY_SOCKET", "")
    assert notify("READY=1") is False


def test_a_dead_socket_is_logged_once_and_never_raises(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(systemd, "_warned", False)
    dead = tmp_path / "dead"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(dead))  # the file stays, nobody listens: ECONNREFUSED
    caplog.set_level(logging.WARNING, logger=systemd.__name__)
    for address in (str(dead), str(tmp_path / "missing"), "relative/notify", "@companion-nobody-" + uuid.uuid4().hex):
        monkeypatch.setenv("NOTIFY_SOCKET", address)
        assert notify("WATCHDOG=1") is False
    assert len([r for r in caplog.records if r.name == systemd.__name__]) == 1


def test_a_listener_that_stops_reading_never_holds_the_daemon(listener, monkeypatch):
    """systemd that stops reading (a test's listener did; a wedged manager might) fills the socket's
    queue: the pings are then dropped, not waited on, so STOPPING=1 and a SIGTERM never hang."""
    monkeypatch.setattr(systemd, "_warned", False)
    answers: list[bool] = []
    sender = threading.Thread(target=lambda: answers.extend(notify("WATCHDOG=1") for _ in range(5000)), daemon=True)
    sender.start()
    sender.join(120)
    assert not sender.is_alive(), "notify waited on a listener that does not read"
    assert answers[0] is True and answers[-1] is False  # the queue filled, and later pings were dropped
    listener.recv(4096)  # a listener that reads again is reached again
    assert notify("STOPPING=1") is True


# (d) watchdog_interval


@pytest.mark.parametrize(
    ("usec", "pid", "expected"),
    [
        ("10000000", None, 5.0),
        ("10000000", "self", 5.0),
        ("3000000", "self", 1.5),
        ("10000000", "other", None),
        (None, None, None),
        ("", None, None),
        ("ten", None, None),
        ("0", None, None),
        ("10000000", "junk", None),
    ],
)
def test_watchdog_interval(monkeypatch, usec, pid, expected):
    for name, value in (("WATCHDOG_USEC", usec), ("WATCHDOG_PID", pid)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            value = {"self": str(os.getpid()), "other": str(os.getpid() + 1)}.get(value, value)
            monkeypatch.setenv(name, value)
    assert watchdog_interval() == expected


# (e) Watchdog: pings while the writer answers, and only then


class FakeWriter:
    """A probe whose answer the test sets; every call is put on `calls` with its timeout."""

    def __init__(self) -> None:
        self.healthy = threading.Event()
        self.healthy.set()
        self.calls: queue.Queue[float] = queue.Queue()

    def __call__(self, timeout: float) -> bool:
        self.calls.put(timeout)
        return self.healthy.is_set()

    def wait_for_calls(self, n: int) -> None:
        """Forget the calls so far, then wait for n more (they begin after this point)."""
        while True:
            try:
                self.calls.get_nowait()
            except queue.Empty:
                break
        for _ in range(n):
            self.calls.get(timeout=2)


def recorder() -> tuple[queue.Queue, object]:
    sent: queue.Queue[tuple[str, ...]] = queue.Queue()

    def fake_notify(*messages: str) -> bool:
        sent.put(messages)
        return True

    return sent, fake_notify


def test_the_watchdog_pings_only_while_the_writer_answers():
    sent, fake_notify = recorder()
    writer = FakeWriter()
    dog = Watchdog(writer, 0.005, fake_notify, timeout=0.5)
    dog.start()
    try:
        for _ in range(3):
            assert sent.get(timeout=2) == ("WATCHDOG=1",)
        assert writer.calls.get(timeout=2) == 0.5  # the probe is given its timeout

        writer.healthy.clear()
        while (message := sent.get(timeout=2)) == ("WATCHDOG=1",):
            pass  # pings of probes that answered before the writer stopped
        assert message == ("STATUS=writer not answering",)
        writer.wait_for_calls(5)
        assert sent.empty()  # five failed probes: no ping, and the status is not repeated

        writer.healthy.set()
        assert sent.get(timeout=2) == ("WATCHDOG=1", "STATUS=writer answering again")
        assert sent.get(timeout=2) == ("WATCHDOG=1",)
    finally:
        dog.stop()
    assert not dog.running


def test_a_probe_that_raises_counts_as_no_answer(caplog):
    sent, fake_notify = recorder()

    def broken(timeout: float) -> bool:
        raise RuntimeError("inbox closed")

    dog = Watchdog(broken, 0.005, fake_notify)
    with caplog.at_level(logging.ERROR, logger=systemd.__name__):
        dog.start()
        try:
            assert sent.get(timeout=2) == ("STATUS=writer not answering",)
        finally:
            dog.stop()
    assert "inbox closed" in caplog.text
    assert sent.empty()


def test_the_watchdog_stops_at_once_between_long_intervals():
    sent, fake_notify = recorder()
    dog = Watchdog(lambda timeout: True, 60.0, fake_notify)
    dog.start()
    assert sent.get(timeout=2) == ("WATCHDOG=1",)
    dog.stop(wait=2)
    assert not dog.running


def test_the_watchdog_reaches_systemd_through_notify(listener):
    dog = Watchdog(lambda timeout: True, 0.005)
    dog.start()
    try:
        assert listener.recv(4096) == b"WATCHDOG=1"
    finally:
        dog.stop()


def test_the_watchdog_refuses_a_nonsense_interval():
    with pytest.raises(ValueError):
        Watchdog(lambda timeout: True, 0)
