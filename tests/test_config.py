"""The daemon's configuration file: defaults that run on a laptop, and one clear line for every mistake."""

import re
from pathlib import Path

import pytest

from companion.daemon.config import KEYS, ConfigError, load_config

DOC = Path(__file__).parent.parent / "docs" / "configuration.md"


def write(tmp_path, text):
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_means_every_default_simulated_hardware():
    config = load_config(None)
    assert config["hardware"] == "simulated"
    assert config["reader.port"] == "auto"


def test_a_file_sets_keys_and_leaves_the_rest_default(tmp_path):
    config = load_config(write(tmp_path, 'hardware = "real"\nlanguage = "ru"\n[reader]\nport = "/dev/ttyACM0"\n'))
    assert (config["hardware"], config["language"], config["reader.port"]) == ("real", "ru", "/dev/ttyACM0")
    assert config["reader.retry_seconds"] == 0.5
    assert config.games_dir.is_absolute()


@pytest.mark.parametrize(
    "text, words",
    [
        ('hardwre = "real"\n', ["hardwre", "unknown key"]),
        ('[reader]\nprot = "x"\n', ["reader.prot", "known here: reader.port"]),
        ("[screen]\nx = 1\n", ["[screen]", "unknown section"]),
        ('hardware = "virtual"\n', ["hardware", "'virtual'", "'simulated', 'real'"]),
        ("hardware = 1\n", ["hardware must be text"]),
        ("[reader]\nretry_seconds = 0\n", ["reader.retry_seconds", "outside 0.05..10.0"]),
        ("[reader]\nretry_seconds = true\n", ["reader.retry_seconds must be a number"]),
        ('hardware = "real\n', ["not valid TOML"]),
    ],
)
def test_a_mistake_names_the_key_and_the_file_in_one_line(tmp_path, text, words):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert str(path) in message and "\n" not in message
    for word in words:
        assert word in message


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")


def test_systemd_folders_are_used_when_no_folder_is_set(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(tmp_path / "run"))
    config = load_config(None)
    assert config.games_dir == tmp_path / "state"
    assert config.socket_path == tmp_path / "run" / "companion.sock"


def test_the_documentation_names_every_key_with_its_default():
    text = DOC.read_text(encoding="utf-8")
    for key in KEYS:
        shown = f'"{key.default}"' if isinstance(key.default, str) else repr(key.default)
        assert re.search(rf"\| `{re.escape(key.path)}` \| `{re.escape(shown)}` \|", text), key.path


def test_absurd_numbers_and_home_folders(tmp_path, monkeypatch):
    path = write(tmp_path, "[reader]\nretry_seconds = " + "9" * 400 + "\n")
    with pytest.raises(ConfigError, match="reader.retry_seconds"):
        load_config(path)
    path = write(tmp_path, "[reader]\nretry_seconds = nan\n")
    with pytest.raises(ConfigError, match="finite"):
        load_config(path)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert load_config(write(tmp_path, 'games_dir = "~/games"\n')).games_dir == tmp_path / "games"


def test_a_control_socket_path_too_long_for_unix_is_named(tmp_path):
    from companion.daemon.control import ControlServer
    from companion.errors import BadInput

    with pytest.raises(BadInput, match="control.socket"):
        ControlServer(tmp_path / ("x" * 120) / "companion.sock", lambda request: {})


def test_two_buttons_on_one_pin_are_refused(tmp_path):
    with pytest.raises(ConfigError, match="buttons.ok and buttons.back are both GPIO 5"):
        load_config(write(tmp_path, "[buttons]\nok = 5\nback = 5\n"))
    with pytest.raises(ConfigError, match="whole number"):
        load_config(write(tmp_path, "[buttons]\nok = 5.0\n"))


@pytest.mark.parametrize(
    "text, words",
    [
        ("x = " + "[" * 3000 + "]" * 3000 + "\n", "not valid TOML (tables or lists nested too deeply)"),
        ("[buttons]\nok = " + "7" * 5000 + "\n", "not valid TOML (Exceeds the limit (4300 digits)"),
    ],
)
def test_a_file_tomllib_cannot_take_is_one_line_not_a_crash(tmp_path, text, words):
    """Lists nested thousands deep, an integer of thousands of digits: tomllib raises RecursionError or a
    plain ValueError, not its TOMLDecodeError; still the file and one line (they were internal errors)."""
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).startswith(f"{path}: {words}") and "\n" not in str(err.value)
