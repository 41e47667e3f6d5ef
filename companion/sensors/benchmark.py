"""`companion bench toss`: the toss judge over many simulated tosses, through a real source.

Each toss of the simulated horn is played into a source as it runs in the
daemon: MockFactory pins read by `GpioBeams` (the GPIO path), or a simulated
node writing frames into a pty read by `SensorNode` (the node path). A
`TossRunner` thread judges them as in `companion run`. Time runs on a
`WarpClock`: idle stretches are skipped, but every deadline of the judge is
approached in real time over its last few milliseconds, so the delay from a
settle time's end to the verdict is measured, not assumed.

Figures: verdicts against the ground truth (tosses the beams cannot judge,
hardware/beams.md, are counted apart), edges that never reached the judge
among occlusions of 1 ms or longer, and the settle-end-to-verdict delay.
"""

from __future__ import annotations

import collections
import dataclasses
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.sensors.clock import WarpClock
from companion.sensors.edges import BeamEdge, EdgeHandler, EdgeSource
from companion.sensors.judge import TossJudge, TossSettings, Verdict
from companion.sensors.pinmap import PinMap, default_pinmap_path, load_pinmap
from companion.sensors.simhorn import FOREVER, SimToss, SimulatedHorn
from companion.sensors.tossing import TossRunner, realtime_priority

APPROACH_US = 3000
"""The last stretch before each judge deadline, passed in real time."""
DELIVERY_TIMEOUT_S = 5.0


class _Tap:
    """An EdgeSource wrapper that keeps every edge that reached the judge."""

    def __init__(self, source: EdgeSource) -> None:
        self.source = source
        self.received: list[BeamEdge] = []
        self.arrived = threading.Condition()

    def start(self, on_edge: EdgeHandler) -> None:
        def tap(edge: BeamEdge) -> None:
            on_edge(edge)
            with self.arrived:
                self.received.append(edge)
                self.arrived.notify_all()

        self.source.start(tap)

    def stop(self) -> None:
        self.source.stop()

    def beam_states(self) -> dict[str, bool]:
        return self.source.beam_states()

    def wait_for(self, count: int) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: len(self.received) >= count, DELIVERY_TIMEOUT_S)


@dataclasses.dataclass
class _Path:
    tap: _Tap
    send: Callable[[BeamEdge], None]
    to_source_time: Callable[[int], int]
    close: Callable[[], None]
    faults: list[str]


def _gpio_path(pinmap: PinMap) -> _Path:
    from companion.sensors.gpio import GpioBeams
    from companion.sensors.simtable import PinPlayer

    player = PinPlayer(pinmap)
    tap = _Tap(GpioBeams(pinmap, pin_factory=player.factory))
    return _Path(tap, player.send, lambda t: t, player.close, [])


def _node_path(pinmap: PinMap, pinmap_path: Path) -> _Path:
    from companion.sensors.node import NodeFault, SensorNode, pinmap_crc
    from companion.sensors.simtable import NodePlayer

    player = NodePlayer(pinmap, pinmap_crc(pinmap_path))
    faults: list[str] = []

    def on_fault(fault: NodeFault) -> None:
        faults.append(fault.reason)

    node = SensorNode(
        pinmap, port=player.port, on_fault=on_fault, expected_pinmap_crc=pinmap_crc(pinmap_path)
    )
    return _Path(_Tap(node), player.send, lambda t: t - player.boot_us, player.close, faults)


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_source(
    kind: str, tosses: list[SimToss], pinmap: PinMap, settings: TossSettings, pinmap_path: Path
) -> dict[str, Any]:
    path = _gpio_path(pinmap) if kind == "gpio" else _node_path(pinmap, pinmap_path)
    clock = WarpClock()
    verdicts: list[Verdict] = []
    decided = threading.Event()

    def on_verdict(verdict: Verdict) -> None:
        verdicts.append(verdict)
        decided.set()

    runner = TossRunner(path.tap, TossJudge(pinmap, settings, clock), on_verdict, realtime=True)
    runner.start()
    if kind == "node":
        _wait_until_ready(runner)
    counts: collections.Counter[str] = collections.Counter()
    by_kind: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    latencies: list[float] = []
    occlusions = missed = glitches = 0
    started = time.monotonic()
    # This thread plays the hardware (the beams, the node's firmware): it must send each edge on
    # time, as a microcontroller would, whatever else runs on this machine.
    with realtime_priority() as realtime:
        try:
            for toss in tosses:
                decided.clear()
                verdicts.clear()
                runner.arm(0)
                base = clock() + 1000
                edges = toss.edges(offset_us=base, source=kind)
                first = len(path.tap.received)
                start = toss.settle_start_us(pinmap)
                settle_end = (
                    base + start + settings.settle_ms * 1000 if toss.success and start is not None else None
                )
                _play(runner, path, clock, edges, decided, settle_end)
                decided.wait(DELIVERY_TIMEOUT_S)
                verdict = verdicts[0]
                received = {(e.beam, e.blocked, e.t_us) for e in path.tap.received[first:]}
                for o in toss.occlusions:
                    if o.end_us - o.start_us < 1000:
                        continue
                    occlusions += 1
                    wanted = [(o.beam, True, path.to_source_time(base + o.start_us))]
                    if o.end_us != FOREVER:
                        wanted.append((o.beam, False, path.to_source_time(base + o.end_us)))
                    missed += sum(1 for w in wanted if w not in received)
                glitches += len(toss.glitches)
                outcome = _score(toss, verdict)
                counts[outcome] += 1
                by_kind[toss.kind][outcome] += 1
                if outcome == "right" and settle_end is not None:
                    latencies.append((verdict.decided_us - settle_end) / 1000)
                _lift(path, clock)
        finally:
            runner.stop()
            path.close()
    wall = time.monotonic() - started
    decidable = sum(1 for t in tosses if t.decidable)
    p99 = _percentile(latencies, 0.99)
    return {
        "source": kind,
        "tosses": len(tosses),
        "decidable_tosses": decidable,
        "right": counts["right"],
        "wrong": counts["false_success"] + counts["false_failure"],
        "false_success": counts["false_success"],
        "false_failure": counts["false_failure"],
        "void": counts["void"],
        "undecidable": {
            "tosses": len(tosses) - decidable,
            "judged_as_beams_see_them": counts["undecidable_as_expected"],
            "other": counts["undecidable_other"],
        },
        "by_kind": {k: dict(v) for k, v in sorted(by_kind.items())},
        "edges": {"occlusions_1ms_or_longer": occlusions, "missed": missed, "glitches_played": glitches},
        "settle_end_to_verdict_ms": {
            "n": len(latencies),
            "p50": _percentile(latencies, 0.5),
            "p99": p99,
            "max": max(latencies) if latencies else None,
            "mean": statistics.fmean(latencies) if latencies else None,
        },
        "node_faults": len(path.faults),
        "realtime_priority": realtime,
        "goals": {
            "every_decidable_verdict_right": counts["right"] == decidable,
            "no_false_success": counts["false_success"] == 0,
            "no_missed_edges": missed == 0,
            "p99_at_most_5ms": p99 is not None and p99 <= 5.0,
        },
        "wall_seconds": round(wall, 1),
    }


def _score(toss: SimToss, verdict: Verdict) -> str:
    if verdict.outcome == "void":
        return "void"
    if not toss.decidable:
        return "undecidable_as_expected" if verdict.success == toss.beams_say_success else "undecidable_other"
    if verdict.success == toss.success:
        return "right"
    return "false_success" if verdict.success else "false_failure"


def _play(
    runner: TossRunner,
    path: _Path,
    clock: WarpClock,
    edges: list[BeamEdge],
    decided: threading.Event,
    settle_end: int | None,
) -> None:
    """Send each edge at its time and let the judge's deadlines pass, until the verdict.

    Time skips straight to each deadline, except the one at the true settle end (plus the grace):
    its last few milliseconds pass in real time, since the delay to that verdict is what is measured.
    """
    pending = list(edges)
    while not decided.is_set():
        deadline = runner.next_deadline()
        if deadline is None:
            decided.wait(DELIVERY_TIMEOUT_S)
            break
        if pending and pending[0].t_us <= deadline:
            # Send this edge and every one already due with it at once, as a node would: the bench
            # thread must not space out edges that happened close together.
            clock.skip_to(pending[0].t_us)
            now = clock()
            due = [pending.pop(0)]
            while pending and pending[0].t_us <= now:
                due.append(pending.pop(0))
            _send(path, clock, *due)
            continue
        measured = settle_end is not None and abs(deadline - settle_end) <= APPROACH_US
        clock.skip_to(deadline - APPROACH_US if measured else deadline)
        runner.kick()
        # Never skip on before the thread has looked at the judge at this deadline.
        while not decided.is_set() and not runner.wait_for_poll(deadline, 0.05):
            runner.kick()
    if pending:  # after the verdict: glitches and the like, so the edge count stays complete
        _send(path, clock, *pending)
    if not decided.is_set():
        raise RuntimeError("the judge gave no verdict")


def _send(path: _Path, clock: WarpClock, *edges: BeamEdge) -> None:
    clock.skip_to(edges[0].t_us)
    expected = len(path.tap.received) + len(edges)
    for edge in edges:
        path.send(edge)
    if not path.tap.wait_for(expected):
        raise RuntimeError(f"the edges {edges} never all reached the judge")


def _lift(path: _Path, clock: WarpClock) -> None:
    """The ring is lifted off between tosses."""
    for name, blocked in path.tap.beam_states().items():
        if blocked:
            _send(path, clock, BeamEdge(name, False, clock() + 1000, "lift"))


def _wait_until_ready(runner: TossRunner) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        status = getattr(runner.source, "source", None)
        node_status = getattr(status, "status", None)
        if node_status is not None and node_status().ok:
            return
        time.sleep(0.05)
    raise RuntimeError("the simulated sensor node never became ready")


def bench_toss(sources: list[str], count: int, seed: int, pinmap_path: Path | None = None) -> dict[str, Any]:
    path = pinmap_path or default_pinmap_path()
    pinmap = load_pinmap(path)
    settings = TossSettings()
    results = []
    for kind in sources:
        horn = SimulatedHorn(pinmap, seed=seed)
        tosses = [horn.toss(0.5) for _ in range(count)]
        results.append(bench_source(kind, tosses, pinmap, settings, path))
    return {"bench": "toss", "seed": seed, "settings": settings.to_json(), "results": results}
