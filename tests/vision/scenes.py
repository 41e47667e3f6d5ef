"""Small synthetic scenes for the vision infrastructure's tests: a plane with the corner markers, seen
through a fixed camera, and a toy recogniser that reads coloured squares (so these tests do not depend
on any game's recogniser)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import cv2
import numpy

from companion.vision.base import (
    CORNER_MARKER_IDS,
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    ItemRegion,
    Layout,
    Profile,
    Reading,
)
from companion.vision.calibration import render_marker
from companion.vision.reference import NEUTRAL_BGR

PLANE_MM = (300.0, 200.0)
FRAME_SIZE = (1280, 720)
SPOTS = {"spot:0": (100.0, 100.0), "spot:1": (200.0, 100.0)}
COLOURS = {"red": (40, 40, 220), "green": (60, 170, 60), "empty": (200, 200, 200)}
CAMERA_QUAD = numpy.float32([[330, 110], [960, 140], [1010, 600], [280, 570]])
"""Where the plane's corners appear in the frame: a camera looking a little askew."""


def layout() -> Layout:
    return Layout(PLANE_MM, {item: ItemRegion(centre, (40.0, 40.0)) for item, centre in SPOTS.items()})


def plane(labels: Mapping[str, str], *, background: tuple[int, int, int] = (200, 200, 200)) -> Frame:
    """The top-down plane: light table, a coloured square per labelled spot, markers in the corners."""
    scene = layout()
    width, height = scene.plane_size_px()
    image = numpy.full((height, width, 3), background, numpy.uint8)
    for item, label in labels.items():
        x0, y0, x1, y1 = scene.items[item].box_px()
        cv2.rectangle(image, (x0 + 10, y0 + 10), (x1 - 10, y1 - 10), COLOURS[label], -1)
    side = round(MARKER_SIDE_MM * PLANE_PX_PER_MM)
    origins = [(0, 0), (width - side, 0), (width - side, height - side), (0, height - side)]
    for marker_id, (x, y) in zip(CORNER_MARKER_IDS, origins, strict=True):
        image[y : y + side, x : x + side] = render_marker(marker_id, side)[:, :, None]
    return image


def frame(
    labels: Mapping[str, str],
    *,
    quad: numpy.typing.NDArray[numpy.float32] = CAMERA_QUAD,
    noise: int = 0,
    seed: int = 0,
) -> Frame:
    """The plane seen through the camera, on a darker table around it."""
    top_down = plane(labels)
    height, width = top_down.shape[:2]
    corners = numpy.float32([[0, 0], [width, 0], [width, height], [0, height]])
    homography = cv2.getPerspectiveTransform(corners, quad)
    # A white margin around the plane keeps the markers' quiet zone, as the printed sheet does.
    image = cv2.warpPerspective(top_down, homography, FRAME_SIZE, borderValue=(90, 110, 120))
    if noise:
        rng = numpy.random.default_rng(seed)
        image = numpy.clip(image + rng.normal(0, noise, image.shape), 0, 255).astype(numpy.uint8)
    return numpy.asarray(image, dtype=numpy.uint8)


@dataclasses.dataclass
class SquaresRecogniser:
    """Reads each spot's colour by the nearest prototype; `teach` stores the shot's mean colour."""

    game: str = "squares"
    reads: int = 0

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return layout()

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        self.reads += 1
        prototypes = {label: [list(map(float, bgr))] for label, bgr in COLOURS.items()}
        if (plane == numpy.array(NEUTRAL_BGR, numpy.uint8)).all(axis=2).mean() > 0.2:
            # A plane normalised against the empty table: the table is the neutral background.
            prototypes["empty"].append([float(c) for c in NEUTRAL_BGR])
        if profile is not None:
            for label, taught in profile.colours.items():
                prototypes[label] = taught
        items, confidence = {}, {}
        for item in layout.items:
            mean = layout.crop(plane, item).reshape(-1, 3).mean(axis=0)
            distances = {
                label: min(float(numpy.linalg.norm(mean - numpy.array(p))) for p in protos)
                for label, protos in prototypes.items()
            }
            best = min(distances, key=lambda label: distances[label])
            items[item], confidence[item] = best, 1.0 / (1.0 + distances[best])
        return Reading(items, confidence)

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        colours = {k: list(v) for k, v in profile.colours.items()}
        for item, label in labels.items():
            mean = layout.crop(plane, item).reshape(-1, 3).mean(axis=0)
            colours.setdefault(label, []).append([round(float(c), 2) for c in mean])
        return dataclasses.replace(profile, colours=colours)
