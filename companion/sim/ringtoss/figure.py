"""The world the toss simulator plays in: the horn figure, its collar and beams, and the ring.

Read from hardware/figure.json (the figure and the ring) and the `path` of each
sensor in hardware/pinmap.json (where its light runs). This module parses both
files itself: the simulator is the world the judge is tested against, so it
shares no code with the judge or its pin map reader, only the data files.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy

from companion.datafiles import data_dir

HARDWARE = data_dir("hardware")
FIGURE_FILE = HARDWARE / "figure.json"
PINMAP_FILE = HARDWARE / "pinmap.json"

Vec = numpy.ndarray


class FigureError(ValueError):
    """A figure or beam description the simulator cannot use."""


@dataclasses.dataclass(frozen=True)
class Horn:
    name: str
    base: tuple[float, float, float]
    axis: tuple[float, float, float]
    """Unit vector from the base towards the tip (the horn leans outward)."""
    length: float
    base_radius: float
    tip_radius: float

    @property
    def tip(self) -> tuple[float, float, float]:
        return tuple(b + self.length * a for b, a in zip(self.base, self.axis, strict=True))  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class Ring:
    centre_radius: float
    """Radius of the cord's centre line."""
    cord_radius: float
    mass_g: float

    @property
    def inner_radius(self) -> float:
        return self.centre_radius - self.cord_radius

    @property
    def outer_radius(self) -> float:
        return self.centre_radius + self.cord_radius


@dataclasses.dataclass(frozen=True)
class LightPath:
    """One sensor's light: a cylinder from emitter to receiver (a break beam)."""

    name: str
    start: tuple[float, float, float]
    end: tuple[float, float, float]
    radius: float


@dataclasses.dataclass(frozen=True)
class Figure:
    horns: tuple[Horn, ...]
    head_half_size: tuple[float, float]
    table_z: float
    """The table's surface, below the head's top (z = 0)."""
    rim_height: float
    rim_width: float
    post_radius: float
    ring: Ring
    friction_figure: float
    friction_table: float
    beams: tuple[LightPath, ...]
    knock_sensors: tuple[str, ...]
    """Names of the knock sensors (a piezo in the figure's base): they feel impacts, see no light."""

    def horn(self, name: str) -> Horn:
        for horn in self.horns:
            if horn.name == name:
                return horn
        raise FigureError(f"no horn named {name!r}")

    def posts(self) -> list[tuple[float, float, float]]:
        """(x, y, height) of every optics post that stands above the collar's rim (the tall beams')."""
        out = []
        for beam in self.beams:
            height = max(beam.start[2], beam.end[2])
            if height > self.rim_height - 3:
                for x, y, _ in (beam.start, beam.end):
                    out.append((x, y, height + 5))
        return out

    def with_changes(self, *, beam_height_offset: float = 0.0, cord_diameter: float | None = None) -> Figure:
        """The same figure with every beam moved up (or down) and another rope: the tolerance cases."""
        beams = tuple(
            dataclasses.replace(
                b,
                start=(b.start[0], b.start[1], b.start[2] + beam_height_offset),
                end=(b.end[0], b.end[1], b.end[2] + beam_height_offset),
            )
            for b in self.beams
        )
        ring = self.ring
        if cord_diameter is not None:
            ring = dataclasses.replace(ring, cord_radius=cord_diameter / 2)
        return dataclasses.replace(self, beams=beams, ring=ring)


def _vec3(value: Any, where: str) -> tuple[float, float, float]:
    try:
        x, y, z = (float(v) for v in value)
    except (TypeError, ValueError):
        raise FigureError(f"{where}: expected [x, y, z] in mm") from None
    return (x, y, z)


def load_figure(figure_file: Path | None = None, pinmap_file: Path | None = None) -> Figure:
    figure_file = figure_file or FIGURE_FILE
    pinmap_file = pinmap_file or PINMAP_FILE
    try:
        data = json.loads(figure_file.read_text(encoding="utf-8"))
        pins = json.loads(pinmap_file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise FigureError(f"cannot read the figure: {error}") from None
    try:
        length = float(data["horn_length"])
        horns = []
        for name, spec in data["horns"].items():
            lean = math.radians(float(spec["lean_deg"]))
            tx, ty = (float(v) for v in spec["lean_towards"])
            norm = math.hypot(tx, ty) or 1.0
            axis = (math.sin(lean) * tx / norm, math.sin(lean) * ty / norm, math.cos(lean))
            bx, by = (float(v) for v in spec["base"])
            horns.append(
                Horn(
                    name,
                    (bx, by, 0.0),
                    axis,
                    length,
                    float(data["horn_base_radius"]),
                    float(data["horn_tip_radius"]),
                )
            )
        ring_spec = data["ring"]
        ring = Ring(
            float(ring_spec["centre_radius"]),
            float(ring_spec["cord_diameter"]) / 2,
            float(ring_spec["mass_g"]),
        )
        radius = float(data["light_path_diameter"]) / 2
        beams, knocks = [], []
        for spec in pins["beams"]:
            if spec.get("level") == "knock":
                knocks.append(str(spec["name"]))
                continue
            path = spec.get("path")
            if path is None:
                raise FigureError(f"beam {spec.get('name')!r} has no light path in the pin map")
            beams.append(
                LightPath(
                    str(spec["name"]), _vec3(path[0], spec["name"]), _vec3(path[1], spec["name"]), radius
                )
            )
        half = data["head"]["half_size"]
        collar = data["collar"]
        return Figure(
            tuple(horns),
            (float(half[0]), float(half[1])),
            -float(data["head"]["height_above_table"]),
            float(collar["rim_height"]),
            float(collar["rim_width"]),
            float(collar["post_radius"]),
            ring,
            float(data["friction"]["ring_on_figure"]),
            float(data["friction"]["ring_on_table"]),
            tuple(beams),
            tuple(knocks),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, FigureError):
            raise
        raise FigureError(f"{figure_file}: bad or missing entry: {error}") from None
