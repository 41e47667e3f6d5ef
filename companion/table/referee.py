"""The referee loop: the one place where the game changes.

Phones, sensors, the camera and the simulator all put inputs on one queue;
a single thread takes them in order, checks each against the rules, records
it, and only then publishes the new public view. One thread means no two
inputs ever race, and a refused input (its reply names the rule) leaves both
the game and the record exactly as they were.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
from concurrent.futures import Future
from pathlib import Path

from companion.games import Action, ActionFormatError, State
from companion.record.session import GameSession
from companion.record.store import RecordStore
from companion.table.broadcast import Broadcaster, Published
from companion.table.inputs import (
    Command,
    NewGame,
    NoGameError,
    RefereeStoppedError,
    Reply,
    ResumeGame,
    SetAutoplay,
    SetTableStatus,
    StaleInputError,
    SubmitAction,
    TableError,
    Undo,
)
from companion.table.view import GameLog, JsonDict, empty_view, game_view

log = logging.getLogger(__name__)

RESUME_LIMIT = 10
"""Unfinished games loaded at start (newest first); older ones load when resumed by id."""


class RefereeBusyError(TableError):
    """More inputs waiting than the referee accepts."""


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """The table after one input, as values: safe to read from any thread (states are never mutated)."""

    published: Published
    game_id: int | None
    game: str | None
    seq: int
    state: State | None
    names: tuple[str, ...]
    autoplay: bool


@dataclasses.dataclass
class _TableGame:
    session: GameSession
    log: GameLog


@dataclasses.dataclass
class _Pending:
    command: Command
    source: str
    reply: Future[Reply]


class Referee:
    def __init__(self, db_path: str | Path, *, simulate: bool = False, max_pending: int = 1000) -> None:
        self.db_path = Path(db_path)
        self.simulate = simulate
        self.autoplay = simulate
        self.broadcaster = Broadcaster()
        self._inputs: queue.Queue[_Pending | None] = queue.Queue(maxsize=max_pending)
        self._accepting = False
        self._accepting_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._store: RecordStore | None = None
        self._games: dict[int, _TableGame] = {}
        self._current: int | None = None
        self._status: dict[str, JsonDict] = {}
        self._snapshot: Snapshot | None = None
        self._snapshot_lock = threading.RLock()

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Open the record, resume its unfinished games, publish the table, and start taking inputs."""
        if self._thread is not None:
            raise TableError("the referee is running already")
        self._store = RecordStore(self.db_path)
        self._resume_unfinished(self._store)
        self._publish()
        self._thread = threading.Thread(target=self._run, name="referee", daemon=True)
        with self._accepting_lock:
            self._accepting = True
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the input being applied, refuse the rest, and end every live stream."""
        with self._accepting_lock:
            was_accepting, self._accepting = self._accepting, False
            if was_accepting:
                self._inputs.put(None)
        if self._thread is not None:
            self._thread.join(timeout)
        while True:
            try:
                pending = self._inputs.get_nowait()
            except queue.Empty:
                break
            if pending is not None:
                pending.reply.set_result(
                    Reply.refused(
                        pending.command, pending.source, RefereeStoppedError("the referee stopped"), None
                    )
                )
        self.broadcaster.close()
        if self._store is not None:
            self._store.close()

    @property
    def store(self) -> RecordStore:
        """The record, for reading only: every write goes through the loop."""
        if self._store is None:
            raise RefereeStoppedError("the referee has not started")
        return self._store

    # ------------------------------------------------------------ inputs

    def submit(self, command: Command, *, source: str) -> Future[Reply]:
        """Queue `command`; the future holds its reply once the loop has taken it."""
        if not isinstance(source, str) or not source:
            raise TableError(f"an input needs a source such as 'host' or 'camera', not {source!r}")
        pending = _Pending(command, source, Future())
        with self._accepting_lock:
            if not self._accepting:
                raise RefereeStoppedError("the referee is not running: no inputs are taken")
            try:
                self._inputs.put_nowait(pending)
            except queue.Full:
                raise RefereeBusyError(
                    f"the referee is busy: {self._inputs.maxsize} inputs are waiting already"
                ) from None
        return pending.reply

    def call(self, command: Command, *, source: str, timeout: float = 10.0) -> Reply:
        """Submit `command` and wait for its reply (TimeoutError after `timeout` s)."""
        return self.submit(command, source=source).result(timeout)

    # ------------------------------------------------------------ reading

    def latest(self) -> Published:
        return self.broadcaster.latest()

    def snapshot(self) -> Snapshot:
        with self._snapshot_lock:
            if self._snapshot is None:
                raise RefereeStoppedError("the referee has not started")
            return self._snapshot

    def wait_for_change(self, seen: str | None, timeout: float) -> Snapshot | None:
        """The snapshot once the published view differs from `seen`; None after `timeout` s or at stop."""
        if self.broadcaster.wait_for_change(seen, timeout) is None:
            return None
        return self.snapshot()

    # ------------------------------------------------------------ the loop

    def _run(self) -> None:
        while True:
            pending = self._inputs.get()
            if pending is None:
                return
            reply, changed = self._take(pending.command, pending.source)
            if changed:
                try:
                    self._publish()
                except Exception:
                    # The change is recorded; a later view shows it. The sender must get its reply anyway.
                    log.exception("publishing the view after %r failed", pending.command)
            pending.reply.set_result(reply)

    def _take(self, command: Command, source: str) -> tuple[Reply, bool]:
        try:
            return self._apply(command, source), True
        except ValueError as error:
            return Reply.refused(command, source, error, self._current), False
        except Exception as error:
            # A bug must not end the loop: the table keeps refereeing and the log says what broke.
            log.exception("input %r from %s failed", command, source)
            return Reply.refused(command, source, error, self._current), False

    def _apply(self, command: Command, source: str) -> Reply:
        match command:
            case NewGame():
                if command.replacing is not None and command.replacing != self._current:
                    raise StaleInputError(
                        f"a new game was to replace game {command.replacing}, "
                        f"but the table has moved on to game {self._current}"
                    )
                session = GameSession.create(
                    self.store, command.game, dict(command.options), list(command.names)
                )
                self._switch_to(_TableGame(session, GameLog()))
                return Reply(command, source, game_id=session.game_id)
            case SubmitAction():
                table = self._target(command.game_id, command.after)
                action = self._action(table, command.action)
                before = table.session.state
                event = table.session.apply(action, source=source, evidence=command.evidence)
                table.log.add(event, action, before)
                return Reply(command, source, game_id=table.session.game_id, event=event)
            case Undo():
                table = self._target(command.game_id, command.after)
                before = table.session.state
                event = table.session.undo(source=source)
                table.log.add(event, None, before)
                return Reply(command, source, game_id=table.session.game_id, event=event)
            case ResumeGame():
                self._switch_to(self._games.get(command.game_id) or self._load(command.game_id))
                return Reply(command, source, game_id=command.game_id)
            case SetAutoplay():
                if not self.simulate:
                    raise TableError(
                        "autoplay exists only in simulation: start with `companion run --simulate`"
                    )
                self.autoplay = bool(command.on)
                return Reply(command, source, game_id=self._current)
            case SetTableStatus():
                if command.status is None:
                    self._status.pop(command.channel, None)
                else:
                    self._status[command.channel] = dict(command.status)
                return Reply(command, source, game_id=self._current)
        raise TableError(f"unknown input {command!r}")

    def _target(self, game_id: int | None, after: int | None) -> _TableGame:
        if self._current is None:
            raise NoGameError("there is no game at the table: start a new game first")
        table = self._games[self._current]
        if game_id is not None and game_id != self._current:
            raise StaleInputError(
                f"the input was meant for game {game_id}, but the table plays game {self._current}"
            )
        if after is not None and after != table.session.info.events:
            raise StaleInputError(
                f"the input was decided at event {after}, but game {self._current} "
                f"is at event {table.session.info.events} now"
            )
        return table

    @staticmethod
    def _action(table: _TableGame, action: Action | object) -> Action:
        game = table.session.game
        if isinstance(action, Action):
            if type(action) not in game.action_types:
                raise ActionFormatError(f"{type(action).__name__} is not an action of {game.name}")
            return action
        return game.action_from_json(action)

    def _switch_to(self, table: _TableGame) -> None:
        # Finished games leave memory once the table moves on; unfinished ones stay ready to resume.
        self._games = {
            game_id: kept for game_id, kept in self._games.items() if not kept.session.state.is_over()
        }
        self._games[table.session.game_id] = table
        self._current = table.session.game_id

    # ------------------------------------------------------------ resuming

    def _load(self, game_id: int) -> _TableGame:
        session = GameSession.load(self.store, game_id)
        if session.state.is_over():
            raise TableError(f"game {game_id} is finished: only an unfinished game can be resumed")
        events = self.store.events(game_id)
        return _TableGame(session, GameLog.from_record(session.game, session.info, events))

    def _resume_unfinished(self, store: RecordStore) -> None:
        unfinished = sorted(store.unfinished_games(), key=lambda info: info.game_id, reverse=True)
        for info in unfinished[:RESUME_LIMIT]:
            try:
                table = self._load(info.game_id)
            except ValueError as error:
                log.warning("cannot resume game %d: %s", info.game_id, error)
                continue
            self._games[info.game_id] = table
            if self._current is None:
                self._current = info.game_id
        if self._current is not None:
            log.info("resumed game %d where it stood", self._current)

    # ------------------------------------------------------------ publishing

    def _publish(self) -> None:
        table = self._games.get(self._current) if self._current is not None else None
        view: JsonDict = (
            game_view(table.session.game, table.session.info, table.session.state, table.log)
            if table is not None
            else empty_view()
        )
        view["table"] = {
            "simulate": self.simulate,
            "autoplay": self.autoplay,
            "unfinished": [
                {"id": game_id, "title": kept.session.game.title, "names": kept.session.info.names}
                for game_id, kept in sorted(self._games.items())
                if game_id != self._current and not kept.session.state.is_over()
            ],
        }
        if self._status:  # devices' reports (sensors, camera), by channel: only while some device reports
            view["table"]["status"] = dict(self._status)
        with self._snapshot_lock:
            published = self.broadcaster.publish(view)
            self._snapshot = Snapshot(
                published,
                table.session.game_id if table else None,
                table.session.game.name if table else None,
                table.session.info.events if table else 0,
                table.session.state if table else None,
                tuple(table.session.info.names) if table else (),
                self.autoplay,
            )
