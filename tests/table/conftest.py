from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

import companion.games
from companion.table.referee import Referee

from .toygame import RACE


@pytest.fixture(autouse=True)
def toy_race_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy race is known to the registry only while a test of this package runs."""
    companion.games.all_games()
    monkeypatch.setitem(companion.games._GAMES, RACE.name, RACE)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "var" / "table.db"


@pytest.fixture
def referee(db_path: Path) -> Iterator[Referee]:
    started = Referee(db_path)
    started.start()
    yield started
    started.stop()


def event_count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as connection:
        count: int = connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    return count
