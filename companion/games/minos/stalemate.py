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
import itertools
from collections import deque
from collections.abc import Iterable
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


def reachable_settlements(state: MinosState, seat: int, may_buy: bool) -> set[str]:
    """Settlement fields `seat` might one day hold a piece on: by land, by sea, and (`may_buy`) with
    ships bought in settlements that have, or may still build, two harbour buildings."""
    removed = frozenset(state.removed)
    ship_fields = {f for f, owners in state.ships.items() if seat in owners}
    if seat == state.current:
        ship_fields |= set(state.aboard)
    guard_fields = {f for f, (owner, _n) in state.guards.items() if owner == seat}
    reached: set[str] = set()
    while True:
        # A guard walks its whole land area; a settlement reached gives a free guard there too.
        land = _spread("land", guard_fields | reached, removed)
        harbours = {
            s for s in land | reached if may_buy and BOARD.is_settlement(s) and _may_get_a_ship(state, s)
        }
        sea = _spread("sea", ship_fields | harbours, removed)
        now = {s for s in land | sea if BOARD.is_settlement(s)}
        if now <= reached:
            return reached
        reached |= now


def _builder_reach(state: MinosState, seat: int) -> set[str]:
    """Where `seat` might one day build: nowhere unless it has cash for a first building, income,
    or a built settlement within reach of its pieces to take (and then draw income from)."""
    if state.cash[seat] >= BUILD_TALENTS[0] or state.value(seat) > 0:
        return reachable_settlements(state, seat, may_buy=True)
    if any(state.buildings[s] for s in reachable_settlements(state, seat, may_buy=False)):
        return reachable_settlements(state, seat, may_buy=True)
    return set()


def can_still_end(state: MinosState) -> bool:
    if state.end_reached():
        return True
    active = state.active_settlements()
    cities = sum(len(state.buildings[s]) == CITY_SIZE for s in active)
    builders: set[str] = set()  # fields some player who can pay might reach
    removed = frozenset(state.removed)
    # Quick look first: where the ships of players with cash for a building may sail. Usually that
    # settles it; the full search below also counts income, purchases and conquests.
    paying = {p for p in state.players_in() if state.cash[p] >= BUILD_TALENTS[0]}
    ships = [f for f, owners in state.ships.items() if not paying.isdisjoint(owners)]
    reaches = itertools.chain(
        [_spread("sea", ships, removed)], (_builder_reach(state, p) for p in state.players_in())
    )
    for reach in reaches:
        builders |= reach
        if all(state.buildings[s] or s in builders for s in active):
            growing = [s for s in active if s in builders and len(state.buildings[s]) < CITY_SIZE]
            walls_needed = sum(WALL not in state.buildings[s] for s in growing)
            possible = len(growing) - walls_needed + min(walls_needed, state.building_supply[WALL])
            if cities + possible >= CITIES_TO_END:
                return True
    return False
