"""The sensors' part of `companion run`: options, and the sensor chain from the beams to the referee.

`companion run --simulate` judges tosses from the simulated horn through the
GPIO source (MockFactory pins) by default, or through the node path
(`--sensors node`: a simulated node on a pty, read by the real node reader);
`--sensors off` leaves tosses to the simulator's dice as before. On the Pi,
`--sensors gpio` or `--sensors node` reads the real beams.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from companion.sensors.judge import TossJudge, TossSettings
from companion.sensors.pinmap import default_pinmap_path, load_pinmap
from companion.sensors.table_link import SensorTosses, tossing_seat
from companion.sensors.tossing import TossRunner
from companion.table.referee import Referee, Snapshot
from companion.table.simulation import SimulationDriver

log = logging.getLogger(__name__)

SENSOR_CHOICES = ("gpio", "node", "off")
SIMULATED_WINDOW_MS = 6000


def add_sensor_options(run: argparse.ArgumentParser) -> None:
    group = run.add_argument_group("ring-toss sensors")
    group.add_argument(
        "--sensors",
        choices=SENSOR_CHOICES,
        default=None,
        help="where the beams are read: gpio (Pi pins), node (Pico on USB), off "
        "(default: gpio with --simulate, off otherwise)",
    )
    group.add_argument("--pinmap", default=None, help="pin map file (default hardware/pinmap.json)")
    group.add_argument("--pin-factory", default=None, help="gpiozero pin factory (default lgpio)")
    group.add_argument("--node-port", default=None, help="serial port of the node (default: found by USB id)")
    group.add_argument("--settle-ms", type=int, default=TossSettings.settle_ms, help="settle time (ms)")
    group.add_argument(
        "--toss-window-ms",
        type=int,
        default=None,
        help=f"time to toss after arming, ms (default {TossSettings.window_ms}; "
        f"{SIMULATED_WINDOW_MS} with --simulate, whose players toss at once)",
    )


@dataclasses.dataclass
class SensorSetup:
    link: SensorTosses
    cleanup: list[Callable[[], None]]

    def stop(self) -> None:
        self.link.stop()
        for step in self.cleanup:
            try:
                step()
            except Exception:
                log.exception("sensor clean-up failed")


def sensors_wanted(args: argparse.Namespace) -> str:
    return str(args.sensors or ("gpio" if args.simulate else "off"))


def start_sensors(args: argparse.Namespace, referee: Referee) -> SensorSetup | None:
    """Build and start the sensor chain for `companion run` (None with --sensors off)."""
    kind = sensors_wanted(args)
    if kind == "off":
        return None
    pinmap_path = args.pinmap or default_pinmap_path()
    pinmap = load_pinmap(pinmap_path)
    window = args.toss_window_ms or (SIMULATED_WINDOW_MS if args.simulate else TossSettings.window_ms)
    settings = TossSettings(settle_ms=args.settle_ms, window_ms=window)
    cleanup: list[Callable[[], None]] = []
    play: Callable[..., None] | None = None
    lift: Callable[[], None] | None = None
    runner_box: list[TossRunner] = []

    def fault(key: str, message: str | None) -> None:
        if runner_box:
            runner_box[0].fault(key, message)

    source: Any
    if kind == "gpio":
        from companion.sensors.gpio import GpioBeams, load_pin_factory

        if args.simulate:
            from companion.sensors.simtable import PinPlayer

            player = PinPlayer(pinmap)
            source = GpioBeams(pinmap, pin_factory=player.factory)
            play, lift = player.play, player.lift
            cleanup.append(player.close)
        else:
            source = GpioBeams(pinmap, pin_factory=load_pin_factory(args.pin_factory))
    else:
        from companion.device_words import one_line
        from companion.sensors.node import NodeFault, NodeStatus, SensorNode, not_connected, pinmap_crc

        port = args.node_port
        if args.simulate:
            from companion.sensors.simtable import NodePlayer

            node = NodePlayer(pinmap, pinmap_crc(pinmap_path))
            port, play, lift = node.port, node.play, node.lift
            cleanup.append(node.close)

        def on_fault(event: NodeFault) -> None:
            if runner_box:
                runner_box[0].fault("interrupt", event.reason)
                runner_box[0].fault("interrupt", None)

        def on_status(status: NodeStatus) -> None:
            problems = list(status.faults) or ([] if status.connected else [not_connected()])
            fault("node", one_line(problems) or None)

        source = SensorNode(
            pinmap,
            port=port,
            on_fault=on_fault,
            on_status=on_status,
            expected_pinmap_crc=pinmap_crc(pinmap_path),
        )
    judge = TossJudge(pinmap, settings)
    runner = TossRunner(source, judge, on_verdict=lambda verdict: None, realtime=True)
    runner_box.append(runner)
    link = SensorTosses(referee, runner, source_name=kind)
    if args.simulate and play is not None and lift is not None:
        from companion.sensors.simtable import SimulatedTosser
        from companion.sim.ringtoss.figure import load_figure
        from companion.sim.ringtoss.horn import PhysicalHorn

        skill = float(args.skill)
        tosser = SimulatedTosser(
            PhysicalHorn(load_figure(pinmap_file=pinmap_path), seed=args.seed),
            play,
            lift,
            skill=lambda seat: skill,
            delay=args.delay,
        )
        link.on_armed, link.on_verdict, link.on_not_clear = (
            tosser.on_armed,
            tosser.on_verdict,
            tosser.on_not_clear,
        )
    if kind == "node" and not args.simulate:
        fault("node", not_connected())
    if kind == "gpio" and not args.simulate:
        # Blink the emitters before each toss (the node tests its beams itself, at boot).
        runner.check_beams = source.dead_receivers
    link.start()
    return SensorSetup(link, cleanup)


class SensorSimulationDriver(SimulationDriver):
    """The simulated table, except that tosses are judged by the sensors instead of drawn."""

    def decide(self, snapshot: Snapshot) -> Any:
        if tossing_seat(snapshot) is not None:
            return None
        return super().decide(snapshot)
