"""The Minos game: options, setup and the codec; registers itself with the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.games import register
from companion.games.base import Action, Game, JsonDict, OptionSpec, SetupError
from companion.games.minos import handlers  # noqa: F401  (imported for its effect: wires the rules in)
from companion.games.minos.actions import ACTION_TYPES
from companion.games.minos.data import BOARD, CITIES_TO_END, REMOVED_BY_PLAYERS, SHORTENED_MAX
from companion.games.minos.state import MinosState


class Minos(Game):
    name: ClassVar[str] = "minos"
    title: ClassVar[str] = "Minos"
    min_players: ClassVar[int] = min(REMOVED_BY_PLAYERS)
    max_players: ClassVar[int] = max(REMOVED_BY_PLAYERS)
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec("players", "number of players", 4, minimum=self.min_players, maximum=self.max_players),
            OptionSpec(
                "first_player",
                "seat of the oldest player, who begins (seats count clockwise from 0)",
                0,
                minimum=0,
                maximum=self.max_players - 1,
            ),
            OptionSpec(
                "shortened",
                "settlement fields out of play to shorten the game (on top of those for 2 or 3 players)",
                0,
                minimum=0,
                maximum=SHORTENED_MAX,
            ),
            OptionSpec(
                "guards_by_ship",
                "optional rule (Zusatzregel): a ship may carry one guard from settlement to settlement",
                False,
                choices=(False, True),
            ),
            OptionSpec(
                "cash",
                "whether the scoreboard shows every player's cash (the text lets players keep it secret)",
                "hidden",
                choices=("hidden", "open"),
            ),
        )

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
