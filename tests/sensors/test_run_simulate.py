"""`companion run --simulate`'s sensor chain: simulated tosses judged through the GPIO source or the node."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion.sensors.cli import SensorSimulationDriver, start_sensors
from companion.table.cli import add_table_commands
from companion.table.referee import Referee

from .fakes import eventually


def run_args(*extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_table_commands(parser.add_subparsers())
    return parser.parse_args(["run", "--simulate", "--seed", "3", *extra])


def test_run_options_default_to_the_gpio_path_in_simulation() -> None:
    args = run_args()
    assert (args.sensors, args.settle_ms) == (None, 1000)
    assert run_args("--sensors", "node", "--settle-ms", "800").sensors == "node"


@pytest.mark.parametrize("path", ["gpio", "node"])
def test_simulated_tosses_are_judged_by_the_sensors(tmp_path: Path, path: str) -> None:
    # Skill 0: misses, bounce-offs and near misses, each judged when the (short) window ends.
    args = run_args(
        "--sensors", path, "--skill", "0", "--delay", "0", "--settle-ms", "40", "--toss-window-ms", "200"
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
        evidence = sensor_tosses()[0]
        assert evidence["settings"]["settle_ms"] == 40  # type: ignore[index]
        assert all(e["source"] == path for e in evidence["edges"])  # type: ignore[attr-defined]
    finally:
        driver.stop()
        sensors.stop()
        referee.stop()


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
            lambda: any("stayed clear with the emitters off" in f for f in faults()), "the fault shown"
        )
        assert sensors.link.runner.faults
    finally:
        sensors.stop()
        referee.stop()
