"""The one replay of a game record: header + events → final state and the stack of effective actions.

`GameSession.load`, `companion import` and `companion replay` all go through
`replay`, so a record the daemon resumes from and a record a user imports
are judged by exactly the same rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from companion.games import (
    Action,
    ActionFormatError,
    Game,
    RuleError,
    SetupError,
    State,
    UnknownGameError,
    get_game,
)
from companion.record.store import Event, check_names

RECORD_FORMAT = "minotaur-companion-record"
RECORD_VERSION = 1
HEADER_LINE = 1


class RecordFormatError(ValueError):
    """A record that cannot be replayed; `line` is its line in the JSON-lines form (1 is the header)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclasses.dataclass(frozen=True)
class RecordHeader:
    game: str
    options: dict[str, Any]
    names: list[str]
    created: str
    finished: bool


@dataclasses.dataclass
class Replay:
    """A replayed game: `states[0]` is the initial state, `states[i + 1]` the state after `history[i]`."""

    game: Game
    options: dict[str, Any]
    names: list[str]
    states: list[State]
    history: list[Action]
    events: int

    @property
    def state(self) -> State:
        return self.states[-1]


def start(header: RecordHeader, *, line: int = HEADER_LINE) -> Replay:
    """The replay of a record with no events yet; refuses an unknown game, bad options or names."""
    try:
        game = get_game(header.game)
    except UnknownGameError as error:
        raise RecordFormatError(line, str(error)) from None
    try:
        options = game.validate_options(header.options)
        initial = game.setup(options)
        names = check_names(header.names, initial.num_players)
    except SetupError as error:
        raise RecordFormatError(line, f"invalid setup: {error}") from None
    return Replay(game, options, names, [initial], [], 0)


def replay_event(replay: Replay, event: Event, *, line: int) -> None:
    """Advance `replay` by one event, in place; refuses anything the game would refuse live."""
    expected = replay.events + 1
    if event.seq != expected:
        raise RecordFormatError(line, f"seq {event.seq} is out of order: expected {expected}")
    if event.kind == "undo":
        if not replay.history:
            raise RecordFormatError(line, "undo with nothing to undo")
        replay.history.pop()
        replay.states.pop()
    elif event.kind == "action":
        try:
            action = replay.game.action_from_json(event.action)
        except ActionFormatError as error:
            raise RecordFormatError(line, f"ill-formed action: {error}") from None
        try:
            state = replay.state.apply(action)
        except RuleError as error:
            raise RecordFormatError(line, f"illegal action {action.label()!r}: {error}") from None
        replay.history.append(action)
        replay.states.append(state)
    else:
        raise RecordFormatError(line, f"unknown event kind {event.kind!r}; expected action or undo")
    replay.events = expected


def replay(header: RecordHeader, events: Sequence[Event], *, lines: Sequence[int] | None = None) -> Replay:
    """Replay a whole record. `lines` gives each event's line; by default event i is on line i + 2."""
    result = start(header)
    for index, event in enumerate(events):
        replay_event(result, event, line=lines[index] if lines is not None else index + HEADER_LINE + 1)
    return result
