"""Asterion: green against yellow judged by the corners' CIELAB a measured from the tile's own whites,
against the print's own splits (`_asterion_profile.tint_splits`), left out where clipped whites mislead."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing
import pytest

from companion.vision.base import Profile
from companion.vision.recognisers import _asterion_tint
from companion.vision.recognisers._asterion_profile import (
    FRAME_LABELS,
    _CellPalettes,
    _Prepared,
    default_colours,
    tint_splits,
)
from companion.vision.recognisers._asterion_tint import tinted_lead
from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX, Window

Lab = tuple[float, float, float]

# The second print's frame colours and a path's white, 8-bit CIELAB.
GREEN = (162.0, 90.0, 162.0)
YELLOW = (195.0, 128.0, 189.0)
WHITE = (200.0, 128.0, 136.0)
WALL = (80.0, 128.0, 128.0)
SHIPPED = tint_splits(default_colours())
SECOND = tint_splits({"yellow": [list(YELLOW)], "green": [list(GREEN)]})


def _palettes(splits: tuple[float, float]) -> _CellPalettes:
    """The shipped print's palettes of a cell off the origin, with these splits."""
    return _CellPalettes(default_colours(), FRAME_LABELS[:-1], 0, splits)


class _Even:
    """Templates whose frame and prisoner favour neither colour: the tint alone decides."""

    def colour_lead(self, colour: str, other: str, windows: list[Window]) -> float:
        return 0.0


def _lead_of(colour: str, other: str, tile: tuple[Window, numpy.typing.NDArray[numpy.uint8]]) -> float:
    return tinted_lead(_Even(), colour, other, [tile[0]], tile[1], _palettes(SECOND))  # type: ignore[arg-type]


def _tile(
    frame: Lab, tint: tuple[float, float], white: Lab = WHITE
) -> tuple[Window, numpy.typing.NDArray[numpy.uint8]]:
    """A cell of walls and paths in a frame, and its corners' pixels, all under a lamp adding `tint`
    to a and b."""
    size = TEMPLATE_PX + 2 * SHIFT_PX
    lab = numpy.empty((size, size, 3), numpy.float32)
    lab[:] = WALL
    lab[size // 4 : size // 2, :] = white
    lab[:, size // 4 : size // 2] = white
    lab[: SHIFT_PX + 3, :] = frame
    lab[-SHIFT_PX - 3 :, :] = frame
    lab[..., 1] += tint[0]
    lab[..., 2] += tint[1]
    bgr = numpy.asarray(
        cv2.cvtColor(numpy.clip(lab, 0, 255).astype(numpy.uint8), cv2.COLOR_LAB2BGR), numpy.uint8
    )
    corners = numpy.concatenate([bgr[:4, :4].reshape(-1, 3), bgr[-4:, -4:].reshape(-1, 3)])
    return Window(bgr, cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(numpy.float32)), corners


@pytest.mark.parametrize("splits", [SHIPPED, SECOND])
@pytest.mark.parametrize("tint", [(0.0, 0.0), (15.0, 10.0), (-6.0, -14.0)])
def test_tinted_frames_tell_green_from_yellow(tint: tuple[float, float], splits: tuple[float, float]) -> None:
    green, green_corners = _tile(GREEN, tint)
    yellow, yellow_corners = _tile(YELLOW, tint)
    even = _Even()
    assert tinted_lead(even, "green", "yellow", [green], green_corners, _palettes(splits)) > 0.3  # type: ignore[arg-type]
    assert tinted_lead(even, "yellow", "green", [green], green_corners, _palettes(splits)) < -0.3  # type: ignore[arg-type]
    assert tinted_lead(even, "yellow", "green", [yellow], yellow_corners, _palettes(splits)) > 0.3  # type: ignore[arg-type]


def test_a_warm_lamp_makes_green_as_red_as_yellow() -> None:
    """Why the whites: under a lamp adding 30 to a, the green frame's a lies nearer the print's yellow
    than its green; without the tint (TINT_WEIGHT 0) the colours stay even."""
    tile = _tile(GREEN, (30.0, 8.0))
    seen = float(numpy.median(cv2.cvtColor(tile[1].reshape(1, -1, 3), cv2.COLOR_BGR2LAB)[0, :, 1]))
    assert abs(seen - YELLOW[1]) < abs(seen - GREEN[1])
    assert _lead_of("green", "yellow", tile) > 0.3
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_asterion_tint, "TINT_WEIGHT", 0.0)
        assert _lead_of("green", "yellow", tile) == 0.0


def test_other_colours_keep_the_templates_lead() -> None:
    tile = _tile(GREEN, (15.0, 10.0))
    assert _lead_of("green", "blue", tile) == 0.0


def test_the_tint_leans_at_most_tint_most() -> None:
    """A cut edge's corners may show the table beside the frame: the tint never outweighs a frame and
    prisoner leading by more than TINT_MOST."""
    tile = _tile(GREEN, (15.0, 10.0))
    assert _lead_of("green", "yellow", tile) == pytest.approx(_asterion_tint.TINT_MOST)


def test_the_splits_are_the_prints_own() -> None:
    """A print whose green lies nearer its yellow (a taught second print, its gap 20) leans green at
    corners 10 under their whites, where the shipped print's (gap 41) leaves the lead alone."""
    narrow = tint_splits({"yellow": [[180.0, 128.0, 170.0]], "green": [[160.0, 108.0, 160.0]]})
    assert narrow[1] < 10.0 < SHIPPED[1]
    window, corners = _tile((170.0, WHITE[1] - 10.0, 160.0), (0.0, 0.0))
    assert tinted_lead(_Even(), "green", "yellow", [window], corners, _palettes(narrow)) > 0.0  # type: ignore[arg-type]
    assert tinted_lead(_Even(), "green", "yellow", [window], corners, _palettes(SHIPPED)) == 0.0  # type: ignore[arg-type]
    profile = Profile(game="asterion", colours=default_colours())
    assert _Prepared.of(profile).palettes[False].tint == SHIPPED


@pytest.mark.parametrize(
    ("frame", "tint", "white", "channel", "colour", "other"),
    [
        # Under a bright warm lamp the whites' red clips: they are redder than they seem, so a frame
        # seeming as red as them may be a green's: no lean to yellow.
        (YELLOW, (15.0, 10.0), (245.0, 128.0, 136.0), 2, "yellow", "green"),
        # Whites under glare with their green clipped are less red than they seem (a shipped yellow
        # on a linen, dev 2): corners under them lean no green.
        ((200.0, 110.0, 180.0), (0.0, 0.0), (252.0, 126.0, 132.0), 1, "green", "yellow"),
    ],
)
def test_clipped_whites_lean_not_the_way_they_mislead(
    frame: Lab, tint: tuple[float, float], white: Lab, channel: int, colour: str, other: str
) -> None:
    """With nothing counted clipped (CLIPPED 256) the same tile leans that way."""
    tile = _tile(frame, tint, white)
    whites = tile[0].bgr[SHIFT_PX : SHIFT_PX + TEMPLATE_PX, SHIFT_PX : SHIFT_PX + TEMPLATE_PX]
    assert int(whites[..., channel].max()) >= _asterion_tint.CLIPPED
    with pytest.MonkeyPatch.context() as patch:
        # These yellowish frames are redder against blue than their whites: that lean is not asked here.
        patch.setattr(_asterion_tint, "RED_OVER_BLUE_LEAN", 0.0)
        assert _lead_of(colour, other, tile) == 0.0
        patch.setattr(_asterion_tint, "CLIPPED", 256)
        assert _lead_of(colour, other, tile) > 0.0


def test_only_the_corners_frame_pixels_tell() -> None:
    """A tile lying off its cell shows walls and paths at its corners beside a quarter of frame: their
    a lies by the whites' and would lean a green frame yellow (dev 83 light wood); its frame pixels
    alone lean it green."""
    window, frame = _tile(GREEN, (0.0, 0.0))
    beside = _tile(WALL, (0.0, 0.0), white=WHITE)[1][:8]
    path = cv2.cvtColor(numpy.array([[WHITE]], numpy.uint8), cv2.COLOR_LAB2BGR).reshape(1, 3)
    corners = numpy.concatenate([frame[:8], beside, numpy.repeat(path, 16, axis=0)])
    mixed = float(numpy.median(cv2.cvtColor(corners.reshape(1, -1, 3), cv2.COLOR_BGR2LAB)[0, :, 1]))
    assert abs(mixed - WHITE[1]) < SECOND[0]
    assert tinted_lead(_Even(), "green", "yellow", [window], corners, _palettes(SECOND)) > 0.3  # type: ignore[arg-type]


class _GreenLeads:
    """Templates whose frame and prisoner show green's by 0.45 (felt's second print yellows, 0.33-0.50)."""

    def colour_lead(self, colour: str, other: str, windows: list[Window]) -> float:
        return 0.45 if colour == "green" else -0.45


@pytest.mark.parametrize("cast", [(0.0, 0.0), (-20.0, 0.0), (15.0, 10.0)])
def test_a_yellow_redder_against_blue_than_its_whites_leans_yellow(cast: tuple[float, float]) -> None:
    """A green cast (burnt 20261145 felt: a yellow frame at a 108) or a warm lamp moves a, not red against
    blue over the whites': a yellow frame leans yellow by RED_OVER_BLUE_LEAN, a green frame not."""
    palettes = _palettes(SECOND)
    leads = _GreenLeads()
    yellow, green = _tile(YELLOW, cast), _tile(GREEN, cast)
    owners = palettes.every_map[palettes.every.classify_bgr(yellow[1])]
    assert set(owners.tolist()) <= {FRAME_LABELS.index("yellow"), FRAME_LABELS.index("green")}

    def leads_of(tile: tuple[Window, numpy.typing.NDArray[numpy.uint8]], colour: str, other: str) -> float:
        return tinted_lead(leads, colour, other, [tile[0]], tile[1], palettes)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_asterion_tint, "RED_OVER_BLUE_LEAN", 0.0)
        unleant = leads_of(yellow, "yellow", "green"), leads_of(green, "green", "yellow")
    assert leads_of(yellow, "yellow", "green") == pytest.approx(
        unleant[0] + _asterion_tint.RED_OVER_BLUE_LEAN
    )
    assert leads_of(green, "green", "yellow") == pytest.approx(unleant[1])
