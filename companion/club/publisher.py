"""A table in the club: its record and public view, published to the club's MQTT broker.

The record is the truth and the publisher only follows it: on its own thread, with its own connection
to the record, it publishes every event after the last one the broker acknowledged (the outbox, beside
the record), in seq order, QoS 1, a bounded window in flight; and each finished game's whole record,
retained. The referee only sets a flag (`notify`), so a table without a broker plays on, and catches
up when the broker is back. paho keeps the unacknowledged window and sends it again on reconnect;
a restarted table sends again from the outbox: at least once, which the league dedups by
(table, game_id, seq).

What leaves the table is what its scoreboard shows: each event's view is recomputed by replaying the
record (`game_view` on the replayed state, never the state's hidden data), without the seats' legal
actions, which the league has no use for.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.club.messages import (
    ClubMessageError,
    EventMessage,
    RecordMessage,
    Roster,
    events_topic,
    online_topic,
    record_topic,
    roster_topic,
)
from companion.club.publisher_outbox import GameProgress, Outbox
from companion.club.publisher_settings import BrokerSettings, PublisherError
from companion.record.jsonl import record_lines
from companion.record.replay import RecordHeader, Replay, replay_event, start
from companion.record.store import Event, GameInfo, RecordStore
from companion.table.referee import Referee
from companion.table.view import GameLog, JsonDict, game_view

log = logging.getLogger(__name__)

WINDOW = 20
"""Messages handed to paho and not yet acknowledged: enough to keep a LAN busy, few to hold in memory."""
POLL_SECONDS = 1.0
"""How often the record is looked at without a notify (a game imported, an ack that woke nobody)."""
DRAIN_SECONDS = 2.0
"""How long a stop waits for the broker to acknowledge what is in flight."""
MAX_CURSORS = 4


@dataclasses.dataclass
class _Cursor:
    """A game replayed up to some event, with its log: the next event's view needs only one step."""

    info: GameInfo
    replay: Replay
    log: GameLog


@dataclasses.dataclass(frozen=True)
class _Sent:
    game_id: int
    seq: int = 0
    record_events: int = 0
    """For a record message: the events it holds (seq is then 0)."""


class TablePublisher:
    """Publishes one table's record to the club's broker; start(), notify() after each change, stop()."""

    def __init__(
        self,
        record_db: Path,
        settings: BrokerSettings,
        outbox_db: Path,
        *,
        on_roster: Callable[[Roster], None] | None = None,
    ) -> None:
        self.record_db = Path(record_db)
        self.settings = settings
        self.outbox_db = Path(outbox_db)
        self.on_roster = on_roster
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._ready = threading.Event()
        self._acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._progress: dict[int, GameProgress] = {}
        self._sent: dict[int, int] = {}
        self._inflight: dict[int, _Sent] = {}
        self._ahead: dict[int, set[int]] = {}
        self._cursors: dict[int, _Cursor] = {}
        self._roster: Roster | None = None
        self._roster_payload: bytes | None = None
        self._connected = False
        """Connected, and what was in flight before sent again: new events may go out."""
        self._online_mid: int | None = None
        self.refusal: str | None = None
        """Why the broker last refused the table (a wrong key), or None."""
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._client = self._make_client()
        self.unsubscribe: Callable[[], None] | None = None

    # ------------------------------------------------------------ life cycle

    def _make_client(self) -> mqtt.Client:
        settings = self.settings
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=settings.client_id, clean_session=False)
        if settings.username is not None:
            client.username_pw_set(settings.username, settings.password)
        if settings.tls or settings.ca_file or settings.cert_file:
            client.tls_set(
                ca_certs=str(settings.ca_file) if settings.ca_file else None,
                certfile=str(settings.cert_file) if settings.cert_file else None,
                keyfile=str(settings.key_file) if settings.key_file else None,
            )
        client.will_set(online_topic(settings.club, settings.table), b"0", qos=1, retain=True)
        client.reconnect_delay_set(1, settings.reconnect_max_seconds)
        client.max_inflight_messages_set(WINDOW + 1)  # and the online flag
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    def start(self, timeout: float = 10.0) -> None:
        """Open the outbox and the record, and start publishing (the broker may be away: it is retried)."""
        if self._thread is not None:
            raise PublisherError("the publisher is running already")
        self._thread = threading.Thread(target=self._run, name="club-publisher", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._error is not None:
            raise PublisherError(f"the club publisher did not start: {self._error}")
        self._client.connect_async(self.settings.host, self.settings.port, keepalive=30)
        self._client.loop_start()

    def stop(self, timeout: float = 5.0) -> None:
        """Say the table goes offline, send what the window holds if the broker answers, and stop."""
        if self.unsubscribe is not None:
            self.unsubscribe()
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._connected:
            info = self._client.publish(
                online_topic(self.settings.club, self.settings.table), b"0", qos=1, retain=True
            )
            # The broker may go away meanwhile: the last will says the same.
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(min(timeout, 2.0))
        self._client.disconnect()
        self._client.loop_stop()

    def notify(self) -> None:
        """The record changed: called on the referee's thread, so it only sets a flag."""
        self._wake.set()

    # ------------------------------------------------------------ reading

    def acked_through(self, game_id: int) -> int:
        """The last event seq of `game_id` the broker acknowledged (0: none yet)."""
        with self._lock:
            kept = self._progress.get(game_id)
            return kept.acked_through if kept else 0

    def record_acked(self, game_id: int) -> int:
        """The events in the last finished record of `game_id` the broker acknowledged (0: none)."""
        with self._lock:
            kept = self._progress.get(game_id)
            return kept.record_events if kept else 0

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def roster(self) -> Roster | None:
        """The club's latest roster (kept in the outbox, so it is there while the broker is away)."""
        with self._lock:
            return self._roster

    # ------------------------------------------------------------ paho's thread

    def _on_connect(self, client: mqtt.Client, _u: object, _f: object, reason: Any, _p: object) -> None:
        if reason.is_failure:
            self.refusal = str(reason)
            log.warning("the club's broker refused table %s: %s", self.settings.client_id, reason)
            return
        self.refusal = None
        settings = self.settings
        # paho sends the window of the last connection again right after this callback. New events wait
        # until the online flag is acknowledged, which paho reads only after that: they go out behind it.
        self._online_mid = client.publish(
            online_topic(settings.club, settings.table), b"1", qos=1, retain=True
        ).mid
        client.subscribe(roster_topic(settings.club), qos=1)

    def _on_disconnect(self, _c: mqtt.Client, _u: object, _f: object, _r: object, _p: object) -> None:
        self._connected = False

    def _on_publish(self, _c: mqtt.Client, _u: object, mid: int, _r: object, _p: object) -> None:
        # paho holds its message lock here: only hand the ack over, never wait for ours.
        if mid == self._online_mid:
            self._connected = True
        self._acks.put(mid)
        self._wake.set()

    def _on_message(self, _c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        try:
            roster = Roster.decode(bytes(message.payload))
            if roster.club != self.settings.club:
                raise ClubMessageError(f"a roster of club {roster.club!r} on {message.topic}")
        except ClubMessageError as error:
            log.warning("the club's roster was skipped: %s", error)
            return
        self._take_roster(roster, bytes(message.payload))
        self._wake.set()

    def _take_roster(self, roster: Roster, payload: bytes | None) -> None:
        with self._lock:
            self._roster = roster
            self._roster_payload = payload
        if self.on_roster is not None:
            self.on_roster(roster)

    # ------------------------------------------------------------ the publisher's thread

    def _run(self) -> None:
        try:
            store = RecordStore(self.record_db)
            outbox = Outbox(self.outbox_db, self.settings.destination)
            if outbox.is_new():
                outbox.join((info.game_id, info.events) for info in store.list_games() if info.finished)
            kept_roster = outbox.roster()
            if kept_roster is not None:
                self._take_roster(Roster.decode(kept_roster), None)
            with self._lock:
                self._progress = outbox.progress()
        except BaseException as error:
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        try:
            while not self._stopping.is_set():
                self._wake.wait(POLL_SECONDS)
                self._wake.clear()
                outbox.save(self._take_acks())
                self._save_roster(outbox)
                try:
                    self._send(store)
                except Exception:
                    # A record the publisher cannot read now is read again at the next wake.
                    log.exception("publishing table %s's record failed", self.settings.client_id)
            # What is in flight at a stop is waited for a moment: each ack saved is an event not sent twice.
            deadline = time.monotonic() + DRAIN_SECONDS
            while self._inflight and self._connected and time.monotonic() < deadline:
                outbox.save(self._take_acks())
                time.sleep(0.02)
            outbox.save(self._take_acks())
        finally:
            outbox.close()
            store.close()

    def _save_roster(self, outbox: Outbox) -> None:
        with self._lock:
            payload, self._roster_payload = self._roster_payload, None
        if payload is not None:
            outbox.save_roster(payload)

    def _take_acks(self) -> dict[int, GameProgress]:
        """Acknowledged messages into the progress; returns the games that moved."""
        changed: dict[int, GameProgress] = {}
        while True:
            try:
                mid = self._acks.get_nowait()
            except queue.Empty:
                return changed
            sent = self._inflight.pop(mid, None)
            if sent is None:
                continue  # the online flag, or a message of before a restart
            with self._lock:
                kept = self._progress.setdefault(sent.game_id, GameProgress())
                if sent.record_events:
                    kept.record_events = sent.record_events
                elif sent.seq == kept.acked_through + 1:
                    # QoS 1 acknowledges in order on one connection; an ack out of order waits for its gap.
                    kept.acked_through = sent.seq
                    kept.acked_through = self._acked_run(sent.game_id, kept.acked_through)
                elif sent.seq > kept.acked_through:
                    self._ahead.setdefault(sent.game_id, set()).add(sent.seq)
                changed[sent.game_id] = kept

    def _acked_run(self, game_id: int, through: int) -> int:
        ahead = self._ahead.get(game_id, set())
        while through + 1 in ahead:
            through += 1
            ahead.discard(through)
        return through

    def _send(self, store: RecordStore) -> None:
        if not self._connected:
            return  # the window waits in paho for the broker; the rest stays in the record
        for info in store.list_games():
            if len(self._inflight) >= WINDOW:
                return
            with self._lock:
                kept = dataclasses.replace(self._progress.get(info.game_id) or GameProgress())
            if kept.home:
                continue
            sent = max(self._sent.get(info.game_id, 0), kept.acked_through)
            if info.events > sent:
                self._send_events(store, info, sent)
            elif (
                info.finished
                and kept.acked_through == info.events
                and kept.record_events != info.events
                and not any(s.game_id == info.game_id and s.record_events for s in self._inflight.values())
            ):
                self._send_record(store, info)

    def _send_events(self, store: RecordStore, info: GameInfo, sent: int) -> None:
        events = store.events(info.game_id)
        for event in events[sent:]:
            if len(self._inflight) >= WINDOW:
                return
            message = self._event_message(info, events, event)
            self._publish(
                events_topic(self.settings.club, self.settings.table),
                message.encode(),
                _Sent(info.game_id, event.seq),
                retain=False,
            )
            self._sent[info.game_id] = event.seq

    def _send_record(self, store: RecordStore, info: GameInfo) -> None:
        events = store.events(info.game_id)
        if len(events) != info.events:
            return  # the game moved on between the two reads: the next wake sees it whole
        lines = tuple(record_lines(info, events))
        message = RecordMessage(self.settings.table, info.game_id, lines)
        topic = record_topic(self.settings.club, self.settings.table, info.game_id)
        self._publish(topic, message.encode(), _Sent(info.game_id, record_events=info.events), retain=True)

    def _publish(self, topic: str, payload: bytes, sent: _Sent, *, retain: bool) -> None:
        info = self._client.publish(topic, payload, qos=1, retain=retain)
        self._inflight[info.mid] = sent

    def _event_message(self, info: GameInfo, events: list[Event], event: Event) -> EventMessage:
        cursor = self._cursor(info, events, event.seq - 1)
        before = cursor.replay.state
        replay_event(cursor.replay, event, line=event.seq + 1)
        action = cursor.replay.history[-1] if event.kind == "action" else None
        cursor.log.add(event, action, before)
        state = cursor.replay.state
        at_event = dataclasses.replace(cursor.info, events=event.seq, finished=state.is_over())
        view: JsonDict = game_view(cursor.replay.game, at_event, state, cursor.log)
        view.pop("legal", None)
        return EventMessage(
            table=self.settings.table,
            game_id=info.game_id,
            seq=event.seq,
            at=event.at,
            kind=event.kind,
            source=event.source,
            label=cursor.log.entries[-1].to_json(latest=True)["label"],
            game=info.game,
            names=tuple(info.names),
            finished=state.is_over(),
            view=view,
        )

    def _cursor(self, info: GameInfo, events: list[Event], through: int) -> _Cursor:
        """The game replayed through event `through`: kept from the last message, or replayed anew."""
        cursor = self._cursors.get(info.game_id)
        if cursor is None or cursor.replay.events != through:
            header = RecordHeader(info.game, info.options, info.names, info.created, info.finished)
            cursor = _Cursor(info, start(header), GameLog())
            for event in events[:through]:
                before = cursor.replay.state
                replay_event(cursor.replay, event, line=event.seq + 1)
                cursor.log.add(event, cursor.replay.history[-1] if event.kind == "action" else None, before)
            self._cursors[info.game_id] = cursor
            # The games being published stay in memory; one played long ago is replayed if it moves again.
            while len(self._cursors) > MAX_CURSORS:
                del self._cursors[next(iter(self._cursors))]
        return cursor


def attach(referee: Referee, settings: BrokerSettings, outbox: Path, **more: Any) -> TablePublisher:
    """A started publisher of `referee`'s record, woken by every view the referee publishes."""
    publisher = TablePublisher(referee.db_path, settings, outbox, **more)
    publisher.start()
    publisher.unsubscribe = referee.broadcaster.subscribe(lambda _published: publisher.notify())
    publisher.notify()
    return publisher


__all__ = ["BrokerSettings", "PublisherError", "TablePublisher", "attach"]
