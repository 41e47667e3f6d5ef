"""The league over a real Mosquitto: a league restart and a broker restart mid-stream lose nothing, and the
league ends equal to a replay of every table's record; rebuilding from the broker's retained records or
from exported files gives the same league; the roster the organiser edits reaches the tables."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.cli import main
from companion.club.league import League
from companion.club.league_figures import league_from_records
from companion.club.messages import Roster, roster_topic
from companion.club.mosquitto import Mosquitto
from companion.club.service import LeagueService, export_records, rebuild_from_broker, rebuild_from_records

from .conftest import LEAGUE, TABLE
from .league_games import CLUB, TableGame, play_games

PATIENCE = 30.0


@dataclasses.dataclass(frozen=True)
class Settings:
    host: str
    port: int
    club: str
    username: str | None
    password: str | None


def league_settings(broker: Mosquitto) -> Settings:
    return Settings("127.0.0.1", broker.port, CLUB, LEAGUE.username, LEAGUE.password)


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> list[TableGame]:
    folder = tmp_path_factory.mktemp("games")
    names = [["Ann", "Bo", "Cy"], ["Dee", "Ann", "Eve"]]
    return [*play_games(folder, "t1", names, seed=70), *play_games(folder, "t2", names[::-1], seed=80)]


class Table:
    """A table's client, as the publisher connects: its own persistent session, QoS 1."""

    def __init__(self, broker: Mosquitto) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="lions-tables", clean_session=False)
        self.client.username_pw_set(TABLE.username, TABLE.password)
        self.client.reconnect_delay_set(1, 2)
        self.connected = threading.Event()
        self.client.on_connect = lambda *_a: self.connected.set()
        self.client.on_disconnect = lambda *_a: self.connected.clear()
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.connected.wait(PATIENCE)

    def publish(self, messages: list[tuple[str, bytes]]) -> None:
        assert self.connected.wait(PATIENCE), "the table did not reconnect"
        for topic, payload in messages:
            retain = "/records/" in topic
            self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(PATIENCE)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def table(club_broker: Mosquitto) -> Iterator[Table]:
    made = Table(club_broker)
    yield made
    made.close()


def wait_for(condition: Callable[[], bool], what: str | Callable[[], str]) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        said = what if isinstance(what, str) else what()
        assert time.monotonic() < deadline, f"timed out waiting for {said}"
        time.sleep(0.05)


def interleaved(evening: list[TableGame]) -> list[tuple[str, bytes]]:
    """Both tables playing at once: their messages alternate, each table's in its own order."""
    per_table: dict[str, list[tuple[str, bytes]]] = {}
    for game in evening:
        per_table.setdefault(game.table, []).extend(game.messages())
    queues = list(per_table.values())
    merged = []
    while any(queues):
        for messages in queues:
            if messages:
                merged.append(messages.pop(0))
    return merged


def test_a_league_restart_and_a_broker_restart_lose_nothing(
    tmp_path: Path, club_broker: Mosquitto, table: Table, evening: list[TableGame]
) -> None:
    messages = interleaved(evening)
    third = len(messages) // 3
    league = League(tmp_path / "league.db", CLUB)
    service = LeagueService(league, league_settings(club_broker))
    service.start(timeout=PATIENCE)
    table.publish(messages[:third])

    service.stop()  # the league restarts: what the tables send meanwhile waits at the broker
    league.close()
    table.publish(messages[third : 2 * third])
    club_broker.restart()  # ... and survives the broker's restart too

    league = League(tmp_path / "league.db", CLUB)
    service = LeagueService(league, league_settings(club_broker))
    service.start(timeout=PATIENCE)
    table.publish(messages[2 * third : 2 * third + 20])
    club_broker.restart()  # mid-stream, with the league connected
    table.publish(messages[2 * third + 20 :])

    expected = {(t, g, s) for g_ in evening for (t, g, s) in event_keys(g_)}
    wait_for(
        lambda: league.received() == expected and len(league.records()) == len(evening),
        lambda: (
            f"every message: missing {sorted(expected - league.received())[:8]}, "
            f"{len(league.records())} of {len(evening)} records, outcomes {league.counts}"
        ),
    )
    assert league.figures() == league_from_records([game.record for game in evening])
    assert league.counts["malformed"] == league.counts["refused"] == 0
    assert service.connections >= 2, "the league reconnected after the broker's restart"
    service.stop()

    rebuilt = League(tmp_path / "from-broker.db", CLUB)
    assert rebuild_from_broker(rebuilt, league_settings(club_broker)) == len(evening)
    assert rebuilt.figures() == league.figures()

    exported = export_records(league, tmp_path / "records")
    from_files = League(tmp_path / "from-files.db", CLUB)
    assert rebuild_from_records(from_files, tmp_path / "records") == len(exported) == len(evening)
    assert from_files.figures() == league.figures()
    for opened in (league, rebuilt, from_files):
        opened.close()


def event_keys(game: TableGame) -> set[tuple[str, int, int]]:
    return {(game.table, game.game_id, seq) for seq in range(1, len(game.record.lines))}


def test_rebuilding_from_a_bad_file_writes_nothing(tmp_path: Path, evening: list[TableGame]) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    for game in evening[:2]:
        (folder / f"{game.table}-{game.game_id}.jsonl").write_text("\n".join(game.record.lines) + "\n")
    lines = list(evening[2].record.lines)
    (folder / "t2-1.jsonl").write_text("\n".join([lines[0], *lines[2:]]) + "\n")
    league = League(tmp_path / "league.db", CLUB)
    with pytest.raises(ValueError, match=r"t2-1\.jsonl does not replay"):
        rebuild_from_records(league, folder)
    (folder / "t2-1.jsonl").unlink()
    (folder / "notes.jsonl").write_text(lines[0] + "\n")
    with pytest.raises(ValueError, match=r"notes\.jsonl: name a record"):
        rebuild_from_records(league, folder)
    assert league.store.count("records") == 0
    league.close()


def test_the_roster_is_published_retained_for_the_tables(tmp_path: Path, club_broker: Mosquitto) -> None:
    league = League(tmp_path / "league.db", CLUB)
    service = LeagueService(league, league_settings(club_broker))
    service.start(timeout=PATIENCE)
    league.add_member("Ann")
    league.add_member("Bo")
    service.stop()
    got: list[Roster] = []
    reader = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="t9")
    reader.username_pw_set(TABLE.username, TABLE.password)
    reader.on_connect = lambda c, *_a: c.subscribe(roster_topic(CLUB), qos=1)
    reader.on_message = lambda _c, _u, message: got.append(Roster.decode(bytes(message.payload)))
    reader.connect("127.0.0.1", club_broker.port)
    reader.loop_start()
    wait_for(lambda: bool(got), "the retained roster")
    assert [member.name for member in got[-1].members] == ["Ann", "Bo"]
    reader.disconnect()
    reader.loop_stop()
    league.close()


def test_companion_club_rebuild_and_export(
    tmp_path: Path,
    club_broker: Mosquitto,
    table: Table,
    evening: list[TableGame],
    capsys: pytest.CaptureFixture[str],
) -> None:
    table.publish([game.record_message() for game in evening])  # retained at the broker
    url = f"mqtt://{LEAGUE.username}:{LEAGUE.password}@127.0.0.1:{club_broker.port}"
    rebuild = ["club", "rebuild", "--club", CLUB]
    assert main([*rebuild, "--db", str(tmp_path / "a.db"), "--from-broker", "--broker", url]) == 0
    assert main(["club", "export", "--db", str(tmp_path / "a.db"), "--to", str(tmp_path / "records")]) == 0
    assert main([*rebuild, "--db", str(tmp_path / "b.db"), "--from-records", str(tmp_path / "records")]) == 0
    expected = league_from_records([game.record for game in evening])
    for name in ("a.db", "b.db"):
        rebuilt = League(tmp_path / name)
        assert rebuilt.club == CLUB and rebuilt.figures() == expected
        rebuilt.close()
    assert f"{len(evening)} records kept" in capsys.readouterr().out

    (tmp_path / "records" / "t1-1.jsonl").write_text("not a record\n")
    assert main([*rebuild, "--db", str(tmp_path / "c.db"), "--from-records", str(tmp_path / "records")]) == 2
    assert "t1-1.jsonl does not replay" in capsys.readouterr().err
    assert not list(tmp_path.glob("c.db*")), "a refused rebuild leaves no file"
    assert main([*rebuild, "--db", str(tmp_path / "a.db"), "--from-records", str(tmp_path / "records")]) == 2
    assert "rebuild into a new file" in capsys.readouterr().err


def test_a_league_opened_without_its_club_takes_the_brokers(tmp_path: Path, club_broker: Mosquitto) -> None:
    league = League(tmp_path / "league.db")
    service = LeagueService(league, league_settings(club_broker))
    assert league.club == CLUB and league.roster().members == ()
    service.stop()
    league.close()
    reopened = League(tmp_path / "league.db")
    assert reopened.club == CLUB
    reopened.close()
