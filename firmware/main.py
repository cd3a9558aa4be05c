"""The reader's Pico firmware: wires the pins, the MFRC522 and USB serial to reader.Reader and polls it every 10 ms."""

import os
import sys
import time

import machine
import mfrc522
import reader
from machine import SPI, Pin

try:
    import micropython
except ImportError:  # CPython (a laptop, the tests): no keyboard interrupt to turn off
    micropython = None  # type: ignore[assignment]  # a module on the Pico, which tools/pico_types.py checks
try:
    import select
except ImportError:
    import uselect as select  # type: ignore[no-redef]

SPI_ID = 0
PIN_SCK = 18
PIN_MOSI = 19
PIN_MISO = 16
PIN_CS = 17
PIN_RST = 20
PIN_ROLL = 15
PIN_BUZZER = 14
PIN_LED = 13

POLL_MS = 10  # one reader.poll per this long
READ_MAX = 256  # bytes taken from USB per poll, so a flood cannot starve the scan
RETRY_CHIP_MS = 1000  # an MFRC522 that does not answer is tried again this often
FAILS_BEFORE_RESET = 50  # polls in a row that raised: restart the board (the Pi sees a new HELLO)

# MicroPython's time has wrap-safe ticks; CPython's (a laptop, the tests) has only monotonic
if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    sleep_ms = time.sleep_ms
else:

    def ticks_ms():
        return int(time.monotonic() * 1000)  # type: ignore[attr-defined]  # CPython's time, not the Pico's

    def ticks_diff(a, b):
        return a - b

    def sleep_ms(ms):
        time.sleep(ms / 1000)


class Clock:
    """Milliseconds since start as an ever-growing int: ticks_ms wraps (about every 12 days on the
    RP2040), so the differences are summed with ticks_diff, which is right across a wrap."""

    def __init__(self):
        # type: () -> None
        self.last = ticks_ms()
        self.ms = 0

    def now(self):
        # type: () -> int
        t = ticks_ms()
        self.ms += ticks_diff(t, self.last)
        self.last = t
        return self.ms


class UsbSerial:
    """The Pi's end of the link: the USB CDC port that is also the REPL's stdin and stdout."""

    def __init__(self, poll_on=None, read_from=None, write_to=None):
        poll_on = sys.stdin if poll_on is None else poll_on
        self.read_from = sys.stdin.buffer if read_from is None else read_from
        self.write_to = sys.stdout.buffer if write_to is None else write_to
        self.poller = select.poll()
        self.poller.register(poll_on, select.POLLIN)

    def read(self):
        # type: () -> bytes
        """What has arrived, without waiting (stdin.read would block until its count is reached)."""
        data = b""
        while len(data) < READ_MAX and self.poller.poll(0):
            byte = self.read_from.read(1)
            if not byte:
                break
            data += byte
        return data

    def write(self, data):
        # type: (bytes) -> None
        self.write_to.write(data)


def blink(led, times, ms=100):
    # type: (Pin, int, int) -> None
    """The LED's error pattern: times quick flashes, then a pause of a second (blocking: nothing else runs)."""
    for _ in range(times):
        led.value(1)
        sleep_ms(ms)
        led.value(0)
        sleep_ms(ms)
    sleep_ms(RETRY_CHIP_MS)


def start_chip(chip, led, tries=-1):
    # type: (mfrc522.MFRC522, Pin, int) -> bool
    """chip.init() until the MFRC522 answers, blinking 2 flashes per try while it does not (a loose
    wire): the reader stays silent on the link meanwhile, so the Pi shows it offline. True once it answers."""
    while tries != 0:
        try:
            chip.init()
            return True
        except mfrc522.MFRC522Error:
            blink(led, 2)
        tries -= 1
    return False


def build(serial=None, chip_tries=-1):
    """The Reader on the Pico's pins, or None if the chip never answered within chip_tries."""
    led = Pin(PIN_LED, Pin.OUT, value=0)
    buzzer = Pin(PIN_BUZZER, Pin.OUT, value=0)
    roll = Pin(PIN_ROLL, Pin.IN, Pin.PULL_UP)
    spi = SPI(SPI_ID, baudrate=1_000_000, polarity=0, phase=0, sck=Pin(PIN_SCK), mosi=Pin(PIN_MOSI), miso=Pin(PIN_MISO))
    cs = Pin(PIN_CS, Pin.OUT, value=1)
    rst = Pin(PIN_RST, Pin.OUT, value=1)
    chip = mfrc522.MFRC522(spi, cs, rst)
    if not start_chip(chip, led, chip_tries):
        return None
    if serial is None:
        serial = UsbSerial()
    # os.urandom is the RP2040's ring oscillator: the dice and the boot id come from it
    return reader.Reader(chip, roll, buzzer, led, serial.write, os.urandom), serial


def run(loops=-1, serial=None, clock=None, sleep=None):
    """The firmware's loop (forever unless loops says how many turns, for the tests)."""
    if Pin(PIN_ROLL, Pin.IN, Pin.PULL_UP).value() == 0:
        # ROLL held at power-up: leave the REPL alone (Ctrl-C works) so new firmware can be copied on
        print("reader: ROLL held at start, firmware not started")
        return None
    if micropython is not None:
        # the REPL's Ctrl-C would stop the firmware if a 0x03 byte (line noise) came over USB
        micropython.kbd_intr(-1)
    built = build(serial)
    if built is None:
        return None
    the_reader, serial = built
    clock = Clock() if clock is None else clock
    sleep = sleep_ms if sleep is None else sleep
    fails = 0
    while loops != 0:
        try:
            the_reader.poll(clock.now(), serial.read())
            fails = 0
        except Exception:  # never fall to the REPL: a bad turn is tried again
            fails += 1
            if fails >= FAILS_BEFORE_RESET:
                machine.reset()
        loops -= 1
        sleep(POLL_MS)
    return the_reader


if __name__ == "__main__":
    run()
