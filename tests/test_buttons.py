"""The buttons adapter (companion/hw/buttons.py) on gpiozero's mock pins, driven step by step with a fake clock."""

import logging
import queue
import time

import pytest
from gpiozero import Device, DigitalInputDevice
from gpiozero.pins.mock import MockFactory, MockPin

from companion.hw import buttons as buttons_module
from companion.hw.buttons import PINS, Buttons, Press

OK, BACK, UP, DOWN = PINS["ok"], PINS["back"], PINS["up"], PINS["down"]


@pytest.fixture
def factory():
    """A fresh set of mock pins per test; afterwards every pin must be free again, then the factory is reset."""
    saved = Device.pin_factory
    factory = MockFactory()
    yield factory
    # a Buttons left open would hold its pins: every header GPIO must be ours to take again
    for gpio in range(28):
        DigitalInputDevice(gpio, pull_up=True, pin_factory=factory).close()
    factory.reset()
    assert not factory.pins
    Device.pin_factory = saved


class FingerOnPin(MockPin):
    """A mock pin held low when it is opened: a mock pin's pull-up would otherwise lift it at once."""

    def _set_pull(self, value):
        self._pull = value


def stepped(factory, pins=PINS, **options):
    """Buttons with no thread, whose clock reads 0 when built; the test calls step() at the times it chooses."""
    presses = []
    options = {"clock": lambda: 0.0, "poll": None, **options}
    return Buttons(presses.append, pins, pin_factory=factory, **options), presses


def test_a_clean_press_is_one_short_press_when_the_button_is_let_go(factory):
    """Pressing OK and letting go does one thing, once: on the release, not while the finger is still down."""
    b, presses = stepped(factory)
    with b:
        factory.pin(OK).drive_low()
        assert b.step(0.0) == []
        assert b.step(0.03) == []  # down for the debounce: now held
        assert b.held() == {"ok"}
        assert b.step(0.3) == []
        factory.pin(OK).drive_high()
        assert b.step(0.31) == []
        assert b.step(0.33) == []  # released for 20 ms: not yet believed
        assert b.step(0.34) == [Press("ok", long=False)]
        assert b.step(1.0) == []
    assert presses == [Press("ok", long=False)]


def test_a_hold_is_one_long_press_the_moment_it_reaches_the_threshold_and_the_release_adds_nothing(factory):
    """Holding BACK acts after 0.8 s while the finger is still on it; lifting it afterwards does nothing more."""
    b, presses = stepped(factory)
    with b:
        factory.pin(BACK).drive_low()
        b.step(3.3)
        assert b.step(3.5) == []
        assert b.step(4.09) == []
        assert b.step(4.1) == [Press("back", long=True)]  # 4.1 - 3.3 is a hair under 0.8 in floats
        assert b.step(4.5) == []
        factory.pin(BACK).drive_high()
        assert b.step(4.6) == []
        assert b.step(5.0) == []
    assert presses == [Press("back", long=True)]


def test_chatter_shorter_than_the_debounce_is_never_a_press(factory):
    """A loose contact or a brushed button that flickers for a few milliseconds does nothing."""
    b, presses = stepped(factory)
    with b:
        t = 0.0
        for _ in range(20):
            factory.pin(UP).drive_low()
            b.step(t)
            factory.pin(UP).drive_high()
            b.step(t + 0.02)  # each contact lasts 20 ms, under the 30 ms debounce
            t += 0.05
        assert b.step(t + 1.0) == []
        assert b.held() == frozenset()
    assert presses == []


def test_a_bouncing_press_and_a_bouncing_release_still_make_exactly_one_press(factory):
    """A worn button that rattles as it goes down and as it comes up still counts once."""
    b, presses = stepped(factory)
    pin = factory.pin(DOWN)
    with b:
        t = 0.0
        for _ in range(5):  # 1 ms contacts, the way a real switch bounces
            pin.drive_low()
            b.step(t)
            pin.drive_high()
            b.step(t + 0.001)
            t += 0.002
        pin.drive_low()
        for _ in range(20):
            b.step(t)
            t += 0.005
        assert b.held() == {"down"}
        for _ in range(5):
            pin.drive_high()
            b.step(t)
            pin.drive_low()
            b.step(t + 0.001)
            t += 0.002
        pin.drive_high()
        for _ in range(20):
            b.step(t)
            t += 0.005
    assert presses == [Press("down", long=False)]


def test_a_bounce_while_held_neither_ends_the_hold_nor_delays_its_long_press(factory):
    """A finger that wobbles on a held button still gets the long press at 0.8 s, once."""
    b, presses = stepped(factory)
    pin = factory.pin(BACK)
    with b:
        pin.drive_low()
        b.step(0.0)
        b.step(0.1)
        pin.drive_high()
        b.step(0.5)
        pin.drive_low()
        b.step(0.51)
        assert b.step(0.8) == [Press("back", long=True)]
        pin.drive_high()
        b.step(1.0)
        b.step(1.1)
    assert presses == [Press("back", long=True)]


def test_a_release_just_before_the_threshold_is_a_short_press_even_when_confirmed_after_it(factory):
    """Letting go at 0.79 s is a short press, though the debounce only believes the release at 0.82 s."""
    b, presses = stepped(factory)
    with b:
        factory.pin(OK).drive_low()
        b.step(0.0)
        b.step(0.5)
        factory.pin(OK).drive_high()
        assert b.step(0.79) == []
        assert b.step(0.80) == []  # the hold ended at 0.79: no long press
        assert b.step(0.82) == [Press("ok", long=False)]
    assert presses == [Press("ok", long=False)]


def test_a_hold_nobody_sampled_at_the_threshold_is_still_long(factory):
    """If the box was too busy to look during a 1 s hold, that hold still counts as long, not short, and once."""
    b, presses = stepped(factory)
    with b:
        factory.pin(OK).drive_low()
        b.step(0.0)
        b.step(0.05)
        factory.pin(OK).drive_high()
        # the release is first seen at 1.0: the hold lasted until then as far as the box knows
        assert b.step(1.0) == [Press("ok", long=True)]
        assert b.step(1.05) == []
    assert presses == [Press("ok", long=True)]


def test_two_buttons_pressed_together_each_report_their_own_press(factory):
    """OK and BACK pressed at once are two presses, each with its own length; neither swallows the other."""
    b, presses = stepped(factory)
    with b:
        factory.pin(OK).drive_low()
        factory.pin(BACK).drive_low()
        b.step(0.0)
        b.step(0.05)
        assert b.held() == {"ok", "back"}
        factory.pin(OK).drive_high()
        b.step(0.2)
        assert b.step(0.25) == [Press("ok", long=False)]
        assert b.step(0.8) == [Press("back", long=True)]
        factory.pin(BACK).drive_high()
        factory.pin(UP).drive_low()
        factory.pin(DOWN).drive_low()
        b.step(1.0)
        b.step(1.05)
        factory.pin(UP).drive_high()
        factory.pin(DOWN).drive_high()
        b.step(1.1)
        assert sorted(b.step(1.2), key=lambda p: p.name) == [Press("down"), Press("up")]
    assert presses[:2] == [Press("ok"), Press("back", long=True)]
    assert len(presses) == 4


def test_a_button_held_when_the_adapter_starts_counts_only_from_its_next_press(factory):
    """A button stuck down (or leaned on) while the box boots does nothing until it is let go and pressed again."""
    factory.pin(DOWN, pin_class=FingerOnPin).drive_low()
    b, presses = stepped(factory)
    with b:
        b.step(0.0)
        assert b.step(5.0) == []
        factory.pin(DOWN).drive_high()
        b.step(5.1)
        assert b.step(5.2) == []
        factory.pin(DOWN).drive_low()
        b.step(6.0)
        b.step(6.1)
        factory.pin(DOWN).drive_high()
        b.step(6.2)
        assert b.step(6.3) == [Press("down")]
    assert presses == [Press("down")]


def test_pins_come_from_the_mapping_the_daemon_passes(factory):
    """A box wired to other pins (set in companion.toml) works on those pins, and the default pins do nothing."""
    b, presses = stepped(factory, {"ok": 5, "back": 6, "up": 13, "down": 19, "menu": 26})
    with b:
        assert b.pins == {"ok": 5, "back": 6, "up": 13, "down": 19, "menu": 26}
        for gpio in (OK, BACK, UP, DOWN, 5, 26):
            factory.pin(gpio).drive_low()
        b.step(0.0)
        b.step(0.05)
        for gpio in (OK, BACK, UP, DOWN, 5, 26):
            factory.pin(gpio).drive_high()
        b.step(0.1)
        b.step(0.2)
    assert presses == [Press("ok"), Press("menu")]


@pytest.mark.parametrize(
    "pins, named",
    [
        ({"ok": 17, "back": 17}, "buttons ok and back are both GPIO 17"),
        ({"ok": 17, "back": 99}, "button back: GPIO 99 is not a pin this board has"),
        ({"ok": 17, "up": "22"}, "button up: the pin must be a GPIO number, not '22'"),
        ({"ok": 17, "up": True}, "button up: the pin must be a GPIO number, not True"),
        ({}, "names no buttons"),
    ],
)
def test_a_wrong_mapping_is_refused_in_one_line_naming_the_button(factory, pins, named):
    """A typo in the buttons section stops the start with one line that says which button is wrong."""
    with pytest.raises(ValueError) as refused:
        stepped(factory, pins)
    assert named in str(refused.value)
    assert "\n" not in str(refused.value)
    # nothing stays reserved by the refused attempt: the corrected mapping opens at once
    with stepped(factory)[0]:
        pass


def test_a_pin_another_device_holds_is_refused_naming_the_button(factory):
    """Two adapters (or the OLED and a button) on one pin is a wiring mistake reported by name, not a crash."""
    with stepped(factory)[0]:
        with pytest.raises(ValueError, match="button ok: GPIO 17 is already in use"):
            stepped(factory)


def test_close_releases_the_pins_for_the_next_adapter(factory):
    """Restarting the buttons (a daemon restart, a reload) finds the pins free and the new buttons work."""
    with stepped(factory)[0] as first:
        first.step(0.0)
    first.close()  # a second close is harmless
    assert first.step(1.0) == []  # and a closed adapter reads nothing
    second, presses = stepped(factory)
    with second:
        factory.pin(OK).drive_low()
        second.step(0.0)
        second.step(0.05)
        factory.pin(OK).drive_high()
        second.step(0.1)
        second.step(0.2)
    assert presses == [Press("ok")]


def test_the_default_pin_factory_is_used_when_none_is_given(factory, monkeypatch):
    """On the box the daemon passes no factory: gpiozero's own choice of pins (here the mock) is used."""
    monkeypatch.setattr(Device, "pin_factory", factory)
    presses = []
    with Buttons(presses.append, clock=lambda: 0.0, poll=None) as b:
        factory.pin(BACK).drive_low()
        b.step(0.0)
        b.step(0.8)
    assert presses == [Press("back", long=True)]


def test_a_failing_callback_is_logged_and_the_next_press_still_arrives(factory, caplog):
    """A bug in what a press does is written to the journal; the buttons keep working."""
    seen = []

    def on_press(press):
        seen.append(press)
        raise RuntimeError("boom")

    with caplog.at_level(logging.ERROR, logger="companion.buttons"):
        with Buttons(on_press, pin_factory=factory, clock=lambda: 0.0, poll=None) as b:
            factory.pin(OK).drive_low()
            factory.pin(BACK).drive_low()
            b.step(0.0)
            b.step(0.05)
            factory.pin(OK).drive_high()
            factory.pin(BACK).drive_high()
            b.step(0.1)
            assert b.step(0.2) == [Press("ok"), Press("back")]
    assert seen == [Press("ok"), Press("back")]
    assert "the button callback failed" in caplog.text
    assert "boom" in caplog.text


@pytest.mark.parametrize("options", [{"debounce": -0.01}, {"debounce": 0.8}, {"poll": 0.0}])
def test_nonsense_timings_are_refused(factory, options):
    """A debounce as long as the long press, or a thread told to spin without pause, is refused at start."""
    with pytest.raises(ValueError, match="buttons: "):
        stepped(factory, **options)


def test_the_thread_reports_presses_by_itself_on_the_real_clock(factory):
    """On the box nobody calls step(): a press and a hold driven on the pins arrive on the adapter's thread."""
    presses: queue.Queue[Press] = queue.Queue()
    with Buttons(presses.put, pin_factory=factory, poll=0.005, long_press=0.2) as b:
        factory.pin(BACK).drive_low()
        assert presses.get(timeout=2) == Press("back", long=True)
        factory.pin(BACK).drive_high()
        factory.pin(OK).drive_low()
        wait_until(lambda: b.held() == {"ok"})
        factory.pin(OK).drive_high()
        assert presses.get(timeout=2) == Press("ok", long=False)
    assert presses.empty()


def test_a_pins_edge_wakes_the_thread_without_waiting_for_the_next_poll(factory):
    """The press is seen at the edge: even with a five-second poll it arrives at once, not seconds later."""
    presses: queue.Queue[Press] = queue.Queue()
    with Buttons(presses.put, pin_factory=factory, poll=5.0, debounce=0.0) as b:
        factory.pin(UP).drive_low()
        wait_until(lambda: b.held() == {"up"})
        factory.pin(UP).drive_high()
        assert presses.get(timeout=2) == Press("up")


def test_at_rest_the_thread_sleeps_until_an_edge_and_a_press_still_arrives_at_once(factory):
    """A box at rest for an evening reads no pins 200 times a second (a fifth of a Zero 2 W's core): with every
    button up the thread samples only on an edge (and a slow look for a lost one), and samples every `poll`
    again while a button is down, so a hold still becomes a long press on time."""
    presses: queue.Queue[Press] = queue.Queue()
    with Buttons(presses.put, pin_factory=factory, poll=0.005, long_press=0.2) as b:
        looks = []
        step = b.step
        b.step = lambda now=None: looks.append(time.monotonic()) or step(now)
        time.sleep(0.6)
        assert len(looks) <= 4  # at 0.005 s it was ~120
        factory.pin(OK).drive_low()
        assert presses.get(timeout=2) == Press("ok", long=True)
        held = [t for t in looks if t >= looks[-1] - 0.15]
        assert len(held) > 10  # sampled on the poll's clock while held
        factory.pin(OK).drive_high()
        wait_until(lambda: b.held() == frozenset())
        time.sleep(0.1)  # the release confirmed: back to rest
        before = len(looks)
        time.sleep(0.6)
        assert len(looks) - before <= 4
        factory.pin(DOWN).drive_low()
        wait_until(lambda: b.held() == {"down"})
        factory.pin(DOWN).drive_high()
        assert presses.get(timeout=2) == Press("down")


def test_a_tap_whose_first_sample_caught_a_bounce_is_still_reported(factory):
    """On a Pi the kernel may report a bouncing contact's edges late, all as "down", and gpiozero calls back
    only on a change: the thread woken by the first edge may sample a bounce-up and hear of nothing more
    until the release. It keeps sampling after every edge until the contact has settled, so the tap counts."""
    for _ in range(5):
        presses: queue.Queue[Press] = queue.Queue()
        with Buttons(presses.put, pin_factory=factory, poll=0.005) as b:
            pin, device = factory.pin(OK), b._lines[0].device
            pin._state = False  # the contact closes; the kernel reports the falling edge
            device._fire_events(factory.ticks(), True)
            pin._state = True  # a bounce up: what the woken thread samples
            time.sleep(0.02)
            pin._state = False  # settled down; the kernel's next report says "down" again: no callback
            device._fire_events(factory.ticks(), True)
            time.sleep(0.12)
            pin.drive_high()  # the finger lifts
            assert presses.get(timeout=2) == Press("ok")
        factory.reset()


def test_a_failing_callback_does_not_stop_the_thread(factory):
    """A press whose handling crashed is lost alone; the next press on the box still works."""
    presses: queue.Queue[Press] = queue.Queue()

    def on_press(press):
        presses.put(press)
        if press.name == "ok":
            raise RuntimeError("boom")

    with Buttons(on_press, pin_factory=factory, poll=0.005, long_press=0.2):
        factory.pin(OK).drive_low()
        assert presses.get(timeout=2) == Press("ok", long=True)
        factory.pin(BACK).drive_low()
        assert presses.get(timeout=2) == Press("back", long=True)


def test_mock_builds_buttons_a_laptop_can_press():
    """The demo and a laptop get buttons without a Pi: the factory returned is the one to press."""
    presses = []
    b, factory = buttons_module.mock(presses.append, clock=lambda: 0.0, poll=None)
    with b:
        factory.pin(OK).drive_low()
        b.step(0.0)
        b.step(0.05)
        factory.pin(OK).drive_high()
        b.step(0.1)
        b.step(0.2)
    assert presses == [Press("ok")]
    factory.reset()


def wait_until(condition, within=2.0):
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "not within 2 s"
        time.sleep(0.001)
