"""`companion bench toss`: the toss judge over physically simulated tosses, through a real source.

The tosses come from the rigid-body simulator (companion/sim/ringtoss): a
ring thrown at the figure, its flight, bounces and rest integrated by
MuJoCo, each beam's output derived from where the cord blocks its light, the
knock sensor's from the ring's impacts. Every toss has a true outcome (does
the ring end around a horn?) and every toss counts.

Each toss is played into a source as it runs in the daemon: MockFactory pins
read by `GpioBeams` (the GPIO path), or a simulated node writing frames into a
pty read by `SensorNode` (the node path). A `TossRunner` thread judges them as
in `companion run`. Time runs on a `WarpClock`: idle stretches are skipped,
but every deadline of the judge is approached in real time over its last few
milliseconds, so the delay from the ring's rest to the verdict is measured,
not assumed.

Figures per source: `silent_wrong` (a sure verdict that is wrong: nobody is
asked), `asked_host` (doubtful verdicts and voids, which go to the camera and
then the host; the bench has no camera, so all of them), `rest_to_verdict_ms`
for successes and failures, missed edges, and the same counts for tolerance
cases (beams 1 mm higher or lower, a thinner or thicker rope, receivers that
switch at 30 % or 70 % of their light).
"""

from __future__ import annotations

import collections
import dataclasses
import multiprocessing
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.progress import Progress
from companion.sensors.clock import WarpClock
from companion.sensors.edges import BeamEdge, EdgeHandler, EdgeSource
from companion.sensors.judge import TossJudge, TossSettings, Verdict
from companion.sensors.pinmap import PinMap, default_pinmap_path, load_pinmap
from companion.sensors.tossing import TossRunner, realtime_priority
from companion.sim.ringtoss.tosses import PhysicalToss

OFF_THE_FIGURE = frozenset({"bounce_off", "pass_through", "clean_miss"})
"""Kinds whose ring ends on the table."""
APPROACH_US = 3000
"""The last stretch before each judge deadline, passed in real time."""
DELIVERY_TIMEOUT_S = 5.0


@dataclasses.dataclass(frozen=True)
class ToleranceCase:
    name: str
    beam_height_offset_mm: float = 0.0
    cord_diameter_mm: float | None = None
    receiver_threshold: float | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


TOLERANCE_CASES = (
    ToleranceCase("beams 1 mm higher", beam_height_offset_mm=1.0),
    ToleranceCase("beams 1 mm lower", beam_height_offset_mm=-1.0),
    ToleranceCase("rope 4 mm", cord_diameter_mm=4.0),
    ToleranceCase("rope 6 mm", cord_diameter_mm=6.0),
    ToleranceCase("receivers switch at 30 %", receiver_threshold=0.3),
    ToleranceCase("receivers switch at 70 %", receiver_threshold=0.7),
)


# ---------------------------------------------------------------- simulating the tosses


def _variant(case: ToleranceCase | None) -> tuple[Any, Any]:
    """(figure, receiver) of a tolerance case."""
    from companion.sim.ringtoss.figure import load_figure
    from companion.sim.ringtoss.optics import Receiver

    figure, receiver = load_figure(), Receiver()
    if case is not None:
        figure = figure.with_changes(
            beam_height_offset=case.beam_height_offset_mm, cord_diameter=case.cord_diameter_mm
        )
        if case.receiver_threshold is not None:
            receiver = Receiver(threshold=case.receiver_threshold)
    return figure, receiver


def _simulate_chunk(
    job: tuple[int, int, int, int, tuple[ToleranceCase, ...]],
) -> dict[str | None, list[PhysicalToss]]:
    """Tosses `start` to `start + count` of the main set; the first `per_case` of them also seen by every
    tolerance case. Cases that only move the beams or change the receivers watch the same flight;
    a rope of another thickness flies its own."""
    import random

    from companion.sim.ringtoss.physics import simulate
    from companion.sim.ringtoss.tosses import draw_throw, toss_from_trajectory

    seed, start, count, per_case, cases = job
    figure, receiver = _variant(None)
    variants = {case.name: (case, *_variant(case)) for case in cases}
    out: dict[str | None, list[PhysicalToss]] = {None: [], **{case.name: [] for case in cases}}
    for index in range(start, start + count):
        # Each toss draws from its own seed, so a toss is the same however the work is split.
        throw = draw_throw(figure, random.Random(seed * 1_000_003 + index))
        flight = simulate(figure, throw)
        out[None].append(toss_from_trajectory(figure, flight, receiver, random.Random(index)))
        if index >= per_case:
            continue
        for name, (case, case_figure, case_receiver) in variants.items():
            own = flight if case.cord_diameter_mm is None else simulate(case_figure, throw)
            out[name].append(toss_from_trajectory(case_figure, own, case_receiver, random.Random(index)))
    return out


def simulate_tosses(
    count: int,
    seed: int,
    cases: tuple[ToleranceCase, ...] = (),
    per_case: int = 0,
    workers: int | None = None,
    bar: Progress | None = None,
) -> dict[str | None, list[PhysicalToss]]:
    """`count` tosses of the rigid-body simulator (key None), and the first `per_case` of them under each
    tolerance case (keyed by its name), on every core: a tenth of a second of CPU a toss."""
    workers = workers or min(4, multiprocessing.cpu_count())
    size = max(1, min(100, -(-count // workers)))
    jobs = [(seed, start, min(size, count - start), per_case, cases) for start in range(0, count, size)]
    chunks = []
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            chunks.append(_simulate_chunk(job))
            if bar is not None:
                bar.step(job[2])
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for job, chunk in zip(jobs, pool.imap(_simulate_chunk, jobs), strict=True):
                chunks.append(chunk)
                if bar is not None:
                    bar.step(job[2])
    return {key: [toss for chunk in chunks for toss in chunk[key]] for key in chunks[0]}


# ---------------------------------------------------------------- the sources


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


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p99": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))], 1)

    return {"p50": at(0.5), "p99": at(0.99)}


# ---------------------------------------------------------------- judging


@dataclasses.dataclass
class _Tally:
    counts: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    by_kind: dict[str, collections.Counter[str]] = dataclasses.field(
        default_factory=lambda: collections.defaultdict(collections.Counter)
    )
    rest_to_verdict: dict[str, list[float]] = dataclasses.field(
        default_factory=lambda: {"success": [], "failure": []}
    )
    changes = 0
    missed = 0
    glitches = 0
    decided_before_rest: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    """Verdicts given before the ring stopped moving, by where it ended (a ring rolling away on the table
    changes no beam; one creeping on the figure might)."""

    def score(self, toss: PhysicalToss, verdict: Verdict) -> str:
        if verdict.outcome == "void" or not verdict.sure:
            return "asked_host"
        return "right" if verdict.success == toss.success else "silent_wrong"


def judge_tosses(
    kind: str,
    tosses: Sequence[PhysicalToss],
    pinmap: PinMap,
    settings: TossSettings,
    pinmap_path: Path,
    bar: Progress | None = None,
) -> _Tally:
    """Play each toss into the source `kind` and judge it as the daemon does."""
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
    tally = _Tally()
    # This thread plays the hardware (the beams, the node's firmware): it must send each edge on
    # time, as a microcontroller would, whatever else runs on this machine.
    with realtime_priority():
        try:
            for toss in tosses:
                decided.clear()
                verdicts.clear()
                runner.arm(0)
                base = clock() + 1000
                edges = toss.edges(offset_us=base, source=kind)
                first = len(path.tap.received)
                _play(runner, path, clock, edges, decided)
                decided.wait(DELIVERY_TIMEOUT_S)
                verdict = verdicts[0]
                received = {(e.beam, e.blocked, e.t_us) for e in path.tap.received[first:]}
                for t, name, blocked in toss.lasting_changes():
                    tally.changes += 1
                    tally.missed += (name, blocked, path.to_source_time(base + t)) not in received
                tally.glitches += toss.glitches
                outcome = tally.score(toss, verdict)
                if bar is not None:
                    bar.step()
                tally.counts[outcome] += 1
                tally.by_kind[toss.kind][outcome] += 1
                if toss.rest_us is not None and outcome != "asked_host":
                    delay = (verdict.decided_us - (base + toss.rest_us)) / 1000
                    tally.rest_to_verdict["success" if toss.success else "failure"].append(delay)
                    if delay < 0:
                        where = "on the table" if toss.kind in OFF_THE_FIGURE else "on the figure"
                        tally.decided_before_rest[where] += 1
                _lift(path, clock)
        finally:
            runner.stop()
            path.close()
    return tally


def _play(
    runner: TossRunner, path: _Path, clock: WarpClock, edges: list[BeamEdge], decided: threading.Event
) -> None:
    """Send each edge at its time and let the judge's deadlines pass, until the verdict.

    Time skips to a few milliseconds before each deadline, then passes in real time: the delay to
    the verdict is what is measured.
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
        clock.skip_to(deadline - APPROACH_US)
        runner.kick()
        # Never skip on before the thread has looked at the judge at this deadline.
        while not decided.is_set() and not runner.wait_for_poll(deadline, 0.05):
            runner.kick()
    if pending:  # after the verdict: the ring still moving off, glitches, so the edge count stays complete
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


# ---------------------------------------------------------------- the report


def _summary(tally: _Tally, tosses: int) -> dict[str, Any]:
    return {
        "tosses": tosses,
        "right": tally.counts["right"],
        "silent_wrong": tally.counts["silent_wrong"],
        "asked_host": tally.counts["asked_host"],
    }


def bench_toss(
    sources: list[str],
    count: int,
    seed: int,
    pinmap_path: Path | None = None,
    tolerance_tosses: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    path = pinmap_path or default_pinmap_path()
    pinmap = load_pinmap(path)
    settings = TossSettings()
    bar = progress or Progress(0, quiet=True)
    started = time.monotonic()
    per_case = min(count, tolerance_tosses if tolerance_tosses is not None else max(1, count // 5))
    bar.expect(count + len(sources) * (count + len(TOLERANCE_CASES) * per_case))
    cases_count = len(TOLERANCE_CASES)
    bar.say(f"simulating {count} tosses, and {per_case} of them under each of {cases_count} tolerances")
    simulated = simulate_tosses(count, seed, TOLERANCE_CASES, per_case, bar=bar)
    tosses = simulated[None]
    cases = [(case, simulated[case.name]) for case in TOLERANCE_CASES]
    kinds = collections.Counter(t.kind for t in tosses)
    results = []
    for kind in sources:
        bar.say(f"judging through the {kind} source")
        tally = judge_tosses(kind, tosses, pinmap, settings, path, bar)
        tolerance = []
        for case, case_tosses in cases:
            bar.say(f"judging through the {kind} source: {case.name}")
            case_tally = judge_tosses(kind, case_tosses, pinmap, settings, path, bar)
            tolerance.append({**case.to_json(), **_summary(case_tally, len(case_tosses))})
        asked_share = tally.counts["asked_host"] / len(tosses)
        rest = {k: _percentiles(v) for k, v in tally.rest_to_verdict.items()}
        results.append(
            {
                "source": kind,
                **_summary(tally, len(tosses)),
                "asked_host_share": round(asked_share, 4),
                "rest_to_verdict_ms": rest,
                "decided_before_rest": dict(tally.decided_before_rest),
                "by_kind": {k: dict(v) for k, v in sorted(tally.by_kind.items())},
                "edges": {
                    "changes": tally.changes,
                    "missed": tally.missed,
                    "glitches_played": tally.glitches,
                },
                "tolerance": tolerance,
                "goals": {
                    "silent_wrong_0_everywhere": tally.counts["silent_wrong"] == 0
                    and all(t["silent_wrong"] == 0 for t in tolerance),
                    "asked_host_at_most_1_percent": asked_share <= 0.01,
                    "rest_to_verdict_p99_at_most_1000_ms": all(
                        r["p99"] is not None and r["p99"] <= 1000 for r in rest.values()
                    ),
                    "no_missed_edges": tally.missed == 0,
                },
            }
        )
    return {
        "bench": "toss",
        "seed": seed,
        "settings": settings.to_json(),
        "kinds": dict(kinds.most_common()),
        "results": results,
        "wall_seconds": round(time.monotonic() - started, 1),
    }
