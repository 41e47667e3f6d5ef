"""Finished games for the league's tests, made by the simulated table, and the messages a table would
publish for them (until the table's publisher exists): one EventMessage per event, then the record."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.club.messages import EventMessage, RecordMessage, events_topic, record_topic
from companion.record.jsonl import parse_record, record_lines
from companion.record.replay import replay_event, start
from companion.record.store import RecordStore
from tests.web.played import record_game

CLUB = "lions"
EVENING = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)


@dataclasses.dataclass(frozen=True)
class TableGame:
    table: str
    game_id: int
    record: RecordMessage

    def messages(self) -> list[tuple[str, bytes]]:
        """What the table publishes: every event in order, then the finished record."""
        return [*self.event_messages(), self.record_message()]

    def record_message(self) -> tuple[str, bytes]:
        return record_topic(CLUB, self.table, self.game_id), self.record.encode()

    def event_messages(self) -> list[tuple[str, bytes]]:
        parsed = parse_record(self.record.lines)
        header = parsed.header
        published = []
        replayed = start(header)
        for count, event in enumerate(parsed.events, start=1):
            replay_event(replayed, event, line=count + 1)
            state = replayed.state
            to_act = state.to_act()
            view = {
                "game": {"id": self.game_id, "name": header.game, "title": header.game.title()},
                "seq": count,
                "to_act": {"seats": list(to_act.seats), "waiting_for": to_act.waiting_for},
                "scores": state.scores(),
            }
            message = EventMessage(
                self.table,
                self.game_id,
                event.seq,
                event.at,
                event.kind,
                event.source,
                None,
                header.game,
                tuple(header.names),
                state.is_over(),
                view,
            )
            published.append((events_topic(CLUB, self.table), message.encode()))
        return published


def play_games(
    folder: Path,
    table: str,
    names_per_game: list[list[str]],
    *,
    seed: int,
    start_id: int = 1,
    start: datetime = EVENING,
) -> list[TableGame]:
    """Finished Minotaurus games at one table, each 40 minutes after the last."""
    folder.mkdir(parents=True, exist_ok=True)
    games = []
    with RecordStore(folder / f"{table}-{seed}.db") as store:
        for offset, names in enumerate(names_per_game):
            played = record_game(
                store, names, seed=seed + offset, created=start + timedelta(minutes=40 * offset)
            )
            info = store.info(played.game_id)
            lines = tuple(record_lines(info, store.events(played.game_id)))
            game_id = start_id + offset
            games.append(TableGame(table, game_id, RecordMessage(table, game_id, lines)))
    return games
