"""Beams wired to the Pi's GPIO, read through gpiozero.

`BreakBeam` is a gpiozero input device in this domain's words (`is_broken`,
`when_broken`, `when_cleared`), plus `when_edge`, which receives every change
as a timestamped `BeamEdge` (the judge needs the pin's own timestamps, not
the time a callback thread got round to it). `GpioBeams` is the `EdgeSource`
of all beams of the pin map.

The pin factory is lgpio unless a setting or GPIOZERO_PIN_FACTORY says
otherwise: lgpio drives the Pi 5's GPIO chip as well as older Pis'. It is
loaded by name, so nothing imports lgpio on a machine without it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from gpiozero import Device, DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from companion.sensors.edges import BeamEdge, EdgeHandler
from companion.sensors.pinmap import PinMap

DEFAULT_PIN_FACTORY = "lgpio"
PIN_FACTORY_ENV = "GPIOZERO_PIN_FACTORY"


class PinFactoryError(ValueError):
    """The pin factory asked for cannot be loaded here."""


def pin_factory_name(setting: str | None = None) -> str:
    return setting or os.environ.get(PIN_FACTORY_ENV) or DEFAULT_PIN_FACTORY


def load_pin_factory(setting: str | None = None) -> Factory:
    """The gpiozero pin factory named by `setting`, else $GPIOZERO_PIN_FACTORY, else lgpio."""
    name = pin_factory_name(setting)
    for entry in entry_points(group="gpiozero_pin_factories"):
        if entry.name.lower() == name.lower():
            try:
                factory: Factory = entry.load()()
            except Exception as error:  # lgpio missing, or no GPIO chip: say which and how to fix it
                raise PinFactoryError(
                    f"the {name} pin factory does not work here ({type(error).__name__}: {error}); "
                    "on a Pi install the `pi` extra (pip install '.[pi]'); "
                    "without hardware, run with --simulate"
                ) from error
            return factory
    known = sorted(e.name for e in entry_points(group="gpiozero_pin_factories"))
    raise PinFactoryError(f"no gpiozero pin factory named {name!r}; known: {', '.join(known)}")


class BreakBeam(DigitalInputDevice):  # type: ignore[misc]
    """An IR break-beam receiver: active while the beam is broken.

    Most receivers are open collector and pull their output low while broken
    (`active_low=True`, with the Pi's pull-up); a receiver that drives its
    output high while broken takes `active_low=False`.
    """

    def __init__(
        self,
        pin: Any = None,
        *,
        name: str = "beam",
        active_low: bool = True,
        pin_factory: Factory | None = None,
    ) -> None:
        self.name = name
        self.when_edge: EdgeHandler | None = None
        self.last_edge: BeamEdge | None = None
        # No gpiozero bounce time: it would drop edges the judge wants as evidence; the judge debounces.
        if active_low:
            super().__init__(pin, pull_up=True, pin_factory=pin_factory)
        else:
            super().__init__(pin, pull_up=None, active_state=True, pin_factory=pin_factory)

    def _pin_changed(self, ticks: float, state: int) -> None:
        edge = BeamEdge(self.name, bool(self._state_to_value(state)), round(ticks * 1e6), "gpio")
        self.last_edge = edge
        super()._pin_changed(ticks, state)
        handler = self.when_edge
        if handler is not None:
            handler(edge)

    def __repr__(self) -> str:
        try:
            return f"<BreakBeam {self.name} on {self.pin!r}, {'broken' if self.is_broken else 'clear'}>"
        except Exception:
            return f"<BreakBeam {self.name} closed>"


BreakBeam.is_broken = BreakBeam.is_active
BreakBeam.when_broken = BreakBeam.when_activated
BreakBeam.when_cleared = BreakBeam.when_deactivated
BreakBeam.wait_for_break = BreakBeam.wait_for_active
BreakBeam.wait_for_clear = BreakBeam.wait_for_inactive


SELF_TEST_SETTLE_S = 0.02
"""Receivers answer a change of light within a millisecond or so; 20 ms leaves a wide margin."""


class GpioBeams:
    """The `EdgeSource` of the pin map's beams on the Pi's own GPIO pins."""

    def __init__(
        self,
        pinmap: PinMap,
        *,
        pin_factory: Factory | None = None,
        make_beam: Callable[..., BreakBeam] = BreakBeam,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.pinmap = pinmap
        self.pin_factory = pin_factory
        self.make_beam = make_beam
        self.sleep = sleep
        self.beams: dict[str, BreakBeam] = {}
        self.emitters: DigitalOutputDevice | None = None

    def start(self, on_edge: EdgeHandler) -> None:
        if self.beams:
            raise PinFactoryError("the GPIO beams are running already")
        factory = self.pin_factory or Device.pin_factory
        try:
            if self.pinmap.emitters_pi_gpio is not None:
                self.emitters = DigitalOutputDevice(
                    self.pinmap.emitters_pi_gpio, initial_value=True, pin_factory=factory
                )
            for spec in self.pinmap.beams:
                beam = self.make_beam(
                    spec.pi_gpio, name=spec.name, active_low=spec.active_low, pin_factory=factory
                )
                beam.when_edge = on_edge
                self.beams[spec.name] = beam
        except Exception:
            self.stop()
            raise

    def stop(self) -> None:
        beams, self.beams = self.beams, {}
        for beam in beams.values():
            beam.when_edge = None
            beam.close()
        if self.emitters is not None:
            self.emitters.close()
            self.emitters = None

    def self_test(self) -> dict[str, str]:
        """Each beam's answer to switching the emitters off and on again, in the node's words.

        "ok": broken with the emitters off, clear with them on. "stuck_clear": clear in the
        dark (receiver unplugged or dead: it could never see a ring). "blocked": broken with
        the emitters on (something on the horn, or out of line). "untested": no emitter switch
        in the pin map, or no light to switch (the knock sensor). Run it with no toss armed: its
        edges are not a ring.
        """
        lights = set(self.pinmap.beam_names)
        if self.emitters is None:
            return {name: "untested" for name in self.beams}
        self.emitters.off()
        self.sleep(SELF_TEST_SETTLE_S)
        dark = self.beam_states()
        self.emitters.on()
        self.sleep(SELF_TEST_SETTLE_S)
        lit = self.beam_states()
        return {
            name: "untested"
            if name not in lights
            else "stuck_clear"
            if not dark[name]
            else "blocked"
            if lit[name]
            else "ok"
            for name in self.beams
        }

    def dead_receivers(self) -> list[str]:
        """The beams whose receivers fail the self-test (blocked ones are the arming check's business)."""
        return [name for name, result in self.self_test().items() if result == "stuck_clear"]

    def beam_states(self) -> dict[str, bool]:
        return {name: bool(beam.is_broken) for name, beam in self.beams.items()}

    def __enter__(self) -> GpioBeams:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def gpio_source(pinmap: PinMap, factory_setting: str | None = None) -> GpioBeams:
    """The GPIO source as the daemon makes it: the pin map's pins on the configured pin factory."""
    return GpioBeams(pinmap, pin_factory=load_pin_factory(factory_setting))


__all__ = [
    "DEFAULT_PIN_FACTORY",
    "BreakBeam",
    "GpioBeams",
    "PinFactoryError",
    "gpio_source",
    "load_pin_factory",
    "pin_factory_name",
]
