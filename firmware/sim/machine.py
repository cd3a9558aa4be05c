"""A small stand-in for MicroPython's machine module (Pin, SPI, reset) so firmware/main.py runs on a laptop and in the tests."""

# A test reaches the board through these registries: LEVELS holds every pin's level by number (two Pin
# objects for one number share it, as on the chip); WIRED an object a pin drives instead (a fake chip's
# cs and rst, so main.py's own Pin(PIN_CS) selects it); BUSES the object behind each SPI id.
LEVELS = {}
WIRED = {}
BUSES = {}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        if id not in LEVELS:
            # a pulled-up input reads 1 until something pulls it down (a pressed button)
            LEVELS[id] = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if self.id in WIRED:
            return WIRED[self.id].value(v)
        if v is None:
            return LEVELS[self.id]
        LEVELS[self.id] = 1 if v else 0
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SPI:
    """Accepts the real constructor's arguments; every transfer goes to BUSES[id] (e.g. a fake chip)."""

    MSB = 0

    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0, sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate

    def __getattr__(self, name):
        # write, read, readinto, write_readinto ...: whatever the bus object implements
        return getattr(BUSES[self.id], name)


class ResetCalled(Exception):
    """machine.reset() on a laptop: the test sees it instead of the process ending."""


def reset():
    raise ResetCalled()
