"""Can the game still reach its end? If not, the companion ends it (see docs/rulings.md, Minos).

The text's end (every settlement field in play built, two cities) can become
unreachable: say no player has a ship left, none can ever buy one, and the
last unbuilt field lies on an island no guard can reach. A real table would
stop there; the companion stops too. The test is generous: it answers "can
still end" whenever some sequence of moves, purchases and conquests might
get there, ignoring dice, money amounts and blocking pieces, so it never
ends a game that could still be finished.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from companion.games.minos.data import (
    BOARD,
    BUILD_TALENTS,
    CITIES_TO_END,
    CITY_SIZE,
    HARBOUR,
    HARBOURS_FOR_A_SHIP,
    WALL,
)

if TYPE_CHECKING:
    from companion.games.minos.state import MinosState


@functools.cache
def _components(graph_name: str, blocked: frozenset[str]) -> dict[str, frozenset[str]]:
    """Each field's connected area of one graph, fields out of play cut out (cached per removal set)."""
    graph = BOARD.ship_neighbours if graph_name == "sea" else BOARD.guard_neighbours
    area: dict[str, frozenset[str]] = {}
    for start in graph:
        if start in area or start in blocked:
            continue
        seen = {start}
        queue = deque([start])
        while queue:
            for nxt in graph[queue.popleft()]:
                if nxt not in seen and nxt not in blocked:
                    seen.add(nxt)
                    queue.append(nxt)
        frozen = frozenset(seen)
        area.update(dict.fromkeys(seen, frozen))
    return area


def _spread(graph_name: str, sources: Iterable[str], blocked: frozenset[str]) -> set[str]:
    area = _components(graph_name, blocked)
    reached: set[str] = set()
    for source in sources:
        if source in area and source not in reached:
            reached |= area[source]
    return reached


def _may_get_a_ship(state: MinosState, settlement: str) -> bool:
    """Whether a ship could one day be bought here: two harbour buildings there or still room for them."""
    built = state.buildings[settlement]
    missing = max(0, HARBOURS_FOR_A_SHIP - built.count(HARBOUR))
    room = CITY_SIZE - len(built) - (0 if WALL in built else 1)  # a city's last place is its wall's
    return missing <= room and state.building_supply[HARBOUR] >= missing


def reachable_settlements(state: MinosState, seat: int, shipyards: frozenset[str]) -> set[str]:
    """Settlement fields `seat` might one day hold a piece on: by land, by sea, and with ships bought
    in `shipyards`, the settlements that have, or may still build, two harbour buildings."""
    removed = frozenset(state.removed)
    ship_fields = {f for f, owners in state.ships.items() if seat in owners}
    if seat == state.current:
        ship_fields |= set(state.aboard)
    guard_fields = {f for f, (owner, _n) in state.guards.items() if owner == seat}
    reached: set[str] = set()
    while True:
        # A guard walks its whole land area; a settlement reached gives a free guard there too.
        land = _spread("land", guard_fields | reached, removed)
        sea = _spread("sea", ship_fields | ((land | reached) & shipyards), removed)
        now = (land | sea) & BOARD.settlement_set
        if now <= reached:
            return reached
        reached |= now


def _builder_reaches(state: MinosState) -> Iterator[set[str]]:
    """Where players might one day build, player by player, cheapest first.

    A player can pay for a building with cash for a first one or with income; a player with
    neither may still take a settlement with buildings (or one that others may yet build on)
    within reach of his pieces, and draw income from it. So the poor join in as the reach of
    those who can pay grows, until nothing changes.
    """
    removed = frozenset(state.removed)
    paying = {p for p in state.players_in() if state.cash[p] >= BUILD_TALENTS[0]}
    # Usually enough on its own: where the ships of players with cash may sail.
    yield _spread("sea", [f for f, owners in state.ships.items() if not paying.isdisjoint(owners)], removed)
    paying |= {p for p in state.players_in() if state.value(p) > 0}
    shipyards = frozenset(s for s in state.active_settlements() if _may_get_a_ship(state, s))
    builders: set[str] = set()
    for seat in sorted(paying):
        reach = reachable_settlements(state, seat, shipyards)
        builders |= reach
        yield reach
    poor = [p for p in state.players_in() if p not in paying]
    while poor:
        joining = [
            p
            for p in poor
            if any(state.buildings[s] or s in builders for s in reachable_settlements(state, p, frozenset()))
        ]
        if not joining:
            return
        for seat in joining:
            poor.remove(seat)
            reach = reachable_settlements(state, seat, shipyards)
            builders |= reach
            yield reach


def can_still_end(state: MinosState) -> bool:
    if state.end_reached():
        return True
    active = state.active_settlements()
    cities = sum(len(state.buildings[s]) == CITY_SIZE for s in active)
    builders: set[str] = set()  # fields some player who can pay might reach
    for reach in _builder_reaches(state):
        builders |= reach
        if all(state.buildings[s] or s in builders for s in active):
            growing = [s for s in active if s in builders and len(state.buildings[s]) < CITY_SIZE]
            walls_needed = sum(WALL not in state.buildings[s] for s in growing)
            possible = len(growing) - walls_needed + min(walls_needed, state.building_supply[WALL])
            if cities + possible >= CITIES_TO_END:
                return True
    return False
