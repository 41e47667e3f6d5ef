"""What the vision tests of the phone's pages share: the squares toy game with two lessons, the app with
a referee, the host signed in, a camera showing what the test puts before it, and where a plane
millimetre of the squares scene lies in its frame."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy
import numpy.typing
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table.referee import Referee
from companion.vision import base
from companion.vision.base import Frame
from companion.vision.teach import PLANS, TeachStep
from companion.web import create_app

from . import scenes

PIN = "4321"


class Camera:
    """What the camera shows now; the test changes it between shots (`then`: what it shows a moment later)."""

    def __init__(self, image: Frame | None = None) -> None:
        self.image = image
        self.then: Frame | None = None

    def __call__(self) -> Frame | None:
        image = self.image
        if self.then is not None:
            self.image, self.then = self.then, None
        return image


@pytest.fixture
def squares(monkeypatch: pytest.MonkeyPatch) -> None:
    """A toy game whose recogniser reads coloured squares, with two lessons."""
    monkeypatch.setattr(base, "_INSTANCES", {})
    monkeypatch.setitem(base._FACTORIES, "squares", scenes.SquaresRecogniser)
    lessons = [
        TeachStep("Lay the red square on spot 0.", {"spot:0": "red"}),
        TeachStep("Lay the green square on spot 0.", {"spot:0": "green"}),
    ]
    monkeypatch.setitem(PLANS, "squares", lambda layout, options: lessons)


@pytest.fixture
def app(tmp_path: Path, squares: None) -> Iterator[Flask]:
    """The web app over a running referee, the host's PIN set, the squares game known."""
    referee = Referee(tmp_path / "table.db")
    referee.start()
    yield create_app({"TESTING": True, "HOST_PIN": PIN}, referee=referee)
    referee.stop()


@pytest.fixture
def host(app: Flask) -> FlaskClient:
    """A client signed in as the host, sending its CSRF token with every request."""
    client = app.test_client()
    token = client.post("/api/host/sign-in", json={"pin": PIN}).json["csrf_token"]  # type: ignore[index]
    client.environ_base["HTTP_X_CSRF_TOKEN"] = token
    return client


def plane_to_frame(quad: Any = scenes.CAMERA_QUAD) -> numpy.typing.NDArray[numpy.float64]:
    """Where scenes.frame puts each plane millimetre in the frame (the truth an overlay must match)."""
    width, height = scenes.PLANE_MM
    corners = numpy.array([[0, 0], [width, 0], [width, height], [0, height]], numpy.float32)
    return numpy.asarray(cv2.getPerspectiveTransform(corners, numpy.asarray(quad)), dtype=numpy.float64)


def in_frame(
    points_mm: list[tuple[float, float]], quad: Any = scenes.CAMERA_QUAD
) -> numpy.typing.NDArray[numpy.float32]:
    """The frame pixels (x, y) of plane points of the squares scene."""
    array = numpy.array(points_mm, numpy.float32).reshape(-1, 1, 2)
    return numpy.asarray(cv2.perspectiveTransform(array, plane_to_frame(quad)), numpy.float32).reshape(-1, 2)


def colour_near(image: Frame, point: numpy.typing.NDArray[numpy.float32] | tuple[float, float]) -> Any:
    """The mean colour of the 3 x 3 pixels round a frame point."""
    x, y = round(float(point[0])), round(float(point[1]))
    return image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).mean(axis=0)


def looks_like(colour: Any, expected: tuple[int, int, int]) -> bool:
    """A drawn line's colour, near enough: lines 2 px wide, through JPEG."""
    return bool(numpy.abs(colour - numpy.array(expected)).max() < 90)


def decoded(data: bytes) -> Frame:
    """A JPEG the pages sent, decoded (BGR)."""
    image = cv2.imdecode(numpy.frombuffer(data, numpy.uint8), cv2.IMREAD_COLOR)
    assert image is not None, "the picture is not a JPEG"
    return numpy.asarray(image, dtype=numpy.uint8)
