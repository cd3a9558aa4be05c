"""The reader's MFRC522 driver (firmware/mfrc522.py) against the register-level fake chip with ISO/IEC 14443-3
cards (firmware/sim/fake_mfrc522.py), and the fake against datasheet facts.

Recorded traces: tests/traces/*.json hold every register read and write (and reset pin change) of init()
and of scan() for a few fields, compared exactly, so any change in what the driver sends the chip shows in
review. After an intended change, record them again and read the diff:

    RECORD_TRACES=1 .venv/bin/python -m pytest tests/test_mfrc522.py
"""

import json
import os
import random
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).parent.parent
TRACES = Path(__file__).parent / "traces"
RECORD = os.environ.get("RECORD_TRACES") == "1"
# firmware files import each other as top-level modules, as they do on the Pico; appended, so they
# shadow nothing installed
for folder in (ROOT / "firmware", ROOT / "firmware" / "sim"):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

import fake_mfrc522 as fake  # noqa: E402
import mfrc522  # noqa: E402

CLASSIC = bytes.fromhex("DEADBEEF")  # MIFARE Classic 1K: 4-byte UID, SAK 0x08
CLASSIC_2 = bytes.fromhex("5A3C96E1")
NTAG = bytes.fromhex("04A2241A6F5C80")  # NTAG213/215: 7-byte UID, SAK 0x00
NTAG_2 = bytes.fromhex("04A2247B11C280")  # the same first level as NTAG: they part at level 2
TRIPLE = bytes.fromhex("04112233445566778899")  # 10-byte UID: three cascade levels
TRIPLE_2 = bytes.fromhex("041122334455E6F70819")  # the same two first levels as TRIPLE


def reader(version=0x92):
    chip = fake.FakeMFRC522(version=version)
    rfid = mfrc522.MFRC522(chip, chip.cs, chip.rst)
    rfid.init()
    return chip, rfid


def cascade_levels(uid):
    """UID CLn per cascade level (ISO/IEC 14443-3 6.5.4), written here again rather than taken from the fake."""
    if len(uid) == 4:
        return [uid]
    if len(uid) == 7:
        return [b"\x88" + uid[:3], uid[3:]]
    return [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]


def air_bits(data):
    return [(b >> i) & 1 for b in data for i in range(8)]


def winner(uids):
    """The card the driver must pick: at each collision the cards that sent a 1, i.e. the largest UID CLn
    read in air order (least significant bit of each byte first), level after level."""
    candidates = sorted(set(uids))
    level = 0
    while True:
        best = max(air_bits(cascade_levels(u)[level]) for u in candidates)
        candidates = [u for u in candidates if air_bits(cascade_levels(u)[level]) == best]
        if len(cascade_levels(candidates[0])) == level + 1:
            return candidates[0]
        level += 1


# the last cascade level's UID CLn cannot start with the cascade tag 0x88
uids = st.sampled_from((4, 7, 10)).flatmap(lambda n: st.binary(min_size=n, max_size=n).filter(lambda u: u[-4] != 0x88))
final_saks = st.integers(0, 255).filter(lambda s: not s & 0x04)


# ---- reading one card ----


def test_a_classic_card_reads_as_its_4_byte_uid():
    """A MIFARE Classic 1K card laid on the reader is its 4-byte UID, every time it is scanned."""
    chip, rfid = reader()
    chip.place(CLASSIC, sak=0x08)
    assert rfid.scan() == CLASSIC
    assert rfid.scan() == CLASSIC


def test_an_ntag_sticker_reads_as_its_7_byte_uid():
    """An NTAG213/215 sticker (7-byte UID over two cascade levels, SAK 0x00 at the end) reads whole."""
    chip, rfid = reader()
    chip.place(NTAG, sak=0x00)
    assert rfid.scan() == NTAG


def test_a_10_byte_uid_reads_over_three_cascade_levels():
    """A card with a triple-size UID is read whole too, not as its first 4 or 7 bytes."""
    chip, rfid = reader()
    chip.place(TRIPLE, sak=0x20)
    assert rfid.scan() == TRIPLE


@settings(max_examples=150, deadline=None)
@given(uids, final_saks)
def test_any_card_reads_as_its_uid(uid, sak):
    """Whatever card a player brings (any UID size and content, any SAK), the reader reads its UID."""
    chip, rfid = reader()
    chip.place(uid, sak=sak)
    assert rfid.scan() == uid
    assert rfid.scan() == uid


def test_a_halted_card_is_found_again_by_wupa():
    """A card left lying on the reader keeps being read: scan() halts it (HLTA), and the next scan's
    WUPA wakes it again, where REQA would not."""
    chip, rfid = reader()
    chip.place(CLASSIC)
    assert rfid.scan() == CLASSIC
    assert chip.state_of(CLASSIC) == fake.HALT
    for _ in range(5):
        assert rfid.scan() == CLASSIC


def test_an_empty_reader_answers_none_quickly():
    """With no card on the reader, scan() says None after one short exchange, so the reader can poll
    many times a second (on the chip the 25 ms timer ends it)."""
    chip, rfid = reader()
    chip.clear_trace()
    assert rfid.scan() is None
    assert len(chip.trace) <= 12
    assert ("w", "FIFODataReg", 0x52) in chip.trace  # it was a WUPA
    started = time.perf_counter()
    for _ in range(200):
        assert rfid.scan() is None
    assert time.perf_counter() - started < 2.0


def test_a_card_taken_away_reads_none():
    """Lifting the card off the reader: the next scan() is None (the caller tells removal from that)."""
    chip, rfid = reader()
    chip.place(NTAG)
    assert rfid.scan() == NTAG
    chip.remove(NTAG)
    assert rfid.scan() is None


# ---- several cards at once ----


@pytest.mark.parametrize(
    "a, b",
    [(CLASSIC, CLASSIC_2), (CLASSIC, NTAG), (NTAG, NTAG_2), (TRIPLE, TRIPLE_2), (CLASSIC, TRIPLE), (NTAG, TRIPLE)],
)
def test_two_cards_at_once_give_one_of_them_and_always_the_same(a, b):
    """Two cards on the reader together: it reads one of them, whole, and the same one scan after scan
    (never one and then the other, never a UID made of both); take that one away and the other reads."""
    chip, rfid = reader()
    chip.place(a)
    chip.place(b)
    first = winner([a, b])
    for _ in range(5):
        assert rfid.scan() == first
    chip.remove(first)
    other = b if first == a else a
    for _ in range(3):
        assert rfid.scan() == other


def test_the_order_cards_arrive_in_does_not_change_which_one_reads():
    """Which of two cards reads depends on the cards, not on which was laid down first."""
    chip, rfid = reader()
    chip.place(NTAG)
    chip.place(CLASSIC)
    one = rfid.scan()
    chip, rfid = reader()
    chip.place(CLASSIC)
    chip.place(NTAG)
    assert rfid.scan() == one == winner([CLASSIC, NTAG])


@settings(max_examples=150, deadline=None)
@given(st.lists(uids, min_size=2, max_size=4, unique=True))
def test_several_cards_give_one_of_them_reliably(cards):
    """A pile of cards on the reader reads as one of them, the same one each time, until it is removed."""
    chip, rfid = reader()
    for uid in cards:
        chip.place(uid)
    left = list(cards)
    while left:
        expected = winner(left)
        assert rfid.scan() == expected
        assert rfid.scan() == expected
        chip.remove(expected)
        left.remove(expected)
    assert rfid.scan() is None


# ---- garbled answers ----


@pytest.mark.parametrize("uid", [CLASSIC, NTAG, TRIPLE])
@pytest.mark.parametrize("mode", ["flip", "parity", "short", "lost"])
def test_a_garbled_uid_or_sak_reads_none_and_the_next_scan_reads_the_card(uid, mode):
    """Noise on the air while a card answers: that scan reads nothing at all (never a wrong UID), and the
    very next scan reads the card. Every answer after the ATQA is tried: each anticollision, each SAK."""
    chip, rfid = reader()
    chip.place(uid)
    answers = 1 + 2 * len(cascade_levels(uid))  # ATQA, then UID CLn and SAK per level
    for skip in range(1, answers):
        chip.corrupt_next(1, mode=mode, skip=skip)
        assert rfid.scan() is None, (skip, mode)
        assert not chip.corrupting
        assert rfid.scan() == uid


@pytest.mark.parametrize("bit", range(40))
def test_every_single_bit_error_in_a_uid_answer_is_caught(bit):
    """A single wrong bit in a card's UID answer, with good parity, is caught by the BCC: nothing reads."""
    chip, rfid = reader()
    chip.place(CLASSIC)
    chip.corrupt_next(1, mode="flip", skip=1, bit=bit)
    assert rfid.scan() is None


def test_a_garbled_atqa_does_not_lose_the_tap():
    """Noise on the card's first answer (ATQA, whose content the driver does not need) still reads the card."""
    chip, rfid = reader()
    chip.place(NTAG)
    for mode in ("flip", "parity", "short", "noise"):
        chip.corrupt_next(1, mode=mode)
        assert rfid.scan() == NTAG, mode


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(uids, min_size=1, max_size=2, unique=True),
    st.integers(0, 8),
    st.integers(1, 3),
    st.sampled_from(fake.CORRUPTIONS),
    st.one_of(st.none(), st.integers(0, 80)),
    st.integers(1, 2**32 - 1),
)
def test_garbled_answers_never_give_a_wrong_uid(cards, skip, n, mode, bit, seed):
    """However the air garbles the cards' answers, a scan reads nothing or a card that is really there,
    never raises, and once the noise stops the reader reads the card it should: by the second scan, since
    a card whose ATQA never arrived is left READY, and the next WUPA only sends it back to IDLE."""
    chip = fake.FakeMFRC522(seed=seed)
    rfid = mfrc522.MFRC522(chip, chip.cs, chip.rst)
    rfid.init()
    for uid in cards:
        chip.place(uid)
    chip.corrupt_next(n, mode=mode, skip=skip, bit=bit)
    for _ in range(12):
        if not chip.corrupting:
            break
        assert rfid.scan() in [None] + cards
    assert not chip.corrupting
    assert rfid.scan() in (None, winner(cards))
    assert rfid.scan() == winner(cards)


class GarbageBus:
    """An SPI bus whose every read is a random byte: a broken wire or a chip gone mad."""

    def __init__(self, rng):
        self.rng = rng

    def write(self, buf):
        pass

    def write_readinto(self, out, into):
        for i in range(len(into)):
            into[i] = self.rng.randrange(256)


class NoPin:
    def value(self, v=None):
        return 1


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**64))
def test_a_chip_reading_garbage_never_hangs_or_raises(seed):
    """A reader whose SPI returns noise does not freeze the firmware or crash it: scan() ends and says
    None (or, by a wild fluke, some UID-sized bytes)."""
    rfid = mfrc522.MFRC522(GarbageBus(random.Random(seed)), NoPin())
    for _ in range(3):
        got = rfid.scan()
        assert got is None or (isinstance(got, bytes) and len(got) in (4, 7, 10))


def test_scan_without_init_ends_and_reads_nothing():
    """Firmware that forgot init(): antenna off, no timer. scan() still returns (None), after a bounded
    number of polls, instead of hanging the reader."""
    chip = fake.FakeMFRC522()
    rfid = mfrc522.MFRC522(chip, chip.cs, chip.rst)
    chip.place(CLASSIC)
    chip.clear_trace()
    assert rfid.scan() is None
    polls = [op for op in chip.trace if op[:2] == ("r", "ComIrqReg")]
    assert len(polls) == mfrc522.RX_POLLS


# ---- init ----


@pytest.mark.parametrize("version", [0x00, 0xFF])
def test_init_says_clearly_when_no_chip_answers(version):
    """A reader board that is unplugged or miswired (VersionReg reads 0x00 or 0xFF) stops the firmware
    at start with a message naming the problem, not with silent empty scans."""
    chip = fake.FakeMFRC522(version=version)
    rfid = mfrc522.MFRC522(chip, chip.cs, chip.rst)
    with pytest.raises(mfrc522.MFRC522Error, match=r"^no MFRC522 answers on SPI \(version 0x%02X\)$" % version):
        rfid.init()


@pytest.mark.parametrize("level", [0x00, 0xFF])
def test_init_says_clearly_when_the_bus_floats(level):
    """No module on the SPI pins at all (MISO held low or floating high): the same clear message."""
    chip = fake.FakeMFRC522()
    chip.floating = level
    rfid = mfrc522.MFRC522(chip, chip.cs)
    with pytest.raises(mfrc522.MFRC522Error, match="no MFRC522 answers on SPI"):
        rfid.init()


@pytest.mark.parametrize("version", [0x91, 0x92, 0x88, 0x12])
def test_chip_versions_and_clones_work(version):
    """MFRC522 v1.0 (0x91), v2.0 (0x92) and the common clones (0x88, 0x12) all read cards."""
    chip, rfid = reader(version)
    assert rfid.version() == version
    chip.place(CLASSIC)
    assert rfid.scan() == CLASSIC


def test_init_without_a_reset_pin():
    """A board with the reset pin not wired to the Pico works (soft reset only)."""
    chip = fake.FakeMFRC522()
    rfid = mfrc522.MFRC522(chip, chip.cs)
    rfid.init()
    assert not [op for op in chip.trace if op[0] == "pin"]
    chip.place(NTAG)
    assert rfid.scan() == NTAG


def test_init_again_after_the_chip_lost_power():
    """After the reader module browns out (registers back to reset: antenna off), scans read nothing
    until init() runs again; then cards read."""
    chip, rfid = reader()
    chip.place(CLASSIC)
    chip.rst.value(0)
    chip.rst.value(1)
    assert rfid.scan() is None
    rfid.init()
    assert rfid.scan() == CLASSIC


# ---- recorded traces ----


def ops_rows(trace):
    return [[op, reg, "0x%02X" % value] for op, reg, value in trace]


def check_trace(name, about, trace):
    """The trace equals tests/traces/<name>.json (RECORD_TRACES=1 writes it)."""
    path = TRACES / (name + ".json")
    rows = ops_rows(trace)
    if RECORD:
        TRACES.mkdir(exist_ok=True)
        path.write_text(
            '{\n  "about": %s,\n  "ops": [\n%s\n  ]\n}\n'
            % (json.dumps(about), ",\n".join("    " + json.dumps(r) for r in rows)),
            encoding="utf-8",
        )
    assert path.exists(), "no recorded trace %s: RECORD_TRACES=1 pytest tests/test_mfrc522.py" % path
    recorded = json.loads(path.read_text(encoding="utf-8"))["ops"]
    for i, (old, new) in enumerate(zip(recorded, rows)):
        assert old == new, "%s op %d: recorded %s, now %s (re-record with RECORD_TRACES=1 if intended)" % (
            path.name,
            i,
            old,
            new,
        )
    assert len(recorded) == len(rows), "%s: %d ops recorded, %d now (re-record with RECORD_TRACES=1 if intended)" % (
        path.name,
        len(recorded),
        len(rows),
    )


def traced_reader():
    chip = fake.FakeMFRC522()
    rfid = mfrc522.MFRC522(chip, chip.cs, chip.rst)
    chip.clear_trace()
    return chip, rfid


def test_init_trace_is_as_recorded():
    """What init() tells the chip (reset, timer, ASK, CRC preset, antenna) changes only on purpose."""
    chip, rfid = traced_reader()
    rfid.init()
    check_trace(
        "init",
        "init(): hard reset by the rst pin, SoftReset, VersionReg, 25 ms timer, 100% ASK, "
        "CRC preset 0x6363, ValuesAfterColl 0, antenna on",
        chip.trace,
    )


@pytest.mark.parametrize(
    "name, cards, about",
    [
        ("scan_empty", [], "scan() of an empty field: one WUPA, the timer ends it"),
        ("scan_classic", [CLASSIC], "scan() of a MIFARE Classic 1K, UID DEADBEEF, SAK 0x08"),
        ("scan_ntag", [NTAG], "scan() of an NTAG213, UID 04A2241A6F5C80, SAK 0x04 then 0x00"),
        (
            "scan_two_cards",
            [CLASSIC, CLASSIC_2],
            "scan() of two Classic cards, DEADBEEF and 5A3C96E1: collisions resolved to DEADBEEF",
        ),
    ],
)
def test_scan_trace_is_as_recorded(name, cards, about):
    """What scan() tells the chip for a given field changes only on purpose (and shows in review)."""
    chip, rfid = traced_reader()
    rfid.init()
    for uid in cards:
        chip.place(uid)
    chip.clear_trace()
    got = rfid.scan()
    assert got == (winner(cards) if cards else None)
    check_trace(name, about, chip.trace)


# ---- the fake against the datasheet and ISO/IEC 14443-3 ----


def spi_write(chip, reg, *values):
    chip.cs.value(0)
    chip.write(bytes(((reg << 1) & 0x7E,) + values))
    chip.cs.value(1)


def spi_read(chip, reg):
    into = bytearray(2)
    chip.cs.value(0)
    chip.write_readinto(bytes((((reg << 1) & 0x7E) | 0x80, 0)), into)
    chip.cs.value(1)
    return into[1]


R = fake.REG


def chip_crc(chip, data, mode=0x3D):
    spi_write(chip, R["ModeReg"], mode)
    spi_write(chip, R["FIFOLevelReg"], 0x80)
    spi_write(chip, R["FIFODataReg"], *data)
    spi_write(chip, R["CommandReg"], 0x03)
    assert spi_read(chip, R["DivIrqReg"]) & 0x04
    spi_write(chip, R["CommandReg"], 0x00)
    return bytes((spi_read(chip, R["CRCResultRegL"]), spi_read(chip, R["CRCResultRegH"])))


def test_fake_crc_a_matches_the_iso_14443_examples():
    """The fake's CalcCRC gives ISO/IEC 14443-3's CRC_A examples (00 00 -> A0 1E, 12 34 -> 26 CF), so a
    card at the table would accept the SELECT frames the simulation accepts."""
    chip = fake.FakeMFRC522()
    assert chip_crc(chip, b"\x00\x00") == b"\xa0\x1e"
    assert chip_crc(chip, b"\x12\x34") == b"\x26\xcf"
    assert fake.with_crc(b"\x12\x34") == b"\x12\x34\x26\xcf"
    assert chip_crc(chip, b"\x00\x00", mode=0x3F) != b"\xa0\x1e"  # preset 0xFFFF: not CRC_A


def test_fake_registers_reset_and_irq_bits_as_the_datasheet_says():
    """SoftReset restores reset values (antenna off, CRC preset 0xFFFF); PowerDown reads 1 while it starts;
    ComIrqReg bits are set with Set1 = 1 and cleared by writing 1 with Set1 = 0; VersionReg reads 0x92."""
    chip = fake.FakeMFRC522()
    spi_write(chip, R["ModeReg"], 0x3D)
    spi_write(chip, R["CommandReg"], 0x0F)
    assert spi_read(chip, R["CommandReg"]) & 0x10
    assert spi_read(chip, R["CommandReg"]) == 0x20
    assert spi_read(chip, R["ModeReg"]) == 0x3F
    assert spi_read(chip, R["TxControlReg"]) == 0x80
    assert spi_read(chip, R["VersionReg"]) == 0x92
    spi_write(chip, R["ComIrqReg"], 0x7F)
    assert spi_read(chip, R["ComIrqReg"]) == 0x00
    spi_write(chip, R["ComIrqReg"], 0x80 | 0x21)
    assert spi_read(chip, R["ComIrqReg"]) == 0x21
    spi_write(chip, R["ComIrqReg"], 0x01)
    assert spi_read(chip, R["ComIrqReg"]) == 0x20


def test_fake_fifo_holds_64_bytes():
    """The FIFO takes 64 bytes; one more sets BufferOvfl; FlushBuffer empties it and clears the flag."""
    chip = fake.FakeMFRC522()
    spi_write(chip, R["FIFODataReg"], *range(64))
    assert spi_read(chip, R["FIFOLevelReg"]) == 64
    assert not spi_read(chip, R["ErrorReg"]) & 0x10
    spi_write(chip, R["FIFODataReg"], 0xAA)
    assert spi_read(chip, R["ErrorReg"]) & 0x10
    assert spi_read(chip, R["FIFODataReg"]) == 0
    spi_write(chip, R["FIFOLevelReg"], 0x80)
    assert spi_read(chip, R["FIFOLevelReg"]) == 0
    assert not spi_read(chip, R["ErrorReg"]) & 0x10


def test_fake_refuses_what_the_spi_interface_does_not_allow():
    """The fake fails loudly on a transfer with CS high or an address byte with bit 0 set, so a driver
    that does either cannot pass the tests and then fail on the real module."""
    chip = fake.FakeMFRC522()
    with pytest.raises(fake.FakeChipError):
        chip.write(b"\x02\x00")
    chip.cs.value(0)
    with pytest.raises(fake.FakeChipError):
        chip.write(b"\x03\x00")


def exchange(chip, data, tx_last_bits=0, rx_align=0):
    """One Transceive by hand (datasheet 10.3.1.8), for the fake's own tests: (bytes, ErrorReg, CollReg) or None."""
    spi_write(chip, R["CommandReg"], 0x00)
    spi_write(chip, R["ComIrqReg"], 0x7F)
    spi_write(chip, R["FIFOLevelReg"], 0x80)
    spi_write(chip, R["FIFODataReg"], *data)
    spi_write(chip, R["CommandReg"], 0x0C)
    spi_write(chip, R["BitFramingReg"], 0x80 | (rx_align << 4) | tx_last_bits)
    for _ in range(10):
        irq = spi_read(chip, R["ComIrqReg"])
        if irq & 0x21:
            break
    if not irq & 0x20:
        return None
    n = spi_read(chip, R["FIFOLevelReg"])
    got = bytes(spi_read(chip, R["FIFODataReg"]) for _ in range(n))
    return got, spi_read(chip, R["ErrorReg"]), spi_read(chip, R["CollReg"])


def test_fake_cards_follow_the_iso_14443_states():
    """REQA wakes an IDLE card but not a HALTed one; WUPA wakes both; a card answers ATQA 04 00 (Classic)
    and SELECT with its SAK and a good CRC_A; a field with nobody in it gives TimerIRq."""
    chip, _ = reader()
    assert exchange(chip, b"\x26", 7) is None
    assert spi_read(chip, R["ComIrqReg"]) & 0x01  # TimerIRq
    chip.place(CLASSIC)
    assert exchange(chip, b"\x26", 7) == (b"\x04\x00", 0, 0x20)
    assert exchange(chip, b"\x93\x20") == (CLASSIC + bytes((0xDE ^ 0xAD ^ 0xBE ^ 0xEF,)), 0, 0x20)
    select = fake.with_crc(b"\x93\x70" + CLASSIC + bytes((0xDE ^ 0xAD ^ 0xBE ^ 0xEF,)))
    assert exchange(chip, select)[0] == fake.with_crc(b"\x08")
    assert chip.state_of(CLASSIC) == fake.ACTIVE
    assert exchange(chip, fake.with_crc(b"\x50\x00")) is None  # HLTA: no answer
    assert chip.state_of(CLASSIC) == fake.HALT
    assert exchange(chip, b"\x26", 7) is None  # REQA: a halted card sleeps on
    assert exchange(chip, b"\x52", 7) == (b"\x04\x00", 0, 0x20)  # WUPA wakes it
    bad = bytearray(select)
    bad[-1] ^= 0x01
    assert exchange(chip, bytes(bad)) is None  # bad CRC_A: ignored
    assert chip.state_of(CLASSIC) == fake.HALT  # and back to HALT (woken from it)


def test_fake_collisions_count_collpos_from_the_fifo_bit_rxalign_included():
    """Two cards answering at once collide at the first bit where they differ: CollErr, CollPos counted
    from 1 in the FIFO's bits with the RxAlign offset included, 0 for the 32nd bit, and (ValuesAfterColl
    = 0) the bits from the collision on read as 0. ATQAs 04 00 and 44 00 collide at bit 7."""
    chip, _ = reader()
    a = bytes.fromhex("0F000000")  # air bits 1111 0000 ...
    b = bytes.fromhex("07000000")  # air bits 1110 0000 ...: they differ at the 4th bit
    chip.place(a)
    chip.place(NTAG)
    data, err, coll = exchange(chip, b"\x52", 7)
    assert err & 0x08 and coll & 0x1F == 7 and not coll & 0x20
    chip.remove()
    chip.place(a)
    chip.place(b)
    exchange(chip, b"\x52", 7)
    data, err, coll = exchange(chip, b"\x93\x20")
    assert err & 0x08 and coll == 4 and data[0] == 0x07
    data, err, coll = exchange(chip, b"\x93\x22\x03", 2, 2)  # 2 bits known, answer from FIFO bit 2
    assert err & 0x08 and coll == 4 and data[0] == 0x04  # still the 4th FIFO bit
    late_a, late_b = bytes.fromhex("000000F0"), bytes.fromhex("00000070")  # differ at the 32nd bit
    chip.remove()
    chip.place(late_a)
    chip.place(late_b)
    exchange(chip, b"\x52", 7)
    data, err, coll = exchange(chip, b"\x93\x20")
    assert err & 0x08 and coll == 0x00


def test_fake_cards_need_the_antenna_and_100_percent_ask():
    """Cards only answer when the antenna drivers are on and modulation is 100% ASK, as real type A cards."""
    chip, _ = reader()
    chip.place(CLASSIC)
    spi_write(chip, R["TxASKReg"], 0x00)
    assert exchange(chip, b"\x52", 7) is None
    spi_write(chip, R["TxASKReg"], 0x40)
    assert exchange(chip, b"\x52", 7)[0] == b"\x04\x00"
    spi_write(chip, R["TxControlReg"], 0x80)
    assert exchange(chip, b"\x52", 7) is None
    assert chip.state_of(CLASSIC) == fake.POWER_OFF


def test_fake_corruption_is_reproducible():
    """The same seed garbles the same way, so a failing simulation run can be replayed."""

    def run(seed):
        chip = fake.FakeMFRC522(seed=seed)
        rfid = mfrc522.MFRC522(chip, chip.cs, chip.rst)
        rfid.init()
        chip.place(NTAG)
        chip.corrupt_next(3, mode="noise")
        rfid.scan()
        return chip.trace

    assert run(7) == run(7)
