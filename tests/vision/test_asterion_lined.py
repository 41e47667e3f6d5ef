"""Asterion: a close pair test asked again with the cell lined up to the pair's own window."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.recognisers import _asterion_match, _asterion_shape
from companion.vision.recognisers._asterion_filters import lined_share, padded_cell
from companion.vision.recognisers._asterion_match import Templates, built_in_drawings
from companion.vision.recognisers._asterion_pairs import things_on_path
from companion.vision.recognisers._asterion_window import TEMPLATE_PX, turned
from companion.vision.recognisers.asterion import AsterionRecogniser

CORRIDOR, WING = DESIGN_INDEX["corridor"], DESIGN_INDEX["wing corridor"]


@pytest.fixture(scope="module")
def templates() -> Templates:
    return Templates.from_profile(AsterionRecogniser().default_profile())


def _cell(colour: str, rotation: int, shown: float, moved: tuple[int, int]) -> numpy.ndarray:
    """A corridor with `shown` of a wing's difference drawn on it (glare and blur wash a wing out),
    blurred as a far camera blurs, lying `moved` template pixels off where it was lined up."""
    drawings = built_in_drawings()
    plain = turned(drawings[f"{colour}:{CORRIDOR}"].astype(numpy.float32), rotation)
    winged = turned(drawings[f"{colour}:{WING}"].astype(numpy.float32), rotation)
    picture = cv2.GaussianBlur(plain + shown * (winged - plain), (0, 0), 1.0)
    shift = numpy.array([[1, 0, moved[0]], [0, 1, moved[1]]], numpy.float32)
    lying = cv2.warpAffine(picture, shift, (TEMPLATE_PX, TEMPLATE_PX), borderMode=cv2.BORDER_REPLICATE)
    return numpy.ascontiguousarray(lying, numpy.float32).ravel()


# A pixel off along the path, towards the wing's end: a wing washed out to 0.6 of its difference read as
# a plain corridor, the path's walls and the prisoner's rim moved into the wing's window.
WASHED_OUT_AND_OFF = [
    ("yellow", 0, (0, -1)),
    ("yellow", 1, (1, 0)),
    ("blue", 0, (0, -1)),
    ("blue", 1, (1, 0)),
]


@pytest.mark.parametrize(("colour", "rotation", "moved"), WASHED_OUT_AND_OFF)
def test_a_washed_out_wing_a_pixel_off_is_seen_lined_up_to_its_window(
    templates: Templates, colour: str, rotation: int, moved: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    looks = templates.by_colour[colour][2]
    order = [looks.index((WING, rotation)), looks.index((CORRIDOR, rotation % 2))]
    seen = _cell(colour, rotation, 0.6, moved)
    champion, _ = templates._tournament(colour, order, seen, None)
    assert looks[champion][0] == WING
    # Told apart as the cell was lined up by its whole tile (and not by the wing's shape), the wing is missed.
    monkeypatch.setattr(_asterion_match, "LINED_CLOSE", 0.0)
    monkeypatch.setattr(_asterion_shape, "WING_SHAPE_CLOSE", 0.0)
    monkeypatch.setattr(_asterion_shape, "WING_LEAN", {})  # blue's lean alone reads this wing
    champion, _ = templates._tournament(colour, order, seen, None)
    assert looks[champion][0] == CORRIDOR


@pytest.mark.parametrize("colour", ["yellow", "blue", "red", "green"])
@pytest.mark.parametrize("moved", [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1)])
def test_a_plain_corridor_lined_up_again_stays_plain(
    templates: Templates, colour: str, moved: tuple[int, int]
) -> None:
    looks = templates.by_colour[colour][2]
    for rotation in (0, 1):
        order = [looks.index((WING, rotation)), looks.index((CORRIDOR, rotation))]
        champion, _ = templates._tournament(colour, order, _cell(colour, rotation, 0.0, moved), None)
        assert looks[champion][0] == CORRIDOR


def test_lined_up_where_it_lies_the_share_is_the_pair_tests_own(templates: Templates) -> None:
    # A cell whose best place is where it lies (the drawing itself, some of a wing shown): the same share
    # as the one-shot test's, which the model then explains entirely.
    looks = templates.by_colour["red"][2]
    corridor, wing = looks.index((CORRIDOR, 0)), looks.index((WING, 0))
    softened = templates._softened["red"]
    picture = (softened[corridor] + 0.3 * (softened[wing] - softened[corridor])).T.reshape(
        TEMPLATE_PX, TEMPLATE_PX, 3
    )
    seen = numpy.ascontiguousarray(picture, numpy.float32).ravel()
    _, test, _, sign = templates._pair_test("red", corridor, wing)
    lined = templates._lined_test("red", corridor, wing)
    assert lined is not None
    assert lined_share(padded_cell(seen), lined) == pytest.approx(sign * float(seen @ test), abs=1e-3)
    assert sign * float(seen @ test) == pytest.approx(0.3 - 0.5, abs=1e-3)


def test_pairs_told_apart_by_things_on_a_path_are_lined_up_with_the_templates(templates: Templates) -> None:
    horned, junction = DESIGN_INDEX["horned junction"], DESIGN_INDEX["junction"]
    assert things_on_path(CORRIDOR, 0, WING, 0)
    assert things_on_path(junction, 1, horned, 1)
    # A chest, a path's end: larger than a pixel's misalignment, told apart as lined up by the whole tile.
    assert not things_on_path(CORRIDOR, 0, DESIGN_INDEX["hidden chest"], 0)
    assert not things_on_path(CORRIDOR, 0, DESIGN_INDEX["treasure corridor"], 0)
    assert not things_on_path(CORRIDOR, 0, WING, 1)
    built = dict(templates._lined_tests)
    assert sum(lined is not None for lined in built.values()) >= 4 * 2 * 8
    # Asking every pair a tournament may ask builds no model of lining up again.
    for colour, (_, _, looks) in templates.by_colour.items():
        for champion in range(len(looks)):
            for challenger in range(len(looks)):
                if champion != challenger and (colour, champion, challenger) in built:
                    assert (
                        templates._lined_test(colour, champion, challenger)
                        is built[(colour, champion, challenger)]
                    )


def test_a_taught_looks_lined_test_is_its_drawn_looks() -> None:
    # A taught picture of a look is compared where the drawings differ, as its drawn look is: the same
    # model serves, built with the templates, none inside a frame.
    default = Templates.from_profile(AsterionRecogniser().default_profile())
    pictures, looks = list(default.by_colour["yellow"][1]), list(default.by_colour["yellow"][2])
    corridor, wing = looks.index((CORRIDOR, 0)), looks.index((WING, 0))
    sources = [""] * len(looks) + ["taught", "taught"]
    pictures += [pictures[corridor] + 3.0, pictures[wing] - 3.0]
    looks += [looks[corridor], looks[wing]]
    templates = Templates({"yellow": (pictures, looks)}, {"yellow": sources})
    built = {id(lined) for lined in templates._lined_tests.values() if lined is not None}
    taught_corridor, taught_wing = len(looks) - 2, len(looks) - 1
    assert templates._lined_test("yellow", taught_corridor, taught_wing) is templates._lined_test(
        "yellow", corridor, wing
    )
    assert templates._lined_test("yellow", taught_wing, corridor) is templates._lined_test(
        "yellow", wing, corridor
    )
    assert {id(lined) for lined in templates._lined_tests.values() if lined is not None} == built
