"""Minos actions: what a player (or the table, for dice) does, with labels players understand."""

import dataclasses
from typing import ClassVar

from companion.games.base import Action
from companion.games.minos.data import BUILDING_GERMAN, symbol_name


@dataclasses.dataclass(frozen=True)
class RemoveField(Action):
    """Setup: the table puts a gold coin on a settlement field, taking it out of play."""

    kind: ClassVar[str] = "remove_field"
    settlement: str

    def label(self) -> str:
        return f"gold coin on {self.settlement}: out of play"


@dataclasses.dataclass(frozen=True)
class DieShows(Action):
    """The table reads one rolled die (dice are numbered 0-5, shown to players as 1-6)."""

    kind: ClassVar[str] = "die"
    die: int
    symbol: str

    def label(self) -> str:
        return f"die {self.die + 1} shows {symbol_name(self.symbol)}"


@dataclasses.dataclass(frozen=True)
class SetAside(Action):
    """Put a die aside before rolling the others again (in a turn, or in a conflict)."""

    kind: ClassVar[str] = "set_aside"
    die: int

    def label(self) -> str:
        return f"set die {self.die + 1} aside"


@dataclasses.dataclass(frozen=True)
class RollAgain(Action):
    """Roll every die not set aside again; in a conflict this costs a battle ring."""

    kind: ClassVar[str] = "roll_again"

    def label(self) -> str:
        return "roll the other dice again"


@dataclasses.dataclass(frozen=True)
class UseCombination(Action):
    """Use dice for one action: `naturals` dice showing `symbol`, maybe the Joker as it, maybe the Stern."""

    kind: ClassVar[str] = "use"
    symbol: str
    naturals: int
    joker: bool
    star: bool

    def label(self) -> str:
        parts = [symbol_name(self.symbol)] * self.naturals
        if self.joker:
            parts.append(f"Joker ({symbol_name(self.symbol)})")
        if self.star:
            parts.append("Stern")
        return "use " + " + ".join(parts)


@dataclasses.dataclass(frozen=True)
class BuyRing(Action):
    kind: ClassVar[str] = "buy_ring"

    def label(self) -> str:
        return "buy a battle ring (10 talents)"


@dataclasses.dataclass(frozen=True)
class Move(Action):
    """Move one ship or guard one field; into a field with a foreign piece this starts a conflict."""

    kind: ClassVar[str] = "move"
    piece: str
    origin: str
    target: str

    def label(self) -> str:
        return f"move {self.piece} from {self.origin} to {self.target}"


@dataclasses.dataclass(frozen=True)
class Embark(Action):
    """Optional rule: a ship in a settlement's harbour takes one of the guards there aboard."""

    kind: ClassVar[str] = "embark"
    settlement: str

    def label(self) -> str:
        return f"take a guard from {self.settlement} aboard the ship"


@dataclasses.dataclass(frozen=True)
class Build(Action):
    kind: ClassVar[str] = "build"
    settlement: str
    building: str

    def label(self) -> str:
        return f"build a {BUILDING_GERMAN.get(self.building, self.building)} in {self.settlement}"


@dataclasses.dataclass(frozen=True)
class BuyGuard(Action):
    kind: ClassVar[str] = "buy_guard"
    settlement: str

    def label(self) -> str:
        return f"buy a guard in {self.settlement} (5 talents)"


@dataclasses.dataclass(frozen=True)
class BuyShip(Action):
    kind: ClassVar[str] = "buy_ship"
    settlement: str

    def label(self) -> str:
        return f"buy a ship in the harbour of {self.settlement} (5 talents)"


@dataclasses.dataclass(frozen=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"

    def label(self) -> str:
        return "end the turn"


@dataclasses.dataclass(frozen=True)
class StandDice(Action):
    """In a conflict: keep this result."""

    kind: ClassVar[str] = "stand"

    def label(self) -> str:
        return "keep this result"


ACTION_TYPES: tuple[type[Action], ...] = (
    RemoveField,
    DieShows,
    SetAside,
    RollAgain,
    UseCombination,
    BuyRing,
    Move,
    Embark,
    Build,
    BuyGuard,
    BuyShip,
    EndTurn,
    StandDice,
)
