"""The toss camera in three dimensions: the camera pose from the markers, the raised plane, and rings
read around horns standing at their real height (frames from the 3-D generator, rings at the rigid-body
simulator's rest poses)."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, VisionError
from companion.vision.generate import _toss_rings as toss_rings
from companion.vision.generate import toss as generate_toss
from companion.vision.generate.camera import marker_corners_mm
from companion.vision.generate.world import look_at
from companion.vision.pipeline import PlaneReader
from companion.vision.pose import pose_from_homography, raised_homography
from companion.vision.recognisers import toss
from companion.vision.recognisers.toss import toss_layout

POOL = 40
"""Simulated throws the frames' rings are taken from (two seconds of MuJoCo)."""


def _homography_to_plane(camera: generate_toss.Camera, plane_mm: tuple[float, float]) -> numpy.ndarray:
    """What the calibration would fit: frame pixels to plane pixels, from the markers' corners."""
    corners = numpy.concatenate(list(marker_corners_mm(plane_mm).values()))
    pixels = camera.project(numpy.column_stack([corners, numpy.zeros(len(corners))]))
    found, _ = cv2.findHomography(
        pixels.astype(numpy.float32), (corners * PLANE_PX_PER_MM).astype(numpy.float32)
    )
    return numpy.asarray(found, numpy.float64)


@pytest.mark.parametrize(("tilt", "tolerance_mm"), [(0.0, 2.0), (8.0, 2.5), (18.0, 0.5), (25.0, 0.5)])
def test_the_raised_plane_puts_points_at_the_figures_height_where_they_are(
    tilt: float, tolerance_mm: float
) -> None:
    """Tilted 12 degrees or more, the focal length is recovered and points 60 mm up land within half a
    millimetre; nearer straight down a typical lens is assumed (this one's field of view is 60 degrees,
    the typical 66), which costs up to a couple of millimetres at the horns."""
    layout = toss_layout({"markers": "table", "figure_height_mm": 60})
    camera = look_at((210.0, 155.0), 550.0, tilt, 120.0, 7.0, "standard", 0.0, 0.0)
    matrix = camera.matrix.copy()
    matrix[0, 0] = matrix[1, 1] = 640 / math.tan(math.radians(30))
    camera = generate_toss.dataclasses.replace(camera, matrix=matrix)
    homography = _homography_to_plane(camera, layout.plane_mm)
    pose = pose_from_homography(homography, layout.plane_mm, camera.frame_size)
    assert abs(pose.position_mm[2] - 550.0) < (70.0 if tilt < 12 else 2.0)
    points = numpy.array(
        [[155.0, 155.0, 60.0], [265.0, 155.0, 60.0], [130.0, 100.0, 60.0], [300.0, 210.0, 60.0]]
    )
    raised = raised_homography(homography, layout.plane_mm, camera.frame_size, 60.0)
    seen = cv2.perspectiveTransform(camera.project(points).reshape(-1, 1, 2), raised).reshape(-1, 2)
    assert numpy.abs(seen / PLANE_PX_PER_MM - points[:, :2]).max() < tolerance_mm
    # The flat homography puts them 10 mm or more off: the error the raised plane removes.
    flat = cv2.perspectiveTransform(camera.project(points).reshape(-1, 1, 2), homography).reshape(-1, 2)
    assert numpy.abs(flat / PLANE_PX_PER_MM - points[:, :2]).max() > 10.0


def _beside(horn_side: str, pool: tuple[toss_rings.RestingRing, ...]) -> toss_rings.RestingRing:
    """A ring that missed and rests on the head next to the horn (not around it)."""
    sign = -1.0 if horn_side == "left" else 1.0
    for ring, horn in toss_rings.variants(pool):
        base_x = sign * 55.0
        distance = math.hypot(ring.position[0] - base_x, ring.position[1])
        if horn is None and ring.position[2] > -5 and distance < 75.0 and abs(ring.position[0]) > 60:
            return ring
    raise LookupError("no ring at rest beside the horn in the pool")


def _around(horn_side: str, pool: tuple[toss_rings.RestingRing, ...]) -> toss_rings.RestingRing:
    return next(ring for ring, horn in toss_rings.variants(pool) if horn == horn_side)


@pytest.mark.parametrize("head_mm", [40.0, 60.0, 80.0])
@pytest.mark.parametrize("markers", ["table", "collar"])
def test_a_ring_around_a_horn_reads_ring_and_one_beside_the_other_clear(markers: str, head_mm: float) -> None:
    options = {"markers": "table", "figure_height_mm": head_mm} if markers == "table" else {}
    layout = toss_layout(options)
    pool = toss_rings.resting_rings(POOL)
    rng = numpy.random.default_rng(round(head_mm))
    session = generate_toss.toss_session(layout, rng, hard=False, head_height_mm=head_mm, pool=pool)
    reader = PlaneReader("toss", options)
    for ringed, other in (("left", "right"), ("right", "left")):
        shot = session.shot([_around(ringed, pool), _beside(other, pool)], rng)
        assert shot.labels == {f"horn:{ringed}": "ring", f"horn:{other}": "clear"}
        reading = reader.read(shot.image).reading
        assert reading is not None, session.setup
        assert reading.items == shot.labels, session.setup


def test_with_the_empty_figure_learned_the_normalised_plane_reads_the_same() -> None:
    """With the empty figure learned at setup (the pipeline's reference) the horns vanish from the plane
    the recogniser reads, and with them the cord they hide: the share of the way round decides."""
    options = {"markers": "table", "figure_height_mm": 60.0}
    pool = toss_rings.resting_rings(POOL)
    rng = numpy.random.default_rng(60)
    session = generate_toss.toss_session(toss_layout(options), rng, hard=False, pool=pool)
    reader = PlaneReader("toss", options)
    reader.learn_reference(session.shot([], rng).image)
    assert reader.reference is not None
    for ringed, other in (("left", "right"), ("right", "left")):
        shot = session.shot([_around(ringed, pool), _beside(other, pool)], rng)
        result = reader.read(shot.image)
        assert result.reading is not None and result.plane is not None, result.refused
        assert result.reading.items == shot.labels, session.setup
        centre = reader.layout.items[f"horn:{ringed}"].centre_mm
        assert toss.look_at_horn(None, toss.smooth(result.plane), centre).normalised


def test_the_generators_truth_is_the_simulators() -> None:
    """A ring counts as around a horn exactly when the simulator classified its toss as a ringer, and
    the figure's mirror image moves it to the other horn."""
    ringers = {"clean_ringer", "tilted_ringer", "rattling_ringer", "hanging"}
    pool = toss_rings.resting_rings(POOL)
    assert {ring.kind in ringers for ring in pool} == {True, False}
    for ring in pool:
        horn = toss_rings.horn_through(ring)
        assert (horn is not None) == (ring.kind in ringers), ring
        if horn is not None:
            assert (
                toss_rings.horn_through(ring.mirrored(True, False))
                == {"left": "right", "right": "left"}[horn]
            )
    rng = numpy.random.default_rng(3)
    session = generate_toss.toss_session(toss_layout({}), rng, pool=pool)
    for labels in (
        {"horn:left": "ring", "horn:right": "clear"},
        {"horn:left": "clear", "horn:right": "clear"},
    ):
        shot = session.frame(rng, labels)
        assert shot.labels == labels == toss_rings.truth(list(shot.rings))


def test_the_recogniser_imports_neither_generator_nor_simulator() -> None:
    source = Path(toss.__file__).read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    assert imported, "the walk found no import at all"
    assert not [
        m
        for m in imported
        if m.startswith(("companion.vision.generate", "companion.sim", "companion.vision.training"))
    ]


def test_the_toss_layout_follows_the_setup_and_refuses_what_no_setup_has() -> None:
    collar, table = toss_layout({}), toss_layout({"markers": "table", "figure_height_mm": 72})
    assert collar.raised_mm == 0 and table.raised_mm == 72
    for layout in (collar, table):
        left, right = (layout.items[f"horn:{side}"].centre_mm for side in ("left", "right"))
        assert right[0] - left[0] == 110.0 and (left[0] + right[0]) / 2 == layout.plane_mm[0] / 2
    for bad, message in (
        ({"markers": "ceiling"}, "collar' or 'table"),
        ({"markers": "table", "figure_height_mm": "tall"}, "number of mm"),
        ({"markers": "table", "figure_height_mm": 5}, "20 to 150"),
    ):
        with pytest.raises(VisionError, match=message):
            toss_layout(bad)


def _leaning(horn_side: str, pool: tuple[toss_rings.RestingRing, ...]) -> list[toss_rings.RestingRing]:
    """Rings that missed and lean against the horn, standing up beside it (centre within 20 mm of its
    base, 20 mm or more above the plate): seen from above, their ellipse surrounds the horn's base."""
    base_x = -55.0 if horn_side == "left" else 55.0
    leaning = [
        ring
        for ring, horn in toss_rings.variants(pool)
        if horn is None
        and ring.position[2] > 20.0
        and math.hypot(ring.position[0] - base_x, ring.position[1]) < 20.0
    ]
    assert leaning, "no ring in the pool leans against the horn"
    return leaning


@pytest.mark.parametrize("markers", ["table", "collar"])
def test_a_ring_leaning_on_a_horn_reads_clear_with_the_empty_figure_learned(markers: str) -> None:
    """Rays from the horn's base cross such a ring 70-90% of the way round (the ray test read three of
    these four as rings); a circle of the ring's own size on the collar plate's plane, where a ring around
    the horn lies, filled by cord of one hue, is not filled by it nor by its shadow. (Without the empty
    figure the horn and the shadows stand out as the rope does, and one of them still reads ring.)"""
    options = {"markers": "table", "figure_height_mm": 60.0} if markers == "table" else {}
    pool = toss_rings.resting_rings(POOL)
    rng = numpy.random.default_rng(21)
    session = generate_toss.toss_session(toss_layout(options), rng, hard=False, pool=pool)
    reader = PlaneReader("toss", options)
    reader.learn_reference(session.shot([], rng).image)
    for leaner in _leaning("left", pool):
        shot = session.shot([leaner, _around("right", pool)], rng)
        assert shot.labels == {"horn:left": "clear", "horn:right": "ring"}
        result = reader.read(shot.image)
        assert result.reading is not None, (leaner, result.refused)
        assert result.reading.items == shot.labels, (leaner, session.setup)
