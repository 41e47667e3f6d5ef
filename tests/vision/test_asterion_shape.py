"""A wing told from its plain path by its shape in lightness (`_asterion_shape`)."""

from __future__ import annotations

import numpy
import pytest

from companion.games.asterion.tiles import DESIGNS
from companion.vision.recognisers import _asterion_match, _asterion_shape
from companion.vision.recognisers._asterion_match import Templates
from companion.vision.recognisers._asterion_pairs import _drawn_pixels, differ
from companion.vision.recognisers._asterion_shape import (
    WING_SHAPE_LEVEL,
    WING_SHAPE_WEIGHT,
    shape_lead,
    wing_shape,
)
from companion.vision.recognisers._asterion_window import TEMPLATE_PX
from companion.vision.recognisers.asterion import AsterionRecogniser
from tests.vision.test_asterion_lined import WASHED_OUT_AND_OFF, _cell

NAMES = [design.name for design in DESIGNS]
WING, PLAIN = NAMES.index("wing corridor"), NAMES.index("corridor")
HORNED, JUNCTION = NAMES.index("horned junction"), NAMES.index("junction")
FULL = WING_SHAPE_WEIGHT * (1 - WING_SHAPE_LEVEL)


def _twin(rotation: int) -> int:
    """The plain corridor's turn that is the winged one's without its wing."""
    return next(turn for turn in range(4) if len(differ(WING, rotation, PLAIN, turn)) < 100)


def _moved(
    picture: numpy.typing.NDArray[numpy.float32], dy: int, dx: int
) -> numpy.typing.NDArray[numpy.float32]:
    square = picture.reshape(TEMPLATE_PX, TEMPLATE_PX, 3)
    return numpy.ascontiguousarray(numpy.roll(square, (dy, dx), axis=(0, 1))).ravel()


def test_only_a_wing_and_its_plain_twin_have_a_shape_test() -> None:
    for rotation in range(4):
        shape = wing_shape(WING, rotation, PLAIN, _twin(rotation))
        assert shape is not None and shape.sign == 1.0
        turned = wing_shape(PLAIN, _twin(rotation), WING, rotation)
        assert turned is not None and turned.sign == -1.0
    assert wing_shape(PLAIN, 0, JUNCTION, 0) is None
    assert all(wing_shape(HORNED, 0, JUNCTION, turn) is None for turn in range(4))


def test_a_drawn_wing_leads_and_a_plain_path_under_any_light_does_not() -> None:
    rng = numpy.random.default_rng(3)
    for rotation in range(4):
        plain_turn = _twin(rotation)
        shape = wing_shape(WING, rotation, PLAIN, plain_turn)
        assert shape is not None
        winged = _drawn_pixels(WING, rotation).ravel().astype(numpy.float32)
        plain = _drawn_pixels(PLAIN, plain_turn).ravel().astype(numpy.float32)
        # The drawn wing correlates fully beyond its path: the weight times what is above the level,
        # under any light (a gain and an offset), and a pixel off as well.
        assert abs(shape_lead(winged, shape) - FULL) < 1e-3
        assert abs(shape_lead(winged * 0.5 + 40, shape) - FULL) < 1e-3
        assert abs(shape_lead(_moved(winged, 1, -1), shape) - FULL) < 1e-3
        # Two pixels off, it is not where the wing is looked for.
        assert shape_lead(_moved(winged, 2, 2), shape) < FULL - 0.1
        # A plain path with noise, and shifted blue where the wing would be (a print's blotch), is no wing.
        noisy = plain + rng.normal(0, 3, plain.shape).astype(numpy.float32)
        blotched = noisy.copy()
        blotched[3 * differ(WING, rotation, PLAIN, plain_turn) + 2] -= 10
        assert shape_lead(noisy, shape) < -0.1 * WING_SHAPE_WEIGHT and shape_lead(
            blotched, shape
        ) == shape_lead(noisy, shape)
        # A washed-out wing (a third of its contrast, in noise) still leads.
        washed = plain + (winged - plain) / 3 + rng.normal(0, 1, plain.shape).astype(numpy.float32)
        assert shape_lead(numpy.asarray(washed, numpy.float32), shape) > 0
        # Asked the other way round (the plain look first), the lead is the same, negated.
        turned = wing_shape(PLAIN, plain_turn, WING, rotation)
        assert turned is not None and abs(shape_lead(noisy, turned) + shape_lead(noisy, shape)) < 1e-6


@pytest.fixture(scope="module")
def templates() -> Templates:
    return Templates.from_profile(AsterionRecogniser().default_profile())


@pytest.mark.parametrize(("colour", "rotation", "moved"), WASHED_OUT_AND_OFF)
def test_a_washed_out_wing_a_pixel_off_is_seen_by_its_shape(
    templates: Templates, colour: str, rotation: int, moved: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not lined up again to the pair's window, the wing is still seen: its shape is looked for a pixel
    # around; without either, it is missed (test_asterion_lined.py).
    looks = templates.by_colour[colour][2]
    order = [looks.index((WING, rotation)), looks.index((PLAIN, rotation % 2))]
    seen = _cell(colour, rotation, 0.6, moved)
    monkeypatch.setattr(_asterion_match, "LINED_CLOSE", 0.0)
    champion, _ = templates._tournament(colour, order, seen, None)
    assert looks[champion][0] == WING
    monkeypatch.setattr(_asterion_shape, "WING_SHAPE_CLOSE", 0.0)
    monkeypatch.setattr(_asterion_shape, "WING_LEAN", {})  # blue's lean alone reads this wing
    champion, _ = templates._tournament(colour, order, seen, None)
    assert looks[champion][0] == PLAIN


def _blotched_read_winged(templates: Templates) -> int:
    """How many plain corridors (four colours, two turns, four ways a pixel off) read winged, blotched
    blue and a little darker where a wing would be (the travel print's false wings: b -6..-9 lower and L
    -4..-9 lower than the path there, at the camera's contrast)."""
    winged = 0
    for colour in ["yellow", "blue", "red", "green"]:
        looks = templates.by_colour[colour][2]
        for moved in [(0, 0), (1, 0), (0, -1), (1, 1)]:
            for rotation in (0, 1):
                order = [looks.index((WING, rotation)), looks.index((PLAIN, rotation))]
                seen = _cell(colour, rotation, 0.0, moved)
                where = differ(WING, rotation, PLAIN, rotation)
                seen[3 * where + 2] -= 12
                seen[3 * where] -= 6
                champion, _ = templates._tournament(colour, order, seen, None)
                winged += looks[champion][0] == WING
    return winged


def test_a_plain_corridor_blotched_blue_where_a_wing_would_be_stays_plain(
    templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _blotched_read_winged(templates) == 0
    # Without the wing's shape, some are read winged.
    monkeypatch.setattr(_asterion_shape, "WING_SHAPE_CLOSE", 0.0)
    assert _blotched_read_winged(templates) > 0


def _tinted_wing_read_winged(templates: Templates) -> int:
    """How many wing corridors (four colours, two turns) read winged, drawn in full lightness but with
    their colour where the wing lies tinted past the plain path's (half the wing's difference the other
    way): the pair test leads for the plain path by 0.16..0.24, as a wing read plain on burnt 20261140
    (gingham, 0.25) did while its lightness showed the wing (shape correlation 0.78)."""
    winged = 0
    for colour in ["yellow", "blue", "red", "green"]:
        looks = templates.by_colour[colour][2]
        for rotation in (0, 1):
            order = [looks.index((WING, rotation)), looks.index((PLAIN, rotation))]
            seen, plain = _cell(colour, rotation, 1.0, (0, 0)), _cell(colour, rotation, 0.0, (0, 0))
            where = differ(WING, rotation, PLAIN, rotation)
            for channel in (1, 2):
                there = 3 * where + channel
                seen[there] = plain[there] - 0.5 * (seen[there] - plain[there])
            champion, _ = templates._tournament(colour, order, seen, None)
            winged += looks[champion][0] == WING
    return winged


def test_a_wing_tinted_like_its_path_is_seen_by_its_shape_beyond_a_close_lead(
    templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _tinted_wing_read_winged(templates) == 8
    # Asked only where the pair test is within 0.15, the shape is not asked and all read plain.
    monkeypatch.setattr(_asterion_shape, "WING_SHAPE_CLOSE", 0.15)
    assert _tinted_wing_read_winged(templates) == 0
