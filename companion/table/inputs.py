"""What goes into the referee loop, and what comes back.

Every input names its `source` ("host", "sensor", "camera", "simulator",
"autoplay"), so the record says who told the referee what. Guards (`after`,
`game_id`, `replacing`) let a source say which position it decided on: an
input decided on a position the table has since left is refused instead of
being applied to a game it was not meant for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import Action, RuleError
from companion.record.store import Event

JsonDict = dict[str, Any]


class TableError(ValueError):
    """An input the table cannot take in its present situation."""


class NoGameError(TableError):
    """An input that needs a game while the table has none."""


class StaleInputError(TableError):
    """An input decided on a position the table has left since."""


class RefereeStoppedError(TableError):
    """An input sent to a referee that is not running."""


@dataclasses.dataclass(frozen=True)
class NewGame:
    """Start a game; it becomes the table's current game."""

    game: str
    options: Mapping[str, Any]
    names: Sequence[str]
    replacing: int | None = None
    """If set, start only while this game is still the current one."""


@dataclasses.dataclass(frozen=True)
class SubmitAction:
    """An action for the current game: an `Action`, or its JSON form (checked by the game)."""

    action: Action | Mapping[str, Any]
    evidence: Mapping[str, Any] | None = None
    game_id: int | None = None
    """If set, the game this action is meant for."""
    after: int | None = None
    """If set, the event seq of the position the action was decided on."""


@dataclasses.dataclass(frozen=True)
class Undo:
    game_id: int | None = None
    after: int | None = None


@dataclasses.dataclass(frozen=True)
class ResumeGame:
    """Make an unfinished game of the record the current one."""

    game_id: int


@dataclasses.dataclass(frozen=True)
class SetAutoplay:
    """Simulation only: let simulated players play the seats, or leave them to the host."""

    on: bool


@dataclasses.dataclass(frozen=True)
class SetTableStatus:
    """Not a game input: how a device of the table is doing (the sensors, the camera), shown on the
    scoreboard until the device reports again; None removes the channel. Nothing goes into the record."""

    channel: str
    status: Mapping[str, Any] | None


Command = NewGame | SubmitAction | Undo | ResumeGame | SetAutoplay | SetTableStatus


@dataclasses.dataclass(frozen=True)
class Reply:
    """The answer to one input: what was recorded, or why nothing was."""

    command: Command
    source: str
    game_id: int | None = None
    event: Event | None = None
    error: str | None = None
    error_type: str | None = None
    rule: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @classmethod
    def refused(cls, command: Command, source: str, error: Exception, game_id: int | None) -> Reply:
        return cls(
            command,
            source,
            game_id=game_id,
            error=str(error),
            error_type=type(error).__name__,
            rule=error.rule if isinstance(error, RuleError) else None,
        )

    def to_json(self) -> JsonDict:
        """The reply for the one who sent the input (events may carry evidence; only the sender sees it)."""
        data: JsonDict = {"ok": self.ok, "game_id": self.game_id}
        if self.event is not None:
            data["event"] = {
                "seq": self.event.seq,
                "at": self.event.at,
                "kind": self.event.kind,
                "source": self.event.source,
            }
        if self.error is not None:
            data.update(error=self.error, type=self.error_type, rule=self.rule)
        return data
