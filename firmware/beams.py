# Break beams on the node and the interrupt handlers that timestamp their edges.
#
# The handlers are hard interrupts: they run the moment a pin changes, so the
# timestamp is exact, but they must not allocate memory. Each one stores the
# tick count, the beam's index and the pin level into preallocated arrays (a
# ring buffer) and advances its head: that is the flag the main loop polls.
# Everything else (unwrapping ticks, framing, writing) happens in the main loop.

from array import array


class Beam:
    """One sensor line read through a pin with a pull-up: an IR break beam's receiver, or the knock
    sensor (optical=False: a piezo's comparator, which pulses on an impact and has no light to test)."""

    def __init__(self, name, receiver, active_low=True, optical=True):
        self.name = name
        self.receiver = receiver
        self.blocked_level = 0 if active_low else 1
        self.optical = optical

    def is_blocked(self):
        return self.receiver.value() == self.blocked_level


def self_test(beams, emitters, on_level, sleep_ms, settle_ms=20):
    """Each beam's result: "ok", "untested", "blocked" or "stuck_clear" (see PROTOCOL.md).

    With the emitters' power switch wired, every receiver must follow it: blocked
    with the emitters off, clear with them on. That catches an unplugged or dead
    receiver (it reads clear forever and would call every ringer a failure).
    Without the switch, all we can check is that each beam is clear at start.
    The knock sensor has no light: it is always "untested" (switching the
    emitters off would make it read "stuck_clear", and a knock pulse at boot
    is no fault).
    """
    if emitters is None:
        return ["blocked" if beam.optical and beam.is_blocked() else "untested" for beam in beams]
    emitters.value(1 - on_level)
    sleep_ms(settle_ms)
    dark = [beam.is_blocked() for beam in beams]
    emitters.value(on_level)
    sleep_ms(settle_ms)
    results = []
    for beam, was_dark in zip(beams, dark):
        if not beam.optical:
            results.append("untested")
        elif beam.is_blocked():
            results.append("blocked")
        else:
            results.append("ok" if was_dark else "stuck_clear")
    return results


class EdgeRecorder:
    """A ring buffer of (ticks, beam index, level) filled by the pins' interrupt handlers."""

    def __init__(self, beams, clock_us, capacity=128):
        if capacity & (capacity - 1):
            raise ValueError("capacity must be a power of two")
        self.beams = beams
        self._clock = clock_us
        self._ticks = array("I", [0] * capacity)
        self._index = bytearray(capacity)
        self._level = bytearray(capacity)
        self._mask = capacity - 1
        self.head = 0  # written by the handlers only
        self.tail = 0  # written by the main loop only
        self.overflows = 0

    def enable(self, trigger):
        for i, beam in enumerate(self.beams):
            beam.receiver.irq(self._handler(i), trigger, hard=True)

    def _handler(self, index):
        # A closure over two cells only: MicroPython calls closures with at most five
        # cells plus arguments without allocating (more would fail in a hard interrupt).
        def on_edge(pin):
            self._record(index, pin)

        return on_edge

    def _record(self, index, pin):
        t = self._clock()  # first, so the timestamp is as close to the edge as possible
        head = self.head
        after = (head + 1) & self._mask
        if after == self.tail:
            self.overflows += 1
            return
        self._ticks[head] = t
        self._index[head] = index
        self._level[head] = pin.value()
        self.head = after

    def pending(self):
        return self.head != self.tail

    def take(self):
        # One recorded edge, oldest first, as (ticks, beam index, level); call only if pending().
        tail = self.tail
        item = (self._ticks[tail], self._index[tail], self._level[tail])
        self.tail = (tail + 1) & self._mask
        return item
