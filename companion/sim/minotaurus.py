"""A simulated Minotaurus table: random deal, tosses by skill, players with a memory.

The deal is drawn piece by piece as pieces are turned over: drawing without
replacement at reveal time is the same as a shuffled matrix, and keeps the
simulator consistent with any record it resumes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.games import CHANCE, Action
from companion.games.base import State
from companion.games.minotaurus import (
    Challenge,
    Claim,
    Decline,
    Flip,
    MinotaurusState,
    Pass,
    Piece,
    ReturnFaceDown,
    Reveal,
    TakePiece,
    Toss,
)

DEFAULT_SKILL = 0.5


class MinotaurusTable:
    def __init__(self, seed: int | None = None, skills: Sequence[float] = (), memory: float = 0.8) -> None:
        self.rng = random.Random(seed)
        self.skills = list(skills)
        self.memory = memory
        """How often a simulated player recalls a face-down piece it has seen."""
        self.shown: dict[int, Piece] = {}
        """What each position has shown: an undone reveal must show the same piece again."""

    def skill(self, seat: int) -> float:
        return self.skills[seat] if seat < len(self.skills) else DEFAULT_SKILL

    def observe(self, state: State) -> Action:
        assert isinstance(state, MinotaurusState) and state.to_act().chance
        tosses = [a for a in state.legal_actions() if isinstance(a, Toss)]
        if tosses:
            seat = tosses[0].player
            return Toss(CHANCE, seat, self.rng.random() < self.skill(seat))
        reveals = [a for a in state.legal_actions() if isinstance(a, Reveal)]
        before = self.shown.get(reveals[0].position)
        again = [a for a in reveals if a.piece == before]
        reveal = again[0] if again else self.rng.choice(reveals)
        self.shown[reveal.position] = reveal.piece
        return reveal

    def choose(self, state: State, seat: int) -> Action:
        assert isinstance(state, MinotaurusState)
        legal = [a for a in state.legal_actions() if a.by == seat]
        if state.phase == "decide":
            return Claim(seat) if Claim(seat) in legal else ReturnFaceDown(seat)
        if state.phase == "exchange":
            return self._exchange(state, seat, legal)
        if state.phase == "second":
            first = state.flipped[0][1]
            assert first is not None
            partner = self._remembered(state, lambda p: _partners(first, p))
            return Flip(seat, partner) if partner is not None else self._unseen_flip(state, seat, legal)
        challenges = [a for a in legal if isinstance(a, Challenge)]
        if challenges and (not state.face_down_positions() or self.rng.random() < 0.15):
            return self._best_challenge(state, challenges)
        wanted = self._remembered(
            state, lambda p: p.colour not in state.holdings[seat] and self._has_partner(state, p)
        )
        if wanted is not None:
            return Flip(seat, wanted)
        flips = [a for a in legal if isinstance(a, Flip)]
        if flips:
            return self._unseen_flip(state, seat, legal)
        return challenges[0] if challenges else Pass(seat)

    def _remembered(self, state: MinotaurusState, wanted: Callable[[Piece], bool]) -> int | None:
        for pos, piece in state.seen.items():
            face_up = any(pos == f for f, _ in state.flipped)
            if wanted(piece) and not face_up and self.rng.random() < self.memory:
                return pos
        return None

    def _has_partner(self, state: MinotaurusState, piece: Piece) -> bool:
        return any(_partners(piece, other) for pos, other in state.seen.items())

    def _unseen_flip(self, state: MinotaurusState, seat: int, legal: list[Action]) -> Action:
        flips = [a for a in legal if isinstance(a, Flip)]
        unseen = [a for a in flips if a.position not in state.seen]
        return self.rng.choice(unseen or flips)

    def _best_challenge(self, state: MinotaurusState, challenges: list[Challenge]) -> Challenge:
        """Prefer the contest whose win resolves the challenger's pair, then the highest value."""

        def gain(c: Challenge) -> tuple[bool, int]:
            mine = state.holdings[c.by][c.colour]
            return (c.value in mine, c.value)

        best = max(gain(c) for c in challenges)
        return self.rng.choice([c for c in challenges if gain(c) == best])

    def _exchange(self, state: MinotaurusState, seat: int, legal: list[Action]) -> Action:
        takes = [a for a in legal if isinstance(a, TakePiece)]
        mine = state.holdings[seat][state.challenge.colour] if state.challenge else []
        resolving = [t for t in takes if t.value in mine]
        if resolving:
            return max(resolving, key=lambda t: t.value)
        return max(takes, key=lambda t: t.value) if takes else Decline(seat)


def _partners(a: Piece, b: Piece) -> bool:
    return a.colour == b.colour and a.horn != b.horn
