"""Phones find the box (issue 25, point 5): the QR codes carry the box's IP address now (Android does not
resolve .local everywhere), refreshed when it changes; the .local name is text beside it; the avahi file;
the box's own Wi-Fi, off by default. The address is changed for real in a network namespace."""

import os
import shutil
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, ImageOps

from companion.daemon.hotspot import CONNECTION, Hotspot, wifi_qr
from companion.daemon.netwatch import AddressWatch, choose_address, default_route_interfaces
from companion.daemon.runner import Ran

ROOT = Path(__file__).parent.parent


def zbarimg():
    """zbarimg's path; a test that needs it fails (never skips) on a machine without it (as tests/test_qr.py)."""
    path = shutil.which("zbarimg")
    if path is None:
        pytest.fail("zbarimg is missing: apt-get install zbar-tools", pytrace=False)
    return path


def decode(png: Path) -> str:
    """What a phone's camera reads off the screen's picture (scaled 4x, a black bezel round it)."""
    image = Image.open(png).convert("L")
    big = image.resize((image.width * 4, image.height * 4), Image.Resampling.NEAREST)
    path = png.with_name(png.stem + "-big.png")
    ImageOps.expand(big, border=32, fill="black").save(path)
    result = subprocess.run([zbarimg(), "--raw", "-q", str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode in (0, 4), result.stderr
    return result.stdout.rstrip("\n")


# ----- which address ------------------------------------------------------------------------------------


def test_the_default_routes_interface_wins_then_wifi_then_wired():
    addresses = {"eth0": "192.168.1.20", "wlan0": "192.168.1.21", "docker0": "172.17.0.1"}
    assert choose_address(addresses, ["eth0"]) == "192.168.1.20"
    assert choose_address(addresses, []) == "192.168.1.21"  # no default route: Wi-Fi first (the AP too)
    assert choose_address({"eth0": "10.0.0.2", "docker0": "172.17.0.1"}, ["tun9"]) == "10.0.0.2"
    assert choose_address({}, ["eth0"]) == ""


def test_the_default_route_is_read_with_the_lowest_metric_first(tmp_path):
    route = tmp_path / "route"
    route.write_text(
        "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT\n"
        "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
        "eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
        "eth0\t0001A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
    )
    assert default_route_interfaces(route) == ["eth0", "wlan0"]


def test_a_watch_calls_back_only_when_the_address_changes():
    answers = iter(["10.0.0.2", "10.0.0.2", "10.0.0.3"])
    seen = []
    watch = AddressWatch(seen.append, lookup=lambda: next(answers))
    assert watch.address == "10.0.0.2"
    assert not watch.refresh() and seen == []
    assert watch.refresh() and seen == ["10.0.0.3"] and watch.address == "10.0.0.3"


# ----- the QR code follows the address, for real, in a network namespace --------------------------------

# run inside the namespace: the box's desk over a minimal box, its phone page view drawn on each "refresh"
INSIDE = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from companion.daemon.boxdesk import BoxDesk
    from companion.daemon.gamemenu import PhonePageView
    from companion.daemon.netwatch import AddressWatch
    from companion.hw.display import default_fonts, render

    class Box:
        config = {"phone.url": "", "phone.port": 8080}
        phone = None
        lang = sys.argv[2]
        address = AddressWatch(every=3600)

    class Console:
        desk = BoxDesk(Box())
        lang = Box.lang

    view = PhonePageView(Console())
    for n, line in enumerate(sys.stdin):
        Box.address.refresh()
        frame = view.frame()
        image, cut = render(frame, default_fonts())
        path = Path(sys.argv[1]) / f"frame-{n}.png"
        image.convert("L").save(path)
        print(path, "|".join(frame.lines), ",".join(cut), sep="\t", flush=True)
    """
)


@pytest.fixture
def netns():
    """A network namespace of our own with one dummy interface; skipped loudly where namespaces are refused."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("NOT TESTED: changing the address needs root and iproute2 (ip netns): run as root")
    name = f"companion-test-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"NOT TESTED: this machine refuses network namespaces (ip netns add: {made.stderr.strip()})")

    def ip(*args):
        subprocess.run(["ip", "-n", name, *args], check=True, capture_output=True, text=True)

    def link(dev):
        """A dummy interface, or (a kernel without the dummy module, as here) one end of a veth pair."""
        if subprocess.run(["ip", "-n", name, "link", "add", dev, "type", "dummy"], capture_output=True).returncode:
            ip("link", "add", dev, "type", "veth", "peer", "name", dev + "p")
            ip("link", "set", dev + "p", "up")
        ip("link", "set", dev, "up")

    try:
        ip("link", "set", "lo", "up")
        link("d0")
        yield name, ip, link
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_qr_code_carries_the_ip_address_and_follows_it_when_it_changes(netns, tmp_path, lang):
    name, ip, link = netns
    ip("addr", "add", "10.77.0.2/24", "dev", "d0")
    ip("route", "add", "default", "dev", "d0")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    inside = subprocess.Popen(
        ["ip", "netns", "exec", name, sys.executable, "-c", INSIDE, str(tmp_path), lang],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )

    def refresh():
        inside.stdin.write("refresh\n")
        inside.stdin.flush()
        path, lines, cut = inside.stdout.readline().rstrip("\n").split("\t")
        return decode(Path(path)), lines.split("|"), cut

    try:
        url, lines, cut = refresh()
        assert url == "http://10.77.0.2:8080/" and cut == ""
        host = os.uname().nodename.split(".")[0]  # the namespace shares the host's name
        assert f"{host}.local" in "".join(lines).replace(" ", "")  # the .local name beside the code, as text
        # the network changes (a new lease, another Wi-Fi): the next refresh draws the new address
        ip("addr", "del", "10.77.0.2/24", "dev", "d0")
        ip("addr", "add", "10.77.0.9/24", "dev", "d0")
        assert refresh()[0] == "http://10.77.0.9:8080/"
        # a second network: the default route's interface is the one phones share
        link("d1")
        ip("addr", "add", "10.88.0.5/24", "dev", "d1")
        ip("route", "replace", "default", "dev", "d1")
        assert refresh()[0] == "http://10.88.0.5:8080/"
        # no address at all: the screen says so rather than show a code no phone can follow
        ip("addr", "flush", "dev", "d0")
        ip("addr", "flush", "dev", "d1")
        url, lines, _ = refresh()
        assert url == "" and len(lines) >= 1 and "10." not in " ".join(lines)
    finally:
        inside.stdin.close()
        inside.wait(30)
    shutil.copy(tmp_path / "frame-0.png", tmp_path.parent / f"network-qr-{lang}.png")


def test_phone_url_in_the_config_still_overrides_the_address():
    from companion.daemon.boxdesk import BoxDesk

    class Box:
        config = {"phone.url": "http://banker.example:8080/", "phone.port": 8080}
        phone = None
        address = AddressWatch(lookup=lambda: "10.0.0.2")

    desk = BoxDesk(Box())  # type: ignore[arg-type]
    assert desk.phone_url() == "http://banker.example:8080/" and desk.phone_name_address() == ""


# ----- the avahi service file -------------------------------------------------------------------------


def test_the_avahi_service_file_is_valid_xml_naming_the_phone_pages_port():
    from companion.daemon.config import defaults

    path = ROOT / "systemd" / "avahi" / "companion.service"
    root = ET.parse(path).getroot()  # a parse error fails here
    assert root.tag == "service-group"
    name = root.find("name")
    assert name is not None and name.get("replace-wildcards") == "yes" and "%h" in (name.text or "")
    service = root.find("service")
    assert service is not None and service.findtext("type") == "_http._tcp"
    assert service.findtext("port") == str(defaults()["phone.port"])
    assert "path=/phone/" in [t.text for t in service.findall("txt-record")]
    install = (ROOT / "systemd" / "install.sh").read_text()
    assert "/etc/avahi/services/companion.service" in install


# ----- the box's own Wi-Fi --------------------------------------------------------------------------------


class FakeRunner:
    """The runner the box runs nmcli and busctl through: records each line, answers as told."""

    def __init__(self, answers=None):
        self.lines: list[list[str]] = []
        self.answers = answers or {}

    def __call__(self, argv):
        self.lines.append(list(argv))
        for prefix, answer in self.answers.items():
            if " ".join(argv).startswith(prefix):
                return answer
        return Ran(0, "")


def test_the_access_point_is_off_by_default_and_then_runs_nothing(tmp_path):
    from companion.daemon.config import Config, defaults
    from companion.daemon.main import Daemon

    values = dict(defaults().values)
    assert values["network.hotspot"] == "off"
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": 0, "phone.port": 0})
    daemon = Daemon(Config(values, "(test)"), out=lambda line: None)
    runner = FakeRunner()
    daemon.runner = runner
    daemon.start()
    try:
        assert daemon.hotspot is not None and not daemon.hotspot.check()
        assert daemon.desk.hotspot_qr() == ("", "", "")
    finally:
        daemon.stop()
    assert runner.lines == []
    assert not (tmp_path / "games" / "hotspot.key").exists()  # no password made for a Wi-Fi never opened


def test_with_no_known_wifi_the_access_point_opens_through_nmcli():
    runner = FakeRunner({"nmcli -t -f STATE general": Ran(0, "disconnected")})
    spot = Hotspot("when_offline", "companion-box", "k7qx2mhn4rtz", 0.0, runner)
    assert spot.check() and spot.active
    assert runner.lines == [
        ["nmcli", "-t", "-f", "STATE", "general"],
        ["nmcli", "device", "wifi", "hotspot", "ifname", "wlan0", "con-name", CONNECTION]
        + ["ssid", "companion-box", "password", "k7qx2mhn4rtz"],
    ]
    assert spot.qr() == "WIFI:T:WPA;S:companion-box;P:k7qx2mhn4rtz;;"
    assert spot.check() and len(runner.lines) == 2  # opened once, never again while the box runs


def test_a_connected_box_opens_no_access_point_and_a_refusal_is_kept():
    connected = FakeRunner({"nmcli -t -f STATE general": Ran(0, "connected")})
    spot = Hotspot("when_offline", "companion-box", "k7qx2mhn4rtz", 0.0, connected)
    assert not spot.check() and connected.lines == [["nmcli", "-t", "-f", "STATE", "general"]]
    refused = FakeRunner(
        {"nmcli -t -f STATE general": Ran(0, "disconnected"), "nmcli device": Ran(10, "Error: No Wi-Fi device found.")}
    )
    spot = Hotspot("when_offline", "companion-box", "k7qx2mhn4rtz", 0.0, refused)
    assert not spot.check() and spot.qr() == "" and "No Wi-Fi device" in spot.problem


def test_the_wifi_code_escapes_what_the_format_reserves():
    assert wifi_qr('a;b,c:"d', "p\\w") == 'WIFI:T:WPA;S:a\\;b\\,c\\:\\"d;P:p\\\\w;;'


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_oled_shows_the_wifi_code_first_then_the_phone_page(tmp_path, lang):
    from companion.daemon.gamemenu import HotspotView, PhonePageView
    from companion.hw.display import default_fonts, fits, render

    spot = Hotspot("when_offline", "companion-box", "k7qx2mhn4rtz", 0.0, FakeRunner({"nmcli -t": Ran(0, "")}))
    assert spot.check()

    class Desk:
        def __init__(self):
            self.lang = lang

        def hotspot_qr(self):
            return spot.qr(), spot.ssid, spot.password

        def table_code(self):
            return "K7QX2M"

        def has_address(self):
            return True

        def phone_name_address(self):
            return "companion.local:8080"

        def phone_url(self):
            return "http://10.42.0.1:8080/phone/#code=K7QX2M"

    class Console:
        desk = Desk()
        stack: list = []

        def __init__(self):
            self.lang = lang

        def push(self, view):
            self.stack.append(view)

    console = Console()
    view = HotspotView(console)  # type: ignore[arg-type]
    frame = view.frame()
    assert fits(frame) == [] and "companion-box" in frame.lines and "k7qx2mhn4rtz" in frame.lines
    image, _ = render(frame, default_fonts())
    image.convert("L").save(tmp_path / "wifi.png")
    assert decode(tmp_path / "wifi.png") == "WIFI:T:WPA;S:companion-box;P:k7qx2mhn4rtz;;"
    shutil.copy(tmp_path / "wifi.png", tmp_path.parent / f"network-wifi-{lang}.png")
    view.press(console, "ok", False)  # type: ignore[arg-type]
    assert isinstance(console.stack[-1], PhonePageView)


# ----- the phone page's own join code --------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_phone_pages_join_code_carries_the_address_now_and_names_the_local_name(tmp_path, lang):
    from test_phone_views import Phone, start_box

    from web.phone.svg import qr_svg

    daemon = start_box(tmp_path)
    try:
        daemon.address.stop()  # the box's own watch, replaced by one that answers as told
        daemon.address = AddressWatch(every=3600, lookup=lambda: "10.9.8.7")
        phone = Phone(daemon, language=lang).join()
        code = daemon.phone.table_code()
        page = phone.open("/phone/table").data.decode()
        assert str(qr_svg(f"http://10.9.8.7:8080/phone/#code={code}")) in page
        host = os.uname().nodename.split(".")[0]
        assert f"{host}.local:8080" in page and ("или наберите" if lang == "ru" else "or type") in page
        daemon.address.lookup = lambda: "192.168.5.40"  # a new lease: the next page carries it
        assert daemon.address.refresh()
        page = phone.open("/phone/table").data.decode()
        assert str(qr_svg(f"http://192.168.5.40:8080/phone/#code={code}")) in page
    finally:
        daemon.stop()
