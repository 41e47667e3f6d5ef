"""Asterion: green against yellow judged by the corners' CIELAB a measured from the tile's own whites."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import _lead
from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX, Window

# The second print's frame colours and a path's white, 8-bit CIELAB.
GREEN = (162.0, 90.0, 162.0)
YELLOW = (195.0, 128.0, 189.0)
WHITE = (230.0, 128.0, 136.0)
WALL = (80.0, 128.0, 128.0)


class _Even:
    """Templates whose frame and prisoner favour neither colour: the tint alone decides."""

    def colour_lead(self, colour: str, other: str, windows: list[Window]) -> float:
        return 0.0


def _bgr(lab: numpy.typing.NDArray[numpy.float32]) -> numpy.typing.NDArray[numpy.uint8]:
    return cv2.cvtColor(numpy.clip(lab, 0, 255).astype(numpy.uint8), cv2.COLOR_LAB2BGR)


def _tile(frame: tuple[float, float, float], tint: tuple[float, float]) -> tuple[Window, numpy.ndarray]:
    """A cell of walls and paths in a frame, and its corners' pixels, all under a lamp adding `tint`
    to a and b."""
    size = TEMPLATE_PX + 2 * SHIFT_PX
    lab = numpy.empty((size, size, 3), numpy.float32)
    lab[:] = WALL
    lab[size // 4 : size // 2, :] = WHITE
    lab[:, size // 4 : size // 2] = WHITE
    lab[: SHIFT_PX + 3, :] = frame
    lab[-SHIFT_PX - 3 :, :] = frame
    lab[..., 1] += tint[0]
    lab[..., 2] += tint[1]
    bgr = _bgr(lab)
    corners = numpy.concatenate([bgr[:4, :4].reshape(-1, 3), bgr[-4:, -4:].reshape(-1, 3)])
    return Window(bgr, cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(numpy.float32)), corners


@pytest.mark.parametrize("tint", [(0.0, 0.0), (30.0, 8.0), (-6.0, -14.0)])
def test_tinted_frames_tell_green_from_yellow(tint: tuple[float, float]) -> None:
    green, green_corners = _tile(GREEN, tint)
    yellow, yellow_corners = _tile(YELLOW, tint)
    assert _lead(_Even(), "green", "yellow", [green], green_corners) > 0.3  # type: ignore[arg-type]
    assert _lead(_Even(), "yellow", "green", [green], green_corners) < -0.3  # type: ignore[arg-type]
    assert _lead(_Even(), "yellow", "green", [yellow], yellow_corners) > 0.3  # type: ignore[arg-type]


def test_a_warm_lamp_makes_green_as_red_as_yellow() -> None:
    """Why the whites: under a lamp adding 30 to a, the green frame's a lies nearer the print's yellow
    than its green; without the tint (TINT_WEIGHT 0) the colours stay even."""
    green, corners = _tile(GREEN, (30.0, 8.0))
    seen = float(numpy.median(cv2.cvtColor(corners.reshape(1, -1, 3), cv2.COLOR_BGR2LAB)[0, :, 1]))
    assert abs(seen - YELLOW[1]) < abs(seen - GREEN[1])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_asterion_cell, "TINT_WEIGHT", 0.0)
        assert _lead(_Even(), "green", "yellow", [green], corners) == 0.0  # type: ignore[arg-type]


def test_other_colours_keep_the_templates_lead() -> None:
    green, corners = _tile(GREEN, (30.0, 8.0))
    assert _lead(_Even(), "green", "blue", [green], corners) == 0.0  # type: ignore[arg-type]


def test_the_tint_leans_at_most_tint_most() -> None:
    """A cut edge's corners may show the table beside the frame: the tint never outweighs a frame and
    prisoner leading by more than TINT_MOST."""
    green, corners = _tile(GREEN, (30.0, 8.0))
    assert _lead(_Even(), "green", "yellow", [green], corners) == pytest.approx(_asterion_cell.TINT_MOST)  # type: ignore[arg-type]
