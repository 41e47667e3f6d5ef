"""The publisher's own memory of what the broker has acknowledged, in its own SQLite file beside the record.

The record is the truth; this file only says how far each game got: the last event seq the broker
acknowledged (PUBACK) and with how many events a finished game's record went out. A table restarted
mid-evening resumes from here, so nothing is lost and nothing is sent again beyond QoS 1's
at-least-once (the league dedups by table, game and seq).

Rows are kept per destination (club/table), so a table that moves to another club publishes its games
there from the start. When a destination is first seen, the games already finished in the record are
marked "home": played before the table joined the club, they stay at the table.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from companion.record.store import utc_now

_SCHEMA = """
CREATE TABLE IF NOT EXISTS destinations (
    destination TEXT PRIMARY KEY,
    joined TEXT NOT NULL,
    roster BLOB
);
CREATE TABLE IF NOT EXISTS games (
    destination TEXT NOT NULL REFERENCES destinations(destination),
    game_id INTEGER NOT NULL,
    acked_through INTEGER NOT NULL DEFAULT 0,
    record_events INTEGER NOT NULL DEFAULT 0,
    home INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (destination, game_id)
);
"""


@dataclasses.dataclass
class GameProgress:
    """How far one game got to the broker."""

    acked_through: int = 0
    """The last event seq acknowledged; every event up to it is at the broker."""
    record_events: int = 0
    """The events of the record last acknowledged as a finished game's record (0: none went out)."""
    home: bool = False
    """Finished before the table joined this club: never published."""


class Outbox:
    """One SQLite connection, used by the publisher's thread only."""

    def __init__(self, path: Path, destination: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.destination = destination
        self._connection = sqlite3.connect(path, isolation_level=None)
        self._connection.execute("PRAGMA busy_timeout = 10000")
        self._connection.execute("PRAGMA journal_mode = WAL")
        # NORMAL, not FULL: an acknowledgement lost in a power cut only sends an event once more.
        self._connection.execute("PRAGMA synchronous = NORMAL")
        self._connection.executescript(_SCHEMA)

    def is_new(self) -> bool:
        """Whether this destination has never been published to from this table."""
        row = self._connection.execute(
            "SELECT 1 FROM destinations WHERE destination = ?", (self.destination,)
        ).fetchone()
        return row is None

    def join(self, finished_games: Iterable[tuple[int, int]]) -> None:
        """Remember the destination; the (game_id, events) already finished stay home."""
        with self._transaction():
            self._connection.execute(
                "INSERT OR IGNORE INTO destinations (destination, joined) VALUES (?, ?)",
                (self.destination, utc_now()),
            )
            self._connection.executemany(
                "INSERT OR IGNORE INTO games (destination, game_id, acked_through, record_events, home)"
                " VALUES (?, ?, ?, ?, 1)",
                [(self.destination, game_id, events, events) for game_id, events in finished_games],
            )

    def progress(self) -> dict[int, GameProgress]:
        rows = self._connection.execute(
            "SELECT game_id, acked_through, record_events, home FROM games WHERE destination = ?",
            (self.destination,),
        ).fetchall()
        return {game_id: GameProgress(acked, record, bool(home)) for game_id, acked, record, home in rows}

    def save(self, changed: dict[int, GameProgress]) -> None:
        """Write the progress of the games in `changed`, in one transaction."""
        if not changed:
            return
        with self._transaction():
            self._connection.executemany(
                "INSERT INTO games (destination, game_id, acked_through, record_events, home)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (destination, game_id) DO UPDATE SET"
                " acked_through = excluded.acked_through, record_events = excluded.record_events,"
                " home = excluded.home",
                [
                    (self.destination, game_id, kept.acked_through, kept.record_events, int(kept.home))
                    for game_id, kept in changed.items()
                ],
            )

    def save_roster(self, payload: bytes) -> None:
        """The club's latest roster as the broker sent it, so sign-in works while the broker is away."""
        with self._transaction():
            self._connection.execute(
                "UPDATE destinations SET roster = ? WHERE destination = ?", (payload, self.destination)
            )

    def roster(self) -> bytes | None:
        row = self._connection.execute(
            "SELECT roster FROM destinations WHERE destination = ?", (self.destination,)
        ).fetchone()
        return bytes(row[0]) if row is not None and row[0] is not None else None

    def _transaction(self) -> _Transaction:
        return _Transaction(self._connection)

    def close(self) -> None:
        self._connection.close()


class _Transaction:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def __enter__(self) -> None:
        self._connection.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_rest: object) -> None:
        self._connection.execute("COMMIT" if kind is None else "ROLLBACK")
