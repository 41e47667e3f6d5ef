"""Recorded Minotaurus games for the history and statistics tests, made by the simulated table.

Games are written straight into the record (one transaction each) rather than
played input by input through the referee, which would commit every event.
Each toss says where it came from: the sensors (with the horn in its evidence,
as companion/sensors/judge.py writes it) or the host (no evidence).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from companion.games import CHANCE, get_game
from companion.games.minotaurus import Toss
from companion.record.store import Event, RecordStore
from companion.sim.minotaurus import MinotaurusTable

OPTIONS = {"players": 3, "variant": "simplified"}
HORNS = ("left", "right")


@dataclasses.dataclass(frozen=True)
class TossMade:
    seat: int
    success: bool
    horn: str | None
    """The horn in the sensors' evidence; None for a host-entered toss or a miss."""


@dataclasses.dataclass
class Played:
    game_id: int
    names: list[str]
    scores: list[int]
    ranking: list[list[int]]
    tosses: list[TossMade]
    events: int


def evidence(success: bool, horn: str | None) -> dict[str, Any]:
    return {"judge": "beams", "outcome": "success" if success else "failure", "horn": horn, "edges": []}


def record_game(
    store: RecordStore,
    names: Sequence[str],
    *,
    seed: int,
    created: datetime | None = None,
    stop_before_toss: bool = False,
    skills: Sequence[float] = (0.5, 0.5, 0.5),
) -> Played:
    """Play a game with the simulated table and write its record; `stop_before_toss` leaves it unfinished,
    waiting for its first toss."""
    game = get_game("minotaurus")
    options = game.validate_options(OPTIONS)
    state = game.setup(options)
    table = MinotaurusTable(seed, skills=skills, memory=1.0)
    rng = random.Random(seed)
    start = created or datetime(2026, 11, 1, 18, 0, tzinfo=UTC)
    events: list[Event] = []
    tosses: list[TossMade] = []
    while not state.is_over():
        to_act = state.to_act()
        action = table.observe(state) if to_act.chance else table.choose(state, to_act.seats[0])
        source, proof = ("camera" if to_act.chance else "host"), None
        if isinstance(action, Toss):
            if stop_before_toss:
                break
            by_sensor = rng.random() < 0.75
            horn = rng.choice(HORNS) if action.success and by_sensor else None
            source, proof = ("sensor", evidence(action.success, horn)) if by_sensor else ("host", None)
            tosses.append(TossMade(action.player, action.success, horn))
        at = (start + timedelta(seconds=10 * (len(events) + 1))).isoformat(timespec="milliseconds")
        events.append(Event(0, len(events) + 1, at, "action", source, action.to_json(), proof))
        state = state.apply(action)
    over = state.is_over()
    game_id = store.import_game(
        "minotaurus", options, list(names), start.isoformat(timespec="milliseconds"), over, events
    )
    return Played(
        game_id,
        list(names),
        list(state.scores()),
        [list(group) for group in state.ranking()] if over else [],
        tosses,
        len(events),
    )


def toss_now(seat: int, success: bool) -> dict[str, Any]:
    return Toss(CHANCE, seat, success).to_json()
