"""The public view of the table: what the scoreboard may show every phone.

Only `state.public_view()` leaves the companion, never `state.to_json()`,
which remembers face-down pieces. The event log follows the same rule: what
an action showed that can be hidden again at the table (`Action.fades`, a
revealed piece) is shown in the log only while it is the latest event; after
that the entry keeps only the question it answered, because a log that
remembers revealed pieces would play the memory game for the players.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.games import CHANCE, Action, Game, State
from companion.record.store import Event, GameInfo

JsonDict = dict[str, Any]

LOG_LENGTH = 30
"""Log entries sent with each view: enough to follow the game, small enough for 60 phones."""


@dataclasses.dataclass
class LogEntry:
    seq: int
    at: str
    kind: str
    source: str
    by: int | None
    label: str
    asked: str
    """What the table waited for when this event came (the question a table answer answers)."""
    fades: bool = False
    undone: bool = False

    def to_json(self, *, latest: bool) -> JsonDict:
        label = self.label
        if self.fades and not latest:
            label = f"answered {self.asked} (hidden now)"
        return {
            "seq": self.seq,
            "at": self.at,
            "kind": self.kind,
            "source": self.source,
            "by": self.by,
            "label": label,
            "undone": self.undone,
        }


class GameLog:
    """Log lines of one game; keeps the stack of effective actions so an undo can say what it took back."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self._effective: list[LogEntry] = []

    @classmethod
    def from_record(cls, game: Game, info: GameInfo, events: list[Event]) -> GameLog:
        """Rebuild the log of a recorded game (the session has checked the record already)."""
        log = cls()
        states: list[State] = [game.setup(info.options)]
        for event in events:
            if event.kind == "action":
                action = game.action_from_json(event.action)
                log.add(event, action, states[-1])
                states.append(states[-1].apply(action))
            else:
                log.add(event, None, states[-1])
                states.pop()
        return log

    def add(self, event: Event, action: Action | None, before: State) -> None:
        """Add `event`; `action` is what it applied (None for an undo), `before` the state it met."""
        asked = before.to_act().waiting_for
        if action is not None:
            entry = LogEntry(
                event.seq, event.at, event.kind, event.source, action.by, action.label(), asked, action.fades
            )
            self._effective.append(entry)
        else:
            undone = self._effective.pop()
            undone.undone = True
            what = f"the answer to {undone.asked}" if undone.fades else undone.label
            entry = LogEntry(event.seq, event.at, event.kind, event.source, None, f"undo: {what}", asked)
        self.entries.append(entry)

    def recent_json(self, length: int = LOG_LENGTH) -> list[JsonDict]:
        recent = self.entries[-length:]
        return [entry.to_json(latest=entry is self.entries[-1]) for entry in recent]


def action_json(action: Action) -> JsonDict:
    return {"by": action.by, "label": action.label(), "action": action.to_json()}


def table_answers(state: State) -> list[JsonDict]:
    """What the table may show now (reveals, toss verdicts): for the host's hands only.

    A game narrows these by what it remembers of hidden things (a piece turned face
    down again can only show itself), so they never go into the public view."""
    return [] if state.is_over() else [action_json(a) for a in state.legal_actions() if a.by == CHANCE]


def game_view(game: Game, info: GameInfo, state: State, log: GameLog) -> JsonDict:
    """The public view of one game at `state`; `legal` holds the seats' actions, never the table's."""
    to_act = state.to_act()
    over = state.is_over()
    return {
        "game": {
            "id": info.game_id,
            "name": game.name,
            "title": game.title,
            "options": info.options,
            "names": info.names,
            "created": info.created,
            "finished": over,
        },
        "seq": info.events,
        "to_act": {"seats": list(to_act.seats), "waiting_for": to_act.waiting_for, "chance": to_act.chance},
        "public": state.public_view(),
        "scores": state.scores(),
        "ranking": state.ranking() if over else None,
        "legal": [] if over else [action_json(a) for a in state.legal_actions() if a.by != CHANCE],
        "log": log.recent_json(),
    }


def empty_view() -> JsonDict:
    return {
        "game": None,
        "seq": 0,
        "to_act": {"seats": [], "waiting_for": "a new game", "chance": False},
        "public": None,
        "scores": [],
        "ranking": None,
        "legal": [],
        "log": [],
    }
