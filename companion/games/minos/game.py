"""The Minos game: options, setup and the codec; registers itself with the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.games import register
from companion.games.base import N_, Action, Game, JsonDict, OptionSpec, SetupError
from companion.games.minos import handlers  # noqa: F401  (imported for its effect: wires the rules in)
from companion.games.minos.actions import ACTION_TYPES
from companion.games.minos.data import BOARD, CITIES_TO_END, REMOVED_BY_PLAYERS, SHORTENED_MAX
from companion.games.minos.options import minos_options
from companion.games.minos.state import MinosState


class Minos(Game):
    name: ClassVar[str] = "minos"
    title: ClassVar[str] = "Minos"
    summary: ClassVar[str] = N_(
        "Roll six symbol dice for income, buildings, ships and guards; the most valuable settlements win."
    )
    min_players: ClassVar[int] = min(REMOVED_BY_PLAYERS)
    max_players: ClassVar[int] = max(REMOVED_BY_PLAYERS)
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return minos_options(self.min_players, self.max_players, SHORTENED_MAX)

    def _setup(self, options: Mapping[str, Any]) -> MinosState:
        players = options["players"]
        if options["first_player"] >= players:
            raise SetupError(
                f"option first_player={options['first_player']} is invalid: must be a whole number from 0 to "
                f"{players - 1} with {players} players"
            )
        # Two fields must stay in play: the game ends only once two cities stand.
        most = len(BOARD.settlements) - CITIES_TO_END - REMOVED_BY_PLAYERS[players]
        if options["shortened"] > most:
            raise SetupError(
                f"option shortened={options['shortened']} is invalid: must be a whole number from 0 to "
                f"{max(most, 0)} with {players} players on a board of {len(BOARD.settlements)} settlements"
            )
        return MinosState(options)

    def state_from_json(self, data: JsonDict) -> MinosState:
        state = self._setup(self.validate_options(data["options"]))
        state.load_json(data)
        return state


MinosState.game = register(Minos())
