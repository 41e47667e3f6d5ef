"""Physically simulated tosses for the sensor tests, made once per test session (a tenth of a second each)."""

from __future__ import annotations

import functools
import random

from companion.sim.ringtoss.figure import load_figure
from companion.sim.ringtoss.tosses import PhysicalToss, draw_throw, physical_toss

SEED = 20261125


@functools.lru_cache(maxsize=4)
def physical_tosses(count: int = 60, seed: int = SEED, glitch_rate: float = 0.3) -> tuple[PhysicalToss, ...]:
    """`count` tosses of the rigid-body simulator with the default figure, beams and receivers."""
    figure = load_figure()
    out = []
    for index in range(count):
        rng = random.Random(seed * 1_000_003 + index)
        out.append(physical_toss(figure, draw_throw(figure, rng), rng=rng, glitch_rate=glitch_rate))
    return tuple(out)


def toss_of_kind(*kinds: str, count: int = 60) -> PhysicalToss:
    """The first simulated toss of one of `kinds` (the set is large enough to hold every common kind)."""
    for toss in physical_tosses(count):
        if toss.kind in kinds:
            return toss
    raise LookupError(f"no toss of kind {kinds} among the first {count} simulated tosses")
