"""What players and the table do in Tanz der Hornochsen."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from companion.games.base import Action


@dataclasses.dataclass(frozen=True)
class StartTile(Action):
    """The table shows one of the four tiles drawn for the first squares of the first four rows."""

    kind: ClassVar[str] = "start_tile"
    tile: int

    def label(self) -> str:
        return f"the next tile drawn for the board is {self.tile}"


@dataclasses.dataclass(frozen=True)
class Buy(Action):
    """A player announces (and then makes) a purchase of 1 to 3 tiles before playing.

    `same_time` says the announcement came at the same moment as the one
    before it; such buyers go in order of most minus points first.
    """

    kind: ClassVar[str] = "buy"
    count: int
    same_time: bool = False

    def label(self) -> str:
        together = " (announced at the same time as the last buyer)" if self.same_time else ""
        return (
            f"buy {self.count} tile{'s' if self.count > 1 else ''} for {self.count} minus point(s){together}"
        )


@dataclasses.dataclass(frozen=True)
class Choose(Action):
    """A player puts the tile (or in a double round both tiles) to play on the table, face down."""

    kind: ClassVar[str] = "choose"

    def label(self) -> str:
        return "put my tile down (face down; in an open round it is shown at once)"


@dataclasses.dataclass(frozen=True)
class Reveal(Action):
    """The table shows the number of a tile `seat` played (camera or host)."""

    kind: ClassVar[str] = "reveal"
    seat: int
    tile: int

    def label(self) -> str:
        return f"seat {self.seat} played {self.tile}"


@dataclasses.dataclass(frozen=True)
class Place(Action):
    """A player adds the played tile to a row."""

    kind: ClassVar[str] = "place"
    tile: int
    row: int

    def label(self) -> str:
        return f"add {self.tile} to row {self.row}"


@dataclasses.dataclass(frozen=True)
class Keep(Action):
    """After completing a row, the player takes one or two of its other tiles behind the screen."""

    kind: ClassVar[str] = "keep"
    tiles: tuple[int, ...]

    def label(self) -> str:
        return "keep " + " and ".join(str(t) for t in self.tiles) + " (the rest goes into the box)"


ACTION_TYPES: tuple[type[Action], ...] = (StartTile, Buy, Choose, Reveal, Place, Keep)
