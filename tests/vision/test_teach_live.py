"""Teach mode's live view: what the companion reads on the live picture now, with the profile as taught so
far, so that the host sees the new edition being read after each shot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table.referee import Referee
from companion.vision import base
from companion.vision.base import Frame
from companion.vision.teach import PLANS, TeachStep
from companion.web import create_app
from companion.web.teach import VisionServices, install_vision

from . import scenes

PIN = "4321"
PALE_RED = (120, 120, 160)
"""This edition's red: nearer the built-in 'empty' than the built-in red, until taught."""


class Camera:
    def __init__(self, image: Frame | None = None) -> None:
        self.image = image

    def __call__(self) -> Frame | None:
        return self.image


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setattr(base, "_INSTANCES", {})
    monkeypatch.setitem(base._FACTORIES, "squares", scenes.SquaresRecogniser)
    lessons = [
        TeachStep("Lay the red square on spot 0.", {"spot:0": "red"}),
        TeachStep("Lay the green square on spot 0.", {"spot:0": "green"}),
    ]
    monkeypatch.setitem(PLANS, "squares", lambda layout, options: lessons)
    referee = Referee(tmp_path / "table.db")
    referee.start()
    yield create_app({"TESTING": True, "HOST_PIN": PIN}, referee=referee)
    referee.stop()


def _host(app: Flask) -> FlaskClient:
    host = app.test_client()
    token = host.post("/api/host/sign-in", json={"pin": PIN}).json["csrf_token"]  # type: ignore[index]
    host.environ_base["HTTP_X_CSRF_TOKEN"] = token
    return host


def _pale_red_on_spot_0() -> Frame:
    image = scenes.frame({"spot:0": "red"})
    image[(image == scenes.COLOURS["red"]).all(axis=2)] = PALE_RED
    return image


def _in_frame(x_mm: float, y_mm: float) -> tuple[int, int]:
    width, height = scenes.PLANE_MM
    corners = numpy.float32([[0, 0], [width, 0], [width, height], [0, height]])
    homography = cv2.getPerspectiveTransform(corners, scenes.CAMERA_QUAD)
    point = cv2.perspectiveTransform(numpy.float32([[[x_mm, y_mm]]]), homography)[0, 0]
    return round(float(point[0])), round(float(point[1]))


def _outline_colour(image: Frame, item: str) -> Any:
    """The colour drawn on the middle of the item's top edge."""
    region = scenes.layout().items[item]
    x, y = _in_frame(region.centre_mm[0], region.centre_mm[1] - region.size_mm[1] / 2)
    return image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).mean(axis=0)


def _near(colour: Any, expected: tuple[int, int, int]) -> bool:
    return bool(numpy.abs(colour - numpy.array(expected)).max() < 90)  # a line 2 px wide, through JPEG


def _picture(host: FlaskClient) -> Frame:
    response = host.get("/api/teach/live.jpg")
    assert response.status_code == 200 and response.content_type == "image/jpeg"
    image = cv2.imdecode(numpy.frombuffer(response.data, numpy.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape == (720, 1280, 3)
    return numpy.asarray(image, dtype=numpy.uint8)


def _labelled(image: Frame, item: str) -> bool:
    """A label's dark box lies on the item's middle."""
    region = scenes.layout().items[item]
    x, y = _in_frame(*region.centre_mm)
    patch = image[y - 6 : y + 7, x - 30 : x + 31]
    return bool((patch.max(axis=2) < 40).mean() > 0.2)


def test_the_live_view_reads_the_new_edition_once_taught(app: Flask, tmp_path: Path) -> None:
    camera = Camera(scenes.frame({}))
    install_vision(app, VisionServices(grab=camera, profiles_root=tmp_path))
    host = _host(app)
    assert host.get("/api/teach/live").status_code == 409  # no session yet
    assert host.post("/api/teach/start", json={"game": "squares", "edition": "pale"}).status_code == 200
    assert host.post("/api/teach/shot").status_code == 200  # the empty table, learned first
    camera.image = _pale_red_on_spot_0()
    before = host.get("/api/teach/live").json
    assert before["live"]["read"] == {"spot:0": "empty", "spot:1": "empty"}  # type: ignore[index]
    assert before["live"]["calibrated"] and before["spot"] == {"spot:0": "red"}  # type: ignore[index]
    shown = _picture(host)
    assert _near(_outline_colour(shown, "spot:0"), (40, 40, 230))  # the lesson's spot, read wrong: red
    assert _labelled(shown, "spot:0")  # the lesson's spot is labelled even when read as empty
    assert not _labelled(shown, "spot:1")  # nothing there: outlined faintly, no label to hide the pieces'
    assert _near(_outline_colour(shown, "spot:1"), (150, 150, 150))

    assert host.post("/api/teach/shot").status_code == 200  # teaches this edition's red
    after = host.get("/api/teach/live").json
    assert after["live"]["read"] == {"spot:0": "red", "spot:1": "empty"}  # type: ignore[index]
    assert after["spot"] == {"spot:0": "green"} and after["profile_shots"] == 1  # type: ignore[index]
    host.post("/api/teach/skip")
    done = host.get("/api/teach/live").json
    assert done["spot"] == {} and done["live"]["read"]["spot:0"] == "red"  # type: ignore[index]
    shown = _picture(host)  # no lesson left: a piece read is labelled in white
    assert _labelled(shown, "spot:0") and _near(_outline_colour(shown, "spot:0"), (255, 255, 255))


def test_the_live_view_says_why_it_reads_nothing(app: Flask, tmp_path: Path) -> None:
    camera = Camera(_pale_red_on_spot_0())
    install_vision(app, VisionServices(grab=camera, profiles_root=tmp_path))
    host = _host(app)
    host.post("/api/teach/start", json={"game": "squares"})
    camera.image = numpy.full((720, 1280, 3), 120, numpy.uint8)  # the camera turned away from the table
    live = host.get("/api/teach/live").json["live"]  # type: ignore[index]
    assert live["read"] == {} and not live["calibrated"] and "marker" in live["message"]
    assert _picture(host).shape == (720, 1280, 3)
    camera.image = None
    lost = host.get("/api/teach/live.jpg")
    assert lost.status_code == 409 and "no picture" in lost.json["error"]  # type: ignore[index]
    assert app.test_client().get("/api/teach/live").status_code == 403  # host only
