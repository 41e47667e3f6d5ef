"""A table publishes its record and public view to a real Mosquitto: in order, hidden information kept at
the table, through a broker stopped for a while and a table daemon restarted mid-game, finished games'
records retained; and a table without the club's key publishes nothing."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

import companion.games
from companion.club.messages import EventMessage, RecordMessage, parse_topic, tables_filter
from companion.club.mosquitto import Mosquitto
from companion.club.publisher import BrokerSettings, PublisherError, TablePublisher, attach
from companion.games import CHANCE
from companion.record.jsonl import parse_record
from companion.record.replay import replay
from companion.table.broadcast import Published
from companion.table.inputs import NewGame, SubmitAction, Undo
from companion.table.referee import Referee
from companion.table.simulation import SimulationDriver
from companion.web import create_app
from tests.table.toygame import RACE, SECRET_KEY, Coin, Step

from .conftest import LEAGUE, TABLE, need_mosquitto
from .test_access import LEAGUE_KEY, ShippedBroker, make_keys

CLUB, TABLE_ID = "lions", "t1"
PATIENCE = 20.0


@pytest.fixture(autouse=True)
def toy_race_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    companion.games.all_games()
    monkeypatch.setitem(companion.games._GAMES, RACE.name, RACE)


class League:
    """What the league would hear: every table message, as a persistent QoS 1 subscriber."""

    def __init__(self, broker: Mosquitto, account: tuple[str, str] | None = None) -> None:
        self.events: list[EventMessage] = []
        self.records: dict[int, RecordMessage] = {}
        self.online: list[str] = []
        self._changed = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="league", clean_session=False)
        if account:
            self.client.username_pw_set(*account)
        subscribed = threading.Event()
        self.client.on_connect = lambda c, *_a: c.subscribe(tables_filter(CLUB), qos=1)
        self.client.on_subscribe = lambda *_a: subscribed.set()
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(1, 1)
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert subscribed.wait(PATIENCE), "the league could not subscribe"

    def _on_message(self, _c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        parts = parse_topic(message.topic)
        with self._changed:
            if parts.kind == "events":
                self.events.append(EventMessage.decode(message.payload))
            elif parts.kind == "records":
                self.records[parts.game_id or 0] = RecordMessage.decode(message.payload)
            else:
                self.online.append(message.payload.decode())
            self._changed.notify_all()

    def wait_for(self, done: Callable[[League], bool], what: str) -> None:
        with self._changed:
            assert self._changed.wait_for(lambda: done(self), PATIENCE), f"{what}: {self.seqs()}"

    def seqs(self, game_id: int | None = None) -> list[int]:
        return [event.seq for event in self.events if game_id is None or event.game_id == game_id]

    def deduplicated(self, game_id: int) -> list[EventMessage]:
        """As the league keeps them: the first of each (table, game_id, seq)."""
        seen: dict[int, EventMessage] = {}
        for event in self.events:
            if event.game_id == game_id:
                seen.setdefault(event.seq, event)
        return list(seen.values())

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def league(broker: Mosquitto) -> Iterator[League]:
    listening = League(broker)
    yield listening
    listening.stop()


def settings_for(broker: Mosquitto, **more: Any) -> BrokerSettings:
    return BrokerSettings("127.0.0.1", CLUB, TABLE_ID, port=broker.port, reconnect_max_seconds=1, **more)


@contextlib.contextmanager
def running_referee(tmp_path: Path) -> Iterator[Referee]:
    referee = Referee(tmp_path / "var" / "table.db")
    referee.start()
    try:
        yield referee
    finally:
        referee.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Referee]:
    with running_referee(tmp_path) as referee:
        yield referee


def new_race(referee: Referee, goal: int = 8) -> int:
    reply = referee.call(NewGame("toy-race", {"goal": goal}, ["Ariadne", "Theseus"]), source="host")
    assert reply.ok and reply.game_id is not None, reply.error
    return reply.game_id


def play(referee: Referee, moves: int, *, heads: bool = False) -> None:
    """`moves` steps of the race (each a seat's step and the table's coin), or until it ends."""
    for _ in range(moves):
        state = referee.snapshot().state
        assert state is not None
        if state.is_over():
            return
        seat = state.to_act().seats[0]
        for action, source in ((Step(seat, 1), "host"), (Coin(CHANCE, heads), "camera")):
            started = time.monotonic()
            reply = referee.call(SubmitAction(action), source=source)
            assert reply.ok, reply.error
            assert time.monotonic() - started < 1.0, "the referee waited for the club's broker"


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for inner in value.values() for key in keys_in(inner)}
    if isinstance(value, list):
        return {key for inner in value for key in keys_in(inner)}
    return set()


def wait_acked(publisher: TablePublisher, game_id: int, seq: int) -> None:
    deadline = time.monotonic() + PATIENCE
    while publisher.acked_through(game_id) < seq:
        assert time.monotonic() < deadline, f"acked through {publisher.acked_through(game_id)}, not {seq}"
        time.sleep(0.05)


def test_events_arrive_in_order_with_the_scoreboards_view_and_nothing_hidden(
    broker: Mosquitto, league: League, table: Referee, tmp_path: Path
) -> None:
    publisher = attach(table, settings_for(broker), tmp_path / "var" / "outbox.db")
    try:
        scoreboard = create_app({"TESTING": True}, referee=table).test_client()
        game_id = new_race(table)
        served: dict[int, dict[str, Any]] = {}
        for _ in range(3):
            play(table, 1)
            state = scoreboard.get("/api/state").get_json()
            served[state["seq"]] = state
        table.call(Undo(), source="host")
        served[table.snapshot().seq] = scoreboard.get("/api/state").get_json()
        league.wait_for(lambda seen: len(seen.events) >= 7, "not every event arrived")
    finally:
        publisher.stop()

    assert league.seqs() == [1, 2, 3, 4, 5, 6, 7], "every event once, in order"
    assert publisher.acked_through(game_id) == 7
    for event in league.events:
        assert event.game_id == game_id and event.table == TABLE_ID and event.game == "toy-race"
        assert not {"action", "evidence", SECRET_KEY} & keys_in(event.view), "hidden data left the table"
        assert "legal" not in event.view
    by_seq = {event.seq: event for event in league.events}
    for seq, state in served.items():
        # The published view is what /api/state served everyone then, less the table's own keys.
        public = {key: value for key, value in state.items() if key not in ("id", "table", "legal")}
        assert by_seq[seq].view == public
        assert by_seq[seq].label == state["log"][-1]["label"]
    assert by_seq[7].kind == "undo" and by_seq[7].label is not None and by_seq[7].label.startswith("undo")
    assert by_seq[2].source == "camera" and by_seq[2].label == "coin shows tails"
    assert "1" in league.online and league.online[-1] == "0", "online on connect, offline at stop"


def test_a_table_plays_on_without_its_broker_and_catches_up_once_each(
    broker: Mosquitto, league: League, table: Referee, tmp_path: Path
) -> None:
    publisher = attach(table, settings_for(broker), tmp_path / "var" / "outbox.db")
    try:
        game_id = new_race(table, goal=40)
        play(table, 3)
        wait_acked(publisher, game_id, 6)
        broker.stop()
        play(table, 10)  # 20 events while the broker is gone: more than the window in flight
        assert publisher.acked_through(game_id) == 6
        time.sleep(1.5)
        broker.start()
        play(table, 2)
        wait_acked(publisher, game_id, 30)
        league.wait_for(lambda seen: 30 in seen.seqs(), "the table did not catch up")
    finally:
        publisher.stop()
    kept = league.deduplicated(game_id)
    assert [event.seq for event in kept] == list(range(1, 31)), "every event, in order, after dedup"
    firsts = [league.seqs().index(seq) for seq in range(1, 31)]
    assert firsts == sorted(firsts), "each event first arrived after the one before it"


def test_events_played_before_the_broker_was_ever_reachable_arrive_in_order(
    broker: Mosquitto, league: League, table: Referee, tmp_path: Path
) -> None:
    broker.stop()
    publisher = attach(table, settings_for(broker), tmp_path / "var" / "outbox.db")
    try:
        game_id = new_race(table, goal=60)
        play(table, 5)  # 10 events before any connection: half the window
        assert not publisher.connected
        broker.start()
        play(table, 10)  # and 20 more while the table connects
        wait_acked(publisher, game_id, 30)
        league.wait_for(lambda seen: 30 in seen.seqs(), "the table did not catch up")
    finally:
        publisher.stop()
    assert league.seqs() == list(range(1, 31)), (
        "in order and once each: nothing went out before the connection"
    )


def test_a_restarted_table_resumes_from_its_outbox(broker: Mosquitto, league: League, tmp_path: Path) -> None:
    db, outbox = tmp_path / "var" / "table.db", tmp_path / "var" / "outbox.db"
    referee = Referee(db)
    referee.start()
    publisher = attach(referee, settings_for(broker), outbox)
    game_id = new_race(referee, goal=40)
    play(referee, 4)
    wait_acked(publisher, game_id, 8)
    publisher.stop()
    play(referee, 3)  # recorded while the publisher is down: only the outbox knows where it stopped
    referee.stop()

    referee = Referee(db)
    referee.start()
    publisher = attach(referee, settings_for(broker), outbox)
    try:
        assert publisher.acked_through(game_id) == 8, "the outbox remembered the broker's last ack"
        play(referee, 2)
        wait_acked(publisher, game_id, 18)
        league.wait_for(lambda seen: 18 in seen.seqs(), "the restarted table did not catch up")
    finally:
        publisher.stop()
        referee.stop()
    assert league.seqs() == list(range(1, 19)), "no gap and nothing sent twice across the restart"


def test_a_finished_game_is_published_retained_and_replays_to_the_same_scores(
    broker: Mosquitto, table: Referee, tmp_path: Path
) -> None:
    publisher = attach(table, settings_for(broker), tmp_path / "var" / "outbox.db")
    try:
        game_id = new_race(table, goal=4)
        play(table, 10, heads=True)
        final = table.snapshot()
        assert final.state is not None and final.state.is_over()
        wait_record(publisher, game_id, final.seq)
    finally:
        publisher.stop()
    record = parse_record(retained_record(broker, game_id).lines)
    replayed = replay(record.header, record.events)
    assert replayed.state.scores() == final.state.scores()
    assert replayed.events == final.seq and record.header.finished


def test_games_finished_before_the_table_joined_stay_home(
    broker: Mosquitto, league: League, table: Referee, tmp_path: Path
) -> None:
    home = new_race(table, goal=2)
    play(table, 4, heads=True)
    publisher = attach(table, settings_for(broker), tmp_path / "var" / "outbox.db")
    try:
        club_game = new_race(table)
        play(table, 1)
        wait_acked(publisher, club_game, 2)
    finally:
        publisher.stop()
    assert {event.game_id for event in league.events} == {club_game}
    assert publisher.acked_through(home) > 0 and home not in league.records


def test_a_table_without_the_clubs_key_publishes_nothing(club_broker: Mosquitto, tmp_path: Path) -> None:
    league = League(club_broker, (LEAGUE.username, LEAGUE.password))
    referee = Referee(tmp_path / "var" / "table.db")
    referee.start()
    wrong = settings_for(club_broker, username=TABLE.username, password="not-the-key")
    publisher = attach(referee, wrong, tmp_path / "var" / "outbox.db")
    try:
        game_id = new_race(referee)
        play(referee, 2)
        deadline = time.monotonic() + PATIENCE
        while publisher.refusal is None:
            assert time.monotonic() < deadline, "the broker did not refuse the wrong key"
            time.sleep(0.05)
        time.sleep(1.0)
        assert publisher.acked_through(game_id) == 0 and league.events == []
        publisher.stop()
        # The same table with the club's key: everything it played arrives.
        right = settings_for(club_broker, username=TABLE.username, password=TABLE.password)
        publisher = attach(referee, right, tmp_path / "var" / "outbox.db")
        wait_acked(publisher, game_id, 4)
        league.wait_for(lambda seen: seen.seqs() == [1, 2, 3, 4], "the keyed table's events")
    finally:
        publisher.stop()
        referee.stop()
        league.stop()


def test_broker_settings_from_an_address() -> None:
    settings = BrokerSettings.from_url("mqtt://table:s%40fe@club.local:1884", club=CLUB, table=TABLE_ID)
    assert (settings.host, settings.port, settings.username, settings.password) == (
        "club.local",
        1884,
        "table",
        "s@fe",
    )
    assert not settings.tls and settings.client_id == "lions-t1"
    secure = BrokerSettings.from_url("mqtts://club.local", club=CLUB, table=TABLE_ID)
    assert secure.tls and secure.port == 8883 and secure.username is None
    with pytest.raises(PublisherError, match="mqtt://"):
        BrokerSettings.from_url("http://club.local", club=CLUB, table=TABLE_ID)
    with pytest.raises(ValueError, match="table"):
        BrokerSettings.from_url("mqtt://club.local", club=CLUB, table="Table 1")
    with pytest.raises(PublisherError, match="key file"):
        BrokerSettings.from_url("mqtts://h", club=CLUB, table=TABLE_ID, cert_file=Path("/etc/hostname"))


def test_an_undo_after_the_end_sends_the_record_again_once_finished_again(
    broker: Mosquitto, table: Referee, tmp_path: Path
) -> None:
    publisher = attach(table, settings_for(broker), tmp_path / "var" / "outbox.db")
    try:
        game_id = new_race(table, goal=2)
        play(table, 10, heads=True)
        first = table.snapshot().seq
        wait_record(publisher, game_id, first)
        assert table.call(Undo(), source="host").ok  # the last coin taken back: the game is open again
        assert table.call(SubmitAction(Coin(CHANCE, True)), source="camera").ok
        again = table.snapshot()
        assert again.state is not None and again.state.is_over() and again.seq == first + 2
        wait_record(publisher, game_id, again.seq)
    finally:
        publisher.stop()
    assert len(retained_record(broker, game_id).lines) == again.seq + 1, (
        "the retained record is the longer one"
    )


def retained_record(broker: Mosquitto, game_id: int) -> RecordMessage:
    """The record a league gets that subscribes only now: it is retained."""
    later = League(broker)
    try:
        later.wait_for(lambda seen: game_id in seen.records, "no retained record")
    finally:
        later.stop()
    return later.records[game_id]


def wait_record(publisher: TablePublisher, game_id: int, events: int) -> None:
    deadline = time.monotonic() + PATIENCE
    while publisher.record_acked(game_id) != events:
        assert time.monotonic() < deadline, (
            f"record of {publisher.record_acked(game_id)} events, not {events}"
        )
        time.sleep(0.05)


def test_a_table_publishes_over_tls_with_the_clubs_client_certificate(tmp_path: Path) -> None:
    need_mosquitto()
    keys = tmp_path / "keys"
    make_keys(keys, "127.0.0.1")
    shipped = ShippedBroker(tmp_path / "broker", keys, tls=True)
    shipped.start()
    try:
        league = League(shipped, ("league", LEAGUE_KEY))
        with running_referee(tmp_path) as referee:
            settings = BrokerSettings.from_url(
                f"mqtts://127.0.0.1:{shipped.tls_port}",
                club=CLUB,
                table=TABLE_ID,
                ca_file=keys / "ca.crt",
                cert_file=keys / "table.crt",
                key_file=keys / "table.key",
            )
            publisher = attach(referee, settings, tmp_path / "var" / "outbox.db")
            try:
                game_id = new_race(referee)
                play(referee, 2)
                wait_acked(publisher, game_id, 4)
                league.wait_for(lambda seen: seen.seqs() == [1, 2, 3, 4], "events over TLS")
            finally:
                publisher.stop()
                league.stop()
    finally:
        shipped.stop()


@pytest.mark.parametrize("game", ["minotaurus", "hornochsen", "asterion", "minos", "minoa"])
def test_every_games_published_views_are_the_scoreboards_own(
    broker: Mosquitto, league: League, tmp_path: Path, game: str
) -> None:
    """Recomputed by replaying the record, each event's view is exactly what the live scoreboard showed
    after it: the public view the game gives, never the state behind it."""
    shown: dict[int, dict[str, Any]] = {}

    def keep(published: Published) -> None:
        if published.payload.get("game"):
            shown[published.payload["seq"]] = published.payload

    table = Referee(tmp_path / "var" / "table.db", simulate=True)  # the simulated players play
    table.start()
    table.broadcaster.subscribe(keep)
    publisher = attach(table, settings_for(broker), tmp_path / "var" / "outbox.db")
    driver = SimulationDriver(table, game=game, players=3, seed=3, delay=0, pause=PATIENCE)
    try:
        driver.start()
        deadline = time.monotonic() + PATIENCE
        while len(shown) < 40 and not (table.snapshot().state and table.snapshot().state.is_over()):
            assert time.monotonic() < deadline, f"{game} stalled"
            time.sleep(0.05)
        driver.stop()
        last = table.snapshot()
        assert last.game_id is not None
        wait_acked(publisher, last.game_id, last.seq)
        league.wait_for(lambda seen: last.seq in seen.seqs(), "not every event arrived")
    finally:
        driver.stop()
        publisher.stop()
        table.stop()
    assert league.seqs() == list(range(1, last.seq + 1))
    for event in league.events:
        public = {
            key: value for key, value in shown[event.seq].items() if key not in ("id", "table", "legal")
        }
        assert event.view == public, f"{game} event {event.seq}"
        assert not {"action", "evidence"} & keys_in(event.view)
