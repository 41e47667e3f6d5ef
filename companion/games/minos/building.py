"""Building and buying: costs by position, the wall, the free guard, guards and ships for sale."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.base import Action, RuleError
from companion.games.minos.actions import Build, BuyGuard, BuyShip
from companion.games.minos.data import (
    BOARD,
    BUILD_RIGHTS,
    BUILD_TALENTS,
    BUILDINGS,
    CITY_SIZE,
    GUARD_PRICE,
    HARBOUR,
    HARBOURS_FOR_A_SHIP,
    HOUSE,
    HOUSES_FOR_A_GUARD,
    SHIP_PRICE,
    WALL,
    WALL_BUILD_RIGHTS,
)
from companion.games.minos.state import add_guards

if TYPE_CHECKING:
    from companion.games.minos.state import MinosState

BUILD_RULE = "Häuserbau und Stadtgründung"
PURCHASE_RULE = "Kauf von Wächtern und Schiffen"


def building_actions(state: MinosState) -> list[Action]:
    """Purchases and buildings the player to act may make in the settlements he holds."""
    me = state.current
    actions: list[Action] = []
    for settlement in state.owned(me):
        built = state.buildings[settlement]
        if built.count(HOUSE) >= HOUSES_FOR_A_GUARD and not _guard_purchase_problem(state, settlement):
            actions.append(BuyGuard(me, settlement))
        if built.count(HARBOUR) >= HARBOURS_FOR_A_SHIP and not _ship_purchase_problem(state, settlement):
            actions.append(BuyShip(me, settlement))
        if state.build_rights:
            actions += [
                Build(me, settlement, b) for b in BUILDINGS if not _build_problem(state, settlement, b)
            ]
    return actions


# ---------------------------------------------------------------- building


def building_cost(state: MinosState, settlement: str, building: str) -> tuple[int, int]:
    """(build rights, talents): by the building's position; a wall always needs four rights."""
    position = len(state.buildings[settlement])
    rights = WALL_BUILD_RIGHTS if building == WALL else BUILD_RIGHTS[position]
    return rights, BUILD_TALENTS[position]


def _build_problem(state: MinosState, settlement: str, building: str) -> str | None:
    me = state.current
    if building not in BUILDINGS:
        return f"{building!r} is not a building; buildings are {', '.join(BUILDINGS)}"
    if settlement not in BOARD.settlements or settlement in state.removed:
        return f"{settlement!r} is not a settlement field in play"
    if state.owner(settlement) != me:
        return f"seat {me} has no guard or ship on {settlement}"
    built = state.buildings[settlement]
    if len(built) >= CITY_SIZE:
        return f"{settlement} is a city: nothing more is built in a city"
    if building == WALL and not built:
        return "the first building on a settlement field may not be a city wall"
    if building == WALL and WALL in built:
        return f"{settlement} has its city wall already"
    if building != WALL and len(built) == CITY_SIZE - 1 and WALL not in built:
        return f"the {CITY_SIZE}th building makes {settlement} a city, and a city must have a city wall"
    rights, talents = building_cost(state, settlement, building)
    if state.build_rights < rights:
        return f"this building needs {rights} build rights; seat {me} has {state.build_rights} this turn"
    if state.cash[me] < talents:
        return f"this building costs {talents} talents; seat {me} has {state.cash[me]}"
    if not state.building_supply[building]:
        return f"no {building} is left in the supply"
    return None


def build(state: MinosState, action: Build) -> None:
    problem = _build_problem(state, action.settlement, action.building)
    if problem is not None:
        raise RuleError(BUILD_RULE, problem)
    me, settlement = state.current, action.settlement
    rights, talents = building_cost(state, settlement, action.building)
    first = not state.buildings[settlement]
    state.build_rights -= rights
    state.cash[me] -= talents
    state.building_supply = {
        **state.building_supply,
        action.building: state.building_supply[action.building] - 1,
    }
    state.buildings = {**state.buildings, settlement: (*state.buildings[settlement], action.building)}
    state.rolling_done = True
    state.income_open = False
    if first and state.guard_supply[me]:
        # "erhält sofort kostenlos einen Wächter" -- only while the supply lasts.
        state.guard_supply[me] -= 1
        add_guards(state, settlement, me, 1)
    if state.end_reached():
        state.phase = "over"


# ---------------------------------------------------------------- purchases


def _purchase_problem(state: MinosState, settlement: str) -> str | None:
    if settlement not in BOARD.settlements or state.owner(settlement) != state.current:
        return f"seat {state.current} does not hold a settlement {settlement!r}"
    if settlement in state.purchased:
        return f"{settlement} has had its purchase this turn (one per settlement and turn)"
    return None


def _guard_purchase_problem(state: MinosState, settlement: str) -> str | None:
    me = state.current
    problem = _purchase_problem(state, settlement)
    if problem is not None:
        return problem
    if state.buildings[settlement].count(HOUSE) < HOUSES_FOR_A_GUARD:
        return f"a guard is bought only in a settlement with {HOUSES_FOR_A_GUARD} houses (Wohngebäude)"
    if state.cash[me] < GUARD_PRICE:
        return f"a guard costs {GUARD_PRICE} talents; seat {me} has {state.cash[me]}"
    if not state.guard_supply[me]:
        return f"seat {me} has no guard left in the supply"
    return None


def _ship_purchase_problem(state: MinosState, settlement: str) -> str | None:
    me = state.current
    problem = _purchase_problem(state, settlement)
    if problem is not None:
        return problem
    if state.buildings[settlement].count(HARBOUR) < HARBOURS_FOR_A_SHIP:
        return f"a ship is bought only in a settlement with {HARBOURS_FOR_A_SHIP} harbour buildings"
    if settlement in state.ships:
        return f"a ship lies in the harbour of {settlement} already"
    if state.cash[me] < SHIP_PRICE:
        return f"a ship costs {SHIP_PRICE} talents; seat {me} has {state.cash[me]}"
    if not state.ship_supply[me]:
        return f"seat {me} has no ship left in the supply"
    return None


def buy_guard(state: MinosState, action: BuyGuard) -> None:
    problem = _guard_purchase_problem(state, action.settlement)
    if problem is not None:
        raise RuleError(PURCHASE_RULE, problem)
    me = state.current
    state.cash[me] -= GUARD_PRICE
    state.guard_supply[me] -= 1
    add_guards(state, action.settlement, me, 1)
    state.purchased += (action.settlement,)


def buy_ship(state: MinosState, action: BuyShip) -> None:
    problem = _ship_purchase_problem(state, action.settlement)
    if problem is not None:
        raise RuleError(PURCHASE_RULE, problem)
    me = state.current
    state.cash[me] -= SHIP_PRICE
    state.ship_supply[me] -= 1
    state.ships[action.settlement] = (me,)
    state.purchased += (action.settlement,)
