"""The Pi's end of the reader link over a real pty: the handshake, taps booked once however the cable
mangles them, noise ignored, a foreign protocol refused, offline known from the heartbeat, and the
reader found again after the cable comes back."""

import os
import random
import threading
import time
import tty

import pytest
import serial

from companion.hw import protocol, reader
from companion.hw.reader import READ_TIMEOUT_S, ReaderLink


class FakeClock:
    """The link's clock, moved by the test: 'offline after 2 s' without waiting 2 s."""

    def __init__(self):
        self.now = 1000.0
        self.lock = threading.Lock()

    def __call__(self):
        with self.lock:
            return self.now

    def advance(self, seconds):
        with self.lock:
            self.now += seconds


class Peer:
    """A scripted reader at the far end of a pty, published under a stable name like /dev/serial/by-id."""

    def __init__(self, folder):
        self.link = folder / "usb-MicroPython_Board_in_FS_mode_test-if00"
        self.splitter = protocol.LineSplitter()
        self.receiver = protocol.Receiver()
        self.sender = protocol.Sender()
        self.heard = []
        self.plug()

    def plug(self):
        self.master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(self.master, False)
        self.slave = slave
        tmp = self.link.with_name("tmp-link")
        tmp.symlink_to(os.ttyname(slave))
        os.replace(tmp, self.link)

    def unplug(self):
        os.close(self.master)
        os.close(self.slave)
        self.link.unlink()

    def write(self, data):
        while data:  # the pty holds a few kB: wait for the Pi to read, as a cable would
            try:
                data = data[os.write(self.master, data) :]
            except BlockingIOError:
                self.pump()
                time.sleep(0.001)

    def send(self, verb, fields):
        line = self.sender.send(verb, fields, 0.0)
        self.write(line)
        return line

    def pump(self):
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, OSError):
            return
        for line in self.splitter.feed(data):
            frame, replies = self.receiver.take(line, 0.0)
            for reply in replies:
                self.write(reply)
            if frame is not None:
                self.heard.append(frame)
                if frame.verb == "ACK":
                    self.sender.acknowledged(int(frame.fields["seq"]))

    def wait_heard(self, verb, timeout=10.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump()
            found = [f for f in self.heard if f.verb == verb]
            if found:
                return found
            time.sleep(0.005)
        raise AssertionError(f"the Pi never sent {verb}; heard {[f.verb for f in self.heard]}")


def wait(condition, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.005)
    return condition()


@pytest.fixture
def rig(tmp_path):
    peer = Peer(tmp_path)
    taps, rolls, states = [], [], []
    clock = FakeClock()
    link = ReaderLink(
        str(tmp_path / "usb-MicroPython*"),
        lambda uid, origin: taps.append(uid),
        lambda dice, origin: rolls.append(dice),
        states.append,
        retry=0.05,
        clock=clock,
    )
    link.origins = []  # each tap's and roll's (boot id, sequence number), in the order handed on
    on_tap, on_roll = link.on_tap, link.on_roll
    link.on_tap = lambda uid, origin: (link.origins.append(origin), on_tap(uid, origin))
    link.on_roll = lambda dice, origin: (link.origins.append(origin), on_roll(dice, origin))
    link.start()
    yield peer, link, taps, rolls, states, clock
    link.stop()


def greet(peer, link, proto=1):
    peer.wait_heard("HELLO")
    peer.send("HELLO", {"proto": proto, "fw": "1.2.3", "boot": "0badcafe"})


def test_the_handshake_makes_the_reader_ready_and_the_pi_says_how_many_dice(rig):
    peer, link, taps, rolls, states, clock = rig
    greet(peer, link)
    assert wait(lambda: link.state.state == "ready")
    assert link.state.detail == "1.2.3"
    [hello] = peer.wait_heard("HELLO")
    assert hello.fields["proto"] == "1" and len(hello.fields["boot"]) == 8
    assert peer.wait_heard("DICE")[0].fields == {"n": "2"}
    link.set_dice(3)
    assert wait(lambda: (peer.pump(), [f.fields for f in peer.heard if f.verb == "DICE"])[1][-1:] == [{"n": "3"}])


def test_a_dice_count_replaced_before_it_went_out_is_never_sent(tmp_path):
    """Counts are state: the reader goes from the count it has straight to the newest, never through 0
    (ROLL would buzz "no" in between); dice_told names the line that carries the newest."""
    peer = Peer(tmp_path)
    link = ReaderLink(
        str(tmp_path / "usb-MicroPython*"), lambda uid, origin: None, lambda dice, origin: None, retry=0.05
    )
    link.set_dice(0)  # both asked before the link's thread has sent anything: one line must carry the last
    link.set_dice(3)
    link.start()
    try:
        greet(peer, link)
        assert wait(lambda: link.dice_told is not None)
        peer.wait_heard("DICE")
        link.beep()  # a later line: every DICE the link wrote has come once the BEEP has
        peer.wait_heard("BEEP")
        dice = [f for f in peer.heard if f.verb == "DICE"]
        assert [f.fields for f in dice] == [{"n": "3"}]
        assert link.dice_told == dice[0].seq
    finally:
        link.stop()


def test_a_tap_sent_three_times_split_into_single_bytes_is_booked_once(rig):
    peer, link, taps, rolls, states, clock = rig
    greet(peer, link)
    line = peer.send("TAP", {"uid": "04A1B2C3"})
    for _ in range(2):
        for byte in line:
            peer.write(bytes([byte]))
    peer.send("ROLL", {"dice": "3,5"})
    assert wait(lambda: rolls == [(3, 5)])
    assert taps == ["04A1B2C3"]
    # each is handed on with the reader's boot id and its own line number: the request id it is booked under
    assert link.origins == [("0badcafe", 2), ("0badcafe", 3)]
    assert wait(lambda: (peer.pump(), not peer.sender.pending)[1]), "the Pi acknowledged every line"


def test_taps_that_came_before_the_hello_are_held_not_lost(rig):
    peer, link, taps, rolls, states, clock = rig
    peer.wait_heard("HELLO")
    peer.send("TAP", {"uid": "0A0B0C0D"})
    time.sleep(0.1)
    assert taps == []
    peer.send("HELLO", {"proto": 1, "fw": "1.2.3", "boot": "0badcafe"})
    assert wait(lambda: taps == ["0A0B0C0D"])


def test_a_reader_speaking_another_protocol_is_refused_and_its_taps_ignored(rig):
    peer, link, taps, rolls, states, clock = rig
    greet(peer, link, proto=2)
    assert wait(lambda: link.state.state == "refused")
    assert link.state.detail == "2"
    peer.send("TAP", {"uid": "04A1B2C3"})
    time.sleep(0.2)
    assert taps == []


def test_noise_and_mangled_frames_book_nothing_and_a_good_tap_still_counts(rig):
    """100,000 lines of noise: random bytes, real frames with one byte changed, bad values. Nothing is
    booked from them, they are counted, and the next good tap is booked."""
    peer, link, taps, rolls, states, clock = rig
    greet(peer, link)
    assert wait(lambda: link.state.state == "ready")
    rng = random.Random(9)
    good = protocol.encode(500, "TAP", {"uid": "04A1B2C3"})
    chunk = []
    for i in range(100_000):
        kind = i % 3
        if kind == 0:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).replace(b"\n", b"") + b"\n"
        elif kind == 1:
            pos = rng.randrange(len(good) - 1)
            line = good[:pos] + bytes([(good[pos] + rng.randrange(1, 255)) % 256]) + good[pos + 1 :]
            if b"\n" in line[:-1]:
                continue
        else:
            line = protocol.encode(rng.randrange(1000, 60000), "TAP", {"uid": "NOTHEX" + str(i)})
        chunk.append(line)
        if len(chunk) == 500:
            peer.write(b"".join(chunk))
            chunk = []
            peer.pump()
    peer.write(b"".join(chunk) + b"\n")
    peer.send("TAP", {"uid": "0A0B0C0D"})
    assert wait(lambda: "0A0B0C0D" in taps, timeout=240)  # 100,000 lines: minutes on a loaded CI machine
    assert taps == ["0A0B0C0D"]
    assert link.counts["bad_frames"] > 30_000
    assert link.counts["bad_value"] > 30_000


def test_silence_is_offline_after_two_seconds_by_the_links_clock(rig):
    peer, link, taps, rolls, states, clock = rig
    greet(peer, link)
    assert wait(lambda: link.state.state == "ready")
    clock.advance(protocol.OFFLINE_AFTER_S - 0.5)
    time.sleep(0.1)
    assert link.state.state == "ready"
    clock.advance(1.0)
    assert wait(lambda: link.state.state == "offline")
    peer.write(protocol.encode(0, "PING"))
    assert wait(lambda: link.state.state == "ready")


def test_unplugged_and_plugged_in_again_the_reader_is_greeted_and_taps_count_again(rig):
    peer, link, taps, rolls, states, clock = rig
    greet(peer, link)
    assert wait(lambda: link.state.state == "ready")
    peer.unplug()
    assert wait(lambda: link.state.state in ("offline", "searching"))
    peer.plug()
    peer.receiver = protocol.Receiver()
    peer.sender = protocol.Sender()  # a rebooted reader numbers from 1 again, under a new boot id
    peer.heard = []
    peer.wait_heard("HELLO")
    peer.send("HELLO", {"proto": 1, "fw": "1.2.3", "boot": "0dd0dd00"})
    assert wait(lambda: link.state.state == "ready")
    peer.send("TAP", {"uid": "04A1B2C3"})
    assert wait(lambda: taps == ["04A1B2C3"])
    assert link.counts["reconnects"] >= 1
    assert [s.state for s in states].count("ready") == 2


def test_a_quiet_link_rests_and_an_order_still_goes_out_at_once(tmp_path, monkeypatch):
    """A box left on all evening: with nothing outstanding the link's thread waits on the port (a reader's line
    or an order ends the wait) instead of waking 100 times a second, a fifth of a Zero 2 W's core; the
    BEEP of a booking still reaches the reader at once."""
    monkeypatch.setattr(reader, "REST_READ_S", 5.0)  # a beep waiting for the rest's end would take seconds
    reads = []

    class CountedPort(serial.Serial):
        def read(self, size=1):
            reads.append(time.monotonic())
            return super().read(size)

    peer = Peer(tmp_path)
    link = ReaderLink(
        str(tmp_path / "usb-MicroPython*"),
        lambda uid, origin: None,
        lambda dice, origin: None,
        lambda state: None,
        retry=0.05,
        clock=FakeClock(),  # still: no ping falls due, so only the rest itself wakes the thread
        open_port=lambda path: CountedPort(path, 115200, timeout=READ_TIMEOUT_S, write_timeout=1.0),
    )
    link.start()
    try:
        greet(peer, link)
        assert wait(lambda: link.state.state == "ready")
        peer.wait_heard("DICE")  # acknowledged by the pump: nothing outstanding now
        time.sleep(0.3)
        before = len(reads)
        time.sleep(1.0)
        assert len(reads) - before <= 2  # 100 at a 0.01 s read
        asked = time.monotonic()
        link.beep(2, 80)
        [beep] = peer.wait_heard("BEEP")
        assert time.monotonic() - asked < 1.0
        stopping = time.monotonic()
        link.stop()
        assert time.monotonic() - stopping < 1.0  # the rest is cut short by the stop too
        assert beep.fields == {"times": "2", "ms": "80"}
    finally:
        link.stop()
