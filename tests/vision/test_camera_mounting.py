"""The camera's mounting figures (hardware/camera_mounting.py, docs/camera.md): checked by looking through a
pinhole camera built here, and the committed drawing is what the script draws."""

from __future__ import annotations

import math
import runpy
from pathlib import Path
from typing import Any

import numpy
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = runpy.run_path(str(ROOT / "hardware" / "camera_mounting.py"))
FRAME = (1280, 720)


def _frame_points(
    points: numpy.typing.NDArray[Any], height: float, tilt_deg: float, lens: tuple[float, float]
) -> numpy.typing.NDArray[Any]:
    """Frame pixels of table points (x across, y away from the point below the camera, mm) seen by a
    camera `height` above it, pitched `tilt_deg` from straight down towards +y."""
    tilt = math.radians(tilt_deg)
    axis = numpy.array([0.0, math.sin(tilt), -math.cos(tilt)])
    down = numpy.array([0.0, -math.cos(tilt), -math.sin(tilt)])  # the frame's y: towards the near side
    across = numpy.array([1.0, 0.0, 0.0])
    rays = numpy.column_stack([points, numpy.zeros(len(points))]) - numpy.array([0.0, 0.0, height])
    depth = rays @ axis
    assert (depth > 0).all()
    fx = FRAME[0] / 2 / math.tan(math.radians(lens[0]) / 2)
    fy = FRAME[1] / 2 / math.tan(math.radians(lens[1]) / 2)
    return numpy.column_stack(
        [fx * (rays @ across) / depth + FRAME[0] / 2, fy * (rays @ down) / depth + FRAME[1] / 2]
    )


def _area_corners(width: float, depth: float, near: float) -> numpy.typing.NDArray[Any]:
    return numpy.array(
        [[-width / 2, near], [width / 2, near], [width / 2, near + depth], [-width / 2, near + depth]]
    )


def _inside(pixels: numpy.typing.NDArray[Any]) -> bool:
    return bool(((pixels >= -0.5) & (pixels <= numpy.array(FRAME) + 0.5)).all())


@pytest.mark.parametrize("tilt", [0.0, 20.0])
@pytest.mark.parametrize("lens", ["standard", "wide"])
@pytest.mark.parametrize("area", [(552.0, 352.0), (420.0, 379.0), (360.0, 260.0)])
def test_the_lowest_mounting_just_sees_the_whole_area(
    area: tuple[float, float], lens: str, tilt: float
) -> None:
    field = SCRIPT["LENSES"][lens]
    mount = SCRIPT["mounting"](area, field, tilt)
    corners = _area_corners(*area, mount.near_edge_mm)
    assert _inside(_frame_points(corners, mount.height_mm, tilt, field))
    # A little lower, the same area no longer fits, wherever it lies along the depth.
    lower = 0.97 * mount.height_mm
    for shift in numpy.linspace(-0.3, 0.3, 13) * area[1]:
        assert not _inside(
            _frame_points(_area_corners(*area, mount.near_edge_mm + shift), lower, tilt, field)
        )
    # The coarsest pixel: 1 mm at the middle of the far edge spans 1 / mm_per_px pixels (the least way).
    far = numpy.array([0.0, mount.near_edge_mm + area[1]])
    pixels = _frame_points(
        numpy.array([far, far - [1.0, 0.0], far - [0.0, 1.0]]), mount.height_mm, tilt, field
    )
    spans = [float(numpy.linalg.norm(pixels[k] - pixels[0])) for k in (1, 2)]
    assert min(spans) == pytest.approx(1 / mount.mm_per_px, rel=0.03)


def test_the_committed_drawing_is_what_the_script_draws() -> None:
    drawn = SCRIPT["drawing"](SCRIPT["play_areas"]())
    assert (ROOT / "docs" / "camera-mounting.svg").read_text(encoding="utf-8") == drawn, (
        "run: .venv/bin/python hardware/camera_mounting.py"
    )


def test_docs_carry_the_scripts_table() -> None:
    table = SCRIPT["table"](SCRIPT["play_areas"]())
    assert table in (ROOT / "docs" / "camera.md").read_text(encoding="utf-8")
