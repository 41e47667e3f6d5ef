# A fake `time` for the firmware tests: ticks come from the bench clock, and sleeping
# is when the bench plays the edges that fall into the slept interval.

from utime import ticks_add, ticks_diff  # noqa: F401 - the real wrap-around arithmetic

from bench import bench


def ticks_us():
    return bench.ticks


def ticks_cpu():
    return bench.ticks


def ticks_ms():
    return bench.ticks_ms


def sleep_us(us):
    bench.advance(us)


def sleep_ms(ms):
    bench.advance(ms * 1000)


def sleep(s):
    bench.advance(int(s * 1000000))
