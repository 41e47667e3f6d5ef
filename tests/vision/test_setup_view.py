"""The setup view: the camera's picture with where the companion looks, markers found or missing, and
plain messages for what is off, checked on the host's phone page through a fake camera."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cv2
import numpy
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.vision import base
from companion.vision.base import MARKER_SIDE_MM, PLANE_PX_PER_MM, Frame, ItemRegion, Layout
from companion.vision.calibration import render_marker
from companion.vision.setupcheck import DARK_WHITE, SetupView
from companion.web.teach import VisionServices, install_vision

from . import scenes
from .conftest import Camera, colour_near, decoded, in_frame, looks_like

YELLOW = (0, 220, 255)
RED = (40, 40, 230)


class Watcher:
    """Stands in for the camera watcher: counts the times it is asked to learn the empty table."""

    def __init__(self) -> None:
        self.relearned = 0

    def relearn_reference(self) -> None:
        self.relearned += 1


class Figure(scenes.SquaresRecogniser):
    """The squares scene read as a horn figure: its two spots are the horns' regions."""

    def layout(self, options: Mapping[str, Any]) -> Layout:
        spots = scenes.layout().items
        return Layout(scenes.PLANE_MM, {"horn:left": spots["spot:0"], "horn:right": spots["spot:1"]})


@pytest.fixture
def app(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Flask:
    """The shared app, with the squares scene also known as a horn figure."""
    monkeypatch.setitem(base._FACTORIES, "figure", Figure)
    return app


def _edge_middles(centre: tuple[float, float], size: tuple[float, float]) -> list[tuple[float, float]]:
    (x, y), (w, h) = centre, size
    return [(x, y - h / 2), (x + w / 2, y), (x, y + h / 2), (x - w / 2, y)]


def _covered(image: Frame, corner: int, quad: Any = scenes.CAMERA_QUAD) -> Frame:
    """The frame with one corner's marker (0 top-left ... 3 bottom-left) under a sheet of table colour."""
    width, height = scenes.PLANE_MM
    side = MARKER_SIDE_MM + 4
    origin = ((0, 0), (width - side, 0), (width - side, height - side), (0, height - side))[corner]
    x, y = origin
    sheet = in_frame([(x, y), (x + side, y), (x + side, y + side), (x, y + side)], quad)
    covered = image.copy()
    cv2.fillConvexPoly(covered, numpy.round(sheet).astype(numpy.int32), (90, 110, 120))
    return covered


def test_the_view_outlines_every_item_where_the_layout_lies_in_the_frame(
    app: Flask, host: FlaskClient
) -> None:
    camera = Camera(scenes.frame({"spot:0": "red"}))
    install_vision(app, VisionServices(grab=camera))
    state = host.get("/api/setup?game=squares")
    assert state.status_code == 200, state.json
    report = state.json["report"]  # type: ignore[index]
    assert [m["found"] for m in report["markers"]] == [True] * 4
    assert [m["name"] for m in report["markers"]] == ["top-left", "top-right", "bottom-right", "bottom-left"]
    assert report["messages"] == [] and report["ok"] and report["items"] == 2
    view = host.get("/api/setup/view.jpg?game=squares")
    assert view.status_code == 200 and view.content_type == "image/jpeg"
    shown = decoded(view.data)
    assert shown.shape == camera.image.shape  # type: ignore[union-attr]
    for region in scenes.layout().items.values():
        for middle in in_frame(_edge_middles(region.centre_mm, region.size_mm)):
            assert looks_like(colour_near(shown, middle), YELLOW), middle  # outlined exactly there...
            assert not looks_like(colour_near(camera.image, middle), YELLOW)  # type: ignore[arg-type]
        inside = in_frame([(region.centre_mm[0] + 15, region.centre_mm[1])])[0]
        assert not looks_like(colour_near(shown, inside), YELLOW)  # ...and not all over the region
    # Each found marker is framed in green around its own black square.
    for middle in in_frame(_edge_middles((MARKER_SIDE_MM / 2, MARKER_SIDE_MM / 2), (30.0, 30.0))):
        assert looks_like(colour_near(shown, middle), (60, 200, 60)), middle


def test_a_covered_marker_is_named_missing_and_drawn_red_where_it_should_be(
    app: Flask, host: FlaskClient
) -> None:
    camera = Camera(_covered(scenes.frame({}), 1))
    install_vision(app, VisionServices(grab=camera))
    report = host.get("/api/setup?game=squares").json["report"]  # type: ignore[index]
    found = {m["name"]: m["found"] for m in report["markers"]}
    assert found == {"top-left": True, "top-right": False, "bottom-right": True, "bottom-left": True}
    assert any("top-right marker" in text and "not seen" in text for text in report["messages"])
    assert not report["ok"] and report["calibrated"]  # three markers still give the plane
    shown = decoded(host.get("/api/setup/view.jpg?game=squares").data)
    width = scenes.PLANE_MM[0]
    where = in_frame(_edge_middles((width - MARKER_SIDE_MM / 2, MARKER_SIDE_MM / 2), (30.0, 30.0)))
    assert sum(looks_like(colour_near(shown, point), RED) for point in where) >= 3


def test_a_dark_table_is_too_dark_and_a_lit_one_is_not(app: Flask, host: FlaskClient) -> None:
    lit = scenes.frame({"spot:1": "green"})
    camera = Camera((lit * 0.25).astype(numpy.uint8))
    install_vision(app, VisionServices(grab=camera))
    dark = host.get("/api/setup?game=squares").json["report"]  # type: ignore[index]
    assert dark["light"]["paper_white"] < DARK_WHITE
    assert [text for text in dark["messages"] if text.startswith("Too dark")]
    camera.image = lit
    bright = host.get("/api/setup?game=squares").json["report"]  # type: ignore[index]
    assert bright["light"]["paper_white"] > 200 and bright["messages"] == []


def test_glare_over_the_play_area_is_reported() -> None:
    image = scenes.frame({})
    glare = image.copy()
    centre = in_frame([(150.0, 100.0)])[0]
    cv2.circle(glare, (round(float(centre[0])), round(float(centre[1]))), 90, (255, 255, 255), -1)
    view = SetupView("squares", {}, recogniser=scenes.SquaresRecogniser())
    assert not [text for text in view.look(image).messages if "glare" in text]
    report = view.look(glare)
    assert report.light.glare_share > 0.05
    assert [text for text in report.messages if text.startswith("Too much glare")]


PLANE = scenes.plane


def _plane_with_marker_moved(shift_mm: float) -> Frame:
    """The squares plane with its top-left marker slid `shift_mm` right and down (laid off its corner)."""
    image = PLANE({})
    side = round(MARKER_SIDE_MM * PLANE_PX_PER_MM)
    shift = round(shift_mm * PLANE_PX_PER_MM)
    image[:side, :side] = 200
    image[shift : shift + side, shift : shift + side] = render_marker(0, side)[:, :, None]
    return image


def test_a_marker_off_its_corner_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    view = SetupView("squares", {}, recogniser=scenes.SquaresRecogniser())
    for shift, off in ((2.0, False), (8.0, True)):
        moved = _plane_with_marker_moved(shift)
        monkeypatch.setattr(scenes, "plane", lambda labels, moved=moved, **kw: moved)
        messages = view.look(scenes.frame({})).messages
        named = [text for text in messages if text.startswith("The top-left marker lies")]
        assert bool(named) == off, (shift, messages)
    assert "11 mm" in named[0]  # slid 8 mm right and 8 mm down: 11 mm diagonally


def test_a_horn_figure_moved_since_the_empty_table_is_reported(app: Flask, host: FlaskClient) -> None:
    camera = Camera(scenes.frame({"spot:0": "red"}))  # the "figure" stands on the left horn's spot
    watcher = Watcher()
    install_vision(app, VisionServices(grab=camera, watcher=watcher))
    taken = host.post("/api/setup/empty", json={"game": "figure"})
    assert taken.status_code == 200, taken.json
    assert watcher.relearned == 1
    dimmer = (scenes.frame({"spot:0": "red"}).astype(numpy.float32) * 0.8).astype(numpy.uint8)
    camera.image = dimmer  # the lamp dims: nothing moved
    report = host.get("/api/setup?game=figure").json["report"]  # type: ignore[index]
    assert not [text for text in report["messages"] if "horn figure" in text]
    camera.image = scenes.frame({"spot:1": "red"})  # the figure now stands a horn's width away
    report = host.get("/api/setup?game=figure").json["report"]  # type: ignore[index]
    moved = [text for text in report["messages"] if "horn figure is not where it stood" in text]
    assert moved and "left and right horn" in moved[0]


def test_taking_the_empty_table_needs_a_watcher_that_can_learn_it(app: Flask, host: FlaskClient) -> None:
    install_vision(app, VisionServices(grab=Camera(scenes.frame({})), watcher=object()))
    refused = host.post("/api/setup/empty", json={"game": "squares"})
    assert refused.status_code == 409 and "cannot learn it" in refused.json["error"]  # type: ignore[index]
    assert host.get("/api/setup?game=squares").json["can_take_empty"] is False  # type: ignore[index]
    install_vision(app, VisionServices(grab=Camera(_covered(_covered(scenes.frame({}), 0), 2))))
    blind = host.post("/api/setup/empty", json={"game": "squares"})
    assert blind.status_code == 409 and "cannot take the empty table" in blind.json["error"]  # type: ignore[index]


def test_the_setup_page_is_the_hosts_and_says_what_is_wrong(app: Flask, host: FlaskClient) -> None:
    viewer = app.test_client()
    assert viewer.get("/setup").status_code == 200  # the page itself asks for the PIN, in words
    assert viewer.get("/api/setup?game=squares").status_code == 403
    assert viewer.get("/api/setup/view.jpg?game=squares").status_code == 403
    page = host.get("/setup")
    assert page.status_code == 200 and b"Set up the camera" in page.data and b"setup.js" in page.data
    assert host.get("/static/setup.js").status_code == 200
    no_camera = host.get("/api/setup/view.jpg?game=squares")
    assert no_camera.status_code == 409 and "no camera" in no_camera.json["error"]  # type: ignore[index]
    state = host.get("/api/setup?game=squares").json
    assert state["camera"] is False and state["report"] is None  # type: ignore[index]
    install_vision(app, VisionServices(grab=Camera(None)))
    waiting = host.get("/api/setup/view.jpg?game=squares")
    assert waiting.status_code == 409 and "no picture yet" in waiting.json["error"]  # type: ignore[index]
    assert host.get("/api/setup?game=chess").status_code == 400
    assert host.get("/api/setup?game=squares&options=[1]").status_code == 400


def test_a_generated_table_shows_its_four_markers_and_cells() -> None:
    from companion.vision.generate import generate_frame

    view = SetupView("minotaurus", {})
    rng = numpy.random.default_rng(4)
    frame = generate_frame("minotaurus", view.layout, rng, hand=False, motion=False).image
    report = view.look(frame)
    assert all(marker.found for marker in report.markers) and report.calibration.homography is not None
    assert set(report.outlines) == set(view.layout.items)
    shown = view.draw(frame, report)
    # Every cell's outline lies inside the picture and is drawn: yellow pixels at its corners' middle.
    height, width = frame.shape[:2]
    for item, corners in report.outlines.items():
        assert ((corners >= 0) & (corners < [width, height])).all(), item
        middle = (corners[0] + corners[1]) / 2
        assert looks_like(colour_near(shown, middle), YELLOW), item
    dark = view.look((frame * 0.2).astype(numpy.uint8))
    assert [text for text in dark.messages if text.startswith("Too dark")]


def test_regions_turned_in_the_plane_are_drawn_turned() -> None:
    from companion.vision.overlay import region_corners_mm

    corners = region_corners_mm(ItemRegion((50.0, 50.0), (20.0, 10.0), rotation_deg=90.0))
    # Turned a quarter counter-clockwise (y down): the long side now runs up and down.
    assert numpy.ptp(corners[:, 0]) == pytest.approx(10.0, abs=1e-4)
    assert numpy.ptp(corners[:, 1]) == pytest.approx(20.0, abs=1e-4)
    assert corners[1].tolist() == pytest.approx([45.0, 40.0], abs=1e-4)  # the +x end went up


def test_a_plane_raised_above_the_markers_is_outlined_where_the_camera_sees_it() -> None:
    """A horn figure's head stands 60 mm up: its regions are drawn where a pinhole camera sees that height
    (the camera built here from its own focal length, tilt and place, not from the code under test)."""
    import math

    from companion.vision.overlay import project_layout, region_corners_mm

    width, height, focal = 1280, 720, 1000.0
    intrinsics = numpy.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    tilt = math.radians(25)
    # World (x, y, -z) to camera: looking down at the plane, tilted about the x axis, 600 mm away.
    rotation = numpy.array(
        [[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]]
    )
    translation = numpy.array([-175.0, -60.0, 600.0])

    def seen(points: numpy.typing.NDArray[Any], z_mm: float) -> numpy.typing.NDArray[Any]:
        world = numpy.column_stack([points, numpy.full(len(points), -z_mm)])
        pixels = (world @ rotation.T + translation) @ intrinsics.T
        return numpy.asarray(pixels[:, :2] / pixels[:, 2:3], numpy.float64)

    flat = intrinsics @ numpy.column_stack([rotation[:, 0], rotation[:, 1], translation])
    frame_to_plane_px = numpy.diag([PLANE_PX_PER_MM, PLANE_PX_PER_MM, 1.0]) @ numpy.linalg.inv(flat)
    region = ItemRegion((120.0, 100.0), (60.0, 60.0))
    for raised in (0.0, 60.0):
        layout = Layout((350.0, 240.0), {"horn:left": region}, raised_mm=raised)
        drawn = project_layout(layout, frame_to_plane_px, (width, height))["horn:left"]
        truth = seen(region_corners_mm(region), raised)
        assert numpy.abs(drawn - truth).max() < 2.0, (raised, drawn, truth)
    # The head's outline is not the foot's: the parallax the flat homography would miss is many pixels.
    assert numpy.abs(seen(region_corners_mm(region), 60.0) - seen(region_corners_mm(region), 0.0)).max() > 30


def test_the_toss_is_set_up_through_the_toss_camera(
    app: Flask, monkeypatch: pytest.MonkeyPatch, host: FlaskClient
) -> None:
    """The horn figure has its own camera: the setup page shows that camera's picture for the toss."""
    from companion.vision.sources import TimedFrame
    from companion.vision.tosscheck import TossCamera

    class Source:
        name = "toss camera"

        def __init__(self) -> None:
            self.opened = 0

        def open(self) -> None:
            self.opened += 1

        def read(self) -> TimedFrame | None:
            return TimedFrame(scenes.frame({"spot:0": "red"}), 0.0)

        def close(self) -> None:
            pass

    monkeypatch.setitem(base._FACTORIES, "toss", Figure)
    source = Source()
    camera = TossCamera(source)
    install_vision(app, VisionServices(grab=Camera(None), toss_grab=camera.grab))
    report = host.get("/api/setup?game=toss").json["report"]  # type: ignore[index]
    assert report is not None and all(m["found"] for m in report["markers"]) and report["items"] == 2
    assert host.get("/api/setup?game=squares").json["report"] is None  # type: ignore[index]
    assert source.opened == 1  # opened once, kept open between pictures
    with camera._lock:  # a toss being checked holds the camera: the page is told "no picture" at once
        assert camera.grab(wait=0.01) is None


def test_a_camera_bumped_while_markers_are_covered_says_it_moved() -> None:
    view = SetupView("squares", {}, recogniser=scenes.SquaresRecogniser())
    assert view.look(scenes.frame({})).ok
    moved = scenes.CAMERA_QUAD + numpy.array([40, 25], numpy.float32)
    # The camera knocked aside, and two markers under hands: the old view no longer holds, no new one yet.
    bumped = _covered(_covered(scenes.frame({}, quad=moved), 0, moved), 2, moved)
    report = view.look(bumped)
    assert report.calibration.state == "bumped" and report.calibration.homography is None
    assert [text for text in report.messages if text.startswith("The camera (or a marker) moved")]
    assert view.look(scenes.frame({}, quad=moved)).ok  # all four in view again: the new view is taken


def _mm_per_px_along(homography: Any, at_mm: tuple[float, float], step: tuple[float, float]) -> float:
    """Millimetres of plane per frame pixel at a point, along one direction: two points a millimetre
    apart, seen through the inverse of `homography` (frame pixels to plane pixels)."""
    to_frame = numpy.linalg.inv(homography)
    ends = numpy.float32([[at_mm, (at_mm[0] + step[0], at_mm[1] + step[1])]]) * PLANE_PX_PER_MM
    seen = cv2.perspectiveTransform(ends, to_frame)[0]
    return 1.0 / float(numpy.linalg.norm(seen[1] - seen[0]))


def test_the_coarsest_detail_is_where_the_camera_sees_the_area_smallest() -> None:
    from companion.vision.setupcheck import coarsest_mm_per_px

    width, height = scenes.PLANE_MM
    plane_px = numpy.float32([[0, 0], [width, 0], [width, height], [0, height]]) * PLANE_PX_PER_MM
    # Straight down: 300 mm over 600 frame pixels everywhere.
    square = numpy.float32([[100, 100], [700, 100], [700, 500], [100, 500]])
    straight = cv2.getPerspectiveTransform(square, plane_px)
    assert coarsest_mm_per_px(straight, scenes.PLANE_MM) == pytest.approx(0.5, abs=1e-3)
    # Tilted: the far (top) edge is seen half as wide, and shortened along the line of sight too.
    far_small = numpy.float32([[250, 150], [550, 150], [700, 500], [100, 500]])
    tilted = cv2.getPerspectiveTransform(far_small, plane_px)
    coarsest = coarsest_mm_per_px(tilted, scenes.PLANE_MM)
    # Checked by stepping a millimetre in every direction along the far edge (its corners are sheared).
    turns = numpy.radians(numpy.arange(0, 180, 2))
    stepped = max(
        _mm_per_px_along(tilted, (x, 0.0), (float(numpy.cos(a)), float(numpy.sin(a))))
        for x in numpy.linspace(0, width, 5)
        for a in turns
    )
    assert coarsest == pytest.approx(stepped, rel=0.02)
    assert coarsest > 0.9  # coarser than the straight view's 0.5 at the far edge
    assert _mm_per_px_along(tilted, (width / 2, height), (1.0, 0.0)) < 0.55  # the near edge stays fine


def test_a_camera_too_far_for_the_games_print_is_told_to_come_lower(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.vision import setupcheck

    monkeypatch.setitem(setupcheck.COARSEST_MM_PER_PX, "squares", 0.8)
    view = SetupView("squares", {}, recogniser=scenes.SquaresRecogniser())
    near = view.look(scenes.frame({}))  # 300 mm across some 650 pixels
    assert near.mm_per_px is not None and near.mm_per_px < 0.6
    assert not [text for text in near.messages if "too far" in text], near.messages
    # The same table seen from twice as high: half the size in the frame, around the same middle.
    middle = scenes.CAMERA_QUAD.mean(axis=0)
    high = SetupView("squares", {}, recogniser=scenes.SquaresRecogniser())
    report = high.look(scenes.frame({}, quad=middle + (scenes.CAMERA_QUAD - middle) / 2))
    assert report.calibration.homography is not None and report.mm_per_px is not None
    assert report.mm_per_px == pytest.approx(2 * near.mm_per_px, rel=0.1)
    told = [text for text in report.messages if "too far" in text]
    assert told and "Lower the camera" in told[0] and f"{report.mm_per_px:.2f} mm" in told[0]
    assert report.to_json()["mm_per_px"] == round(report.mm_per_px, 2)
