"""The durable game record: every action and undo is an event row in SQLite.

An event is committed (WAL, `synchronous=FULL`) before `append` returns,
because the referee acknowledges it to the players right after; a power
cut or `kill -9` can therefore lose nothing that anyone was told about.
The store checks the shape of events, not the rules: `GameSession` does that.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.games import SetupError, get_game

EVENT_KINDS = ("action", "undo")
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    names TEXT NOT NULL,
    created TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(game_id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
    source TEXT NOT NULL,
    action TEXT,
    evidence TEXT,
    PRIMARY KEY (game_id, seq)
);
"""


class RecordStoreError(ValueError):
    """A request the record store cannot carry out as asked."""


class GameNotFoundError(RecordStoreError):
    """A game id the record does not hold."""


@dataclasses.dataclass(frozen=True)
class Event:
    """One line of a game's record. `action` is the action's JSON form (kind "action" only)."""

    game_id: int
    seq: int
    at: str
    kind: str
    source: str
    action: dict[str, Any] | None = None
    evidence: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True)
class GameInfo:
    game_id: int
    game: str
    options: dict[str, Any]
    names: list[str]
    created: str
    finished: bool
    events: int


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def default_db_path() -> Path:
    return Path(os.environ.get("COMPANION_DB") or Path("var") / "companion.db")


def to_json_text(value: Mapping[str, Any], what: str) -> str:
    try:
        return json.dumps(dict(value), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise RecordStoreError(f"{what} is not plain JSON: {error}") from None


def check_names(names: Sequence[str], seats: int) -> list[str]:
    if isinstance(names, str) or not all(isinstance(name, str) and name.strip() for name in names):
        raise SetupError(f"names must be a list of non-empty texts, not {names!r}")
    if len(names) != seats:
        raise SetupError(f"{len(names)} name(s) given for {seats} seat(s): give one name per seat")
    return list(names)


class RecordStore:
    """The SQLite record. One connection per thread, so web threads can read while the referee writes."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        connection = self._connection()
        connection.executescript(_SCHEMA)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            # Autocommit mode: every transaction below is explicit, so nothing stays uncommitted by accident.
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA busy_timeout = 10000")
            mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise RecordStoreError(f"{self.path} cannot use write-ahead logging (journal mode {mode})")
            connection.execute("PRAGMA synchronous = FULL")
            connection.execute("PRAGMA foreign_keys = ON")
            self._local.connection = connection
            with self._connections_lock:
                self._connections.append(connection)
        return connection

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        connection = self._connection()
        # IMMEDIATE takes the write lock at once, so the next seq read below cannot be raced.
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------ writing

    def create_game(self, game: str, options: Mapping[str, Any], names: Sequence[str]) -> int:
        rules = get_game(game)
        completed = rules.validate_options(options)
        initial = rules.setup(completed)
        names = check_names(names, initial.num_players)
        with self._write() as connection:
            return self._insert_game_row(connection, game, completed, names, utc_now(), False)

    @staticmethod
    def _insert_game_row(
        connection: sqlite3.Connection,
        game: str,
        options: Mapping[str, Any],
        names: Sequence[str],
        created: str,
        finished: bool,
    ) -> int:
        cursor = connection.execute(
            "INSERT INTO games (game, options, names, created, finished) VALUES (?, ?, ?, ?, ?)",
            (game, to_json_text(options, "options"), json.dumps(list(names)), created, int(finished)),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(
        self,
        game_id: int,
        kind: str,
        *,
        action: Mapping[str, Any] | None = None,
        source: str = "host",
        evidence: Mapping[str, Any] | None = None,
        finished: bool | None = None,
    ) -> Event:
        """Append one event and commit it; `finished`, if given, is set in the same transaction."""
        action_text, evidence_text = self._check_event(kind, action, source, evidence)
        with self._write() as connection:
            self._require_game(connection, game_id)
            (last,) = connection.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            event = Event(
                game_id,
                last + 1,
                utc_now(),
                kind,
                source,
                json.loads(action_text) if action_text is not None else None,
                json.loads(evidence_text) if evidence_text is not None else None,
            )
            self._insert_event_row(connection, event, action_text, evidence_text)
            if finished is not None:
                connection.execute(
                    "UPDATE games SET finished = ? WHERE game_id = ?", (int(finished), game_id)
                )
        return event

    def import_game(
        self,
        game: str,
        options: Mapping[str, Any],
        names: Sequence[str],
        created: str,
        finished: bool,
        events: Sequence[Event],
    ) -> int:
        """Write a whole game, already validated by the caller, in one transaction; returns its new id."""
        rows = [
            (event, *self._check_event(event.kind, event.action, event.source, event.evidence))
            for event in events
        ]
        with self._write() as connection:
            game_id = self._insert_game_row(connection, game, options, names, created, finished)
            for event, action_text, evidence_text in rows:
                self._insert_event_row(
                    connection, dataclasses.replace(event, game_id=game_id), action_text, evidence_text
                )
        return game_id

    @staticmethod
    def _check_event(
        kind: str, action: Mapping[str, Any] | None, source: str, evidence: Mapping[str, Any] | None
    ) -> tuple[str | None, str | None]:
        if kind not in EVENT_KINDS:
            raise RecordStoreError(f"unknown event kind {kind!r}; expected one of {', '.join(EVENT_KINDS)}")
        if (kind == "action") != (action is not None):
            raise RecordStoreError(
                "an action event needs an action" if action is None else "an undo event carries no action"
            )
        if not isinstance(source, str) or not source:
            raise RecordStoreError(f"an event's source must be a non-empty text, not {source!r}")
        return (
            to_json_text(action, "the action") if action is not None else None,
            to_json_text(evidence, "the evidence") if evidence is not None else None,
        )

    @staticmethod
    def _insert_event_row(
        connection: sqlite3.Connection, event: Event, action_text: str | None, evidence_text: str | None
    ) -> None:
        connection.execute(
            "INSERT INTO events (game_id, seq, at, kind, source, action, evidence)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (event.game_id, event.seq, event.at, event.kind, event.source, action_text, evidence_text),
        )

    def set_finished(self, game_id: int, finished: bool) -> None:
        with self._write() as connection:
            self._require_game(connection, game_id)
            connection.execute("UPDATE games SET finished = ? WHERE game_id = ?", (int(finished), game_id))

    # ------------------------------------------------------------ reading

    def events(self, game_id: int) -> list[Event]:
        connection = self._connection()
        # One read transaction, so the existence check and the rows come from the same snapshot.
        connection.execute("BEGIN")
        try:
            self._require_game(connection, game_id)
            rows = connection.execute(
                "SELECT seq, at, kind, source, action, evidence FROM events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        finally:
            connection.execute("COMMIT")
        return [
            Event(
                game_id,
                seq,
                at,
                kind,
                source,
                json.loads(action) if action is not None else None,
                json.loads(evidence) if evidence is not None else None,
            )
            for seq, at, kind, source, action, evidence in rows
        ]

    def info(self, game_id: int) -> GameInfo:
        games = self._games("WHERE g.game_id = ?", (game_id,))
        if not games:
            raise GameNotFoundError(f"no game with id {game_id} in {self.path}")
        return games[0]

    def list_games(self) -> list[GameInfo]:
        return self._games("", ())

    def unfinished_games(self) -> list[GameInfo]:
        return self._games("WHERE g.finished = 0", ())

    def _games(self, where: str, parameters: tuple[Any, ...]) -> list[GameInfo]:
        rows = (
            self._connection()
            .execute(
                "SELECT g.game_id, g.game, g.options, g.names, g.created, g.finished,"
                " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.game_id)"
                f" FROM games g {where} ORDER BY g.game_id",
                parameters,
            )
            .fetchall()
        )
        return [
            GameInfo(game_id, game, json.loads(options), json.loads(names), created, bool(finished), events)
            for game_id, game, options, names, created, finished, events in rows
        ]

    def durability(self) -> dict[str, str]:
        """The journal mode and sync level this thread's connection really runs with."""
        connection = self._connection()
        (mode,) = connection.execute("PRAGMA journal_mode").fetchone()
        (level,) = connection.execute("PRAGMA synchronous").fetchone()
        return {"journal_mode": mode, "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[level]}

    @staticmethod
    def _require_game(connection: sqlite3.Connection, game_id: int) -> None:
        if connection.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone() is None:
            raise GameNotFoundError(f"no game with id {game_id} in the record")

    def close(self) -> None:
        with self._connections_lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()

    def __enter__(self) -> RecordStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
