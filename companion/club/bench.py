"""`companion bench club`: a club evening on one machine, with a real broker, measured.

A real Mosquitto (the club's accounts and ACL) in a temporary folder; N simulated tables, each a Referee
on its own SQLite record whose seats are played by the table simulator (random members of the club,
random legal moves and table answers) at a human pace, a move every 0.5 to 2 s, each with its
TablePublisher; one League fed by a LeagueService. The evening runs in phases, the tables playing all
along:

1. steady play (`seconds`);
2. the broker restarted: stopped, RESTART_DOWN_SECONDS away, started again; then until the league holds
   every event committed so far;
3. one table offline: the TCP proxy between it and the broker (proxy.py) is cut for ten simulated
   minutes while the table plays on, then restored; the table is not told, its own reconnect logic is
   what is tested. Ten minutes are compressed: while cut, that table plays `offline_speed` times faster
   (a move every 0.05-0.2 s at 10), so it records in a tenth of the time the events of ten minutes at a
   human pace;
4. settling: the tables stop playing; until the league holds every event and every finished record.

`speed` makes the whole evening that much faster than people play (the test's short run).

Figures: event_to_league_ms {p50, p99, max} from an event's recorded time at its table (written in the
same transaction as the event) to the league's ingest of it (same clock, one process), over the events
committed while their table was connected and the broker up: phases 2 and 3 have their own catch-up
figures, but the other tables' events while the cut table's backlog is ingested count here;
events_lost: events committed at the tables minus the distinct (table, game, seq) the league holds;
the same for the events committed in phase 2 (broker_restart) and by the cut table in phase 3
(table_offline); league_equals_replay: League.figures() == league_from_records over every table's
finished records.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence, Set
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.club.league import League
from companion.club.league_figures import league_from_records
from companion.club.messages import RecordMessage, parse_topic
from companion.club.mosquitto import Account, Mosquitto
from companion.club.proxy import CuttableProxy
from companion.club.publisher import BrokerSettings, TablePublisher, attach
from companion.club.service import LeagueService
from companion.progress import Progress
from companion.record.jsonl import record_lines
from companion.record.store import RecordStore
from companion.table.inputs import NewGame
from companion.table.referee import Referee, Snapshot
from companion.table.simulation import SimulationDriver

CLUB = "bench"
GAMES = ("asterion", "minoa", "hornochsen", "minos", "minotaurus")
"""Played in turn by the tables: Asterion and Minoa end within a few minutes, the others take longer."""
MEMBERS = tuple(
    f"{first} {last}"
    for first in ("Ada", "Ben", "Cleo", "Dimitri", "Eva", "Fritz", "Gül", "Hanna")
    for last in ("Adler", "Bauer", "Celik", "Dorn", "Eder")
)
SEATS = 4
PACE_SECONDS = (0.5, 2.0)
"""The time between two inputs at a table at a human pace."""
PAUSE_SECONDS = 3.0
"""Between a game's end and the next game."""
RESTART_DOWN_SECONDS = 3.0
CATCH_UP_TIMEOUT = 90.0
"""The longest wait for the league to catch up after a disturbance (the tables' reconnect backs off to
30 s)."""
POLL_SECONDS = 0.2
ACL = (
    "user table",
    f"topic write minotaur/{CLUB}/tables/#",
    f"topic read minotaur/{CLUB}/roster",
    "user league",
    f"topic read minotaur/{CLUB}/#",
    f"topic write minotaur/{CLUB}/roster",
)
"""hardware/club/acl with the bench's club (tests/club/test_bench_club.py checks they agree)."""
GOALS = {"event_to_league_p99_ms": 500, "events_lost": 0}

Key = tuple[str, int, int]
"""(table, game_id, seq): an event, as the league dedups it."""


class ClubPlayers(SimulationDriver):
    """The table simulator seating random members of the club and playing at a human pace (`speed` times
    faster while a bench fast-forwards)."""

    def __init__(self, referee: Referee, game: str, seed: int, speed: float) -> None:
        self.rng = random.Random(seed)
        self.speed = speed
        super().__init__(referee, game=game, players=SEATS, seed=seed, pause=PAUSE_SECONDS)

    def new_game(self, *, replacing: int | None) -> NewGame:
        command = super().new_game(replacing=replacing)
        return dataclasses.replace(command, names=self.rng.sample(MEMBERS, len(command.names)))

    def _delay_at(self, snapshot: Snapshot) -> float:
        if snapshot.state is None or snapshot.state.is_over():
            return super()._delay_at(snapshot) / self.speed
        return self.rng.uniform(*PACE_SECONDS) / self.speed


class TimedLeague(League):
    """The league, noting when each event was first ingested and which records it took."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, CLUB)
        self.arrived: dict[Key, float] = {}
        self.records_taken: set[tuple[str, int]] = set()
        self.event_bytes: list[int] = []

    def ingest_later(self, topic: str, payload: bytes, done: Callable[[str], None]) -> None:
        """As the service calls it: the time taken is when the league has committed the event."""

        def noted(outcome: str) -> None:
            now = time.time()
            if outcome == "event":
                data = json.loads(payload)  # well formed: it was just committed
                self.arrived.setdefault((data["table"], data["game_id"], data["seq"]), now)
                self.event_bytes.append(len(payload))
            elif outcome in ("record", "record kept"):
                parts = parse_topic(topic)
                self.records_taken.add((parts.table, parts.game_id or 0))
            done(outcome)

        super().ingest_later(topic, payload, noted)


@dataclasses.dataclass
class LeagueBroker:
    """Where the league service finds the broker, and its account."""

    host: str
    port: int
    club: str
    username: str | None
    password: str | None


class SimulatedTable:
    def __init__(self, folder: Path, number: int, port: int, key: Account, seed: int, speed: float) -> None:
        self.id = f"t{number + 1}"
        self.db = folder / f"{self.id}.db"
        self.outbox = folder / f"{self.id}-outbox.db"
        self.referee = Referee(self.db, simulate=True)
        self.players = ClubPlayers(self.referee, GAMES[number % len(GAMES)], seed, speed)
        self.settings = BrokerSettings(
            host="127.0.0.1",
            port=port,
            club=CLUB,
            table=self.id,
            username=key.username,
            password=key.password,
        )
        self.publisher: TablePublisher | None = None

    def start(self) -> None:
        self.referee.start()
        self.publisher = attach(self.referee, self.settings, self.outbox)
        self.players.start()

    def stop(self) -> None:
        self.players.stop()
        if self.publisher is not None:
            self.publisher.stop()
        self.referee.stop()

    def committed(self) -> dict[Key, float]:
        """Every event of the table's record, with the time it was recorded."""
        with RecordStore(self.db) as store:
            return {
                (self.id, info.game_id, event.seq): datetime.fromisoformat(event.at).timestamp()
                for info in store.list_games()
                for event in store.events(info.game_id)
            }

    def records(self) -> list[RecordMessage]:
        """The table's finished games, as it publishes them."""
        with RecordStore(self.db) as store:
            return [
                RecordMessage(self.id, info.game_id, tuple(record_lines(info, store.events(info.game_id))))
                for info in store.list_games()
                if info.finished
            ]


class Evening:
    """The broker, the tables (the first behind a cuttable proxy), the league and its service."""

    def __init__(self, folder: Path, tables: int, seed: int, speed: float) -> None:
        self.table_key = Account("table", secrets.token_hex(8))
        league_key = Account("league", secrets.token_hex(8))
        self.broker = Mosquitto(folder / "broker", accounts=(self.table_key, league_key), acl=ACL)
        self.proxy = CuttableProxy("127.0.0.1", self.broker.port)
        seeds = random.Random(seed)
        self.tables = [
            SimulatedTable(
                folder,
                number,
                self.proxy.port if number == 0 else self.broker.port,
                self.table_key,
                seeds.randrange(2**32),
                speed,
            )
            for number in range(tables)
        ]
        self.league = TimedLeague(folder / "league.db")
        for name in MEMBERS:
            self.league.add_member(name)
        where = LeagueBroker("127.0.0.1", self.broker.port, CLUB, league_key.username, league_key.password)
        self.service = LeagueService(self.league, where)
        self.broker_cpu_seconds = 0.0

    def start(self) -> None:
        self.broker.start()
        self.proxy.start()
        self.service.start(timeout=10)
        for table in self.tables:
            table.start()

    def stop(self) -> None:
        for table in self.tables:
            table.stop()
        self.service.stop()
        self.proxy.stop()
        self.stop_broker()
        self.league.close()

    def stop_broker(self) -> None:
        self.broker_cpu_seconds += _cpu_seconds(self.broker)
        self.broker.stop()

    def committed(self, tables: Sequence[SimulatedTable] | None = None) -> dict[Key, float]:
        found: dict[Key, float] = {}
        for table in self.tables if tables is None else tables:
            found.update(table.committed())
        return found

    def wait_for_league(self, keys: Set[Key], records: Set[tuple[str, int]] = frozenset()) -> float:
        """Seconds until the league holds every event of `keys` and every record of `records`."""
        started = time.monotonic()
        while time.monotonic() - started < CATCH_UP_TIMEOUT:
            if keys <= self.league.arrived.keys() and records <= self.league.records_taken:
                break
            time.sleep(POLL_SECONDS)
        return time.monotonic() - started


def _cpu_seconds(broker: Mosquitto) -> float:
    """The broker's CPU time so far (Linux), for the scaling figures."""
    if broker.process is None:
        return 0.0
    try:
        fields = Path(f"/proc/{broker.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _sleep(seconds: float, progress: Progress) -> None:
    """Sleep, stepping the bar once a second."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        time.sleep(min(1.0, left))
        progress.step()


def bench_club(
    tables: int,
    *,
    seconds: float = 40.0,
    offline_minutes: float = 10.0,
    offline_speed: float = 10.0,
    speed: float = 1.0,
    seed: int = 1,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play a club evening of `tables` tables through a real broker and measure it (module docstring)."""
    if tables < 1 or seconds <= 0 or offline_minutes <= 0 or offline_speed < 1 or speed <= 0:
        raise ValueError(
            "a club evening needs at least one table, some seconds of play, some minutes offline, "
            "an offline speed of 1 or more and a positive speed"
        )
    bar = progress or Progress(0, quiet=True)
    offline_seconds = offline_minutes * 60 / offline_speed / speed
    bar.expect(round(seconds + RESTART_DOWN_SECONDS + offline_seconds))
    with tempfile.TemporaryDirectory(prefix="companion-bench-club-") as folder:
        evening = Evening(Path(folder), tables, seed, speed)
        try:
            return _play(evening, seconds, offline_seconds, offline_minutes, offline_speed, bar)
        finally:
            evening.stop()


def _play(
    evening: Evening,
    seconds: float,
    offline_seconds: float,
    offline_minutes: float,
    offline_speed: float,
    bar: Progress,
) -> dict[str, Any]:
    started = time.time()
    bar.say("club evening: steady play")
    evening.start()
    _sleep(seconds, bar)

    bar.say("club evening: the broker restarts")
    restart_began = time.time()
    evening.stop_broker()
    _sleep(RESTART_DOWN_SECONDS, bar)
    evening.broker.start()
    restart_catch_up = evening.wait_for_league(set(evening.committed()))
    restart_ended = time.time()

    bar.say(f"club evening: table {evening.tables[0].id} offline")
    cut_table = evening.tables[0]
    offline_began = time.time()
    evening.proxy.cut()
    cut_table.players.speed *= offline_speed
    _sleep(offline_seconds, bar)
    cut_table.players.speed /= offline_speed
    evening.proxy.restore()
    restored = time.time()
    offline_catch_up = evening.wait_for_league(set(cut_table.committed()))
    offline_ended = time.time()

    bar.say("club evening: settling")
    for table in evening.tables:
        table.players.stop()
    committed = evening.committed()
    records = [record for table in evening.tables for record in table.records()]
    settle = evening.wait_for_league(set(committed), {(record.table, record.game_id) for record in records})
    received = evening.league.received()
    replayed = league_from_records(records, evening.league.roster().members)

    def lost(keys: set[Key]) -> int:
        return len(keys - received)

    restart_keys = {key for key, at in committed.items() if restart_began <= at <= restart_ended}
    offline_keys = {
        key
        for key, at in committed.items()
        if key[0] == cut_table.id and offline_began <= at <= offline_ended
    }
    steady_delays = [
        (evening.league.arrived[key] - at) * 1000
        for key, at in committed.items()
        if key in evening.league.arrived and key not in restart_keys and key not in offline_keys
    ]
    p99 = _percentile(steady_delays, 0.99)
    # The returning table's backlog is ingested before what the others publish meanwhile: their delay then.
    behind_backlog = [
        (evening.league.arrived[key] - at) * 1000
        for key, at in committed.items()
        if key[0] != cut_table.id and restored <= at <= offline_ended and key in evening.league.arrived
    ]
    events_lost = lost(set(committed))
    report: dict[str, Any] = {
        "tables": len(evening.tables),
        "events": len(committed),
        "games_finished": len(records),
        "event_to_league_ms": {
            "p50": round(_percentile(steady_delays, 0.5), 1),
            "p99": round(p99, 1),
            "max": round(max(steady_delays, default=0.0), 1),
            "events": len(steady_delays),
        },
        "events_lost": events_lost,
        "broker_restart": {
            "events_lost": lost(restart_keys),
            "events": len(restart_keys),
            "down_s": RESTART_DOWN_SECONDS,
            "catch_up_s": round(restart_catch_up, 1),
        },
        "table_offline": {
            "events_lost": lost(offline_keys),
            "events": len(offline_keys),
            "table": cut_table.id,
            "simulated_minutes": offline_minutes,
            "real_seconds": round(restored - offline_began, 1),
            "table_reconnections": evening.proxy.connections - 1,
            "catch_up_s": round(offline_catch_up, 1),
            "others_delay_ms_max": round(max(behind_backlog, default=0.0), 1),
        },
        "league_equals_replay": evening.league.figures() == replayed,
        "settle_s": round(settle, 1),
        "event_message_bytes": {
            "mean": round(statistics.fmean(evening.league.event_bytes)) if evening.league.event_bytes else 0,
            "max": max(evening.league.event_bytes, default=0),
        },
        "broker_cpu_s": round(evening.broker_cpu_seconds + _cpu_seconds(evening.broker), 2),
        "league_counts": dict(evening.league.counts),
        "duration_s": round(time.time() - started, 1),
        # The machine's other work: figures of a busy machine say less about the club's.
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
    }
    report["goals"] = {
        "event_to_league_p99_ms": GOALS["event_to_league_p99_ms"],
        "events_lost": GOALS["events_lost"],
        "league_equals_replay": True,
    }
    report["meets_goals"] = (
        p99 <= GOALS["event_to_league_p99_ms"]
        and events_lost == report["broker_restart"]["events_lost"] == 0
        and report["table_offline"]["events_lost"] == 0
        and report["league_equals_replay"]
    )
    return report


def summary(report: dict[str, Any]) -> str:
    """The figures in words, for a person at a terminal."""
    delay, restart, offline = report["event_to_league_ms"], report["broker_restart"], report["table_offline"]
    return "\n".join(
        [
            f"{report['tables']} tables, {report['events']} events, {report['games_finished']} games "
            f"finished in {report['duration_s']} s",
            f"event to league: p50 {delay['p50']} ms, p99 {delay['p99']} ms (goal <= "
            f"{report['goals']['event_to_league_p99_ms']} ms), max {delay['max']} ms",
            f"events lost: {report['events_lost']} (goal 0)",
            f"broker restarted ({restart['down_s']} s away): {restart['events_lost']} of {restart['events']} "
            f"events lost, league caught up {restart['catch_up_s']} s after it was back",
            f"table {offline['table']} offline {offline['simulated_minutes']} simulated minutes "
            f"({offline['real_seconds']} s): {offline['events_lost']} of {offline['events']} events lost, "
            f"league caught up {offline['catch_up_s']} s after it was back (meanwhile other tables' events "
            f"took up to {offline['others_delay_ms_max']} ms)",
            "league equals the replay of every table's record: "
            + ("yes" if report["league_equals_replay"] else "NO"),
            f"event message {report['event_message_bytes']['mean']} bytes on average; broker CPU "
            f"{report['broker_cpu_s']} s; machine load {report['load_average_1min']} "
            f"on {report['cpus']} CPUs",
            "meets the goals" if report["meets_goals"] else "misses the goals",
        ]
    )
