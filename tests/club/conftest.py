"""A real Mosquitto per test (Debian's package; `make test` installs it), on a free port."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.club.mosquitto import MOSQUITTO, Account, Mosquitto

TABLE = Account("table", "table-key-1")
LEAGUE = Account("league", "league-key-1")
CLUB_ACL = (
    f"user {TABLE.username}",
    "topic write minotaur/+/tables/#",
    "topic read minotaur/+/roster",
    f"user {LEAGUE.username}",
    "topic read minotaur/#",
    "topic write minotaur/+/roster",
)


def need_mosquitto() -> None:
    if not MOSQUITTO.exists():
        message = f"{MOSQUITTO} is missing: `make test` installs Debian's mosquitto"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """An open broker (anonymous clients allowed)."""
    need_mosquitto()
    started = Mosquitto(tmp_path / "broker")
    started.start()
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def club_broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """A club's broker: only the table's and the league's accounts, each with its own rights."""
    need_mosquitto()
    started = Mosquitto(tmp_path / "club-broker", accounts=(TABLE, LEAGUE), acl=CLUB_ACL)
    started.start()
    try:
        yield started
    finally:
        started.stop()
