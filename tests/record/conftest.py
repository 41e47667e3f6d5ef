from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

import companion.games
from companion.record.session import GameSession
from companion.record.store import RecordStore

from .toy import TOY_GAME, Add, Start


@pytest.fixture(autouse=True)
def toy_game_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game is known to the registry only while a test of this package runs."""
    companion.games.all_games()
    monkeypatch.setitem(companion.games._GAMES, TOY_GAME.name, TOY_GAME)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "var" / "record.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[RecordStore]:
    with RecordStore(db_path) as opened:
        yield opened


def play(session: GameSession, *amounts: int, starter: int = 0) -> None:
    """Reveal the starting seat if still hidden, then add `amounts` turn by turn."""
    if session.state.to_act().chance:
        session.apply(Start(-1, starter), source="camera", evidence={"frame": 17})
    for amount in amounts:
        seat = session.state.to_act().seats[0]
        session.apply(Add(seat, amount), source="host")


def row_counts(path: Path) -> tuple[int, int]:
    with closing(sqlite3.connect(path)) as connection:
        games = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        events = connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    return games, events


def recorded_game(store: RecordStore) -> GameSession:
    """Five events: start (line 2), add 3 (line 3), add 1 (line 4), undo (line 5), add 2 (line 6)."""
    session = GameSession.create(store, "toy-count", {"goal": 10}, ["Ann", "Zoë"])
    play(session, 3, 1)
    session.undo(source="host")
    play(session, 2)
    return session
