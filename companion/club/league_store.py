"""The league's own SQLite file (WAL): the events received, each table's live view, the finished records,
the club's roster. One writer thread makes every change, so messages arriving on the broker's thread and
the organiser's edits from the web's threads never interleave; readers open their own connections.

Everything here can be rebuilt: the records from the broker's retained messages or exported files, the
live views from the next events, the roster from its retained message.
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, TypeVar

from companion.club.messages import EventMessage, Member, RecordMessage

T = TypeVar("T")
_Job = tuple[Callable[[sqlite3.Connection], Any], Future[Any]]
MAX_BATCH = 500
"""Jobs committed together at most: a backlog commits in a few transactions, and none holds the file long."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    tbl TEXT NOT NULL, game_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    at TEXT NOT NULL, kind TEXT NOT NULL, label TEXT,
    PRIMARY KEY (tbl, game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tables (
    tbl TEXT PRIMARY KEY, online INTEGER, game_id INTEGER, seq INTEGER, game TEXT, names TEXT,
    finished INTEGER, view TEXT, at TEXT
);
CREATE TABLE IF NOT EXISTS records (
    tbl TEXT NOT NULL, game_id INTEGER NOT NULL, events INTEGER NOT NULL, lines TEXT NOT NULL,
    PRIMARY KEY (tbl, game_id)
);
CREATE TABLE IF NOT EXISTS members (id TEXT PRIMARY KEY, name TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS aliases (name_key TEXT PRIMARY KEY, member_id TEXT NOT NULL);
"""


class LeagueStore:
    """The SQLite file; every write runs on the one writer thread and is committed before it returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        ready: Future[None] = Future()
        self._writer = threading.Thread(
            target=self._write_loop, args=(ready,), name="league-writer", daemon=True
        )
        self._writer.start()
        ready.result()

    # ------------------------------------------------------------ the writer

    def _write_loop(self, ready: Future[None]) -> None:
        try:
            connection = sqlite3.connect(self.path, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.executescript(SCHEMA)
        except sqlite3.Error as error:
            ready.set_exception(error)
            return
        ready.set_result(None)
        with closing(connection):
            while (job := self._jobs.get()) is not None:
                batch, stop = [job], False
                while len(batch) < MAX_BATCH:
                    try:
                        more = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    batch.append(more)
                self._commit(connection, batch)
                if stop:
                    return

    @staticmethod
    def _commit(connection: sqlite3.Connection, batch: list[_Job]) -> None:
        """The jobs waiting together in one transaction (a backlog's thousand events cost one sync to disk,
        not a thousand), each in its own savepoint so that one refused job leaves the others; results are
        handed out in order once the whole transaction is committed."""
        outcomes: list[tuple[Future[Any], Any, BaseException | None]] = []
        try:
            connection.execute("BEGIN IMMEDIATE")
            for work, done in batch:
                connection.execute("SAVEPOINT job")
                try:
                    result = work(connection)
                except BaseException as error:  # handed to the caller, who raises it
                    connection.execute("ROLLBACK TO job")
                    outcomes.append((done, None, error))
                else:
                    outcomes.append((done, result, None))
                connection.execute("RELEASE job")
            connection.execute("COMMIT")
        except BaseException as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            outcomes = [(done, None, error) for _, done in batch]
        for done, result, failure in outcomes:
            if failure is not None:
                done.set_exception(failure)
            else:
                done.set_result(result)

    def submit(self, work: Callable[[sqlite3.Connection], T]) -> Future[T]:
        """Run `work` in a transaction on the writer thread; the future holds its result once committed.
        Futures complete in the order their work was submitted."""
        done: Future[T] = Future()
        self._jobs.put((work, done))
        return done

    def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` in a transaction on the writer thread; its result once committed."""
        return self.submit(work).result()

    def close(self) -> None:
        if self._writer.is_alive():
            self._jobs.put(None)
            self._writer.join()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=10)) as connection:
            yield connection

    # ------------------------------------------------------------ writes

    def add_event(self, message: EventMessage) -> bool:
        """Keep an event; False if it was received before. The table's live view follows only a later
        event than the one it shows (an older one arriving late changes nothing)."""
        return self.add_event_later(message).result()

    def add_event_later(self, message: EventMessage) -> Future[bool]:
        """`add_event` without waiting: the future says, once committed, whether the event was new."""

        def work(connection: sqlite3.Connection) -> bool:
            added = connection.execute(
                "INSERT OR IGNORE INTO events (tbl, game_id, seq, at, kind, label) VALUES (?, ?, ?, ?, ?, ?)",
                (message.table, message.game_id, message.seq, message.at, message.kind, message.label),
            ).rowcount
            if not added:
                return False
            row = connection.execute(
                "SELECT game_id, seq FROM tables WHERE tbl = ?", (message.table,)
            ).fetchone()
            if row is None or row[0] is None or (message.game_id, message.seq) > (row[0], row[1]):
                connection.execute(
                    "INSERT INTO tables (tbl, online, game_id, seq, game, names, finished, view, at)"
                    " VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tbl) DO UPDATE SET"
                    " game_id = excluded.game_id, seq = excluded.seq, game = excluded.game,"
                    " names = excluded.names, finished = excluded.finished, view = excluded.view,"
                    " at = excluded.at",
                    (
                        message.table,
                        message.game_id,
                        message.seq,
                        message.game,
                        json.dumps(list(message.names), ensure_ascii=False),
                        int(message.finished),
                        json.dumps(message.view, ensure_ascii=False),
                        message.at,
                    ),
                )
            return True

        return self.submit(work)

    def set_online(self, table: str, online: bool) -> None:
        self.write(
            lambda connection: connection.execute(
                "INSERT INTO tables (tbl, online) VALUES (?, ?) ON CONFLICT (tbl) DO UPDATE SET online = ?",
                (table, int(online), int(online)),
            )
        )

    def put_record(self, record: RecordMessage, events: int, then: Callable[[], None]) -> bool:
        """Keep a record unless one of the same game with as many events or more is kept; `then` runs in
        the same transaction when it is kept (the league updates its figures there, in the same order)."""

        def work(connection: sqlite3.Connection) -> bool:
            row = connection.execute(
                "SELECT events FROM records WHERE tbl = ? AND game_id = ?", (record.table, record.game_id)
            ).fetchone()
            if row is not None and row[0] >= events:
                return False
            connection.execute(
                "INSERT OR REPLACE INTO records (tbl, game_id, events, lines) VALUES (?, ?, ?, ?)",
                (record.table, record.game_id, events, json.dumps(list(record.lines), ensure_ascii=False)),
            )
            then()
            return True

        return self.write(work)

    def put_members(self, members: tuple[Member, ...], aliases: Mapping[str, str]) -> None:
        """The roster, and each former name (as player_key matches it) with the member it still means."""

        def work(connection: sqlite3.Connection) -> None:
            connection.execute("DELETE FROM members")
            connection.executemany(
                "INSERT INTO members (id, name, position) VALUES (?, ?, ?)",
                [(member.id, member.name, position) for position, member in enumerate(members)],
            )
            connection.execute("DELETE FROM aliases")
            connection.executemany("INSERT INTO aliases (name_key, member_id) VALUES (?, ?)", aliases.items())

        self.write(work)

    def set_meta(self, key: str, value: str) -> None:
        self.write(
            lambda connection: connection.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value)
            )
        )

    # ------------------------------------------------------------ reads

    def meta(self, key: str) -> str | None:
        with self.reading() as connection:
            row = connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def records(self) -> list[RecordMessage]:
        with self.reading() as connection:
            rows = connection.execute(
                "SELECT tbl, game_id, lines FROM records ORDER BY tbl, game_id"
            ).fetchall()
        return [RecordMessage(table, game_id, tuple(json.loads(lines))) for table, game_id, lines in rows]

    def members(self) -> tuple[Member, ...]:
        with self.reading() as connection:
            rows = connection.execute("SELECT id, name FROM members ORDER BY position").fetchall()
        return tuple(Member(member_id, name) for member_id, name in rows)

    def aliases(self) -> dict[str, str]:
        with self.reading() as connection:
            return dict(connection.execute("SELECT name_key, member_id FROM aliases").fetchall())

    def tables(self) -> list[dict[str, Any]]:
        with self.reading() as connection:
            rows = connection.execute(
                "SELECT tbl, online, game_id, seq, game, names, finished, view, at FROM tables ORDER BY tbl"
            ).fetchall()
        return [
            {
                "table": table,
                "online": bool(online),
                "game_id": game_id,
                "seq": seq,
                "game": game,
                "names": json.loads(names) if names else [],
                "finished": bool(finished),
                "view": json.loads(view) if view else None,
                "at": at,
            }
            for table, online, game_id, seq, game, names, finished, view, at in rows
        ]

    def event_keys(self) -> set[tuple[str, int, int]]:
        """Every (table, game_id, seq) received."""
        with self.reading() as connection:
            rows = connection.execute("SELECT tbl, game_id, seq FROM events").fetchall()
        return {(table, game_id, seq) for table, game_id, seq in rows}

    def count(self, what: str) -> int:
        if what not in ("events", "records", "tables", "members"):
            raise ValueError(f"no table {what!r} in the league's file")
        with self.reading() as connection:
            return int(connection.execute(f"SELECT COUNT(*) FROM {what}").fetchone()[0])
