"""The reader link's framing and delivery (companion/hw/protocol.py, firmware/PROTOCOL.md), as a table
would feel it: a tap arrives once however the cable garbles, splits, repeats or drops lines, and noise
never becomes a transaction. Seeded, with the time passed in: no sleeps, no flakes."""

import binascii
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hw.protocol import (
    MAX_LINE,
    MAX_PENDING,
    OFFLINE_AFTER_S,
    Frame,
    LineSplitter,
    LinkError,
    Receiver,
    Sender,
    crc16,
    decode,
    encode,
)

VECTORS = json.loads((Path(__file__).parent.parent / "firmware" / "vectors.json").read_text(encoding="utf-8"))


def test_the_crc_is_ccitt_false_with_its_published_check_value():
    """CRC-16/CCITT-FALSE's check value: crc of "123456789" is 0x29B1 (the catalogue of CRCs)."""
    assert crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=200))
def test_the_crc_agrees_with_pythons_own(data):
    assert crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@pytest.mark.parametrize("vector", VECTORS["good"], ids=lambda v: v["line"])
def test_good_vectors_decode_and_encode_both_ways(vector):
    """firmware/vectors.json: the lines both sides must read and write byte for byte."""
    frame = decode(vector["line"].encode())
    assert frame == Frame(vector["seq"], vector["verb"], vector["fields"])
    assert encode(frame.seq, frame.verb, frame.fields) == vector["line"].encode() + b"\n"


@pytest.mark.parametrize("vector", VECTORS["bad"], ids=lambda v: v["error"])
def test_bad_vectors_are_refused_with_their_reason(vector):
    with pytest.raises(LinkError) as info:
        decode(vector["line"].encode())
    assert info.value.code == vector["error"]


def test_any_single_changed_byte_of_a_tap_is_caught():
    """A CRC-16 catches every error burst up to 16 bits: no single garbled byte turns one tap into another."""
    line = encode(2, "TAP", {"uid": "04A2241AB31C90"}).rstrip(b"\n")
    for i in range(len(line)):
        for value in range(256):
            if value == line[i]:
                continue
            with pytest.raises(LinkError):
                decode(line[:i] + bytes([value]) + line[i + 1 :])


def test_encode_refuses_what_the_format_cannot_carry():
    for seq, verb, fields in [
        (0, "TAP", {"uid": "1"}),
        (3, "ACK", {}),
        (1, "TAP", {"uid": "a b"}),
        (1, "tap", {}),
        (1, "TAP", {"UID": "1"}),
        (1, "TAP", {"uid": "x" * 200}),
    ]:
        with pytest.raises(ValueError):
            encode(seq, verb, fields)


def test_a_split_and_joined_stream_gives_its_lines_and_overlong_noise_is_dropped_to_the_next_newline():
    lines = [encode(n, "TAP", {"uid": "%08X" % n}) for n in range(1, 6)]
    stream = b"".join(lines[:2]) + b"x" * (MAX_LINE + 50) + b"\n" + b"".join(lines[2:])
    splitter, got = LineSplitter(), []
    for i in range(0, len(stream), 7):  # 7 bytes at a time, across line ends
        got += splitter.feed(stream[i : i + 7])
    assert [decode(line).fields["uid"] for line in got] == ["%08X" % n for n in range(1, 6)]
    assert splitter.dropped == 1
    whole = LineSplitter()  # the same stream in one piece
    assert [decode(line).fields["uid"] for line in whole.feed(stream)] == ["%08X" % n for n in range(1, 6)]
    assert whole.dropped == 1


def test_100000_lines_of_noise_make_no_frame():
    """Serial noise (random bytes, newlines among them) never becomes a tap: every line is counted as an
    error, none is acted on, and the receiver stays usable for the next real line."""
    rng = random.Random(9)
    splitter, receiver, acted = LineSplitter(), Receiver(), []
    lines = 0
    while lines < 100_000:
        chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))) + b"\n"
        for line in splitter.feed(chunk):
            lines += 1
            frame, _ = receiver.take(line, 0.0)
            if frame is not None:
                acted.append(frame)
    assert acted == []
    assert sum(receiver.errors.values()) >= 100_000
    frame, reply = receiver.take(encode(1, "TAP", {"uid": "DEADBEEF"}).rstrip(b"\n"), 1.0)
    assert frame.fields == {"uid": "DEADBEEF"} and decode(reply[0].rstrip(b"\n")).fields == {"seq": "1"}


def test_a_resent_tap_is_acknowledged_again_but_acted_on_once():
    receiver = Receiver()
    line = encode(5, "TAP", {"uid": "DEADBEEF"}).rstrip(b"\n")
    first, ack1 = receiver.take(line, 0.0)
    again, ack2 = receiver.take(line, 0.1)
    assert first is not None and again is None and ack1 == ack2
    # the reader restarts (a new boot id) and numbers from 1 again: its taps are new
    receiver.take(encode(1, "HELLO", {"proto": "1", "fw": "0.1.0", "boot": "b2"}).rstrip(b"\n"), 0.2)
    assert receiver.take(line, 0.3)[0] is not None


def test_unacknowledged_lines_are_resent_with_growing_waits_and_at_most_eight_wait():
    sender = Sender()
    line = sender.send("TAP", {"uid": "DEADBEEF"}, 0.0)
    assert sender.due(0.01) == []
    assert sender.due(0.05) == [line]  # first resend after 50 ms
    assert sender.due(0.12) == [] and sender.due(0.151) == [line]  # then after 100 ms more
    sender.acknowledged(1)
    assert sender.due(10.0) == []
    for n in range(MAX_PENDING):
        sender.send("TAP", {"uid": "%08X" % n}, 1.0)
    assert sender.full()
    with pytest.raises(ValueError):
        sender.send("TAP", {"uid": "FFFFFFFF"}, 1.0)


def test_the_other_side_is_offline_two_seconds_after_the_last_line_heard():
    receiver = Receiver()
    assert not receiver.online(0.0)
    frame, reply = receiver.take(encode(0, "PING").rstrip(b"\n"), 10.0)
    assert frame is None and reply == [encode(0, "PONG")]
    assert receiver.online(10.0 + OFFLINE_AFTER_S) and not receiver.online(10.0 + OFFLINE_AFTER_S + 0.01)


@pytest.mark.parametrize("seed", range(20))
def test_every_tap_arrives_once_over_a_cable_that_drops_repeats_garbles_and_splits(seed):
    """The reader sends 50 taps through a link that loses, duplicates, corrupts and tears lines both
    ways (ACKs too); with resends every tap is acted on exactly once and nothing else is."""
    rng = random.Random(seed)
    reader, pi = Sender(), Receiver()
    to_pi, to_reader = LineSplitter(), LineSplitter()
    acked = Receiver()  # the reader's side reading ACKs

    def cable(data):
        """What comes out of the other end: maybe nothing, twice, a flipped bit, or noise before it."""
        r = rng.random()
        if r < 0.15:
            return b""
        if r < 0.25:
            return data + data
        if r < 0.35:
            i = rng.randrange(len(data) - 1)
            return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
        if r < 0.40:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30))) + b"\n" + data
        return data

    def over_the_cable(out, now):
        """One line from the reader through the cable, torn in two; the Pi's answers back the same way."""
        wire = cable(out)
        for part in (wire[: len(wire) // 2], wire[len(wire) // 2 :]):
            for line in to_pi.feed(part):
                frame, replies = pi.take(line, now)
                if frame is not None:
                    delivered.append(frame.fields["uid"])
                for reply in replies:
                    for back in to_reader.feed(cable(reply)):
                        ack, _ = acked.take(back, now)
                        if ack is not None and ack.verb == "ACK":
                            reader.acknowledged(int(ack.fields["seq"]))

    taps = ["%08X" % rng.getrandbits(32) for _ in range(50)]
    delivered, now, queue = [], 0.0, list(taps)
    while (queue or reader.pending) and now < 600:
        now += 0.01
        while queue and not reader.full():
            over_the_cable(reader.send("TAP", {"uid": queue.pop(0)}, now), now)
        for out in reader.due(now):
            over_the_cable(out, now)
    assert sorted(delivered) == sorted(taps)  # each once: none lost, none doubled


def test_a_line_acted_on_before_the_hello_of_a_running_reader_is_not_acted_on_again():
    """The Pi restarted, the reader did not: a tap resent from before is booked, then the reader's
    HELLO (later in its boot) arrives, then the same tap is resent once more: booked once."""
    pi = Receiver()
    tap = encode(57, "TAP", {"uid": "04A1B2C3"})[:-1]
    hello = encode(58, "HELLO", {"proto": 1, "fw": "0.1.0", "boot": "0A0B0C0D"})[:-1]
    assert pi.take(tap, 0.0)[0] is not None
    assert pi.take(hello, 0.1)[0].verb == "HELLO"
    frame, reply = pi.take(tap, 0.2)
    assert frame is None and reply == [encode(0, "ACK", {"seq": 57})]


def test_a_rebooted_readers_numbers_are_new_even_if_the_old_boot_was_never_met():
    """Lines of a boot the Pi never greeted, then the reader reboots (HELLO as its first line):
    the new boot's line 5 is a new tap, not a repeat of the old boot's line 5."""
    pi = Receiver()
    assert pi.take(encode(5, "TAP", {"uid": "0A0B0C0D"})[:-1], 0.0)[0] is not None
    assert pi.take(encode(1, "HELLO", {"proto": 1, "fw": "0.1.0", "boot": "11223344"})[:-1], 0.1)[0] is not None
    assert pi.take(encode(5, "TAP", {"uid": "0A0B0C0D"})[:-1], 0.2)[0] is not None
