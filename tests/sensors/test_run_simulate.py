"""`companion run --simulate`'s sensor chain: simulated tosses judged through the GPIO source or the node."""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.sensors.cli import SensorSimulationDriver, start_sensors
from companion.sensors.clock import monotonic_us
from companion.sensors.edges import BeamEdge
from companion.sensors.judge import TossSettings
from companion.sensors.simtable import SimulatedTosser
from companion.sim.ringtoss.tosses import PhysicalToss
from companion.table.cli import add_table_commands
from companion.table.referee import Referee

from .fakes import eventually


def run_args(*extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_table_commands(parser.add_subparsers())
    return parser.parse_args(["run", "--simulate", "--seed", "3", *extra])


def test_run_options_default_to_the_gpio_path_in_simulation() -> None:
    args = run_args()
    assert (args.sensors, args.settle_ms) == (None, TossSettings.settle_ms)
    assert run_args("--sensors", "node", "--settle-ms", "800").sensors == "node"


@pytest.mark.parametrize("path", ["gpio", "node"])
def test_simulated_tosses_are_judged_by_the_sensors(tmp_path: Path, path: str) -> None:
    # Skill 0: the physical horn's rings come down up to 70 mm off the tips (misses, bounce-offs,
    # leaners). A short settle keeps each toss short; the window leaves the simulation time to run.
    args = run_args(
        "--sensors", path, "--skill", "0", "--delay", "0", "--settle-ms", "40", "--toss-window-ms", "3000"
    )
    referee = Referee(tmp_path / "table.db", simulate=True)
    referee.start()
    driver = SensorSimulationDriver(referee, seed=3, skill=0.0, delay=0.0, pause=0.0)
    sensors = start_sensors(args, referee)
    assert sensors is not None
    driver.start()
    try:

        def sensor_tosses() -> list[dict[str, object]]:
            snapshot = referee.snapshot()
            if snapshot.game_id is None:
                return []
            events = referee.store.events(snapshot.game_id)
            assert not [e for e in events if e.action and e.action["kind"] == "toss" and e.source != "sensor"]
            return [e.evidence or {} for e in events if e.source == "sensor"]

        eventually(lambda: len(sensor_tosses()) >= 2, "two tosses judged by the sensors", timeout=60)
        evidence = sensor_tosses()
        assert all(e["settings"]["settle_ms"] == 40 for e in evidence)  # type: ignore[index]
        edges = [edge for e in evidence for edge in e["edges"]]  # type: ignore[attr-defined]
        assert edges and all(edge["source"] == path for edge in edges)  # the ring's edges, from that path
    finally:
        driver.stop()
        sensors.stop()
        referee.stop()


class SlowHorn:
    """A horn whose simulation takes `cpu_s` (a physical toss takes a tenth of a second to seconds)."""

    def __init__(self, cpu_s: float) -> None:
        self.cpu_s = cpu_s

    def toss(self, skill: float = 0.5, *, arrive_us: int = 0) -> PhysicalToss:
        time.sleep(self.cpu_s)
        changes = ((50_000, "knock", True), (80_000, "knock", False))
        return PhysicalToss("clean_miss", False, None, 100_000, changes).shifted(arrive_us)


@pytest.mark.parametrize(("delay", "cpu_s"), [(1.0, 0.3), (0.0, 0.3)])
def test_the_simulated_player_tosses_the_delay_after_arming_however_long_the_simulation_takes(
    delay: float, cpu_s: float
) -> None:
    played: list[BeamEdge] = []
    done = threading.Event()

    def play(edges: list[BeamEdge]) -> None:
        played.extend(edges)
        done.set()

    horn: Any = SlowHorn(cpu_s)
    tosser = SimulatedTosser(horn, play, lambda: None, skill=lambda seat: 0.5, delay=delay)
    armed = monotonic_us()
    tosser.on_armed(0)
    assert done.wait(10)
    thrown = played[0].t_us - 50_000
    # On time after arming when the simulation is done by then; else at once, never in the past.
    assert thrown >= armed + round(max(delay, cpu_s) * 1e6)
    assert thrown - armed < round(max(delay, cpu_s) * 1e6) + 200_000


def test_on_the_gpio_a_dead_receiver_found_by_the_self_test_is_a_fault_on_the_scoreboard(
    tmp_path: Path,
) -> None:
    # MockFactory's receivers ignore the emitters, so every beam "stays clear in the dark".
    parser = argparse.ArgumentParser()
    add_table_commands(parser.add_subparsers())
    args = parser.parse_args(["run", "--sensors", "gpio", "--pin-factory", "mock"])
    referee = Referee(tmp_path / "table.db")
    referee.start()
    sensors = start_sensors(args, referee)
    assert sensors is not None
    try:

        def faults() -> list[str]:
            status = referee.latest().payload["table"].get("status", {}).get("sensors", {})
            return list(status.get("faults", []))

        eventually(
            lambda: any("dead: check that its receiver is plugged in" in f for f in faults()),
            "the fault shown",
        )
        assert sensors.link.runner.faults
    finally:
        sensors.stop()
        referee.stop()
