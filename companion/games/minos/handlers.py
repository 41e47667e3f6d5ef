"""Which action is handled by which rule in which phase of a Minos turn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.base import Action
from companion.games.minos import actions as a
from companion.games.minos import building, conflict, turn
from companion.games.minos.state import MinosState

Handler = Callable[[MinosState, Any], None]

HANDLERS: dict[tuple[str, type[Action]], Handler] = {
    ("remove", a.RemoveField): turn.remove_field,
    ("roll", a.DieShows): turn.read_die,
    ("act", a.SetAside): turn.set_aside,
    ("act", a.RollAgain): turn.roll_again,
    ("act", a.UseCombination): turn.use_combination,
    ("act", a.BuyRing): turn.buy_ring,
    ("act", a.Build): building.build,
    ("act", a.BuyGuard): building.buy_guard,
    ("act", a.BuyShip): building.buy_ship,
    ("act", a.EndTurn): turn.end_turn,
    ("act", a.Move): conflict.move,
    ("act", a.Embark): conflict.embark,
    ("conflict", a.DieShows): conflict.read_combat_die,
    ("conflict", a.SetAside): conflict.combat_set_aside,
    ("conflict", a.RollAgain): conflict.combat_roll_again,
    ("conflict", a.StandDice): conflict.stand,
}


def act_actions(state: MinosState) -> list[Action]:
    return turn.turn_actions(state) + conflict.move_actions(state)


MinosState.handlers = HANDLERS
MinosState.actions_by_phase = {
    "remove": turn.removal_actions,
    "roll": turn.roll_actions,
    "act": act_actions,
    "conflict": conflict.combat_actions,
}
