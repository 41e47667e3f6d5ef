# The test bench around the firmware: a clock, the beams' light paths, and an edge
# train played into the pins' interrupts at the exact microsecond of each edge.
#
# The firmware's endless main loop sleeps between polls; every sleep advances the
# bench clock and plays the edges that fall into it, with the clock set to each edge's
# time while its interrupt handler runs. Hard handlers run with the heap locked, as on
# the Pico, so a handler that allocates fails the test with MemoryError.
# None of this is deployed: it lives under firmware/tests/ and only runs under Node.

import json

import micropython

TICKS_PERIOD = 1 << 30
IRQ_FALLING = 4
IRQ_RISING = 8


class TrainDone(BaseException):
    # Not an Exception, so the firmware's error handler lets it through, like Ctrl-C.
    pass


class Reset(BaseException):
    pass


class Bench:
    def __init__(self):
        self.now = 0  # absolute microseconds (may exceed a small int: never touched in handlers)
        self.ticks = 0  # now modulo 2**30, what ticks_us returns
        self.ticks_ms = 0
        self.origin = None  # absolute time of the first interrupt registration: edge time 0
        self.pins = {}
        self.light = {}  # receiver gpio -> [occluded, emitter gpio or -1 (lit anyway), active_low, fault]
        self.events = []
        self.next_event = 0
        self.end_us = 0
        self.errors = []
        self.irq_calls = 0
        self.hard = True
        self.resets = 0
        self.emitters_on = 1

    def configure(self, pinmap, scenario):
        self._set_now(scenario.get("start_ticks", 0))
        names = {}
        switch = pinmap.get("emitters") or {}
        emitter = switch.get("node_gpio")
        self.emitters_on = 1 if switch.get("active_high", True) else 0
        for spec in pinmap["beams"]:
            fault = scenario.get("faults", {}).get(spec["name"], "")
            occluded = spec["name"] in scenario.get("initially_blocked", [])
            # The knock sensor's comparator does not see the emitters: it reads "clear" unless
            # "occluded" (a pulse), with the emitters off too.
            follows = emitter is not None and spec.get("level") != "knock"
            self.light[spec["node_gpio"]] = [occluded, emitter if follows else -1,
                                             spec.get("active_low", True), fault]
            names[spec["name"]] = spec["node_gpio"]
        events = [(t, names[b], 1 if blocked else 0) for t, b, blocked in scenario.get("edges", [])]
        events += [(t, names[b], -1) for t, b in scenario.get("spurious", [])]
        # MicroPython's sort is not stable: the index keeps edges of one microsecond in order.
        order = sorted(range(len(events)), key=lambda i: (events[i][0], i))
        self.events = [events[i] for i in order]
        self.end_us = scenario["end_us"]

    def _set_now(self, now):
        self.now = now
        self.ticks = now % TICKS_PERIOD
        self.ticks_ms = (now // 1000) % TICKS_PERIOD

    def level(self, gpio):
        # Runs inside hard handlers too: no allocation here.
        beam = self.light.get(gpio)
        if beam is None:
            return 1
        if beam[3] == "unplugged":  # open-collector output gone: the pull-up reads clear
            lit = True
        elif beam[3] == "dead_emitter":
            lit = False
        else:
            emitter = self.pins.get(beam[1]) if beam[1] >= 0 else None
            lit = not beam[0] and (beam[1] < 0 or (emitter is not None and emitter.out == self.emitters_on))
        if beam[2]:
            return 1 if lit else 0
        return 0 if lit else 1

    def register(self, pin):
        if pin.handler is not None and self.origin is None:
            self.origin = self.now

    def changed(self, spurious_gpio=-1):
        for gpio in self.light:
            pin = self.pins.get(gpio)
            if pin is None:
                continue
            level = self.level(gpio)
            if level != pin.last:
                edge = IRQ_RISING if level else IRQ_FALLING
                pin.last = level
            elif gpio == spurious_gpio:
                edge = pin.trigger  # an interrupt whose pulse was over before the handler read the pin
            else:
                continue
            if pin.handler is not None and pin.trigger & edge:
                self._call(pin)

    def _call(self, pin):
        self.irq_calls += 1
        if not pin.hard:
            self.hard = False
        try:
            micropython.heap_lock()
            try:
                pin.handler(pin)
            finally:
                micropython.heap_unlock()
        except Exception as error:  # reported to the test
            self.errors.append("%s in handler of GP%d: %s" % (type(error).__name__, pin.id, error))

    def advance(self, us):
        if self.origin is not None and self.now - self.origin >= self.end_us:
            raise TrainDone()
        target = self.now + us
        while self.origin is not None and self.next_event < len(self.events):
            t, gpio, blocked = self.events[self.next_event]
            if self.origin + t > target:
                break
            self.next_event += 1
            self._set_now(self.origin + t)
            if blocked >= 0:
                self.light[gpio][0] = bool(blocked)
                self.changed()
            else:
                self.changed(gpio)
        self._set_now(target)

    def report(self):
        return {
            "errors": self.errors,
            "irq_calls": self.irq_calls,
            "hard_irqs": self.hard,
            "resets": self.resets,
            "edges_played": self.next_event,
            "pins": {str(gpio): {"mode": p.mode, "pull": p.pull, "irq": p.handler is not None,
                                 "trigger": p.trigger} for gpio, p in self.pins.items()},
        }


bench = Bench()


def run(scenario_path, report_path, pinmap_path="pinmap.json"):
    try:
        with open(pinmap_path) as f:
            pinmap = json.load(f)
    except OSError:  # the firmware must cope with that itself: the bench wires no beams
        pinmap = {"beams": []}
    with open(scenario_path) as f:
        scenario = json.load(f)
    bench.configure(pinmap, scenario)
    outcome = "train done"
    try:
        __import__(scenario.get("entry", "main"))
        outcome = "firmware returned"
    except TrainDone:
        pass
    except Reset:
        outcome = "reset"
    report = bench.report()
    report["outcome"] = outcome
    with open(report_path, "w") as f:
        json.dump(report, f)
