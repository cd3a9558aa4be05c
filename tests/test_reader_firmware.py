"""The reader's firmware kept in step: its HELLO carries the version this checkout ships, the Pi keeps what it
said (an old firmware without the field is an unknown version, never an error), the daemon's status and the
doctor report it, and `companion firmware install` copies the files onto a Pico with mpremote."""

import os
import subprocess
import sys
from pathlib import Path

from test_end_to_end import Board
from test_reader_link import greet, rig, wait  # noqa: F401  (rig: the scripted reader behind a pty)

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.doctor.devices import check_firmware
from companion.doctor.result import OK, WARN, Context
from companion.doctor.system import System
from companion.hw.firmware import FILES, ask_version
from companion.hw.protocol import FIRMWARE_VERSION

HERE = Path(__file__).parent
BY_ID = "dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614103e7000000-if00"


def test_the_firmware_says_the_shipped_version_and_the_daemon_status_and_doctor_carry_it(tmp_path):
    """The real firmware (firmware/main.py's loop behind a pty) greets the daemon; `status` says its version."""
    board = Board(tmp_path)
    try:
        # no daemon yet: the doctor asks the reader itself, over the free port
        assert ask_version(board.path, timeout=10) == FIRMWARE_VERSION
        values = dict(defaults().values)
        values.update(
            {
                "games_dir": str(tmp_path / "games"),
                "hardware": "real",
                "reader.port": board.path,
                "reader.retry_seconds": 0.05,
            }
        )
        daemon = Daemon(Config(values, "(test)"), out=lambda line: None).start()
        try:
            assert wait_for(lambda: daemon.link.state.state == "ready", timeout=15), daemon.link.state
            status = daemon.handle({"op": "status"})
            assert status["reader_firmware"] == FIRMWARE_VERSION == status["firmware_shipped"]
            ctx = Context(System("/"), Config(values, "(test)"), status, {"pid": os.getpid()})
            verdict = check_firmware(ctx)
            assert verdict.status == OK and verdict.params == {"version": FIRMWARE_VERSION}
        finally:
            daemon.stop()
    finally:
        board.close()


def test_an_old_firmware_without_the_version_is_an_unknown_version(rig):  # noqa: F811
    peer, link, taps, rolls, states, clock = rig
    peer.wait_heard("HELLO")
    peer.send("HELLO", {"proto": 1, "boot": "0badcafe"})  # the first firmware said no fw=
    assert wait(lambda: link.state.state == "ready")
    assert link.firmware == "" and link.state.detail == "?"
    values = {**defaults().values, "hardware": "real"}
    status = {"reader": "ready", "reader_firmware": link.firmware}
    verdict = check_firmware(Context(System("/"), Config(values, "(test)"), status, {"pid": 1}))
    assert verdict.status == WARN and verdict.code == "doctor_firmware_unknown"


def test_a_refused_reader_still_tells_its_firmware(rig):  # noqa: F811
    peer, link, taps, rolls, states, clock = rig
    greet(peer, link, proto=9)
    assert wait(lambda: link.state.state == "refused")
    assert link.firmware == "1.2.3"  # the doctor can say which firmware to replace


def fake_mpremote(folder, exit_code=0):
    """An `mpremote` that writes the arguments it was given, one a line, and exits with exit_code."""
    folder.mkdir()
    script = folder / "mpremote"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nopen({str(folder / 'args')!r}, 'w').write('\\n'.join(sys.argv[1:]))\n"
        f"sys.exit({exit_code})\n"
    )
    script.chmod(0o755)
    return folder / "args"


def firmware_install(tmp_path, root, *extra, path_dir=None):
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "PATH": f"{path_dir or tmp_path / 'nobin'}:/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "companion", "firmware", "install", "--root", str(root), *extra],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def pico_root(tmp_path):
    root = tmp_path / "root"
    (root / "dev").mkdir(parents=True)
    (root / "dev/ttyACM0").write_text("")
    (root / BY_ID).parent.mkdir(parents=True)
    (root / BY_ID).symlink_to("../../ttyACM0")
    (root / "proc").mkdir()
    return root


def test_firmware_install_copies_every_file_main_last_with_one_mpremote_command(tmp_path):
    root = pico_root(tmp_path)
    args_file = fake_mpremote(tmp_path / "bin")
    done = firmware_install(tmp_path, root, "--lang", "en", path_dir=tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    port = str(root / BY_ID)
    expected = ["connect", port]
    for source, name in FILES:
        expected += ["cp", str(source), f":{name}", "+"]
    assert args_file.read_text().splitlines() == [*expected, "ls", "+", "reset"]
    assert [name for _, name in FILES] == ["protocol.py", "mfrc522.py", "reader.py", "main.py"]
    assert str(FILES[0][0]).endswith("companion/hw/protocol.py")
    assert f"Copying the reader's firmware {FIRMWARE_VERSION} onto the Pico at /{BY_ID}:" in done.stdout
    assert all(f"-> :{name}" in done.stdout for _, name in FILES)
    assert f"Firmware {FIRMWARE_VERSION} copied" in done.stdout


def test_firmware_install_says_in_one_line_what_is_wrong(tmp_path):
    empty = tmp_path / "empty"
    (empty / "dev").mkdir(parents=True)
    none = firmware_install(tmp_path, empty, "--lang", "en")
    assert none.returncode == 4 and len(none.stderr.strip().splitlines()) == 1 and "Traceback" not in none.stderr
    assert "no Pico running MicroPython is plugged in" in none.stderr
    ru = firmware_install(tmp_path, empty, "--lang", "ru")
    assert "Pico с MicroPython не подключён" in ru.stderr

    root = pico_root(tmp_path)
    no_tool = firmware_install(tmp_path, root, "--lang", "en")  # no mpremote on PATH nor beside this Python
    if not (Path(sys.executable).parent / "mpremote").exists():
        assert "mpremote is not installed" in no_tool.stderr and no_tool.returncode == 4

    (root / "proc/77/fd").mkdir(parents=True)
    (root / "proc/77/comm").write_text("companion\n")
    (root / "proc/77/cmdline").write_text("companion\0run\0")
    (root / "proc/77/fd/5").symlink_to("/dev/ttyACM0")
    held = firmware_install(tmp_path, root, "--lang", "en", path_dir=tmp_path / "bin2")
    assert "is held by process 77 (companion): stop it first" in held.stderr

    (root / "proc/77/fd/5").unlink()
    fake_mpremote(tmp_path / "bin3", exit_code=1)
    failed = firmware_install(tmp_path, root, "--lang", "en", path_dir=tmp_path / "bin3")
    assert failed.returncode == 4 and "start the Pico with ROLL held" in failed.stderr
