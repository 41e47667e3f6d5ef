# A fake `machine` module for the firmware tests: pins wired to the bench (bench.py).

from bench import Reset, bench


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.out = 0 if value is None else (1 if value else 0)
        self.handler = None
        self.trigger = 0
        self.hard = False
        bench.pins[id] = self
        self.last = bench.level(id)

    def value(self, v=None):
        if v is None:
            return self.out if self.mode == Pin.OUT else bench.level(self.id)
        self.out = 1 if v else 0
        bench.changed()
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self.handler = handler
        self.trigger = trigger if handler is not None else 0
        self.hard = hard
        self.last = bench.level(self.id)
        bench.register(self)


def reset():
    bench.resets += 1
    raise Reset()


def idle():
    pass
