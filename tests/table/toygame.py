"""A tiny race game to test the table against, independent of any real game's rules.

Seats take turns stepping 1 or 2 forward; after every step the table tosses a
coin (a CHANCE action): heads moves the stepper one more. The first to reach
`goal` ends the game. Every coin is remembered in `to_json` but never shown in
`public_view`, like a face-down piece everyone has seen once.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from companion.games import CHANCE, Action, Game, OptionSpec, RuleError, State, ToAct
from companion.games.base import NOBODY, JsonDict

SECRET_KEY = "remembered_coins"


@dataclasses.dataclass(frozen=True)
class Step(Action):
    kind: ClassVar[str] = "step"
    size: int

    def label(self) -> str:
        return f"step {self.size}"


@dataclasses.dataclass(frozen=True)
class Coin(Action):
    kind: ClassVar[str] = "coin"
    fades: ClassVar[bool] = True  # like a piece turned face down again
    heads: bool

    def label(self) -> str:
        return "coin shows heads" if self.heads else "coin shows tails"


class RaceState(State):
    game: ClassVar[Game]

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.num_players = int(options["players"])
        self.goal = int(options["goal"])
        self.turn = 0
        self.stepper: int | None = None
        self.places = [0] * self.num_players
        self.coins: list[bool] = []

    def to_act(self) -> ToAct:
        if self.is_over():
            return NOBODY
        if self.stepper is not None:
            return ToAct((CHANCE,), f"the coin for seat {self.stepper}")
        return ToAct((self.turn,), f"seat {self.turn} to step")

    def legal_actions(self) -> list[Action]:
        if self.is_over():
            return []
        if self.stepper is not None:
            return [Coin(CHANCE, True), Coin(CHANCE, False)]
        return [Step(self.turn, 1), Step(self.turn, 2)]

    def copy(self) -> Self:
        clone = copy.copy(self)
        clone.places = list(self.places)
        clone.coins = list(self.coins)
        return clone

    def _apply(self, action: Action) -> None:
        if isinstance(action, Step):
            if action.size not in (1, 2):
                raise RuleError("step size", f"a step is 1 or 2, not {action.size}")
            self.places[action.by] += action.size
            self.stepper = action.by
        elif isinstance(action, Coin):
            assert self.stepper is not None
            self.coins.append(action.heads)
            self.places[self.stepper] += int(action.heads)
            self.turn = (self.stepper + 1) % self.num_players
            self.stepper = None
        else:
            raise RuleError("actions", f"{action.kind} is not an action of this game")

    def public_view(self) -> JsonDict:
        return {"places": list(self.places), "goal": self.goal}

    def scores(self) -> list[int]:
        return list(self.places)

    def ranking(self) -> list[list[int]]:
        return [
            [seat for seat in range(self.num_players) if self.places[seat] == place]
            for place in sorted(set(self.places), reverse=True)
        ]

    def is_over(self) -> bool:
        return self.stepper is None and max(self.places) >= self.goal

    def component_counts(self) -> dict[str, int]:
        return {"seats": self.num_players}

    def to_json(self) -> JsonDict:
        return {
            "players": self.num_players,
            "goal": self.goal,
            "turn": self.turn,
            "stepper": self.stepper,
            "places": list(self.places),
            SECRET_KEY: list(self.coins),
        }


class RaceGame(Game):
    name: ClassVar[str] = "toy-race"
    title: ClassVar[str] = "Toy race"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    action_types: ClassVar[tuple[type[Action], ...]] = (Step, Coin)

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec("players", "number of players", 2, minimum=2, maximum=3),
            OptionSpec("goal", "place that ends the game", 6, minimum=1, maximum=100),
        )

    def _setup(self, options: Mapping[str, Any]) -> RaceState:
        return RaceState(options)

    def state_from_json(self, data: JsonDict) -> RaceState:
        state = RaceState(data)
        state.turn, state.stepper = data["turn"], data["stepper"]
        state.places, state.coins = list(data["places"]), list(data[SECRET_KEY])
        return state


RACE = RaceGame()
RaceState.game = RACE
