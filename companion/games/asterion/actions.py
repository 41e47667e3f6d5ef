"""Asterion's actions. Coordinates are cells of the table's grid, the Minotaur tile at (0, 0),
x growing eastwards and y southwards; a rotation is quarter turns clockwise from the printed tile."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from companion.games.asterion.tiles import COLOURS
from companion.games.base import Action


def colour_name(seat: int) -> str:
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


def _turn_words(rotation: int) -> str:
    return "unturned" if rotation == 0 else f"turned {90 * rotation}° clockwise"


@dataclasses.dataclass(frozen=True)
class PlayTile(Action):
    """The player shows the tile in hand to place it (instead of an optional action)."""

    kind: ClassVar[str] = "play"

    def label(self) -> str:
        return "place the tile in hand"


@dataclasses.dataclass(frozen=True)
class ShowTile(Action):
    """The table shows which design the player's tile is (camera, host or simulator)."""

    kind: ClassVar[str] = "show"
    seat: int
    design: str

    def label(self) -> str:
        return f"{colour_name(self.seat)}'s tile is a {self.design}"


@dataclasses.dataclass(frozen=True)
class PlaceTile(Action):
    kind: ClassVar[str] = "place"
    x: int
    y: int
    rotation: int

    def label(self) -> str:
        return f"place it at ({self.x}, {self.y}), {_turn_words(self.rotation)}"


@dataclasses.dataclass(frozen=True)
class RotateTile(Action):
    """Optional action (a): give an own tile a new orientation, paid with the tile in hand."""

    kind: ClassVar[str] = "rotate"
    x: int
    y: int
    rotation: int

    def label(self) -> str:
        where = f"({self.x}, {self.y})"
        return f"discard the tile in hand to turn the tile at {where} to {_turn_words(self.rotation)}"


@dataclasses.dataclass(frozen=True)
class SwapTiles(Action):
    """Optional action (b): two own tiles change places, each keeping its orientation."""

    kind: ClassVar[str] = "swap"
    x: int
    y: int
    other_x: int
    other_y: int

    def label(self) -> str:
        return (
            f"discard the tile in hand to swap the tiles at ({self.x}, {self.y}) "
            f"and ({self.other_x}, {self.other_y})"
        )


@dataclasses.dataclass(frozen=True)
class LiftTile(Action):
    """Optional action (c), first half: pick up an own tile to move it."""

    kind: ClassVar[str] = "lift"
    x: int
    y: int

    def label(self) -> str:
        return f"discard the tile in hand to move the tile at ({self.x}, {self.y})"


@dataclasses.dataclass(frozen=True)
class PutTile(Action):
    """Optional action (c), second half: put the lifted tile down somewhere else."""

    kind: ClassVar[str] = "put"
    x: int
    y: int
    rotation: int

    def label(self) -> str:
        return f"put the lifted tile at ({self.x}, {self.y}), {_turn_words(self.rotation)}"


ACTION_TYPES: tuple[type[Action], ...] = (
    PlayTile,
    ShowTile,
    PlaceTile,
    RotateTile,
    SwapTiles,
    LiftTile,
    PutTile,
)
