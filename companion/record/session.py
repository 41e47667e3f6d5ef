"""The live game the referee loop plays: the record's replay kept in memory.

Every change is checked by the rules first, then committed to the record,
and only then applied in memory, so memory never runs ahead of the record.
The stack of states makes undo instant, however long the game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import Action, Game, State
from companion.record.replay import RecordHeader, Replay, replay
from companion.record.store import Event, GameInfo, RecordStore


class NothingToUndoError(ValueError):
    """Undo asked for when every action of the game is undone already (or none was taken)."""


class GameSession:
    def __init__(self, store: RecordStore, info: GameInfo, replayed: Replay) -> None:
        self.store = store
        self.info = info
        self._replay = replayed

    @classmethod
    def create(
        cls, store: RecordStore, game: str, options: Mapping[str, Any], names: Sequence[str]
    ) -> GameSession:
        return cls.load(store, store.create_game(game, options, names))

    @classmethod
    def load(cls, store: RecordStore, game_id: int) -> GameSession:
        """Rebuild a game from its record, e.g. after a restart or a power cut."""
        info = store.info(game_id)
        header = RecordHeader(info.game, info.options, info.names, info.created, info.finished)
        replayed = replay(header, store.events(game_id))
        return cls(store, dataclasses.replace(info, events=replayed.events), replayed)

    @property
    def game_id(self) -> int:
        return self.info.game_id

    @property
    def game(self) -> Game:
        return self._replay.game

    @property
    def state(self) -> State:
        return self._replay.state

    @property
    def history(self) -> list[Action]:
        """The effective actions, oldest first: everything applied and not undone."""
        return list(self._replay.history)

    def apply(self, action: Action, *, source: str, evidence: Mapping[str, Any] | None = None) -> Event:
        """Apply `action` and record it durably; a `RuleError` leaves the game and the record unchanged."""
        state = self.state.apply(action)
        event = self.store.append(
            self.game_id,
            "action",
            action=action.to_json(),
            source=source,
            evidence=evidence,
            finished=True if state.is_over() else None,
        )
        self._replay.states.append(state)
        self._replay.history.append(action)
        self._advance(event, finished=self.info.finished or state.is_over())
        return event

    def undo(self, *, source: str) -> Event:
        """Revert the most recent action not yet reverted, by recording an undo event."""
        if not self._replay.history:
            raise NothingToUndoError(
                f"nothing to undo in game {self.game_id}: "
                + (
                    "every action is undone already"
                    if self._replay.events
                    else "no action has been taken yet"
                )
            )
        reopens = self.state.is_over()
        event = self.store.append(self.game_id, "undo", source=source, finished=False if reopens else None)
        self._replay.states.pop()
        self._replay.history.pop()
        self._advance(event, finished=False if reopens else self.info.finished)
        return event

    def _advance(self, event: Event, *, finished: bool) -> None:
        self._replay.events = event.seq
        self.info = dataclasses.replace(self.info, events=event.seq, finished=finished)
