"""Sensor verdicts as inputs of the referee, and the sensors' state on the scoreboard.

`SensorTosses` watches the referee's snapshots. When the game waits for a
toss (the table is to act and every legal action is a `Toss`), it arms the
judge for the tossing seat; the verdict goes into the referee loop like any
other input: `Toss(CHANCE, seat, success)` from source "sensor", guarded by
the event it was armed at, with the verdict's evidence (raw edges, settings).
A void toss (a fault) submits nothing: the scoreboard asks for a re-toss and
the judge is armed again once the fault is fixed.

What the sensors are doing goes to the referee's table-status channel
"sensors", so every phone sees "clear the horn", "toss now" or a fault: one line
for people (`message`, and `say` with it in every language: the most important
fault first, how many more there are), the faults one by one and, while a beam is
the trouble, each beam's state beside it for the host and the CLI.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from companion.device_words import beam_words, beams_words, one_line, sentences
from companion.games import CHANCE
from companion.games.minotaurus import Toss
from companion.sensors.judge import HornNotClearError, Verdict
from companion.sensors.tossing import SensorFaultError, TossRunner
from companion.table.inputs import SetTableStatus, SubmitAction
from companion.table.referee import Referee, Snapshot
from companion.words import Said, say, texts_of

log = logging.getLogger(__name__)

SOURCE = "sensor"
CHANNEL = "sensors"
RETRY_SECONDS = 0.5
"""How often a refused arming (horn not clear, fault) is tried again."""
STUCK_SECONDS = 30.0
"""A beam blocked this long while a toss waits is reported as a fault: a beam out of line, or stuck."""


@dataclasses.dataclass(frozen=True)
class _Armed:
    game_id: int
    seq: int
    seat: int


class VerdictCheck(Protocol):
    """A second opinion on each verdict (the camera: companion/vision/tosscheck.py), which submits it."""

    def holds(self, game_id: int | None, after: int | None) -> bool: ...

    def check(self, seat: int, success: bool, command: SubmitAction) -> None: ...


def tossing_seat(snapshot: Snapshot) -> int | None:
    """The seat whose toss the game waits for, or None."""
    state = snapshot.state
    if state is None or state.is_over() or not state.to_act().chance:
        return None
    legal = state.legal_actions()
    if not legal or not all(isinstance(a, Toss) for a in legal):
        return None
    seat: int = legal[0].player  # type: ignore[attr-defined]
    return seat


class SensorTosses:
    def __init__(
        self,
        referee: Referee,
        runner: TossRunner,
        *,
        source_name: str = "gpio",
        on_armed: Callable[[int], None] | None = None,
        on_verdict: Callable[[Verdict], None] | None = None,
        on_not_clear: Callable[[], None] | None = None,
    ) -> None:
        self.referee = referee
        self.runner = runner
        self.source_name = source_name
        self.on_armed = on_armed
        """Called with the seat after each arming (the simulated table tosses then)."""
        self.on_verdict = on_verdict
        self.on_not_clear = on_not_clear
        """Called while arming is refused because a beam is blocked (the simulated table clears it)."""
        self.confirmer: VerdictCheck | None = None
        """If set, verdicts go to it instead of the referee; no toss is armed while it holds one."""
        runner.on_verdict = self._verdict
        self._lock = threading.Lock()
        self._armed: _Armed | None = None
        self._refused_since: float | None = None
        self._last_void: Said | None = None
        self._last_status: dict[str, Any] | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        self.runner.start()
        self._thread = threading.Thread(target=self._run, name="sensor-tosses", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.runner.stop()

    # ------------------------------------------------------------ faults from the source

    def fault(self, key: str, message: str | None) -> None:
        """A lasting fault opened (message) or fixed (None); opening one voids the toss in progress."""
        self.runner.fault(key, message)

    def interrupt(self, reason: str) -> None:
        """Something may have cost an edge (garbage, a lost frame): void the toss in progress, if any."""
        self.runner.fault("interrupt", reason)
        self.runner.fault("interrupt", None)

    # ------------------------------------------------------------ the loop

    def _run(self) -> None:
        snapshot = self.referee.snapshot()
        while not self._stopping.is_set():
            try:
                self._step(snapshot)
            except Exception:
                log.exception("the sensor link failed at game %s event %d", snapshot.game_id, snapshot.seq)
            newer = self.referee.wait_for_change(snapshot.published.event_id, timeout=RETRY_SECONDS)
            if self.referee.broadcaster.closed:
                return
            snapshot = newer or self.referee.snapshot()

    def _step(self, snapshot: Snapshot) -> None:
        seat = tossing_seat(snapshot)
        with self._lock:
            armed = self._armed
            wanted = (
                _Armed(snapshot.game_id, snapshot.seq, seat)
                if seat is not None and snapshot.game_id is not None
                else None
            )
            if armed is not None and armed != wanted:
                # The host entered the toss, undid, or the game moved on: this toss is no longer asked for.
                self.runner.cancel()
                self._armed = armed = None
            if wanted is None:
                self._refused_since = None
                self._status("idle", "")
                return
            if armed is not None:
                return
            if self.confirmer is not None and self.confirmer.holds(wanted.game_id, wanted.seq):
                return  # the last verdict is being checked by the camera, or waits for the host
            try:
                self.runner.arm(wanted.seat)
            except HornNotClearError as error:
                self._refused_since = self._refused_since or time.monotonic()
                stuck = time.monotonic() - self._refused_since >= STUCK_SECONDS
                message = self._after_void(self._refusal(error.blocked, stuck))
                self._status("fault" if stuck else "blocked", message, wanted.seat)
                armed_now = False
            except SensorFaultError as error:
                self._status("fault", self._after_void(error.args[0]), wanted.seat)
                return
            else:
                self._armed, self._refused_since = wanted, None
                message = self._after_void(say("Toss now: {name}.", name=self._name(snapshot, wanted.seat)))
                self._last_void = None
                self._status("armed", message, wanted.seat)
                armed_now = True
        if armed_now and self.on_armed is not None:
            self.on_armed(wanted.seat)
        elif not armed_now and self.on_not_clear is not None:
            self.on_not_clear()

    def _after_void(self, message: str) -> Said:
        """Until the toss is repeated, every message starts by saying that the last one was void."""
        return sentences(self._last_void or "", message)

    def _refusal(self, blocked: tuple[str, ...], stuck: bool) -> Said:
        if not blocked:  # (the judge names them; this only keeps a sentence if one ever does not)
            return say("Something blocks a beam: take any ring or hand off the horn figure.")
        beams = beams_words(self.runner.judge.pinmap, blocked)
        if stuck:
            return say(
                "Something has blocked {beams} for over {seconds} seconds: line the beam up, "
                "or free it if something is stuck.",
                beams=beams,
                seconds=round(STUCK_SECONDS),
            )
        return say("Something blocks {beams}: take any ring or hand off the horn figure.", beams=beams)

    @staticmethod
    def _name(snapshot: Snapshot, seat: int) -> str:
        if 0 <= seat < len(snapshot.names):
            return snapshot.names[seat]
        return say("player {number}", number=seat + 1)

    # ------------------------------------------------------------ verdicts

    def _verdict(self, verdict: Verdict) -> None:
        log.info(
            "toss of seat %d: %s, %s (%d edges)",
            verdict.seat,
            verdict.outcome,
            verdict.reason,
            len(verdict.edges),
        )
        with self._lock:
            armed = self._armed
            if armed is None or armed.seat != verdict.seat:
                return  # a cancelled toss
            self._armed = None
            if verdict.outcome == "void":
                # Voided by a fault (open now: the line names it) or by a ring that would not come to rest.
                self._last_void = (
                    say("The last toss did not count.")
                    if self.runner.faults
                    else say("The last toss did not count: the ring was still moving when the time ran out.")
                )
                self._status("void", self._last_void, verdict.seat)
            command = SubmitAction(
                Toss(CHANCE, verdict.seat, verdict.success),
                evidence=verdict.evidence(),
                game_id=armed.game_id,
                after=armed.seq,
            )
            confirmer = self.confirmer if verdict.outcome != "void" else None
            if confirmer is not None:
                # Under the lock, so that no new toss is armed before the check holds this position.
                confirmer.check(verdict.seat, verdict.success, command)
        if self.on_verdict is not None:
            self.on_verdict(verdict)
        if verdict.outcome != "void" and confirmer is None:
            try:
                self.referee.submit(command, source=SOURCE)
            except ValueError as error:
                log.warning("the verdict of seat %d was not taken: %s", verdict.seat, error)

    def _status(self, state: str, message: str, seat: int | None = None) -> None:
        faults = dict(self.runner.faults)
        problem = one_line(list(faults.values()))
        line = message if problem in message else sentences(self._last_void or "", problem)
        status: dict[str, Any] = {
            "state": state,
            "message": line,
            "say": texts_of(line),
            "seat": seat,
            "source": self.source_name,
            "faults": list(faults.values()),
            "problems": [texts_of(problem) for problem in self._problems(faults)],
        }
        if faults and state in ("idle", "armed"):
            status["state"] = "fault"
        if status["state"] in ("blocked", "fault"):
            status["beams"] = self._beams()  # which beam is the trouble, live while it is fixed
        if status == self._last_status:
            return
        self._last_status = status
        try:
            self.referee.submit(SetTableStatus(CHANNEL, status), source=SOURCE)
        except ValueError as error:
            log.debug("sensor status not published: %s", error)

    def _problems(self, faults: dict[str, str]) -> list[str]:
        """Every open fault for the host's list: the node's each (its status line names the first only)."""
        node_status = getattr(self.runner.source, "status", None)  # a sensor node's (node.py)
        problems = [message for key, message in faults.items() if key != "node"]
        if "node" in faults:
            node_faults = getattr(node_status(), "faults", ()) if callable(node_status) else ()
            problems[:0] = list(node_faults) or [faults["node"]]
        return problems

    def _beams(self) -> list[dict[str, Any]]:
        """Each beam as sampled at this step (not at every edge): lets a maker clear or line them up."""
        try:
            states = self.runner.source.beam_states()
        except Exception:  # a source that cannot say now (unplugged) shows no beams, not a crash
            return []
        pinmap = self.runner.judge.pinmap
        return [
            {
                "name": beam.name,
                "words": texts_of(beam_words(pinmap, beam.name)),
                "horn": beam.horn,
                "level": beam.level,
                "state": "blocked" if states.get(beam.name) else "clear",
            }
            for beam in pinmap.beams
        ]
