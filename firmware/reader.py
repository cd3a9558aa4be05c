"""The card reader's whole behaviour (taps, the ROLL button, beeps, the link to the Pi), with every part of the board passed in."""

# No machine, time or os here: firmware/main.py wires the Pico's pins, clock and random source in,
# and the tests and firmware/sim/sim_reader.py wire fakes, so this one file is what runs everywhere.
try:
    import protocol  # on the Pico: the deploy copies companion/hw/protocol.py here
except ImportError:
    # on a laptop and in the tests: the very same file (tools/pico_types.py checks the Pico's folder, where it is absent)
    from companion.hw import protocol  # type: ignore[import-not-found, no-redef]

SCAN_EVERY_MS = 50  # the MFRC522 is asked for a card this often, not every poll
GONE_AFTER_SCANS = 4  # consecutive empty scans (~200 ms) before a card counts as lifted: one lost
# answer costs two scans (ISO 14443-3 READY state), so two spare
DEBOUNCE_MS = 30  # the ROLL button must read the same for this long before it counts
GOOD_READ_MS = 60  # the reader's own beep and LED for a card read (firmware/PROTOCOL.md)
NO_BEEPS = 3  # "no": three short beeps (ROLL while the Pi wants no dice, an event with no room)
NO_MS = 60
PING_EVERY_MS = int(protocol.PING_EVERY_S * 1000)
QUEUE_MAX = 16  # taps and rolls waiting while MAX_PENDING lines are unacknowledged
MAX_PULSES = 20  # buzzer pulses scheduled at once: a flood of BEEPs cannot eat the RAM
REBASE_MS = 3600000  # see Reader._seconds
DIE_TRIES = 64  # bytes drawn for one die before the random source is taken as broken


def die_from_byte(byte):
    """A die (1..6) from one random byte, or None for a byte to throw away: 0..251 are 42 of each
    face, so keeping only those makes every face equally likely (252..255 would favour 1..4)."""
    if byte < 252:
        return byte % 6 + 1
    return None


def _older(seq, than):
    """Whether the Pi sent line `seq` before line `than` (its numbers run 1..65535, then 1 again)."""
    return seq != than and (than - seq) % 0xFFFF < 0x8000


def _number(fields, key, low, high):
    """fields[key] as an int when it is plain decimal digits within low..high, else None."""
    text = fields.get(key)
    if not text or len(text) > 5:
        return None
    for char in text:
        if char not in "0123456789":  # int() would also take '+1', ' 1' or '1_0'
            return None
    value = int(text)
    if value < low or value > high:
        return None
    return value


class Reader:
    """Call poll(now_ms, incoming) every ~10 ms; everything the reader does happens inside it.

    rfid has scan() -> UID bytes or None; roll is the button's pin (value() 0 when pressed, pull-up);
    buzzer and led are pins with value(v); write(bytes) sends to the Pi; random_bytes(n) -> n bytes.
    """

    def __init__(self, rfid, roll, buzzer, led, write, random_bytes, fw=protocol.FIRMWARE_VERSION, boot=None):
        self.rfid = rfid
        self.roll = roll
        self.buzzer = buzzer
        self.led = led
        self.write = write
        self.random_bytes = random_bytes
        self.fw = fw
        if boot is None:
            boot = "".join(["%02X" % b for b in random_bytes(4)])
        self.boot = boot
        self.splitter = protocol.LineSplitter()
        self.receiver = protocol.Receiver()
        self.sender = protocol.Sender()
        self.queue = []  # (verb, fields) waiting for the sender to have room, oldest first
        self.dice_n = 2  # dice per ROLL until the Pi says otherwise
        self.pi_boot = None  # the boot id of the Pi's last HELLO
        self.dice_seq = None  # the sequence number of the DICE line dice_n came from (this Pi boot)
        self.hello_seq = None  # the sequence number of our last HELLO
        self.card = None  # the UID on the reader now (bytes), None when there is none
        self.misses = 0  # empty scans in a row while a card was on the reader
        self.pulses = []  # [start_ms, end_ms] of scheduled buzzer+LED pulses, in time order
        self.beep_log = None  # a list to get (start_ms, ms, who) of every pulse (the simulator), else None
        self.started = False
        self.now_ms = 0
        self.next_scan_ms = 0
        self.last_write_ms = 0
        self.origin_ms = 0  # the protocol's clock counts seconds from here
        self.button = None  # the ROLL pin's last raw reading, and since when, and its debounced state
        self.button_since = 0
        self.button_state = None
        self.sounding = None  # the level last put on the buzzer and LED
        # counters, for the tests and a look over the REPL
        self.taps = 0  # cards read (each placement once)
        self.rolls = 0  # ROLL presses that rolled dice
        self.refused_rolls = 0  # ROLL presses while the Pi wanted no dice
        self.dropped = 0  # taps and rolls lost because the queue was full
        self.ignored = 0  # Pi lines with values out of range
        self.unknown = 0  # Pi verbs this firmware does not know
        self.stale = 0  # DICE lines older than the count in force (a resend overtaken)
        self.hellos = 0  # HELLOs sent

    @property
    def link_errors(self):
        """Lines from the Pi that were not frames: overlong noise plus each refusal reason counted."""
        total = self.splitter.dropped
        for count in self.receiver.errors.values():
            total += count
        return total

    def poll(self, now_ms, incoming=b""):
        """One turn of the loop: read the Pi's bytes, resend, scan, read the button, drive the buzzer."""
        self.now_ms = now_ms
        now = self._seconds(now_ms)
        if not self.started:
            self.started = True
            self.last_write_ms = now_ms
            self.next_scan_ms = now_ms
            self._send("HELLO", self._hello_fields(), now)
        if incoming:
            for line in self.splitter.feed(incoming):
                frame, replies = self.receiver.take(line, now)
                for reply in replies:
                    self._write(reply)
                if frame is not None:
                    self._act(frame, now)
        self._flush(now)
        for line in self.sender.due(now):
            self._write(line)
        if now_ms - self.next_scan_ms >= 0:
            # from now, not from the planned time: a late poll does not bring a burst of scans
            self.next_scan_ms = now_ms + SCAN_EVERY_MS
            self._scan(now_ms, now)
        self._button(now_ms, now)
        if now_ms - self.last_write_ms >= PING_EVERY_MS:
            self._write(protocol.encode(0, "PING"))
        self._sound(now_ms)

    # --- the link --------------------------------------------------------------------------------

    def _seconds(self, now_ms):
        """now_ms as the protocol's seconds. The RP2040's floats are single precision (24-bit
        mantissa): seconds since power-up lose milliseconds after some hours, so the origin moves
        up to now whenever no line waits for an ACK (the only times the protocol keeps)."""
        if not self.sender.pending and now_ms - self.origin_ms > REBASE_MS:
            if self.receiver.last_heard is not None:
                self.receiver.last_heard -= (now_ms - self.origin_ms) / 1000
            self.origin_ms = now_ms
        return (now_ms - self.origin_ms) / 1000

    def _write(self, data):
        self.write(data)
        self.last_write_ms = self.now_ms

    def _hello_fields(self):
        self.hellos += 1
        return {"boot": self.boot, "fw": self.fw, "proto": protocol.PROTOCOL_VERSION}

    def _room(self):
        """Whether a new line may go out now: not while MAX_PENDING wait for their ACK (the Pi away),
        nor while our HELLO waits for its ACK, so the Pi has the HELLO before any tap of this boot
        (its Receiver forgets the numbers it saw when a HELLO with another boot arrives)."""
        return not self.sender.full() and self.hello_seq not in self.sender.pending

    def _put(self, verb, fields, now):
        if verb == "HELLO":
            self.hello_seq = self.sender.next_seq
        self._write(self.sender.send(verb, fields, now))

    def _send(self, verb, fields, now):
        """Send a sequenced line now, or queue it behind earlier ones while there is no room;
        False when even the queue is full. A queued line gets its sequence number only when it is
        sent, so nothing is ever sent under two numbers."""
        if self.queue or not self._room():
            if len(self.queue) >= QUEUE_MAX:
                self.dropped += 1  # the oldest are kept: they happened first
                return False
            self.queue.append((verb, fields))
            return True
        self._put(verb, fields, now)
        return True

    def _flush(self, now):
        while self.queue and self._room():
            verb, fields = self.queue.pop(0)
            self._put(verb, fields, now)

    def _act(self, frame, now):
        """A frame from the Pi, delivered once (protocol.Receiver drops the repeats)."""
        verb, fields = frame.verb, frame.fields
        if verb == "ACK":
            seq = _number(fields, "seq", 1, 0xFFFF)
            if seq is not None:
                self.sender.acknowledged(seq)
        elif verb == "PONG":
            pass  # heard: protocol.Receiver noted the time
        elif verb == "HELLO":
            boot = fields.get("boot")
            if boot != self.pi_boot:  # the Pi opened the port again: say who we are
                self.pi_boot = boot
                self.dice_seq = None  # its lines are numbered from 1 again
                fields = self._hello_fields()
                if self.queue or not self._room():
                    # ahead of queued taps (the Pi holds taps until it has this HELLO), and only one
                    self.queue = [item for item in self.queue if item[0] != "HELLO"]
                    self.queue.insert(0, ("HELLO", fields))
                else:
                    self._put("HELLO", fields, now)
        elif verb == "DICE":
            n = _number(fields, "n", 0, 3)
            if n is None:
                self.ignored += 1
            elif self.dice_seq is not None and _older(frame.seq, self.dice_seq):
                # a resend of an earlier count that arrives after a newer one (lines are acted on as
                # they arrive): the Pi's last word stands, or ROLL would throw the old number of dice
                self.stale += 1
            else:
                self.dice_n = n
                self.dice_seq = frame.seq
        elif verb == "BEEP":
            times = _number(fields, "times", 1, 5)
            ms = _number(fields, "ms", 10, 1000)
            if times is None or ms is None:
                self.ignored += 1
            else:
                self._beep(self.now_ms, times, ms, "pi")
        else:
            self.unknown += 1  # acknowledged by the Receiver, so a newer Pi never stalls

    # --- the card ----------------------------------------------------------------------------------

    def _scan(self, now_ms, now):
        uid = self.rfid.scan()
        if uid is None:
            if self.card is not None:
                self.misses += 1
                if self.misses >= GONE_AFTER_SCANS:
                    self.card = None  # lifted: the next read of any card is a new tap
                    self.misses = 0
            return
        self.misses = 0
        if uid == self.card:
            return  # the same card still held (or read again after a flicker)
        self.card = uid
        self.taps += 1
        if self._send("TAP", {"uid": "".join(["%02X" % b for b in uid])}, now):
            self._beep(now_ms, 1, GOOD_READ_MS, "local")  # in this very poll: well within 30 ms of the read
        else:
            self._beep(now_ms, NO_BEEPS, NO_MS, "local")

    # --- the ROLL button ---------------------------------------------------------------------------

    def _button(self, now_ms, now):
        raw = self.roll.value()
        if self.button_state is None:
            # the first reading is the resting state: a button held at power-up is no press
            self.button = self.button_state = raw
            self.button_since = now_ms
            return
        if raw != self.button:
            self.button = raw
            self.button_since = now_ms
        elif raw != self.button_state and now_ms - self.button_since >= DEBOUNCE_MS:
            self.button_state = raw
            if raw == 0:  # the press edge (pull-up: pressed reads 0)
                self._roll(now_ms, now)

    def _roll(self, now_ms, now):
        if self.dice_n == 0:
            self.refused_rolls += 1
            self._beep(now_ms, NO_BEEPS, NO_MS, "local")
            return
        dice = []
        for _ in range(self.dice_n):
            die = self._die()
            if die is None:  # a random source giving only 252..255 is broken
                self._beep(now_ms, NO_BEEPS, NO_MS, "local")
                return
            dice.append(str(die))
        self.rolls += 1
        if not self._send("ROLL", {"dice": ",".join(dice)}, now):
            self._beep(now_ms, NO_BEEPS, NO_MS, "local")

    def _die(self):
        for _ in range(DIE_TRIES):
            die = die_from_byte(self.random_bytes(1)[0])
            if die is not None:
                return die
        return None

    # --- the buzzer and LED ------------------------------------------------------------------------

    def _beep(self, now_ms, times, ms, who):
        """Schedule times pulses of ms (with ms of silence between); nothing here waits. The reader's
        own beeps start at once, cutting whatever sounds (a read is acknowledged within 30 ms even
        during a long verdict); the Pi's follow what is scheduled, so its verdict is heard apart."""
        start = now_ms
        if who == "local":
            self.pulses = []
        elif self.pulses and self.pulses[-1][1] + ms > start:
            start = self.pulses[-1][1] + ms
        for _ in range(times):
            if len(self.pulses) >= MAX_PULSES:
                return
            self.pulses.append([start, start + ms])
            if self.beep_log is not None:
                self.beep_log.append((start, ms, who))
            start += 2 * ms

    def _sound(self, now_ms):
        while self.pulses and now_ms - self.pulses[0][1] >= 0:
            self.pulses.pop(0)
        on = 1 if self.pulses and now_ms - self.pulses[0][0] >= 0 else 0
        if on != self.sounding:
            self.sounding = on
            self.buzzer.value(on)
            self.led.value(on)
