"""The GPIO source on gpiozero's MockFactory pins, driven with pulse trains on the test's clock."""

from __future__ import annotations

import importlib.util
import itertools

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.sensors.clock import ManualClock
from companion.sensors.edges import BeamEdge
from companion.sensors.gpio import (
    BreakBeam,
    GpioBeams,
    PinFactoryError,
    load_pin_factory,
    pin_factory_name,
)
from companion.sensors.judge import TossJudge
from companion.sensors.pinmap import PinMap
from companion.sensors.simtable import play_into_pins
from companion.sim.ringtoss.tosses import PhysicalToss

from .physical import physical_tosses


def test_a_break_beam_reports_broken_while_its_receiver_pulls_low(
    mock_factory: MockFactory, clock: ManualClock
) -> None:
    beam = BreakBeam(17, name="front")
    broken: list[int] = []
    cleared: list[int] = []
    edges: list[BeamEdge] = []
    beam.when_broken = lambda: broken.append(clock.now)
    beam.when_cleared = lambda: cleared.append(clock.now)
    beam.when_edge = edges.append
    pin = mock_factory.pin(17)
    assert pin.state == 1 and not beam.is_broken  # the pull-up holds an unbroken receiver's line high
    clock.now = 5_000_250
    pin.drive_low()
    assert beam.is_broken and broken == [5_000_250]
    clock.now = 5_003_100
    pin.drive_high()
    assert not beam.is_broken and cleared == [5_003_100]
    assert edges == [
        BeamEdge("front", True, 5_000_250, "gpio"),
        BeamEdge("front", False, 5_003_100, "gpio"),
    ]
    beam.close()


def test_a_receiver_that_drives_high_while_broken(mock_factory: MockFactory, clock: ManualClock) -> None:
    beam = BreakBeam(4, name="tip", active_low=False)
    pin = mock_factory.pin(4)
    pin.drive_low()
    assert not beam.is_broken
    pin.drive_high()
    assert beam.is_broken and beam.last_edge == BeamEdge("tip", True, clock.now, "gpio")
    beam.close()


def first_of_each_kind(tosses: tuple[PhysicalToss, ...], per_kind: int = 1) -> list[PhysicalToss]:
    """Up to `per_kind` tosses of every kind (and horn) among `tosses`, in their order."""
    seen: dict[tuple[str, str | None], int] = {}
    out = []
    for toss in tosses:
        key = (toss.kind, toss.horn)
        if seen.get(key, 0) < per_kind:
            seen[key] = seen.get(key, 0) + 1
            out.append(toss)
    return out


def test_the_gpio_source_delivers_every_edge_of_physical_tosses_with_glitches(
    mock_factory: MockFactory, clock: ManualClock, pinmap: PinMap
) -> None:
    tosses = first_of_each_kind(tuple(t for t in physical_tosses() if t.glitches))
    assert len({t.kind for t in tosses}) >= 4 and {t.success for t in tosses} == {True, False}
    received: list[BeamEdge] = []
    expected: list[BeamEdge] = []
    with GpioBeams(pinmap) as source:
        source.start(received.append)
        for toss in tosses:
            edges = toss.edges(offset_us=clock.now + 1000, source="gpio")
            play_into_pins(edges, pinmap, mock_factory, lambda t: setattr(clock, "now", t))
            expected += edges
            for name, broken in source.beam_states().items():  # the table lifts the ring off
                if broken:
                    clock.now += 1000
                    mock_factory.pin(pinmap.beam(name).pi_gpio).drive_high()
                    expected.append(BeamEdge(name, False, clock.now, "gpio"))
            assert not any(source.beam_states().values())
    assert any(b.beam == a.beam and b.t_us - a.t_us < 1000 for a, b in itertools.pairwise(expected))
    assert {pinmap.beam(e.beam).level for e in expected} == {"base", "tip", "knock"}
    assert received == expected


def test_verdicts_through_the_gpio_source_match_the_truth(
    mock_factory: MockFactory, clock: ManualClock, pinmap: PinMap
) -> None:
    judge = TossJudge(pinmap, clock=clock)
    verdicts = []
    with GpioBeams(pinmap) as source:

        def on_edge(edge: BeamEdge) -> None:
            verdict = judge.feed(edge)
            if verdict is not None:
                verdicts.append(verdict)

        def set_time(t: int) -> None:
            while (deadline := judge.next_deadline()) is not None and deadline < t:
                clock.now = max(clock.now, deadline)
                if (verdict := judge.poll()) is not None:
                    verdicts.append(verdict)
            clock.now = t

        source.start(on_edge)
        tosses = first_of_each_kind(physical_tosses(), per_kind=3)
        for toss in tosses:
            judge.arm(0, source.beam_states())
            play_into_pins(toss.edges(offset_us=clock.now), pinmap, mock_factory, set_time)
            set_time(clock.now + 60_000_000)
            for name in pinmap.names:
                mock_factory.pin(pinmap.beam(name).pi_gpio).drive_high()
    assert {t.success for t in tosses} == {True, False}
    assert {t.horn for t in tosses} == {"left", "right", None}
    assert len(verdicts) == len(tosses)
    for toss, verdict in zip(tosses, verdicts, strict=True):
        assert verdict.success == toss.success, (toss.kind, verdict.reason)
        assert verdict.horn == toss.horn, (toss.kind, verdict.reason)
        assert verdict.outcome != "void", toss.kind


def test_the_pin_factory_is_lgpio_unless_a_setting_or_the_environment_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert pin_factory_name() == "lgpio"
    assert pin_factory_name("native") == "native"
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert pin_factory_name() == "mock"
    factory = load_pin_factory()
    try:
        assert isinstance(factory, MockFactory)
    finally:
        factory.close()
    with pytest.raises(PinFactoryError, match="no gpiozero pin factory named 'abacus'"):
        load_pin_factory("abacus")


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed: this is a Pi")
def test_without_lgpio_the_error_says_how_to_get_it() -> None:
    with pytest.raises(PinFactoryError, match=r"pip install '\.\[pi\]'"):
        load_pin_factory("lgpio")


def test_the_fixture_restores_the_previous_pin_factory(mock_factory: MockFactory) -> None:
    # The swap itself is the fixture's job; this checks the factory the tests run on is the clocked mock.
    assert Device.pin_factory is mock_factory


def test_the_self_test_blinks_the_emitters_and_names_dead_and_blocked_receivers(
    mock_factory: MockFactory, pinmap: PinMap
) -> None:
    dead, obstructed = "left_tip_a", "right_back_outer"

    def light_travels(seconds: float) -> None:
        # The figure's physics: a receiver sees light while the emitters are on and its beam is free.
        lit = mock_factory.pin(pinmap.emitters_pi_gpio).state
        for beam in pinmap.beams:
            sees_light = beam.name == dead or (lit and beam.name != obstructed)
            pin = mock_factory.pin(beam.pi_gpio)
            pin.drive_high() if sees_light else pin.drive_low()

    with GpioBeams(pinmap, sleep=light_travels) as source:
        source.start(lambda edge: None)
        light_travels(0)
        assert source.emitters is not None and source.emitters.value == 1
        results = source.self_test()
        assert source.emitters.value == 1  # back on for the game
    assert results[dead] == "stuck_clear" and results[obstructed] == "blocked"
    assert results["knock"] == "untested"  # a piezo: no light to switch off
    assert {r for name, r in results.items() if name not in (dead, obstructed, "knock")} == {"ok"}


def test_without_an_emitter_switch_the_beams_are_untested(mock_factory: MockFactory, pinmap: PinMap) -> None:
    from dataclasses import replace

    with GpioBeams(replace(pinmap, emitters_pi_gpio=None)) as source:
        source.start(lambda edge: None)
        assert set(source.self_test().values()) == {"untested"}
