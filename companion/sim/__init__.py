"""Simulated tables: the outcomes a real table would show, and simulated players.

In simulation the simulator stands in for everything the companion cannot
know by itself: what a face-down piece turns out to be, whether a toss
lands. It also plays the seats, so a newcomer can watch a whole game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from companion.games import CHANCE, Action, State


class TableSimulator(Protocol):
    def observe(self, state: State) -> Action:
        """What the table shows next, for a state that waits for CHANCE."""

    def choose(self, state: State, seat: int) -> Action:
        """The move a simulated player in `seat` makes now."""


class RandomTable:
    """Uniform chance outcomes and players who pick any legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def observe(self, state: State) -> Action:
        return state.random_chance_action(self.rng)

    def choose(self, state: State, seat: int) -> Action:
        mine = [a for a in state.legal_actions() if a.by == seat]
        if not mine:
            raise ValueError(f"seat {seat} has no legal action now")
        return self.rng.choice(mine)


def make_simulator(game: str, *, seed: int | None = None, skills: Sequence[float] = ()) -> TableSimulator:
    """The best simulator known for `game`; skills are toss success rates per seat."""
    if game == "minotaurus":
        from companion.sim.minotaurus import MinotaurusTable

        return MinotaurusTable(seed=seed, skills=skills)
    return RandomTable(seed)


__all__ = ["CHANCE", "RandomTable", "TableSimulator", "make_simulator"]
