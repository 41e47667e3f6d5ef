"""hardware/pinmap.json: which beams exist, where each is wired, and how the node is found.

The same file is deployed to the sensor node next to its firmware, so the
daemon and the firmware can never disagree about a beam's name or pin.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from companion.datafiles import data_dir

PINMAP_ENV = "COMPANION_PINMAP"
DEFAULT_PINMAP = data_dir("hardware") / "pinmap.json"
LEVELS = ("base", "tip", "knock")
SHARED = "both"
"""The horn of a beam that serves both horns (the front and back base beams run past both)."""


class PinMapError(ValueError):
    """A pin map file that is missing, malformed, or contradicts itself."""


@dataclasses.dataclass(frozen=True)
class BeamSpec:
    name: str
    horn: str
    level: str
    """"base": a low beam beside the horn that a ring resting around it blocks; "tip": a beam near the
    tip that a ring hanging there blocks; "knock": not a beam but the knock sensor in the figure's base,
    which pulses when the ring strikes the figure or the table near it."""
    pi_gpio: int
    node_gpio: int
    active_low: bool = True
    """True for receivers that pull their output low while the beam is broken (the usual open collector)."""


@dataclasses.dataclass(frozen=True)
class PinMap:
    beams: tuple[BeamSpec, ...]
    emitters_pi_gpio: int | None = None
    emitters_node_gpio: int | None = None
    usb_vid: int = 0x2E8A
    baud: int = 115200
    heartbeat_ms: int = 500

    def beam(self, name: str) -> BeamSpec:
        for beam in self.beams:
            if beam.name == name:
                return beam
        raise PinMapError(f"no beam named {name!r} in the pin map (beams: {', '.join(self.names)})")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.beams)

    @property
    def beam_names(self) -> tuple[str, ...]:
        """The light beams (every sensor but the knock sensor): what must be clear before a toss."""
        return tuple(b.name for b in self.beams if b.level != "knock")

    @property
    def horns(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(b.horn for b in self.beams if b.horn != SHARED))

    def base_beams(self, horn: str) -> tuple[str, ...]:
        return tuple(b.name for b in self.beams if b.horn in (horn, SHARED) and b.level == "base")

    def tip_beams(self, horn: str) -> tuple[str, ...]:
        return tuple(b.name for b in self.beams if b.horn == horn and b.level == "tip")


def default_pinmap_path() -> Path:
    return Path(os.environ.get(PINMAP_ENV) or DEFAULT_PINMAP)


def load_pinmap(path: str | Path | None = None) -> PinMap:
    """The pin map at `path` (default $COMPANION_PINMAP, else hardware/pinmap.json, as installed)."""
    path = Path(path) if path is not None else default_pinmap_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise PinMapError(f"cannot read the pin map {path}: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise PinMapError(f"the pin map {path} is not JSON: {error}") from None
    return parse_pinmap(data, str(path))


def parse_pinmap(data: Any, where: str = "pin map") -> PinMap:
    if not isinstance(data, dict) or data.get("version") != 1:
        raise PinMapError(f'{where}: expected an object with "version": 1')
    raw_beams = data.get("beams")
    if not isinstance(raw_beams, list) or not raw_beams:
        raise PinMapError(f'{where}: "beams" must be a non-empty list')
    beams = [_beam(raw, f"{where}, beam {i + 1}") for i, raw in enumerate(raw_beams)]
    for key in ("name", "pi_gpio", "node_gpio"):
        values = [getattr(b, key) for b in beams]
        duplicates = sorted({str(v) for v in values if values.count(v) > 1})
        if duplicates:
            raise PinMapError(f"{where}: two beams share the {key} {', '.join(duplicates)}")
    emitters = data.get("emitters") or {}
    node = data.get("node") or {}
    try:
        pinmap = PinMap(
            tuple(beams),
            _opt_int(emitters.get("pi_gpio")),
            _opt_int(emitters.get("node_gpio")),
            int(str(node.get("usb_vid", "0x2E8A")), 16),
            int(node.get("baud", 115200)),
            int(node.get("heartbeat_ms", 500)),
        )
    except (TypeError, ValueError, AttributeError) as error:
        raise PinMapError(f'{where}: bad "emitters" or "node" entry: {error}') from None
    if not pinmap.horns:
        raise PinMapError(f"{where}: no beam belongs to a horn")
    for horn in pinmap.horns:
        if not pinmap.base_beams(horn):
            raise PinMapError(f"{where}: the {horn} horn has no base beam, so no ring on it can be seen")
    return pinmap


def _beam(raw: Any, where: str) -> BeamSpec:
    if not isinstance(raw, dict):
        raise PinMapError(f"{where}: expected an object")
    try:
        beam = BeamSpec(
            str(raw["name"]),
            str(raw["horn"]),
            str(raw["level"]),
            int(raw["pi_gpio"]),
            int(raw["node_gpio"]),
            bool(raw.get("active_low", True)),
        )
    except KeyError as error:
        raise PinMapError(f"{where}: missing {error.args[0]!r}") from None
    except (TypeError, ValueError) as error:
        raise PinMapError(f"{where}: {error}") from None
    if beam.level not in LEVELS:
        raise PinMapError(f"{where}: level must be one of {', '.join(LEVELS)}, not {beam.level!r}")
    if not 0 <= beam.pi_gpio <= 27 or not 0 <= beam.node_gpio <= 28:
        raise PinMapError(f"{where}: pi_gpio is BCM 0-27 and node_gpio is GP0-28")
    return beam


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
