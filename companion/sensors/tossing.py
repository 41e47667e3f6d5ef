"""The toss runner: an edge source, a judge, and the thread that wakes the judge at its deadlines.

Edges arrive on the source's thread (lgpio's callback thread, the serial
reader); timeouts need a wake-up of their own. Both go through one lock, so
the judge stays single-threaded. Verdicts leave through `on_verdict`, called
outside the lock, so a slow receiver cannot hold up edges.

A fault (a node unplugged, heartbeat lost, garbage on the line, a beam that
failed its self-test) voids the toss in progress and refuses new tosses until
the source reports it fixed: a toss judged on a beam that may have missed
edges could be wrong, and a wrong verdict is worse than a re-toss.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator

from companion.device_words import beams_words, one_line
from companion.sensors.edges import BeamEdge, EdgeSource
from companion.sensors.judge import TossError, TossJudge, Verdict
from companion.sensors.nodelink import dead_receiver

log = logging.getLogger(__name__)

VerdictHandler = Callable[[Verdict], None]


class SensorFaultError(TossError):
    """Arming refused: the sensors report a fault (the message: the most important one, in words)."""


class TossRunner:
    def __init__(
        self, source: EdgeSource, judge: TossJudge, on_verdict: VerdictHandler, *, realtime: bool = False
    ) -> None:
        self.source = source
        self.realtime = realtime
        """Give the timer thread, and each thread that delivers edges, real-time priority (the daemon)."""
        self.judge = judge
        self.on_verdict = on_verdict
        self.faults: dict[str, str] = {}
        """Open faults by key (e.g. "node", "self_test"): what is wrong, a sentence for the players each
        (companion/words.py), in the order they opened."""
        self.check_beams: Callable[[], list[str]] | None = None
        """If set, run before each arming: the names of beams that failed a self-test."""
        self._cond = threading.Condition()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._raised: set[int] = set()
        self.last_poll_us: int | None = None
        """When the thread last looked at the judge (on the judge's clock): the benchmark waits on it."""

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="toss-judge", daemon=True)
        self._thread.start()
        self.source.start(self.on_edge)
        self._check_beams()  # at once, so a dead receiver shows before the first toss is asked for

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stopping = True
            # A toss in progress ends with the daemon, without a verdict: not voided by the source
            # going away below, which would tell the table a fault that is only a shutdown.
            self.judge.void("the daemon stopped")
            self._cond.notify_all()
        self.source.stop()
        if self._thread is not None:
            self._thread.join(timeout)

    # ------------------------------------------------------------ the table's side

    def arm(self, seat: int) -> None:
        """Judge the next toss as `seat`'s (HornNotClearError or SensorFaultError if it cannot be judged)."""
        # Before every toss: a receiver that died since the last one would miss the ring unseen.
        # (Its fault stays open, and arming refused, until a check finds it working again.)
        self._check_beams()
        # Read before locking: a source may hold its own lock while it hands us an edge.
        states = self.source.beam_states()
        with self._cond:
            if self.faults:
                raise SensorFaultError(one_line(list(self.faults.values())))
            self.judge.arm(seat, states)
            self._cond.notify_all()

    def _check_beams(self) -> None:
        if self.check_beams is None:
            return
        dead = self.check_beams()
        if dead:
            log.warning("%s stayed clear with the emitters off: receiver unplugged or dead", ", ".join(dead))
        self.fault("self_test", dead_receiver(beams_words(self.judge.pinmap, dead)) if dead else None)

    def cancel(self) -> None:
        """Forget the toss in progress without a verdict (the host decided it, or the game moved on)."""
        with self._cond:
            self.judge.void("cancelled")
            self._cond.notify_all()

    def next_deadline(self) -> int | None:
        with self._cond:
            return self.judge.next_deadline()

    @property
    def armed_seat(self) -> int | None:
        with self._cond:
            return self.judge.armed_seat

    # ------------------------------------------------------------ the source's side

    def on_edge(self, edge: BeamEdge) -> None:
        if self.realtime and threading.get_ident() not in self._raised:
            # The thread that delivers edges (lgpio's alerts, the node reader) is part of the judge's
            # timing too: an edge it holds back shifts the verdict by as much.
            self._raised.add(threading.get_ident())
            raise_priority()
        with self._cond:
            verdict = self.judge.feed(edge)
            self._cond.notify_all()
        self._deliver(verdict)

    def fault(self, key: str, message: str | None) -> None:
        """Open (message) or close (None) a fault; opening one voids the toss in progress."""
        with self._cond:
            verdict = None
            if message is None:
                self.faults.pop(key, None)
            else:
                self.faults[key] = message
                verdict = self.judge.void(message)
            self._cond.notify_all()
        if message is not None:
            log.warning("sensor fault: %s", message)
        self._deliver(verdict)

    def wait_for_poll(self, after_us: int, timeout: float) -> bool:
        """Wait until the thread has looked at the judge at or after `after_us` on the judge's clock."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self.last_poll_us is not None and self.last_poll_us >= after_us, timeout
            )

    def kick(self) -> None:
        """Make the thread look at the clock again (a clock that can jump, in the benchmark)."""
        with self._cond:
            self._cond.notify_all()

    # ------------------------------------------------------------ timeouts

    def _run(self) -> None:
        if self.realtime:
            raise_priority()
        while True:
            with self._cond:
                if self._stopping:
                    return
                # Poll at every wake-up (cheap), then sleep until the judge's next deadline.
                polled = self.judge.clock()  # the poll sees this time or later
                verdict = self.judge.poll()
                self.last_poll_us = polled
                self._cond.notify_all()
                if verdict is None:
                    deadline = self.judge.next_deadline()
                    if deadline is None:
                        self._cond.wait()
                    else:
                        wait_us = deadline - self.judge.clock()
                        if wait_us > 0:
                            self._cond.wait(wait_us / 1e6)
                    continue
            self._deliver(verdict)

    def _deliver(self, verdict: Verdict | None) -> None:
        if verdict is None:
            return
        try:
            self.on_verdict(verdict)
        except Exception:
            log.exception("the verdict %s of seat %d was not delivered", verdict.outcome, verdict.seat)


REALTIME_PRIORITY = 10
"""SCHED_FIFO priority of the thread that wakes the judge (1-99; the systemd unit allows up to 10)."""


def raise_priority() -> bool:
    """Make the calling thread wake on time even while the camera or a browser keeps the CPUs busy.

    For threads that sleep almost always and run for microseconds (the judge's timer, edge
    delivery), so real-time priority costs the rest of the system nothing. Where it is not
    allowed (no LimitRTPRIO, not Linux) the thread runs as usual; the answer says which.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(REALTIME_PRIORITY))
    except (AttributeError, OSError) as error:
        log.debug("the toss judge's thread keeps normal priority: %s", error)
        return False
    return True


@contextlib.contextmanager
def realtime_priority() -> Iterator[bool]:
    """Real-time priority for the calling thread for a while, then its old policy back."""
    try:
        policy, param = os.sched_getscheduler(0), os.sched_getparam(0)
    except (AttributeError, OSError):
        yield False
        return
    raised = raise_priority()
    try:
        yield raised
    finally:
        if raised:
            os.sched_setscheduler(0, policy, param)
