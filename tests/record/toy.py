"""A tiny game to test the record against, independent of any real game's rules.

The table first reveals which seat starts (a CHANCE action), then seats take
turns adding 1 to `max_add` to a shared total; the game ends when the total
reaches `goal`, and each seat scores what it added.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from companion.games import CHANCE, Action, Game, OptionSpec, RuleError, State, ToAct
from companion.games.base import NOBODY, JsonDict


@dataclasses.dataclass(frozen=True)
class Start(Action):
    kind: ClassVar[str] = "start"
    seat: int


@dataclasses.dataclass(frozen=True)
class Add(Action):
    kind: ClassVar[str] = "add"
    amount: int


class CountState(State):
    game: ClassVar[Game]

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.num_players = int(options["players"])
        self.goal = int(options["goal"])
        self.max_add = int(options["max_add"])
        self.turn: int | None = None
        self.total = 0
        self.points = [0] * self.num_players

    def to_act(self) -> ToAct:
        if self.is_over():
            return NOBODY
        if self.turn is None:
            return ToAct((CHANCE,), "the table to show who starts")
        return ToAct((self.turn,), f"seat {self.turn} to add")

    def legal_actions(self) -> list[Action]:
        if self.is_over():
            return []
        if self.turn is None:
            return [Start(CHANCE, seat) for seat in range(self.num_players)]
        return [Add(self.turn, amount) for amount in range(1, self.max_add + 1)]

    def copy(self) -> Self:
        clone = copy.copy(self)
        clone.points = list(self.points)
        return clone

    def _apply(self, action: Action) -> None:
        if isinstance(action, Start):
            if not 0 <= action.seat < self.num_players:
                raise RuleError("start", f"there is no seat {action.seat}")
            self.turn = action.seat
        elif isinstance(action, Add):
            if not 1 <= action.amount <= self.max_add:
                raise RuleError("add", f"add 1 to {self.max_add}, not {action.amount}")
            assert self.turn is not None
            self.total += action.amount
            self.points[action.by] += action.amount
            self.turn = (self.turn + 1) % self.num_players
        else:
            raise RuleError("actions", f"{action.kind} is not an action of this game")

    def public_view(self) -> JsonDict:
        return {"total": self.total, "goal": self.goal, "points": list(self.points)}

    def scores(self) -> list[int]:
        return list(self.points)

    def ranking(self) -> list[list[int]]:
        return [
            [seat for seat in range(self.num_players) if self.points[seat] == score]
            for score in sorted(set(self.points), reverse=True)
        ]

    def is_over(self) -> bool:
        return self.total >= self.goal

    def component_counts(self) -> dict[str, int]:
        return {"seats": self.num_players}

    def to_json(self) -> JsonDict:
        return {
            "players": self.num_players,
            "goal": self.goal,
            "max_add": self.max_add,
            "turn": self.turn,
            "total": self.total,
            "points": list(self.points),
        }


class CountGame(Game):
    name: ClassVar[str] = "toy-count"
    title: ClassVar[str] = "Toy counting game"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    action_types: ClassVar[tuple[type[Action], ...]] = (Start, Add)

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec("players", "number of players", 2, minimum=2, maximum=3),
            OptionSpec("goal", "total that ends the game", 10, minimum=1, maximum=10**9),
            OptionSpec("max_add", "most a seat may add in one turn", 3, minimum=1, maximum=9),
        )

    def _setup(self, options: Mapping[str, Any]) -> CountState:
        return CountState(options)

    def state_from_json(self, data: JsonDict) -> CountState:
        state = CountState(data)
        state.turn, state.total, state.points = data["turn"], data["total"], list(data["points"])
        return state


TOY_GAME = CountGame()
CountState.game = TOY_GAME
