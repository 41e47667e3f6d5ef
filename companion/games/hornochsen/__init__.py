"""Tanz der Hornochsen! (Wolfgang Kramer): tiles on rows, cow-pats, bullheads, happy cows.

The board layout is data in seeds/hornochsen.toml; readings of unclear
passages are in docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.games import register
from companion.games.base import N_, Action, Game, JsonDict, OptionSpec, players_option
from companion.games.hornochsen.actions import ACTION_TYPES, Buy, Choose, Keep, Place, Reveal, StartTile
from companion.games.hornochsen.board import BOARD, Board, Row, move_piece, next_free_row, required_row
from companion.games.hornochsen.state import HornochsenState


class Hornochsen(Game):
    name: ClassVar[str] = "hornochsen"
    title: ClassVar[str] = "Tanz der Hornochsen"
    summary: ClassVar[str] = N_(
        "Play number tiles onto the rows and move along the scorekeeping course; fewest minus points wins."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            players_option(4, self.min_players, self.max_players),
            OptionSpec(
                "buying_in_happy_cow_time",
                N_(
                    "While a happy cow shows, players score plus points instead of minus points. Players "
                    "read differently whether that turns a bought tile's price into a plus point too "
                    "(docs/rulings.md, Tanz der Hornochsen, Happy cows)."
                ),
                "minus",
                choices=("minus", "plus"),
                label=N_("Buying while a happy cow shows"),
                choice_labels=(
                    N_("A bought tile still costs a minus point"),
                    N_("A bought tile scores a plus point"),
                ),
                house_rule=True,
            ),
        )

    def _setup(self, options: Mapping[str, Any]) -> HornochsenState:
        return HornochsenState(options)

    def state_from_json(self, data: JsonDict) -> HornochsenState:
        state = self._setup(self.validate_options(data["options"]))
        state.load_fields(data)
        return state


HornochsenState.game = register(Hornochsen())

__all__ = [
    "BOARD",
    "Board",
    "Buy",
    "Choose",
    "Hornochsen",
    "HornochsenState",
    "Keep",
    "Place",
    "Reveal",
    "Row",
    "StartTile",
    "move_piece",
    "next_free_row",
    "required_row",
]
