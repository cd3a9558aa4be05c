"""The box's buttons: GPIO pins sampled and debounced in our code, each press handed on as a plain `Press`.

Four buttons (OK, BACK, UP/PREV, DOWN/NEXT; hardware/pins.md) join a GPIO pin
to GND, with the Pi's internal pull-ups on. gpiozero opens the pins, but the
debounce and the long press are ours, timed by an injectable clock: gpiozero's
mock pins ignore bounce_time, so a debounce left to gpiozero could not be
tested on a laptop, and its edge callbacks arrive on its own threads with its
own timing. `Buttons.step` samples every pin and moves each button's small
state machine on; the adapter's thread calls it every `poll` seconds from a
pin's edge until the contact has settled, while a hold has yet to become a
long press and while a release is unconfirmed. With every button at rest
nothing can happen but an edge, so the thread sleeps until one (looking every
REST_POLL_S all the same).

What a press means is the daemon's business: this module hands `Press(name,
long)` to one callback and imports nothing of the game (tests/test_layers.py).

- A level counts once it has held `debounce` seconds; shorter chatter is
  never a press.
- A press shorter than `long_press` is reported when the button is released.
- A hold is reported once, as a long press, the moment it reaches
  `long_press`; its release then reports nothing. So "hold BACK" acts
  without waiting for the finger to lift.
- A button already held when the adapter starts counts only from its next
  press (a stuck or leaned-on button at boot does nothing).

On a laptop, the same code runs on gpiozero's mock pins::

    from gpiozero.pins.mock import MockFactory
    factory = MockFactory()
    with Buttons(print, pin_factory=factory) as buttons:
        factory.pin(17).drive_low()   # OK goes down (pressed pins read low)
        ...                           # at least `debounce` seconds later
        factory.pin(17).drive_high()  # and up: Press(name='ok', long=False)

`mock()` builds exactly that and returns the factory beside the buttons.
Tests pass `poll=None` (no thread) and a fake clock, and call `step()`
themselves at chosen times.
"""

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# gpiozero ships no type information; `unused-ignore` keeps mypy quiet should it ever gain some
from gpiozero import DigitalInputDevice  # type: ignore[import-untyped, unused-ignore]
from gpiozero.exc import GPIOPinInUse, PinInvalidPin  # type: ignore[import-untyped, unused-ignore]

log = logging.getLogger("companion.buttons")

PINS: Mapping[str, int] = {"ok": 17, "back": 27, "up": 22, "down": 23}  # GPIO numbers, hardware/pins.md

# Float subtraction of clock readings can land a hair under a threshold the clock did reach
# (4.1 - 3.3 < 0.8); a nanosecond of slack keeps "exactly at the threshold" meaning what it says.
_SLACK = 1e-9

# At rest the thread waits for an edge; this look is only a net for an edge a pin driver dropped. Sampling
# four pins 200 times a second at rest cost about 1 % of this machine's core, a fifth of a Zero 2 W's.
REST_POLL_S = 0.25


@dataclass(frozen=True)
class Press:
    """One press of one button: its name from the pin mapping, and whether it was held long."""

    name: str
    long: bool = False


@dataclass
class _Line:
    """One button's debounce state, touched only under Buttons._lock."""

    name: str
    device: Any  # a gpiozero DigitalInputDevice; active (True) while pressed
    raw: bool = False  # the level of the latest sample
    raw_since: float = 0.0  # when the samples started showing `raw`
    down: bool = False  # the debounced level
    down_since: float = 0.0  # when the debounced hold began (its first sample)
    spent: bool = False  # this hold has nothing more to report: its long press went, or it began before us


class Buttons:
    """The buttons' adapter. `on_press` runs on the adapter's thread (or in the caller's `step`): keep it short."""

    def __init__(
        self,
        on_press: Callable[[Press], None],
        pins: Mapping[str, int] = PINS,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        debounce: float = 0.03,
        long_press: float = 0.8,
        poll: float | None = 0.005,
    ) -> None:
        if not 0 <= debounce < long_press:
            raise ValueError(
                f"buttons: debounce ({debounce} s) must be at least 0 and shorter than long_press ({long_press} s)"
            )
        if poll is not None and not poll > 0:
            raise ValueError(f"buttons: poll must be more than 0 seconds, or None for no thread (got {poll})")
        _check_mapping(pins)
        self.on_press = on_press
        self.pins: Mapping[str, int] = dict(pins)
        self.clock = clock
        self.debounce = debounce
        self.long_press = long_press
        self.poll = poll
        self._lock = threading.Lock()
        self._closed = False
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._lines: list[_Line] = []
        try:
            for name, pin in self.pins.items():
                self._lines.append(_Line(name, _open(name, pin, pin_factory)))
            now = clock()
            for line in self._lines:
                # the first look only sets the scene: a button already down is not a press of ours
                line.raw = line.down = line.spent = bool(line.device.is_active)
                line.raw_since = line.down_since = now
        except BaseException:
            # a refused pin must not leave the others reserved: a corrected mapping can be tried at once
            self._close_devices()
            raise
        self._thread: threading.Thread | None = None
        if poll is not None:
            for line in self._lines:
                # an edge wakes the thread at once instead of at the next poll; the thread still decides
                line.device.when_activated = self._wake.set
                line.device.when_deactivated = self._wake.set
            self._thread = threading.Thread(target=self._run, name="companion-buttons", daemon=True)
            self._thread.start()

    def __enter__(self) -> "Buttons":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def held(self) -> frozenset[str]:
        """The buttons down now, after debouncing (whether or not their hold has been reported)."""
        with self._lock:
            return frozenset(line.name for line in self._lines if line.down)

    def step(self, now: float | None = None) -> list[Press]:
        """Sample every pin at `now` (default: the clock), hand each press to `on_press`, and return them."""
        presses: list[Press] = []
        with self._lock:
            if self._closed:
                return presses
            if now is None:
                now = self.clock()
            for line in self._lines:
                press = self._advance(line, bool(line.device.is_active), now)
                if press is not None:
                    presses.append(press)
        # outside the lock, so a callback may call held(), step() or close() without a deadlock
        for press in presses:
            try:
                self.on_press(press)
            except Exception:
                log.exception("the button callback failed on %s", press)
        return presses

    def close(self) -> None:
        """Stop the thread and release the pins (another Buttons may take them afterwards). Safe to repeat."""
        self._stop.set()
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            # a callback stuck for a second must not hold up shutdown; step() sees _closed afterwards
            thread.join(timeout=1.0)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._close_devices()

    # ----- inside ----------------------------------------------------------------------------

    def _advance(self, line: _Line, level: bool, now: float) -> Press | None:
        """One sample of one button: the debounce, then the press it completes, if any."""
        if level != line.raw:
            line.raw, line.raw_since = level, now
        if line.raw != line.down and now - line.raw_since >= self.debounce - _SLACK:
            line.down = line.raw
            if line.down:
                # the hold is timed from the first sample that showed it, not from the end of the debounce
                line.down_since, line.spent = line.raw_since, False
            elif line.spent:
                return None
            else:
                # a hold that reached long_press unseen (the thread was starved) is still a long press
                held = line.raw_since - line.down_since
                return Press(line.name, long=held >= self.long_press - _SLACK)
        if line.down and not line.spent:
            # while a release is still unconfirmed the hold ended when it began; a bounce back resumes it
            end = line.raw_since if line.raw != line.down else now
            if end - line.down_since >= self.long_press - _SLACK:
                line.spent = True
                return Press(line.name, long=True)
        return None

    def _run(self) -> None:
        failing = False
        settle_until = 0.0
        poll = self.poll or REST_POLL_S  # the thread is started only with a poll
        while not self._stop.is_set():
            moving = self._moving() or self.clock() < settle_until
            if self._wake.wait(poll if moving else max(poll, REST_POLL_S)):
                # an edge: sampled on the poll's clock until the contact has had time to settle, whatever the
                # first sample saw. The kernel may report the edges of a bounce late, as one level, and
                # gpiozero calls back only on a change: a first sample in a bounce-up would otherwise leave
                # the thread at rest while the button is held, and a tap would be lost
                settle_until = self.clock() + self.debounce + 2 * poll
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                self.step()
                failing = False
            except Exception:
                # a pin that cannot be read is logged once, not 200 times a second, and tried again
                if not failing:
                    log.exception("the buttons could not be read")
                failing = True

    def _moving(self) -> bool:
        """Whether a button's level is still settling or a hold has yet to reach long_press: the thread must
        sample on its own clock. A hold already reported (or a button down since the start) waits for the
        release's edge: a stuck button does not keep the thread sampling. Read on the thread that steps."""
        return any(line.raw != line.down or (line.down and not line.spent) for line in self._lines)

    def _close_devices(self) -> None:
        for line in self._lines:
            try:
                # gpiozero keeps these handlers in a table keyed by id(device), so a closed device's
                # would outlive it; unset ones are left alone (unsetting them only draws a warning)
                if line.device.when_activated is not None:
                    line.device.when_activated = None
                if line.device.when_deactivated is not None:
                    line.device.when_deactivated = None
                line.device.close()
            except Exception:
                log.exception("button %s: its pin could not be released", line.name)


def _check_mapping(pins: Mapping[str, int]) -> None:
    """Refuse a mapping that cannot work, naming the button, before any pin is touched."""
    if not pins:
        raise ValueError("buttons: the pin mapping names no buttons")
    owner: dict[int, str] = {}
    for name, pin in pins.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"buttons: {name!r} is not a button name")
        # bool is an int to Python, but True is never what a configuration meant by a GPIO number
        if isinstance(pin, bool) or not isinstance(pin, int):
            raise ValueError(f"button {name}: the pin must be a GPIO number, not {pin!r}")
        if pin in owner:
            raise ValueError(f"buttons {owner[pin]} and {name} are both GPIO {pin}: each button needs its own pin")
        owner[pin] = name


def _open(name: str, pin: int, pin_factory: Any) -> Any:
    """One button's input: pressed reads low, so pull_up=True makes "active" mean "pressed"."""
    try:
        # bounce_time=None: gpiozero's own debounce would hide the bounces ours must see and time
        return DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
    except PinInvalidPin as exc:
        raise ValueError(f"button {name}: GPIO {pin} is not a pin this board has ({exc})") from exc
    except GPIOPinInUse as exc:
        raise ValueError(f"button {name}: GPIO {pin} is already in use by another device ({exc})") from exc


def mock(on_press: Callable[[Press], None], pins: Mapping[str, int] = PINS, **options: Any) -> tuple[Buttons, Any]:
    """Buttons on gpiozero's mock pins (a laptop), and the factory whose pins a test or demo drives."""
    # imported here: the mock pins are for laptops and tests, never needed on the box
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped, unused-ignore]

    factory = MockFactory()
    return Buttons(on_press, pins, pin_factory=factory, **options), factory
