"""The club's shipped broker setup works as docs/club.md says: hardware/club/mosquitto.conf and acl, with
the accounts and certificates hardware/club/club-keys.sh makes, started in a real Mosquitto.

The shipped files are used as a club installs them, only the port and /etc paths moved into a temporary
folder; the main config around them is Debian's own (persistence on, a log)."""

from __future__ import annotations

import getpass
import os
import queue
import re
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.club.messages import events_topic, roster_topic
from companion.club.mosquitto import Account, Mosquitto, free_port

from .conftest import need_mosquitto

CLUB_FOLDER = Path(__file__).resolve().parents[2] / "hardware" / "club"
CLUB = "lions"
TABLE_KEY, LEAGUE_KEY = "table-key-7", "league-key-7"
TLS_LINES = re.compile(
    r"^#((?:listener 8883|cafile|certfile|keyfile|require_certificate|use_identity_as_username)\b.*)$"
)


class ShippedBroker(Mosquitto):
    """Mosquitto running hardware/club/mosquitto.conf as Debian includes it from conf.d."""

    def __init__(self, folder: Path, keys: Path, *, tls: bool, bridge: str = "") -> None:
        self.keys = keys
        self.tls = tls
        self.bridge = bridge
        """A second drop-in: hardware/club/bridge.conf as the club fills it in."""
        self.tls_port = free_port() if tls else 0
        super().__init__(folder)

    def _write_config(self) -> None:
        drop_in, uncommented_lines = [], 0
        for line in (CLUB_FOLDER / "mosquitto.conf").read_text().splitlines():
            if self.tls and (uncommented := TLS_LINES.match(line)):
                line, uncommented_lines = uncommented.group(1), uncommented_lines + 1
            line = line.replace("/etc/mosquitto/minotaur/", f"{self.keys}/")
            line = line.replace("listener 1883", f"listener {self.port} 127.0.0.1")
            line = line.replace("listener 8883", f"listener {self.tls_port} 127.0.0.1")
            drop_in.append(line)
        assert uncommented_lines == (6 if self.tls else 0), (
            "the shipped TLS block is not the six lines it says"
        )
        (self.folder / "minotaur.conf").write_text("\n".join(drop_in) + "\n")
        debian_main = [
            f"user {getpass.getuser()}",  # as in mosquitto.py: not the package's user, who may not read tmp
            "persistence true",
            f"persistence_location {self.folder}/",
            "log_dest stderr",
            f"include_dir {self.folder}/conf.d",
        ]
        (self.folder / "conf.d").mkdir(exist_ok=True)
        (self.folder / "minotaur.conf").rename(self.folder / "conf.d" / "minotaur.conf")
        if self.bridge:
            (self.folder / "conf.d" / "region.conf").write_text(self.bridge)
        (self.folder / "mosquitto.conf").write_text("\n".join(debian_main) + "\n")


def make_keys(folder: Path, *hosts: str) -> None:
    environment = {**os.environ, "TABLE_KEY": TABLE_KEY, "LEAGUE_KEY": LEAGUE_KEY}
    subprocess.run(
        [str(CLUB_FOLDER / "club-keys.sh"), CLUB, str(folder), *hosts],
        check=True,
        capture_output=True,
        env=environment,
    )


@pytest.fixture
def shipped_broker(tmp_path: Path) -> Iterator[ShippedBroker]:
    need_mosquitto()
    make_keys(tmp_path / "keys", "127.0.0.1")
    started = ShippedBroker(tmp_path / "broker", tmp_path / "keys", tls=True)
    started.start()
    try:
        yield started
    finally:
        started.stop()


class Client:
    """A paho client that collects what it receives and says how the broker answered its connection."""

    def __init__(self, client_id: str) -> None:
        self.paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.answers: queue.Queue[int] = queue.Queue()
        self.received: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.subscribed: queue.Queue[None] = queue.Queue()
        self.paho.on_connect = lambda _c, _u, _f, reason, _p: self.answers.put(int(reason.value))
        self.paho.on_message = lambda _c, _u, message: self.received.put((message.topic, message.payload))
        self.paho.on_subscribe = lambda *_args: self.subscribed.put(None)

    def connect(self, port: int) -> int:
        """The broker's answer (0: accepted); -1 when the connection broke before any answer (TLS)."""
        try:
            self.paho.connect("127.0.0.1", port)
        except (OSError, ssl.SSLError):
            return -1
        self.paho.loop_start()
        try:
            return self.answers.get(timeout=10)
        except queue.Empty:
            return -1

    def subscribe(self, topic: str) -> None:
        self.paho.subscribe(topic, qos=1)
        self.subscribed.get(timeout=10)

    def publish(self, topic: str, payload: str, *, retain: bool = False) -> None:
        self.paho.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)

    def next_message(self) -> tuple[str, str]:
        topic, payload = self.received.get(timeout=10)
        return topic, payload.decode()

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()


def signed_in(broker: Mosquitto, client_id: str, username: str, password: str) -> Client:
    client = Client(client_id)
    client.paho.username_pw_set(username, password)
    assert client.connect(broker.port) == 0, f"{username} was refused"
    return client


def test_only_the_clubs_keys_are_let_in(shipped_broker: ShippedBroker) -> None:
    assert Client("stranger").connect(shipped_broker.port) != 0, "anonymous clients must be refused"
    guesser = Client("guesser")
    guesser.paho.username_pw_set("table", "not-the-key")
    assert guesser.connect(shipped_broker.port) != 0, "a wrong key must be refused"
    signed_in(shipped_broker, "t1", "table", TABLE_KEY).close()
    signed_in(shipped_broker, "league-lions", "league", LEAGUE_KEY).close()


def test_a_table_publishes_its_events_reads_the_roster_and_nothing_else(
    shipped_broker: ShippedBroker,
) -> None:
    league = signed_in(shipped_broker, "league-lions", "league", LEAGUE_KEY)
    league.subscribe(f"minotaur/{CLUB}/#")
    league.publish(roster_topic(CLUB), "the roster", retain=True)
    assert league.next_message() == (roster_topic(CLUB), "the roster"), "the league writes the roster"

    table = signed_in(shipped_broker, "lions-t1", "table", TABLE_KEY)
    table.subscribe(roster_topic(CLUB))
    assert table.next_message() == (roster_topic(CLUB), "the roster"), "a table reads the roster"
    table.subscribe(f"minotaur/{CLUB}/tables/#")  # allowed to ask, but it may read no table's messages

    table.publish(roster_topic(CLUB), "a forged roster")
    table.publish(f"minotaur/{CLUB}/league", "not a table's topic")
    table.publish("minotaur/tigers/tables/t1/events", "another club's topic")
    table.publish(events_topic(CLUB, "t1"), "event 1")
    # Messages of one connection arrive in order: whatever was let through before event 1 came first.
    assert league.next_message() == (events_topic(CLUB, "t1"), "event 1")
    other = signed_in(shipped_broker, "lions-t2", "table", TABLE_KEY)
    other.publish(events_topic(CLUB, "t2"), "event of t2")
    assert league.next_message() == (events_topic(CLUB, "t2"), "event of t2")
    assert table.received.empty(), "a table read another table's event or its own forged roster"
    for client in (league, table, other):
        client.close()


def tls_client(broker: ShippedBroker, keys: Path, user: str | None) -> Client:
    client = Client(f"tls-{user}")
    if user is None:
        client.paho.tls_set(ca_certs=str(keys / "ca.crt"))
    else:
        client.paho.tls_set(
            ca_certs=str(keys / "ca.crt"),
            certfile=str(keys / f"{user}.crt"),
            keyfile=str(keys / f"{user}.key"),
        )
    return client


def test_tls_client_certificates_are_the_clubs_key(shipped_broker: ShippedBroker, tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    assert tls_client(shipped_broker, keys, None).connect(shipped_broker.tls_port) != 0, (
        "a client without the club's certificate must be refused"
    )
    league = tls_client(shipped_broker, keys, "league")
    assert league.connect(shipped_broker.tls_port) == 0
    league.subscribe(f"minotaur/{CLUB}/#")
    table = tls_client(shipped_broker, keys, "table")
    assert table.connect(shipped_broker.tls_port) == 0
    table.publish(roster_topic(CLUB), "a forged roster")  # the certificate's name is the user: "table"
    table.publish(events_topic(CLUB, "t1"), "event over TLS")
    assert league.next_message() == (events_topic(CLUB, "t1"), "event over TLS")
    league.close()
    table.close()


def test_a_clubs_bridge_forwards_its_tables_to_the_region_and_nothing_else(tmp_path: Path) -> None:
    need_mosquitto()
    region_acl = tuple((CLUB_FOLDER / "region-acl").read_text().splitlines())
    bridge_key, reader_key = Account(CLUB, "region-key-of-lions"), Account("region-league", "region-reader")
    tigers = Account("tigers", "region-key-of-tigers")
    region = Mosquitto(tmp_path / "region", accounts=(bridge_key, reader_key, tigers), acl=region_acl)
    region.start()
    bridge = []
    for line in (CLUB_FOLDER / "bridge.conf").read_text().splitlines():
        if line.startswith("bridge_cafile"):
            continue  # the test's region listens without TLS
        line = line.replace("region.example.org:8883", f"127.0.0.1:{region.port}")
        bridge.append(line.replace("CLUB", CLUB).replace("REGION-KEY", bridge_key.password))
    make_keys(tmp_path / "keys")
    club = ShippedBroker(tmp_path / "club", tmp_path / "keys", tls=False, bridge="\n".join(bridge) + "\n")
    club.start()
    try:
        reader = signed_in(region, "region-league", reader_key.username, reader_key.password)
        reader.subscribe("minotaur/#")
        other_club = signed_in(region, "club-tigers", tigers.username, tigers.password)
        other_club.publish(events_topic(CLUB, "t1"), "a forged event of the lions")
        league = signed_in(club, "league-lions", "league", LEAGUE_KEY)
        league.publish(roster_topic(CLUB), "the club's roster", retain=True)
        table = signed_in(club, "lions-t1", "table", TABLE_KEY)
        # The bridge connects in the background: the table's events wait in its queue until it has.
        for number in range(1, 4):
            table.publish(events_topic(CLUB, "t1"), f"event {number}")
        arrived = [reader.next_message() for _ in range(3)]
        assert arrived == [(events_topic(CLUB, "t1"), f"event {n}") for n in range(1, 4)]
        tigers_event = events_topic("tigers", "t1")
        other_club.publish(tigers_event, "the tigers' own event")
        assert reader.next_message() == (tigers_event, "the tigers' own event"), (
            "the forged event and the lions' roster would have come first"
        )
        for client in (reader, other_club, league, table):
            client.close()
    finally:
        club.stop()
        region.stop()


def test_club_keys_refuses_a_club_that_is_not_an_id(tmp_path: Path) -> None:
    result = subprocess.run(
        [str(CLUB_FOLDER / "club-keys.sh"), "Lions Club", str(tmp_path / "keys")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "not an id" in result.stderr
    assert not (tmp_path / "keys").exists(), "nothing is written for a bad club id"
