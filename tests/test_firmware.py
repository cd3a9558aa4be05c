"""The reader's firmware on CPython (firmware/reader.py, main.py, sim/): a card is one tap however long it is
held or however its read flickers, the reader beeps in the poll it reads the card, the ROLL button gives
the dice the Pi asked for, unbiased, and taps made while the Pi is away arrive once when it returns.
Time comes from the polls' now_ms: nothing sleeps."""

import random
import sys
from pathlib import Path

import pytest

from companion.hw import protocol
from companion.hw.protocol import LineSplitter, Receiver, Sender, decode, encode

FIRMWARE = Path(__file__).parent.parent / "firmware"
# as the daemon does: firmware/ for reader, mfrc522, main; firmware/sim/ for machine, fake_mfrc522, sim_reader
sys.path[:0] = [str(FIRMWARE), str(FIRMWARE / "sim")]


import machine  # noqa: E402  (firmware/sim/machine.py)
import mfrc522  # noqa: E402
import reader  # noqa: E402
from fake_mfrc522 import FakeMFRC522  # noqa: E402
from sim_reader import SimReader  # noqa: E402

assert machine.__file__ == str(FIRMWARE / "sim" / "machine.py")

STEP = 10  # ms between polls, as on the Pico


def lines_of(data):
    """The frames in what the reader wrote (all of it well formed: the reader writes no noise)."""
    return [decode(line) for line in LineSplitter().feed(data)]


def verbs(data, verb):
    return [f for f in lines_of(data) if f.verb == verb]


class Pi:
    """The Pi's end of the link as the tests need it: protocol's Receiver and Sender, nothing else."""

    def __init__(self, boot="P1"):
        self.boot = boot
        self.splitter, self.receiver, self.sender = LineSplitter(), Receiver(), Sender()
        self.frames = []  # sequenced frames from the reader, each once

    def send(self, verb, fields, now_ms):
        return self.sender.send(verb, fields, now_ms / 1000)

    def hello(self, now_ms):
        return self.send("HELLO", {"boot": self.boot, "proto": 1}, now_ms)

    def take(self, data, now_ms):
        """The reader's bytes in; what the Pi writes back (ACKs, PONGs)."""
        out = b""
        for line in self.splitter.feed(data):
            frame, replies = self.receiver.take(line, now_ms / 1000)
            out += b"".join(replies)
            if frame is None:
                continue
            if frame.verb == "ACK":
                self.sender.acknowledged(int(frame.fields["seq"]))
            elif frame.seq:
                self.frames.append(frame)
        return out

    def due(self, now_ms):
        return b"".join(self.sender.due(now_ms / 1000))

    def said(self, verb):
        return [f for f in self.frames if f.verb == verb]


def talk(sim, pi, start_ms, end_ms, first=b""):
    """Poll the reader every STEP ms over a perfect cable with the Pi answering; the time it ends at."""
    back = first
    for now in range(start_ms, end_ms, STEP):
        out = sim.poll(now, back + pi.due(now))
        back = pi.take(out, now)
    return end_ms


@pytest.fixture
def sim():
    return SimReader(seed=1)


# --- power-up -----------------------------------------------------------------------------------


def test_the_reader_says_hello_at_power_up_with_its_boot_firmware_and_protocol():
    out = SimReader(seed=3, fw="1.2.3").poll(0)
    (hello,) = lines_of(out)
    assert hello.verb == "HELLO" and hello.seq == 1
    assert hello.fields["fw"] == "1.2.3" and hello.fields["proto"] == "1"
    assert len(hello.fields["boot"]) == 8 and int(hello.fields["boot"], 16) >= 0


def test_two_seeds_give_two_boot_ids_and_one_seed_the_same():
    boot = [lines_of(SimReader(seed=s).poll(0))[0].fields["boot"] for s in (1, 2, 1)]
    assert boot[0] != boot[1] and boot[0] == boot[2]


# --- taps ---------------------------------------------------------------------------------------


def test_a_card_held_on_the_reader_is_one_tap(sim):
    pi = Pi()
    t = talk(sim, pi, 0, 100)
    sim.place("DEADBEEF")
    t = talk(sim, pi, t, t + 3000)
    assert [f.fields["uid"] for f in pi.said("TAP")] == ["DEADBEEF"]
    assert sim.reader.taps == 1


def test_lifted_and_placed_again_is_a_new_tap_and_another_card_replacing_it_too(sim):
    pi = Pi()
    sim.place("DEADBEEF")
    t = talk(sim, pi, 0, 500)
    sim.remove()
    t = talk(sim, pi, t, t + 500)
    sim.place("DEADBEEF")
    t = talk(sim, pi, t, t + 500)
    sim.remove()
    sim.place("04A2241AB31C90")  # swapped without a pause
    talk(sim, pi, t, t + 500)
    assert [f.fields["uid"] for f in pi.said("TAP")] == ["DEADBEEF", "DEADBEEF", "04A2241AB31C90"]


def test_a_flickering_read_is_still_one_tap(sim):
    """A lost answer, or the card off the antenna for 100 ms, is the same placement: it takes three
    empty scans (~200 ms) for a card to count as lifted. (A lost answer to WUPA costs two scans: the
    card is left READY, and ISO/IEC 14443-3 sends a READY card that hears WUPA back to IDLE, silent.)"""
    pi = Pi()
    sim.place("DEADBEEF")
    t = talk(sim, pi, 0, 300)
    sim.bus.corrupt_next(1, mode="lost")
    t = talk(sim, pi, t, t + 300)
    sim.remove()
    t = talk(sim, pi, t, t + 100)
    sim.place("DEADBEEF")
    talk(sim, pi, t, t + 300)
    assert len(pi.said("TAP")) == 1


@pytest.mark.parametrize("mode", ["flip", "parity", "short", "noise"])
def test_garbled_answers_from_the_card_never_make_another_tap(sim, mode):
    """The chip hears the card wrong in every way the fake can garble it, answer after answer: the driver
    drops what fails its BCC, CRC_A or parity, so the Pi only ever sees the card's own UID, once."""
    pi = Pi()
    sim.place("DEADBEEF")
    t = talk(sim, pi, 0, 200)
    for skip in range(8):
        sim.bus.corrupt_next(1, mode=mode, skip=skip)
        t = talk(sim, pi, t, t + 100)
    assert [f.fields["uid"] for f in pi.said("TAP")] == ["DEADBEEF"]


def test_seven_and_ten_byte_uids_tap_with_14_and_20_hex_digits(sim):
    pi = Pi()
    sim.place("04A2241AB31C90")
    t = talk(sim, pi, 0, 300)
    sim.remove()
    t = talk(sim, pi, t, t + 300)
    sim.place("04A2241AB31C90112233")
    talk(sim, pi, t, t + 300)
    assert [f.fields["uid"] for f in pi.said("TAP")] == ["04A2241AB31C90", "04A2241AB31C90112233"]


def test_the_reader_beeps_by_itself_in_the_poll_it_reads_the_card():
    """firmware/PROTOCOL.md: buzzer and LED for 60 ms, started within 30 ms of the read, before the Pi
    answers. The read and the beep happen in one poll: the buzzer is on when that poll returns."""
    sim = SimReader(seed=1)
    sim.poll(0)
    sim.poll(10, encode(0, "ACK", {"seq": 1}))  # the HELLO acknowledged: taps go out at once
    sim.place("DEADBEEF")
    for now in range(20, 200, STEP):
        out = sim.poll(now)
        if verbs(out, "TAP"):
            break
    assert sim.beeps == [(now, 60, "local")]
    assert sim.buzzing and sim.led.value() == 1
    sim.poll(now + 50)
    assert sim.buzzing
    sim.poll(now + 60)
    assert not sim.buzzing and sim.led.value() == 0


def test_a_card_read_during_the_pis_long_verdict_still_beeps_at_once(sim):
    pi = Pi()
    t = talk(sim, pi, 0, 50, first=pi.send("BEEP", {"times": 5, "ms": 1000}, 0))
    sim.place("DEADBEEF")
    for now in range(t, t + 200, STEP):
        if verbs(sim.poll(now), "TAP"):
            break
    assert sim.beeps[-1] == (now, 60, "local") and sim.buzzing
    sim.poll(now + 60)
    assert not sim.buzzing


def test_a_press_before_the_first_poll_still_rolls():
    sim, pi = SimReader(seed=1), Pi()
    sim.press_roll()
    talk(sim, pi, 0, 300)
    assert len(pi.said("ROLL")) == 1


def test_the_card_is_scanned_every_50_ms_not_every_poll():
    calls = []

    class Rfid:
        def scan(self):
            calls.append(1)

    r = make_reader(rfid=Rfid())
    for now in range(0, 1000, STEP):
        r.poll(now)
    assert len(calls) == 20


# --- the ROLL button and dice -------------------------------------------------------------------


def roll(sim, pi, t):
    sim.press_roll()
    return talk(sim, pi, t, t + 300)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_roll_gives_as_many_dice_as_the_pi_asked_for(sim, n):
    pi = Pi()
    t = talk(sim, pi, 0, 50, first=pi.send("DICE", {"n": n}, 0))
    assert sim.dice_n == n
    t = roll(sim, pi, t)
    (line,) = pi.said("ROLL")
    dice = [int(d) for d in line.fields["dice"].split(",")]
    assert len(dice) == n and all(1 <= d <= 6 for d in dice)


def test_roll_gives_two_dice_before_the_pi_says_anything(sim):
    pi = Pi()
    roll(sim, pi, talk(sim, pi, 0, 50))
    assert len(pi.said("ROLL")[0].fields["dice"].split(",")) == 2


def test_a_roll_when_the_pi_wants_no_dice_buzzes_no_and_sends_nothing(sim):
    pi = Pi()
    t = talk(sim, pi, 0, 50, first=pi.send("DICE", {"n": 0}, 0))
    t = roll(sim, pi, t)
    assert pi.said("ROLL") == []
    assert [(ms, who) for _, ms, who in sim.beeps] == [(60, "local")] * 3
    assert sim.reader.refused_rolls == 1 and sim.reader.rolls == 0


def test_each_press_is_one_roll_and_a_bounce_shorter_than_the_debounce_is_none():
    pin = Level(1)
    r = make_reader(roll=pin)
    r.poll(0)
    for now, level in [(10, 0), (20, 1), (30, 0), (40, 1), (50, 1)]:  # 10 ms bounces: no press
        pin.level = level
        r.poll(now)
    assert r.rolls == 0
    pin.level = 0
    for now in range(60, 400, STEP):  # held: one roll, not one per poll
        r.poll(now)
    assert r.rolls == 1
    pin.level = 1
    for now in range(400, 500, STEP):
        r.poll(now)
    pin.level = 0
    for now in range(500, 600, STEP):
        r.poll(now)
    assert r.rolls == 2


def test_a_button_held_at_power_up_is_no_press():
    r = make_reader(roll=Level(0))
    for now in range(0, 500, STEP):
        r.poll(now)
    assert r.rolls == 0


def test_the_rejection_rule_maps_the_bytes_it_keeps_evenly_onto_the_faces():
    """Over every byte value: 0..251 give each face exactly 42 times, 252..255 are thrown away."""
    faces = [reader.die_from_byte(b) for b in range(256)]
    assert faces[252:] == [None] * 4
    assert {face: faces.count(face) for face in range(1, 7)} == {face: 42 for face in range(1, 7)}


def test_a_thrown_away_byte_is_followed_by_another_draw():
    source = iter([255, 252, 253, 254, 0, 11])
    r = make_reader(random_bytes=lambda n: bytes([next(source) for _ in range(n)]), boot="B")
    assert r._die() == 1 and r._die() == 6


def test_dice_are_uniform_by_chi_square_over_seeded_draws():
    """60,000 dice from a seeded byte source: chi-square with 5 degrees of freedom under 20.5 (the 0.1%
    point), seeded so the verdict never changes between runs."""
    rng = random.Random(42)
    r = make_reader(random_bytes=lambda n: bytes(rng.getrandbits(8) for _ in range(n)))
    counts = [0] * 7
    for _ in range(60000):
        counts[r._die()] += 1
    expected = 10000
    chi2 = sum((c - expected) ** 2 / expected for c in counts[1:])
    assert chi2 < 20.5, counts


def test_a_random_source_that_only_gives_bytes_to_throw_away_refuses_the_roll_instead_of_hanging():
    r = make_reader(random_bytes=lambda n: b"\xff" * n, boot="B")
    r.poll(0)
    r._roll(0, 0.0)
    assert r.rolls == 0 and len(r.pulses) == 3


# --- what the Pi says ---------------------------------------------------------------------------


def test_beep_from_the_pi_sounds_its_pulses_without_blocking(sim):
    on = []
    for now in range(0, 600, STEP):
        sim.poll(now, Pi().send("BEEP", {"times": 2, "ms": 100}, 0) if now == 0 else b"")
        on.append(sim.buzzing)
    assert sim.beeps == [(0, 100, "pi"), (200, 100, "pi")]
    assert on == [True] * 10 + [False] * 10 + [True] * 10 + [False] * 30


@pytest.mark.parametrize(
    "fields",
    [
        {"times": 0, "ms": 100},
        {"times": 6, "ms": 100},
        {"times": 1, "ms": 9},
        {"times": 1, "ms": 1001},
        {"times": "x", "ms": 100},
        {"ms": 100},
        {"times": 1},
        {"times": "-1", "ms": 100},
        {"times": "1_0", "ms": 100},
    ],
)
def test_a_beep_with_values_out_of_range_is_acknowledged_and_ignored(sim, fields):
    pi = Pi()
    talk(sim, pi, 0, 200, first=pi.send("BEEP", fields, 0))
    assert sim.beeps == [] and sim.reader.ignored == 1
    assert not pi.sender.pending  # acknowledged all the same


@pytest.mark.parametrize("n", ["4", "-1", "x", "2.0"])
def test_dice_out_of_range_are_ignored(sim, n):
    pi = Pi()
    talk(sim, pi, 0, 200, first=pi.send("DICE", {"n": n}, 0))
    assert sim.dice_n == 2 and sim.reader.ignored == 1


def test_a_dice_count_resent_after_a_newer_one_does_not_undo_it(sim):
    """The Pi says DICE 0, then DICE 2 after the next event; the first line was torn on the cable and its
    resend arrives after the second. Lines are acted on as they arrive (PROTOCOL.md), but a count is state,
    not an event: the older one must not stand, or ROLL buzzes "no" on a turn the table can end."""
    pi = Pi()
    old = pi.send("DICE", {"n": 0}, 0)
    new = pi.send("DICE", {"n": 2}, 10)
    sim.poll(0, new)
    assert sim.dice_n == 2
    sim.poll(10, old)  # the resend of the earlier line, overtaken
    assert sim.dice_n == 2 and sim.reader.stale == 1
    roll(sim, pi, 20)
    assert len(pi.said("ROLL")[0].fields["dice"].split(",")) == 2


def test_a_dice_count_numbered_past_the_wrap_is_newer(sim):
    pi = Pi()
    pi.sender.next_seq = 0xFFFF  # the last number before 1 again
    sim.poll(0, pi.send("DICE", {"n": 3}, 0))
    sim.poll(10, pi.send("DICE", {"n": 1}, 10))  # numbered 1: newer, though smaller
    assert sim.dice_n == 1 and sim.reader.stale == 0


def test_after_the_pi_restarts_its_first_dice_count_stands(sim):
    pi = Pi()
    pi.sender.next_seq = 100
    sim.poll(0, pi.hello(0))
    sim.poll(10, pi.send("DICE", {"n": 3}, 10))  # numbered 101
    again = Pi(boot="P2")  # the Pi opened the port again: numbers from 1
    sim.poll(20, again.hello(20))
    sim.poll(30, again.send("DICE", {"n": 0}, 30))
    assert sim.dice_n == 0 and sim.reader.stale == 0


def test_a_line_the_pi_sends_twice_is_acknowledged_twice_and_acted_on_once(sim):
    pi = Pi()
    line = pi.send("BEEP", {"times": 1, "ms": 200}, 0)
    out = sim.poll(0, line + line)
    assert [f.fields for f in verbs(out, "ACK")] == [{"seq": "1"}, {"seq": "1"}]
    sim.poll(10, line)
    assert [who for _, _, who in sim.beeps] == ["pi"]


def test_an_unknown_verb_is_acknowledged_and_ignored(sim):
    pi = Pi()
    out = sim.poll(0, pi.send("FROBNICATE", {"x": 1}, 0))
    assert verbs(out, "ACK") and sim.reader.unknown == 1


def test_noise_from_the_pi_is_counted_not_acted_on(sim):
    out = sim.poll(0, b"garbage\n1 BEEP ms=100 times=1 *0000\n" + b"z" * 300 + b"\n")
    assert verbs(out, "ACK") == [] and sim.beeps == []
    assert sim.reader.link_errors == 3


def test_hello_is_said_again_when_the_pi_opens_the_port_with_a_new_boot(sim):
    pi = Pi("AA")
    t = talk(sim, pi, 0, 100)
    assert len(pi.said("HELLO")) == 1
    t = talk(sim, pi, t, t + 100, first=pi.hello(t))  # the Pi's first HELLO: a new boot to the reader
    assert len(pi.said("HELLO")) == 2
    t = talk(sim, pi, t, t + 100, first=pi.hello(t))  # the same boot again: nothing to say
    assert len(pi.said("HELLO")) == 2
    again = Pi("BB")  # the daemon restarted: a fresh Pi end
    talk(sim, again, t, t + 100, first=again.hello(t))
    (hello,) = again.said("HELLO")
    assert hello.fields["boot"] == pi.said("HELLO")[0].fields["boot"]  # the reader itself did not restart


def test_an_idle_reader_pings_every_half_second(sim):
    pings = 0
    for now in range(0, 5000, STEP):
        out = sim.poll(now, encode(0, "ACK", {"seq": 1}) if now == 10 else b"")
        pings += len(verbs(out, "PING"))
    assert 9 <= pings <= 10


# --- the Pi away --------------------------------------------------------------------------------


def test_taps_made_while_the_cable_is_out_arrive_once_when_it_is_back(sim):
    """More taps than MAX_PENDING while nothing comes back: the first 8 wait for their ACKs, the rest
    queue; back on the cable, every tap arrives once, each under one sequence number."""
    pi = Pi()
    t = talk(sim, pi, 0, 100)  # greeted
    sent = []
    for n in range(12):
        sim.place("%08X" % (n + 1))
        for now in range(t, t + 200, STEP):
            sent.append(sim.poll(now))  # into the void
        sim.remove()
        for now in range(t + 200, t + 400, STEP):
            sent.append(sim.poll(now))
        t += 400
    assert len(sim.reader.sender.pending) == protocol.MAX_PENDING and len(sim.reader.queue) == 4
    seqs = {}
    for f in verbs(b"".join(sent), "TAP"):
        assert seqs.setdefault(f.fields["uid"], f.seq) == f.seq  # resends keep the number
    assert len(seqs) == protocol.MAX_PENDING
    talk(sim, pi, t, t + 5000)
    # resends wait longer the older they are, so they may come out of order (firmware/PROTOCOL.md)
    assert sorted(f.fields["uid"] for f in pi.said("TAP")) == ["%08X" % (n + 1) for n in range(12)]
    assert len({f.seq for f in pi.said("TAP")}) == 12
    assert not sim.reader.queue and not sim.reader.sender.pending


def test_when_even_the_queue_is_full_the_oldest_taps_are_kept_and_the_reader_buzzes_no():
    sim = SimReader(seed=1)
    sim.poll(0, encode(0, "ACK", {"seq": 1}))
    t = 10
    for n in range(protocol.MAX_PENDING + reader.QUEUE_MAX + 2):
        sim.place("%08X" % (n + 1))
        for now in range(t, t + 200, STEP):
            sim.poll(now)
        sim.remove()
        for now in range(t + 200, t + 400, STEP):
            sim.poll(now)
        t += 400
    assert sim.reader.dropped == 2
    assert [who for _, ms, who in sim.beeps[-3:]] == ["local"] * 3
    pi = Pi()
    pi.receiver.new_boot(sim.reader.boot)
    talk(sim, pi, t, t + 10000)
    assert sorted(f.fields["uid"] for f in pi.said("TAP")) == ["%08X" % (n + 1) for n in range(24)]


class LossyCable:
    """Bytes one way: dropped, doubled, torn, or with a flipped bit; or nothing at all while unplugged."""

    def __init__(self, rng):
        self.rng = rng
        self.unplugged = False

    def __call__(self, data):
        if self.unplugged or not data:
            return b""
        r = self.rng.random()
        if r < 0.1:
            return b""
        if r < 0.2:
            return data + data
        if r < 0.3:
            i = self.rng.randrange(len(data))
            return data[:i] + bytes([data[i] ^ (1 << self.rng.randrange(8))]) + data[i + 1 :]
        return data


@pytest.mark.parametrize("seed", range(12))
def test_over_a_lossy_cable_unplugged_for_a_while_every_tap_and_roll_arrives_once(seed):
    """Both ends for real (the reader's firmware; protocol's Receiver and Sender on the Pi) over a cable
    that drops, doubles, tears and garbles bytes both ways, and is out for seconds in the middle: every
    placement is one tap at the Pi and every press one roll, none lost, none doubled, none invented."""
    rng = random.Random(seed)
    sim, pi = SimReader(seed=seed), Pi()
    up, down = LossyCable(rng), LossyCable(rng)
    placed, pressed, back, carry = [], 0, b"", b""
    t = 0

    def run(ms):
        nonlocal t, back, carry
        for now in range(t, t + ms, STEP):
            out = up(sim.poll(now, back))
            # bytes torn at a random point: part now, the rest with the next poll
            out, cut = carry + out, rng.randrange(len(carry + out) + 1)
            out, carry = out[:cut], out[cut:]
            back = down(pi.take(out, now) + pi.due(now))
        t += ms

    run(100)
    back += pi.hello(t)
    for n in range(30):
        if n == 10:
            up.unplugged = down.unplugged = True
        if n == 20:
            up.unplugged = down.unplugged = False
        uid = "%08X" % rng.getrandbits(32)
        if uid.startswith("88"):  # the cascade tag: no 4-byte UID starts with it
            uid = "08" + uid[2:]
        placed.append(uid)
        sim.place(uid)
        run(rng.choice([100, 300, 1000]))
        sim.remove()
        run(300)
        if n % 3 == 0:
            sim.press_roll()
            pressed += 1
            run(300)
    run(20000)
    assert sorted(f.fields["uid"] for f in pi.said("TAP")) == sorted(placed)
    assert len(pi.said("ROLL")) == pressed
    assert not sim.reader.sender.pending and not sim.reader.queue


def test_the_protocol_clock_moves_up_when_nothing_waits_so_single_precision_floats_keep_their_milliseconds():
    r = make_reader()
    r.poll(0, encode(0, "ACK", {"seq": 1}))
    for now in range(10, 50):
        r.poll(now)
    day = 24 * 3600 * 1000
    r.poll(day)
    assert r.origin_ms == day
    r.poll(day + 10, encode(0, "ACK", {"seq": 1}))
    assert r.receiver.online((day + 10 - r.origin_ms) / 1000)


# --- a bare Reader for what the simulator does not reach ----------------------------------------


class Level:
    def __init__(self, level=0):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v
        return None


class NoCard:
    def scan(self):
        return None


def make_reader(rfid=None, roll=None, random_bytes=None, boot=None):
    return reader.Reader(
        rfid or NoCard(),
        roll or Level(1),
        Level(),
        Level(),
        lambda data: None,
        random_bytes or (lambda n: bytes(n)),
        boot=boot,
    )


# --- main.py on CPython with the fake machine ---------------------------------------------------


class FakeSerial:
    def __init__(self, incoming=b""):
        self.incoming, self.written = incoming, []

    def read(self):
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data):
        self.written.append(data)


class Clock:
    def __init__(self):
        self.ms = 0

    def now(self):
        self.ms += STEP
        return self.ms


@pytest.fixture
def board(monkeypatch):
    """firmware/main.py's Pico: the fake machine's pins, a fake MFRC522 behind SPI(0), no sleeping."""
    import main

    machine.LEVELS.clear()
    chip = FakeMFRC522()
    monkeypatch.setitem(machine.BUSES, main.SPI_ID, chip)
    monkeypatch.setitem(machine.WIRED, main.PIN_CS, chip.cs)
    monkeypatch.setitem(machine.WIRED, main.PIN_RST, chip.rst)
    monkeypatch.setattr(main, "sleep_ms", lambda ms: None)
    return main, chip


def test_main_wires_the_pico_pins_the_hardware_doc_names():
    import main

    assert (main.SPI_ID, main.PIN_SCK, main.PIN_MOSI, main.PIN_MISO, main.PIN_CS, main.PIN_RST) == (
        0,
        18,
        19,
        16,
        17,
        20,
    )
    assert (main.PIN_ROLL, main.PIN_BUZZER, main.PIN_LED) == (15, 14, 13)


def test_main_runs_its_loop_and_the_reader_says_hello_and_taps(board):
    main, chip = board
    serial = FakeSerial()
    the_reader = main.run(loops=1, serial=serial, clock=Clock(), sleep=lambda ms: None)
    assert [f.verb for f in lines_of(b"".join(serial.written))] == ["HELLO"]
    chip.place(bytes.fromhex("DEADBEEF"))
    serial.incoming = encode(0, "ACK", {"seq": 1})
    clock = Clock()
    for _ in range(10):
        the_reader.poll(clock.now(), serial.read())
    assert [f.fields["uid"] for f in verbs(b"".join(serial.written), "TAP")] == ["DEADBEEF"]
    assert machine.LEVELS[main.PIN_BUZZER] == 1 and machine.LEVELS[main.PIN_LED] == 1


def test_main_does_not_start_when_roll_is_held_at_power_up(board):
    main, _ = board
    machine.Pin(main.PIN_ROLL, machine.Pin.IN).value(0)
    assert main.run(loops=1, serial=FakeSerial(), clock=Clock(), sleep=lambda ms: None) is None


def test_main_blinks_and_retries_while_the_chip_does_not_answer(board, monkeypatch):
    main, chip = board
    tries = []

    chip.floating = 0xFF  # no chip on the bus: MISO reads high
    real_init = mfrc522.MFRC522.init

    def init(self):
        tries.append(1)
        if len(tries) == 3:
            chip.floating = None  # the loose wire pushed back in
        real_init(self)

    monkeypatch.setattr(mfrc522.MFRC522, "init", init)
    led = []
    monkeypatch.setattr(machine.Pin, "value", lambda self, v=None: led.append(v) if self.id == main.PIN_LED else None)
    driver = mfrc522.MFRC522(chip, chip.cs, chip.rst)
    assert main.start_chip(driver, machine.Pin(main.PIN_LED, machine.Pin.OUT))
    assert len(tries) == 3 and led == [1, 0, 1, 0] * 2
    assert not main.start_chip(mfrc522.MFRC522(FakeMFRC522(), chip.cs), machine.Pin(main.PIN_LED), tries=0)


def test_main_survives_a_poll_that_raises_and_resets_the_board_when_it_keeps_raising(board, monkeypatch):
    main, _ = board
    monkeypatch.setattr(reader.Reader, "poll", lambda self, now_ms, incoming=b"": 1 / 0)
    assert main.run(loops=5, serial=FakeSerial(), clock=Clock(), sleep=lambda ms: None) is not None
    with pytest.raises(machine.ResetCalled):
        main.run(loops=main.FAILS_BEFORE_RESET, serial=FakeSerial(), clock=Clock(), sleep=lambda ms: None)


def test_main_usb_serial_reads_what_has_arrived_without_waiting():
    """UsbSerial over a pipe on CPython: select.poll says what is there, nothing blocks when it is empty."""
    import os

    import main

    r, w = os.pipe()
    with os.fdopen(r, "rb", buffering=0) as rfile, os.fdopen(w, "wb", buffering=0) as wfile:
        serial = main.UsbSerial(rfile, rfile, wfile)
        assert serial.read() == b""
        serial.write(b"0 PING *1234\n")
        assert serial.read() == b"0 PING *1234\n"
        assert serial.read() == b""


def test_the_clock_is_right_across_a_ticks_wrap(monkeypatch):
    import main

    period = 1 << 30
    ticks = iter([period - 5, 3, 20])
    monkeypatch.setattr(main, "ticks_ms", lambda: next(ticks))
    monkeypatch.setattr(main, "ticks_diff", lambda a, b: ((a - b + period // 2) % period) - period // 2)
    clock = main.Clock()
    assert clock.now() == 8 and clock.now() == 25
