from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from table.toygame import RACE

import companion.games
from companion.table.referee import Referee
from companion.web import create_app

HOST_PIN = "4321"
TEST_CONFIG = {"TESTING": True, "SSE_KEEPALIVE": 0.05, "SSE_RETRY_MS": 1500, "HOST_PIN": HOST_PIN}


@pytest.fixture(autouse=True)
def toy_race_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy race is known to the registry only while a test of this package runs."""
    companion.games.all_games()
    monkeypatch.setitem(companion.games._GAMES, RACE.name, RACE)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


@pytest.fixture
def referee(db_path: Path) -> Iterator[Referee]:
    started = Referee(db_path)
    started.start()
    yield started
    started.stop()


@pytest.fixture
def app(referee: Referee) -> Flask:
    return create_app(TEST_CONFIG, referee=referee)


def sign_in(client: FlaskClient, pin: str = HOST_PIN) -> str:
    """Sign `client` in as the host; its later requests carry the session cookie and the CSRF token."""
    response = client.post("/api/host/sign-in", json={"pin": pin})
    assert response.status_code == 200, response.json
    assert response.json is not None
    token: str = response.json["csrf_token"]
    client.environ_base["HTTP_X_CSRF_TOKEN"] = token
    return token


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """The host's phone, signed in."""
    host = app.test_client()
    sign_in(host)
    return host


@pytest.fixture
def viewer(app: Flask) -> FlaskClient:
    """A phone without the PIN."""
    return app.test_client()


def event_count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as connection:
        count: int = connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    return count


def start_race(client: FlaskClient, goal: int = 6) -> int:
    response = client.post(
        "/api/games", json={"game": "toy-race", "options": {"goal": goal}, "names": ["Ann", "Bo"]}
    )
    assert response.status_code == 201, response.json
    assert response.json is not None
    game_id: int = response.json["game_id"]
    return game_id
