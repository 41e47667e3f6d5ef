# The sensor node: self-test, hello, then edges and heartbeats over USB serial.
#
# Times sent are microseconds since sensing started (interrupts enabled): the
# main loop unwraps ticks_us (which wraps every 2**30 us, about 18 minutes)
# so the daemon never sees time go backwards.

import binascii
import json
import time

from beams import Beam, EdgeRecorder, self_test
from framing import FrameWriter

VERSION = "1.0.0"
PROTOCOL = 1
HELLO_EVERY = 4  # repeat hello and self-test every this many heartbeats (2 s), for a late reader
PINMAP = "pinmap.json"
KNOCK = "knock"  # the pin map's level of the knock sensor: no light, so no emitter self-test


class SensorNode:
    def __init__(self, beams, writer, trigger, clock_us=time.ticks_us, sleep_ms=time.sleep_ms,
                 heartbeat_ms=500, pinmap_crc="00000000", emitters=None, emitters_on=1, capacity=128):
        self.beams = beams
        self.emitters = emitters
        self._emitters_on = emitters_on
        self.writer = writer
        self._trigger = trigger
        self._clock = clock_us
        self._sleep_ms = sleep_ms
        self._period_us = heartbeat_ms * 1000
        self._heartbeat_ms = heartbeat_ms
        self._pinmap_crc = pinmap_crc
        self.recorder = EdgeRecorder(beams, clock_us, capacity)
        self.blocked = [False] * len(beams)
        self.results = []
        self.glitches = 0
        self._overflows = 0
        self._ref_ticks = 0
        self._ref_us = 0
        self._next_beat = 0
        self._beats = 0

    def now_us(self, ticks=None):
        # ticks_diff is exact within +-2**29 us of the reference, and the reference moves at
        # every heartbeat, so any recorded edge unwraps correctly.
        if ticks is None:
            ticks = self._clock()
        us = self._ref_us + time.ticks_diff(ticks, self._ref_ticks)
        if us > self._ref_us:
            self._ref_ticks = ticks
            self._ref_us = us
        return us

    def start(self):
        self.results = self_test(self.beams, self.emitters, self._emitters_on, self._sleep_ms)
        self._announce()
        self.recorder.enable(self._trigger)
        # Levels are read after the interrupts are on: an edge in between is then recorded,
        # and dropped as a repeat if the read already saw it.
        self._ref_ticks = self._clock()
        self._ref_us = 0
        self.blocked = [beam.is_blocked() for beam in self.beams]

    def _announce(self):
        send = self.writer.send
        send("V", "fw=%s proto=%d hb=%d beams=%s pinmap=%s" % (
            VERSION, PROTOCOL, self._heartbeat_ms, ",".join(b.name for b in self.beams), self._pinmap_crc))
        for beam, result in zip(self.beams, self.results):
            send("S", "b=%s r=%s" % (beam.name, result))

    def poll(self):
        recorder = self.recorder
        while recorder.pending():
            ticks, index, level = recorder.take()
            blocked = level == self.beams[index].blocked_level
            if blocked == self.blocked[index]:
                # The pin changed back before the handler read it: a pulse shorter than the
                # interrupt latency (far below the 1 ms a ring takes to cross a beam).
                self.glitches += 1
                continue
            self.blocked[index] = blocked
            self.writer.send("E", "b=%s blocked=%d t=%d" % (
                self.beams[index].name, 1 if blocked else 0, self.now_us(ticks)))
        if recorder.overflows != self._overflows:
            # Edges were dropped, so the tracked states may be wrong, and a wrong one would make the
            # next real edge look like a repeat. The pins are the truth again; the heartbeat carries
            # them and the overflow count, on which the daemon voids the toss and resyncs.
            self._overflows = recorder.overflows
            self.blocked = [beam.is_blocked() for beam in self.beams]
        now = self.now_us()
        if now >= self._next_beat:
            if self._beats % HELLO_EVERY == 0 and self._beats:
                self._announce()
            names = sorted(b.name for b, on in zip(self.beams, self.blocked) if on)
            self.writer.send("B", "t=%d blk=%s ovf=%d gl=%d" % (
                now, ",".join(names) or "-", recorder.overflows, self.glitches))
            self._beats += 1
            self._next_beat += self._period_us
            if self._next_beat <= now:  # stalled for more than a period: no burst of catch-up beats
                self._next_beat = now + self._period_us

    def run(self):
        while True:
            self.poll()
            self._sleep_ms(1)


def build(machine, writer, pinmap_path=PINMAP, clock_us=time.ticks_us, sleep_ms=time.sleep_ms):
    """The node as wired in pinmap.json (the same file the daemon reads)."""
    with open(pinmap_path, "rb") as f:
        raw = f.read()
    pinmap = json.loads(raw)
    Pin = machine.Pin
    # Each entry: a beam ("level" "base" or "tip") or the knock sensor ("level" "knock", not optical).
    # Its "horn" and light "path" are the daemon's and the simulator's business, not the node's.
    beams = [Beam(spec["name"], Pin(spec["node_gpio"], Pin.IN, Pin.PULL_UP), spec.get("active_low", True),
                  spec.get("level") != KNOCK)
             for spec in pinmap["beams"]]
    switch = pinmap.get("emitters") or {}
    emitters = None
    emitters_on = 1 if switch.get("active_high", True) else 0
    if switch.get("node_gpio") is not None:
        emitters = Pin(switch["node_gpio"], Pin.OUT, value=emitters_on)
    return SensorNode(beams, writer, Pin.IRQ_RISING | Pin.IRQ_FALLING, clock_us, sleep_ms,
                      pinmap["node"]["heartbeat_ms"], "%08x" % binascii.crc32(raw), emitters, emitters_on)


def main():
    import machine
    import micropython
    import sys

    if hasattr(micropython, "alloc_emergency_exception_buf"):  # not in every port
        micropython.alloc_emergency_exception_buf(100)  # so a failing hard handler can still say why
    writer = FrameWriter(sys.stdout.buffer.write)
    try:
        node = build(machine, writer)
        node.start()
        node.run()
    except Exception as error:  # any failure: tell the daemon, then start over
        code = type(error).__name__
        for _ in range(5):
            writer.send("F", "code=%s" % code)
            time.sleep_ms(1000)
        machine.reset()
