"""The reader link's framing and delivery rules, one pure file shared by the Pi and the reader firmware.

Written in the MicroPython subset (no typing, no dataclasses, no f-strings; types in `# type:` comments,
which mypy reads and MicroPython skips): the firmware deploy
copies this very file onto the Pico, so both ends frame, check and acknowledge lines the same
way. firmware/PROTOCOL.md describes the wire format; firmware/vectors.json holds the test
vectors both sides are checked against. No I/O and no clock inside: the caller passes bytes in
and the time (seconds, any monotonic origin) as an argument, like the engine's dice.

A frame is one ASCII line:  <seq> <VERB>[ <key>=<value>]... *<crc>\\n
- seq: 0 for lines that are not acknowledged (ACK, PING, PONG), else 1..65535, wrapping to 1;
- VERB: capital letters and digits; keys: small letters, digits, '_'; values: [A-Za-z0-9_.:,-];
- crc: CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of every byte before " *", 4 hex digits.
"""

PROTOCOL_VERSION = 1
# The version of the reader's firmware this checkout ships (every file `companion firmware install` copies
# onto the Pico, this one among them): the reader says it in its HELLO (`fw=`), and `companion doctor`
# compares what the reader said with this. Raise it whenever any of those files changes.
FIRMWARE_VERSION = "0.2.0"
MAX_LINE = 120  # bytes, newline excluded: a longer line is noise
MAX_PENDING = 8  # sequenced lines a sender keeps unacknowledged (Klipper's buttons.c keeps 8)
RESEND_FIRST_S = 0.05  # the first resend; each further one waits twice as long ...
RESEND_MAX_S = 1.0  # ... up to this
OFFLINE_AFTER_S = 2.0  # nothing heard for this long: the other side is offline
PING_EVERY_S = 0.5  # a side with nothing to say pings this often
UNSEQUENCED = ("ACK", "PING", "PONG")
SEEN_WINDOW = 64  # sequence numbers a receiver remembers per boot, for duplicates

_VALUE_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:,-")
_KEY_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_")
_VERB_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_HEX = b"0123456789ABCDEF"

TYPE_CHECKING = False  # mypy takes this name as true: `typing` exists only there, not on the Pico
if TYPE_CHECKING:
    from typing import Any  # noqa: F401  (read in the `# type:` comments)


class LinkError(Exception):
    """A line that is not a frame; `code` says why (counted and logged by the caller, never fatal)."""

    def __init__(self, code):
        # type: (str) -> None
        super().__init__(code)
        self.code = code


def crc16(data, crc=0xFFFF):
    # type: (bytes, int) -> int
    """CRC-16/CCITT-FALSE of bytes (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


class Frame:
    """One decoded line: its sequence number, verb and fields (a dict of text to text)."""

    __slots__ = ("seq", "verb", "fields")

    def __init__(self, seq, verb, fields=None):
        # type: (int, str, dict[str, str] | None) -> None
        self.seq = seq
        self.verb = verb
        self.fields = fields or {}

    def __eq__(self, other):
        # type: (object) -> bool
        return isinstance(other, Frame) and (self.seq, self.verb, self.fields) == (other.seq, other.verb, other.fields)

    def __repr__(self):
        # type: () -> str
        return "Frame(%d, %r, %r)" % (self.seq, self.verb, self.fields)


def encode(seq, verb, fields=None):
    # type: (int, str, dict[str, Any] | None) -> bytes
    """The line for a frame, newline included; ValueError if a part breaks the format."""
    if not 0 <= seq <= 0xFFFF or (seq == 0) != (verb in UNSEQUENCED):
        raise ValueError("bad sequence number %r for %s" % (seq, verb))
    parts = [str(seq).encode(), _checked(verb.encode(), _VERB_CHARS, "verb")]
    fields = fields or {}
    for key in sorted(fields):
        value = str(fields[key]).encode()
        parts.append(_checked(key.encode(), _KEY_CHARS, "key") + b"=" + _checked(value, _VALUE_CHARS, "value"))
    body = b" ".join(parts)
    crc = crc16(body)
    line = body + b" *" + bytes(_HEX[(crc >> shift) & 0xF] for shift in (12, 8, 4, 0))
    if len(line) > MAX_LINE:
        raise ValueError("line of %d bytes is longer than %d" % (len(line), MAX_LINE))
    return line + b"\n"


def _checked(word, allowed, what):
    # type: (bytes, frozenset[int], str) -> bytes
    if not word or any(b not in allowed for b in word):
        raise ValueError("bad %s %r" % (what, word))
    return word


def decode(line):
    # type: (bytes) -> Frame
    """The Frame a line (without its newline) holds; LinkError(code) if it is not one."""
    if len(line) > MAX_LINE:
        raise LinkError("too_long")
    star = line.rfind(b" *")
    if star < 0 or len(line) - star != 6:
        raise LinkError("no_crc")
    body, digits = line[:star], line[star + 2 :]
    if any(b not in _HEX for b in digits):
        raise LinkError("no_crc")
    if int(digits, 16) != crc16(body):
        raise LinkError("bad_crc")
    words = body.split(b" ")
    if len(words) < 2 or not words[0] or any(b not in b"0123456789" for b in words[0]) or len(words[0]) > 5:
        raise LinkError("bad_seq")
    seq = int(words[0])
    raw_verb = words[1]
    if not raw_verb or any(b not in _VERB_CHARS for b in raw_verb):
        raise LinkError("bad_verb")
    verb = raw_verb.decode()
    if seq > 0xFFFF or (seq == 0) != (verb in UNSEQUENCED):
        raise LinkError("bad_seq")
    fields = {}  # type: dict[str, str]
    for word in words[2:]:
        key, eq, value = word.partition(b"=")
        if (
            not eq
            or not key
            or not value
            or any(b not in _KEY_CHARS for b in key)
            or any(b not in _VALUE_CHARS for b in value)
            or key.decode() in fields
        ):
            raise LinkError("bad_field")
        fields[key.decode()] = value.decode()
    return Frame(seq, verb, fields)


class LineSplitter:
    """Bytes as they come off the wire -> complete lines; noise longer than a line is dropped up
    to the next newline, so a torn or garbled stretch costs only the lines it touched."""

    def __init__(self):
        # type: () -> None
        self.buffer = b""
        self.dropping = False
        self.dropped = 0  # overlong stretches thrown away

    def feed(self, data):
        # type: (bytes) -> list[bytes]
        lines = []  # type: list[bytes]
        self.buffer += data
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                if len(self.buffer) > MAX_LINE:
                    self.buffer = b""
                    if not self.dropping:
                        self.dropped += 1
                    self.dropping = True
                return lines
            line, self.buffer = self.buffer[:end], self.buffer[end + 1 :]
            if self.dropping:
                self.dropping = False  # the tail of an overlong stretch
                continue
            line = line.rstrip(b"\r")
            if len(line) > MAX_LINE:  # an overlong stretch that came whole
                self.dropped += 1
                continue
            lines.append(line)


class Sender:
    """The sequenced lines one side has sent and not yet seen acknowledged, with their resends."""

    def __init__(self):
        # type: () -> None
        self.next_seq = 1
        self.pending = {}  # type: dict[int, list[Any]]  # seq -> [line, next resend time, wait]

    def full(self):
        # type: () -> bool
        return len(self.pending) >= MAX_PENDING

    def send(self, verb, fields, now):
        # type: (str, dict[str, Any] | None, float) -> bytes
        """The line to write for a new sequenced frame (ValueError when MAX_PENDING are waiting)."""
        if self.full():
            raise ValueError("%d lines already wait for an acknowledgement" % MAX_PENDING)
        seq = self.next_seq
        self.next_seq = seq % 0xFFFF + 1
        line = encode(seq, verb, fields)
        self.pending[seq] = [line, now + RESEND_FIRST_S, RESEND_FIRST_S]
        return line

    def acknowledged(self, seq):
        # type: (int) -> None
        """An ACK came for seq: stop resending it (an unknown or repeated ACK changes nothing)."""
        self.pending.pop(seq, None)

    def due(self, now):
        # type: (float) -> list[bytes]
        """The lines to write again now, oldest first; each waits twice as long for its next resend."""
        out = []  # type: list[bytes]
        for seq in sorted(self.pending):
            entry = self.pending[seq]
            if entry[1] <= now:
                entry[2] = min(entry[2] * 2, RESEND_MAX_S)
                entry[1] = now + entry[2]
                out.append(entry[0])
        return out


class Receiver:
    """Frames from the other side, each delivered once: sequenced ones are acknowledged every time
    they arrive (so the sender stops) but passed on only the first time for their boot."""

    def __init__(self):
        # type: () -> None
        self.boot = None  # type: str | None
        self.seen = []  # type: list[int]  # the last SEEN_WINDOW sequence numbers of this boot
        self.errors = {}  # type: dict[str, int]  # LinkError code -> count
        self.last_heard = None  # type: float | None

    def new_boot(self, boot, seq=1):
        # type: (str | None, int) -> None
        """A HELLO with another boot id: the other side restarted and numbers from 1 again.

        The numbers remembered are forgotten only when they cannot belong to this boot: the
        old boot was known, or this HELLO is a boot's first line (seq 1). A HELLO later in a
        boot we had not met (we restarted, the other side did not) keeps them, so a line we
        acted on just before it is not acted on again when it is resent."""
        if boot != self.boot:
            if self.boot is not None or seq == 1:
                self.seen = []
            self.boot = boot

    def take(self, line, now):
        # type: (bytes, float) -> tuple[Frame | None, list[bytes]]
        """(frame to act on or None, lines to write back): an ACK for a sequenced frame, a PONG
        for a PING. A line that is not a frame is counted in `errors` and gives nothing."""
        try:
            frame = decode(line)
        except LinkError as exc:
            self.errors[exc.code] = self.errors.get(exc.code, 0) + 1
            return None, []
        self.last_heard = now
        if frame.verb == "PING":
            return None, [encode(0, "PONG")]
        if frame.seq == 0:
            return frame, []  # ACK, PONG: for the caller's Sender and liveness
        if frame.verb == "HELLO":
            self.new_boot(frame.fields.get("boot"), frame.seq)
        reply = [encode(0, "ACK", {"seq": frame.seq})]
        if frame.seq in self.seen:
            return None, reply  # a resend of what was delivered: acknowledge it again, act once
        self.seen.append(frame.seq)
        if len(self.seen) > SEEN_WINDOW:
            self.seen.pop(0)
        return frame, reply

    def online(self, now):
        # type: (float) -> bool
        """Whether the other side was heard within OFFLINE_AFTER_S."""
        return self.last_heard is not None and now - self.last_heard <= OFFLINE_AFTER_S
