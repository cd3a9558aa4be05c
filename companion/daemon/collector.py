"""Python's garbage collector kept out of a tap's way: collections run while the writer is idle.

CPython collects its young generation after every 700 new container objects, and a tap allocates about
a thousand: `companion bench table` saw a collection inside most taps, up to 1.9 ms each here (about
20x that on a Zero 2 W), and full collections of up to 59 ms. Reference counting frees almost every
object the moment it is dropped; the collector only finds cycles, and finding them can wait until
the receipt is drawn. So once the daemon has started, what it holds from startup is frozen (never
scanned again: the modules, the editions, the catalogues), the automatic threshold is raised well
above one tap's allocations, and the writer collects the young generations each time it has
published a job's events with nothing else queued (`after_job`), the old one only when it has been
quiet for OLD_AFTER_S and CPython would collect it next (`when_idle`): a full collection takes 3-18 ms
here, and at a quarter second of quiet `bench table`'s ROLLs still landed in it. The automatic
collector stays on as the backstop.

`settle()` changes the whole process, so the daemon's own process calls it (Daemon.run_until_signal), as
do the benches measuring the box as shipped; tests sharing one interpreter among many daemons do not.
"""

import gc
import time

YOUNG_THRESHOLD = 20_000  # new container objects before an automatic collection (CPython's default: 700)
IDLE_YOUNG = 2_000  # young objects worth an idle collection (a tap makes about a thousand)
OLD_AFTER_S = 2.0  # quiet this long before a full collection: taps at a table come seconds apart

_last_job = 0.0  # time.monotonic() of the writer's last job


def settle() -> None:
    """After the daemon started: collect once, freeze what survives, raise the automatic threshold."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)


def after_job() -> None:
    """The writer published a job's events and nothing waits: collect the young generations if enough came."""
    global _last_job
    _last_job = time.monotonic()
    if gc.get_count()[0] >= IDLE_YOUNG:
        gc.collect(1)


def when_idle() -> None:
    """The writer is idle: the old generation if it has been quiet OLD_AFTER_S and CPython would collect it
    next (every tenth collection of the middle one), else the young ones."""
    if gc.get_count()[2] >= gc.get_threshold()[2] and time.monotonic() - _last_job >= OLD_AFTER_S:
        gc.collect(2)
    elif gc.get_count()[0] >= IDLE_YOUNG:
        gc.collect(1)
