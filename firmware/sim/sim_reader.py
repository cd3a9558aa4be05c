"""A simulated card reader: the real firmware (reader.Reader and the MFRC522 driver) over a fake chip and fake pins, for the laptop daemon and the tests."""

# Imported with firmware/ and firmware/sim/ on sys.path (the daemon puts both in front), nothing more.
import random

from fake_mfrc522 import FakeMFRC522
from mfrc522 import MFRC522
from reader import DEBOUNCE_MS, Reader, protocol

HOLD_MS = DEBOUNCE_MS + 50  # press_roll holds the button this long, then leaves it up as long


class SimReader:
    """poll(now_ms, incoming) like the Pico's loop does, every ~10 ms, and get back what the reader
    wrote to the Pi; place(), remove() and press_roll() are a player's hands."""

    def __init__(self, seed=0, fw=protocol.FIRMWARE_VERSION):
        self.rng = random.Random(seed)  # the dice and the boot id repeat run to run
        self.bus = FakeMFRC522()
        self.chip = MFRC522(self.bus, self.bus.cs, self.bus.rst)
        self.chip.init()
        # pins of their own, not the machine registry's numbers: several SimReaders may run at once
        self.roll = _Pin(1)
        self.buzzer = _Pin(0)
        self.led = _Pin(0)
        self.out = []
        self.reader = Reader(self.chip, self.roll, self.buzzer, self.led, self.out.append, self._random_bytes, fw=fw)
        self.reader.beep_log = []
        self.presses = 0  # press_roll() calls not yet played out
        self.press_at = None  # when the current press went down
        self.released_at = None  # ... and when it was let up again

    def _random_bytes(self, n):
        return bytes([self.rng.getrandbits(8) for _ in range(n)])

    def place(self, uid_hex):
        """A card laid on the reader (uid as hex digits, 4, 7 or 10 bytes); it stays until remove()."""
        self.bus.place(bytes.fromhex(uid_hex))

    def remove(self):
        """The card lifted off the reader."""
        self.bus.remove()

    def press_roll(self):
        """The ROLL button pressed long enough to pass the debounce, then released: keep polling."""
        self.presses += 1

    def poll(self, now_ms, incoming=b""):
        """One turn of the reader's loop; the bytes it wrote to the Pi in it."""
        if self.presses and self.reader.started:  # the reader takes its first reading as the button at rest
            # held down HOLD_MS and until the reader has taken the press, then up as long and until it has
            # seen the button let go: a poll that comes late (a loaded machine) never swallows a press
            if self.press_at is None:
                self.press_at, self.released_at = now_ms, None
            if self.released_at is None:
                if now_ms - self.press_at >= HOLD_MS and self.reader.button_state == 0:
                    self.released_at = now_ms
                self.roll.value(0 if self.released_at is None else 1)
            elif now_ms - self.released_at >= HOLD_MS and self.reader.button_state == 1:
                self.presses -= 1  # up again long enough for the next press
                self.press_at = None
        self.reader.poll(now_ms, incoming)
        data = b"".join(self.out)
        self.out.clear()
        return data

    @property
    def beeps(self):
        """(start_ms, ms, who) of every buzzer pulse so far, who being "local" (the reader's own) or "pi"."""
        return self.reader.beep_log

    @property
    def dice_n(self):
        """How many dice the ROLL button gives now (the Pi's last DICE)."""
        return self.reader.dice_n

    @property
    def buzzing(self):
        """Whether the buzzer (and the LED with it) is on now."""
        return self.buzzer.value() == 1


class _Pin:
    """A pin level held in the object itself."""

    def __init__(self, level):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0
        return None
