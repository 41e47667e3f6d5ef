"""The physical horn for the simulated table: a player of some skill throws, physics decides."""

from __future__ import annotations

import random

from companion.sim.ringtoss.figure import Figure, load_figure
from companion.sim.ringtoss.tosses import PhysicalToss, Thrower, draw_throw, physical_toss


def thrower_of_skill(skill: float) -> Thrower:
    """A player whose rings come down the closer to the tip the higher their skill (0-1).

    Skill 0.5 scatters the ring's centre by 30 mm around the tip, which rings about half of the
    tosses on the default figure; 1.0 by 5 mm, 0.0 by 70 mm.
    """
    skill = min(1.0, max(0.0, skill))
    scatter = 70.0 - 65.0 * skill if skill > 0.5 else 70.0 - 80.0 * skill
    return Thrower(aim_scatter_mm=(scatter, scatter))


class PhysicalHorn:
    """Tosses on demand: each one thrown, flown, bounced and come to rest by the rigid-body simulation."""

    def __init__(self, figure: Figure | None = None, seed: int | None = None) -> None:
        self.figure = figure or load_figure()
        self.rng = random.Random(seed)

    def toss(self, skill: float = 0.5, *, arrive_us: int = 0) -> PhysicalToss:
        """A toss whose sensor changes start about `arrive_us` after the call's zero."""
        throw = draw_throw(self.figure, self.rng, thrower_of_skill(skill))
        toss = physical_toss(self.figure, throw, rng=random.Random(self.rng.random()))
        return toss.shifted(arrive_us)
