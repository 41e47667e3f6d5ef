"""Fixtures of the beam tests: the committed pin map, a hand-set clock, and gpiozero's MockFactory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.sensors.clock import ManualClock
from companion.sensors.pinmap import PinMap, load_pinmap
from companion.sensors.simtable import ClockedMockFactory


@pytest.fixture
def pinmap() -> PinMap:
    return load_pinmap()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1_000_000)


@pytest.fixture
def mock_factory(clock: ManualClock) -> Iterator[MockFactory]:
    """MockFactory as gpiozero's default pin factory, stamping edges with the test's clock; restored after."""
    saved = Device.pin_factory
    factory = ClockedMockFactory(clock)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
        Device.pin_factory = saved
