"""The league's link to the club's broker, and rebuilding a league from what the broker or the tables keep.

`LeagueService` is one paho client with a persistent session (client id `league-<club>`, clean_session
False) subscribed to every table's messages at QoS 1. It acknowledges a QoS 1 message itself (paho's
manual_ack) once `League.ingest_later` has committed it, in the order received, so a message the broker
counts as delivered is in the league's file: when the league restarts, the broker sends it whatever it queued
meanwhile; when the broker restarts, its persistence keeps that queue and the retained records. Either
way nothing is lost, and a message delivered twice changes nothing (the league dedups).

The league owns the club's roster: it publishes it retained on every connection and every change, so a
table sees the members whichever starts first.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.club.league import League
from companion.club.league_figures import replay_record
from companion.club.messages import (
    PREFIX,
    ClubMessageError,
    RecordMessage,
    Roster,
    check_id,
    record_topic,
    roster_topic,
    tables_filter,
)

log = logging.getLogger(__name__)

RECONNECT_MAX_SECONDS = 30
QUIET_SECONDS = 2.0
"""A broker sends every retained message right after the subscription: this long without one, it is done."""
RECORD_FILE = re.compile(r"(?:(?P<table>[a-z0-9-]+)-)?(?P<game_id>[0-9]{1,15})\.jsonl")


class BrokerLike(Protocol):
    """Where the broker is and the league's account (companion.club.publisher.BrokerSettings fits)."""

    host: str
    port: int
    club: str
    username: str | None
    password: str | None


def make_client(
    settings: BrokerLike, client_id: str, *, clean: bool, manual_ack: bool = False
) -> mqtt.Client:
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean, manual_ack=manual_ack
    )
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    tls = getattr(settings, "tls", False)
    ca_file, cert_file, key_file = (
        getattr(settings, name, None) for name in ("ca_file", "cert_file", "key_file")
    )
    if tls or ca_file or cert_file:
        client.tls_set(
            ca_certs=str(ca_file) if ca_file else None,
            certfile=str(cert_file) if cert_file else None,
            keyfile=str(key_file) if key_file else None,
        )
    client.reconnect_delay_set(1, RECONNECT_MAX_SECONDS)
    return client


class LeagueService:
    """Feeds `league` from the broker until `stop`; the broker may be away at the start (it is retried)."""

    def __init__(self, league: League, settings: BrokerLike) -> None:
        self.league = league
        self.settings = settings
        self.club = check_id(settings.club, "club")
        league.adopt_club(self.club)
        self.client = make_client(settings, f"league-{self.club}", clean=False, manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.connected = threading.Event()
        self.refusal: str | None = None
        self.connections = 0
        league.roster_listeners.append(self._publish_roster)

    def start(self, timeout: float | None = None) -> None:
        """Connect in the background; with `timeout`, wait that long for the broker to take the subscription
        (connected is not enough: see _on_subscribe)."""
        self.client.connect_async(self.settings.host, self.settings.port, keepalive=30)
        self.client.loop_start()
        if timeout is not None and not self.connected.wait(timeout):
            raise TimeoutError(
                f"the broker at {self.settings.host}:{self.settings.port} did not answer: {self.refusal}"
            )

    def stop(self) -> None:
        if self._publish_roster in self.league.roster_listeners:
            self.league.roster_listeners.remove(self._publish_roster)
        self.client.disconnect()
        self.client.loop_stop()
        self.connected.clear()

    def _on_connect(self, client: mqtt.Client, _u: object, _f: object, reason: Any, _p: object) -> None:
        if reason.is_failure:
            self.refusal = str(reason)
            log.warning("the club's broker refused the league: %s", reason)
            return
        self.refusal = None
        self.connections += 1
        client.subscribe(tables_filter(self.club), qos=1)
        if self.league.club is not None and self.league.roster().members:
            self._publish_roster(self.league.roster())

    def _on_subscribe(self, _c: mqtt.Client, _u: object, _mid: int, reasons: list[Any], _p: object) -> None:
        # Connected is not enough: a table's message before the broker took the subscription (the very first
        # start, before the session exists) would reach nobody.
        refused = [reason for reason in reasons if reason.is_failure]
        if refused:
            self.refusal = str(refused[0])
            log.error("the club's broker refused the league's subscription: %s", refused[0])
            return
        self.connected.set()

    def _on_disconnect(self, _c: mqtt.Client, _u: object, _f: object, reason: Any, _p: object) -> None:
        self.connected.clear()
        log.info("the league lost the club's broker (%s): reconnecting", reason)

    def _on_message(self, client: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        # Acknowledged only once committed, in the order received (as MQTT wants QoS 1 acknowledged). A
        # broker that lost the connection meanwhile sends the message again with the same packet id, so a
        # late acknowledgement still answers that message.
        mid, qos = message.mid, message.qos

        def acknowledge(_outcome: str) -> None:
            client.ack(mid, qos)

        self.league.ingest_later(message.topic, bytes(message.payload), acknowledge)

    def _publish_roster(self, roster: Roster) -> None:
        self.client.publish(roster_topic(roster.club), roster.encode(), qos=1, retain=True)


# ---------------------------------------------------------------- rebuilding


def rebuild_from_broker(league: League, settings: BrokerLike, *, timeout: float = 30.0) -> int:
    """Read the broker's retained records (and roster) into `league` with a fresh client of its own;
    returns the records kept."""
    club = check_id(settings.club, "club")
    client = make_client(settings, f"league-{club}-rebuild-{secrets.token_hex(4)}", clean=True)
    last_message = [time.monotonic()]
    subscribed = threading.Event()
    kept = [0]

    def on_connect(c: mqtt.Client, _u: object, _f: object, reason: Any, _p: object) -> None:
        if not reason.is_failure:
            c.subscribe([(f"{PREFIX}/{club}/tables/+/records/+", 1), (roster_topic(club), 1)])

    def on_subscribe(*_args: object) -> None:
        last_message[0] = time.monotonic()
        subscribed.set()

    def on_message(_c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        last_message[0] = time.monotonic()
        if message.topic == roster_topic(club):
            try:
                league.replace_roster(Roster.decode(bytes(message.payload)))
            except (ClubMessageError, ValueError) as error:
                log.warning("rebuild: the broker's roster was skipped: %s", error)
            return
        kept[0] += league.ingest(message.topic, bytes(message.payload)) == "record"

    client.on_connect, client.on_subscribe, client.on_message = on_connect, on_subscribe, on_message
    client.connect(settings.host, settings.port, keepalive=30)
    client.loop_start()
    try:
        if not subscribed.wait(timeout):
            raise TimeoutError(f"the broker at {settings.host}:{settings.port} did not take the subscription")
        while time.monotonic() - last_message[0] < QUIET_SECONDS:
            time.sleep(0.1)
    finally:
        client.disconnect()
        client.loop_stop()
    return kept[0]


def export_records(league: League, folder: Path) -> list[Path]:
    """Each kept record as `<folder>/<table>-<game_id>.jsonl`, the form `rebuild_from_records` reads."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for record in league.records():
        path = folder / f"{record.table}-{record.game_id}.jsonl"
        path.write_text("".join(line + "\n" for line in record.lines), encoding="utf-8")
        written.append(path)
    return written


def rebuild_from_records(league: League, folder: Path) -> int:
    """Ingest exported records, `<table>-<game_id>.jsonl` or `<table>/<game_id>.jsonl`; returns the records
    kept. Every file is checked first: one named otherwise, or one that does not replay, is refused naming
    it, and nothing is written."""
    if league.club is None:
        raise ValueError("rebuilding from records needs the club: give --club")
    records = []
    for path in sorted(folder.rglob("*.jsonl")):
        found = RECORD_FILE.fullmatch(path.name)
        table = (found.group("table") if found else None) or (
            path.parent.name if path.parent != folder else None
        )
        if found is None or table is None:
            raise ValueError(f"{path}: name a record <table>-<game_id>.jsonl or <table>/<game_id>.jsonl")
        lines = tuple(path.read_text(encoding="utf-8").splitlines())
        record = RecordMessage(check_id(table, f"the table of {path}"), int(found.group("game_id")), lines)
        try:
            replay_record(record)
        except ValueError as error:
            raise ValueError(f"{path} does not replay: {error}") from None
        records.append(record)
    outcomes = [league.ingest(record_topic(league.club, r.table, r.game_id), r.encode()) for r in records]
    return outcomes.count("record")
