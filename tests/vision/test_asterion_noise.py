"""Asterion: a close pair test asked again with each channel weighed by the cell's own misfit in it."""

from __future__ import annotations

import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.recognisers import _asterion_match, _asterion_noise
from companion.vision.recognisers._asterion_match import Templates
from companion.vision.recognisers._asterion_window import TEMPLATE_PX
from companion.vision.recognisers.asterion import AsterionRecogniser


@pytest.fixture(scope="module")
def templates() -> Templates:
    return Templates.from_profile(AsterionRecogniser().default_profile())


def _picture(templates: Templates, colour: str, look: int) -> numpy.typing.NDArray[numpy.float32]:
    """A look's softened drawing as a cell's pixels (TEMPLATE_PX square, 3 channels)."""
    return numpy.ascontiguousarray(templates._softened[colour][look].T.reshape(TEMPLATE_PX, TEMPLATE_PX, 3))


def _weighed(
    templates: Templates, colour: str, look: int, other: int, seen: numpy.typing.NDArray[numpy.float32]
) -> float:
    """`_noise_share` as the tournament asks it: given the pair test's own share."""
    _, test, _, sign = templates._pair_test(colour, look, other)
    return templates._noise_share(colour, look, other, seen, sign * float(seen @ test))


def test_equal_misfits_give_the_pair_tests_share(
    templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With every channel's misfit alike (the floor far above any), the weighed share is the pair test's.
    monkeypatch.setattr(_asterion_noise, "MISFIT_FLOOR", 1e9)
    looks = templates.by_colour["red"][2]
    seen = numpy.random.default_rng(3).uniform(0, 255, 3 * TEMPLATE_PX * TEMPLATE_PX).astype(numpy.float32)
    asked = 0
    for champion in range(0, len(looks), 9):
        for challenger in range(len(looks)):
            if challenger == champion:
                continue
            _, test, _, sign = templates._pair_test("red", champion, challenger)
            weighed = _weighed(templates, "red", champion, challenger, seen)
            if templates._noise_tests[("red", champion, challenger)][0] is None:
                continue
            asked += 1
            assert weighed == pytest.approx(sign * float(seen @ test), rel=1e-3, abs=1e-4)
            assert _weighed(templates, "red", challenger, champion, seen) == pytest.approx(-weighed, abs=1e-6)
    assert asked > 100


def test_looks_differing_by_no_chest_keep_the_pair_tests_share(templates: Templates) -> None:
    # A wing against its plain path (asked lined up: a pixel off decides there) and a path's end alone
    # (a bend against a corridor): the pair test's own share.
    looks = templates.by_colour["yellow"][2]
    corridor = looks.index((DESIGN_INDEX["corridor"], 0))
    for design in ("wing corridor", "bend"):
        other = looks.index((DESIGN_INDEX[design], 0))
        seen = _picture(templates, "yellow", corridor).ravel()
        assert templates._noise_share("yellow", corridor, other, seen, 0.123) == 0.123
        assert templates._noise_tests[("yellow", corridor, other)][0] is None


@pytest.mark.parametrize("colour", ["yellow", "blue"])
def test_a_channel_misfitting_the_cell_is_weighed_less(templates: Templates, colour: str) -> None:
    # A hidden chest whose lightness is a corridor's, blotched (a print drawing its chest's outline as
    # stone, and noise), its colour the chest's: the colour decides. Weighed alike, lightness did.
    looks = templates.by_colour[colour][2]
    chest = looks.index((DESIGN_INDEX["hidden chest"], 0))
    corridor = looks.index((DESIGN_INDEX["corridor"], 0))
    seen = _picture(templates, colour, chest)
    seen[:, :, 0] = _picture(templates, colour, corridor)[:, :, 0]
    seen[:, :, 0] += (
        numpy.random.default_rng(7).normal(0, 25, (TEMPLATE_PX, TEMPLATE_PX)).astype(numpy.float32)
    )
    flat = seen.ravel()
    _, test, _, sign = templates._pair_test(colour, chest, corridor)
    assert sign * float(flat @ test) > 0  # the corridor's share, weighed alike
    weighed = _weighed(templates, colour, chest, corridor, flat)
    assert weighed < 0  # the chest's


def test_the_true_look_keeps_its_lead_in_plain_noise(templates: Templates) -> None:
    # Noise alike in every channel moves the share no further than the fixed weights' own.
    looks = templates.by_colour["green"][2]
    chest = looks.index((DESIGN_INDEX["treasury"], 0))
    cell = looks.index((DESIGN_INDEX["cell"], 0))
    rng = numpy.random.default_rng(11)
    for look, side in ((chest, -1.0), (cell, 1.0)):
        seen = _picture(templates, "green", look) + rng.normal(0, 6, (TEMPLATE_PX, TEMPLATE_PX, 3)).astype(
            numpy.float32
        )
        weighed = _weighed(templates, "green", chest, cell, seen.ravel())
        assert side * weighed > 0.3


@pytest.mark.parametrize(("colour", "corridor_part"), [("yellow", 1.0), ("blue", 0.8), ("red", 1.0)])
def test_the_tournament_asks_a_close_call_again_weighed(
    templates: Templates, colour: str, corridor_part: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Such a hidden chest (its lightness a corridor's, or mostly), met by its corridor in the tournament: read
    # as the chest; not asked again, as the corridor.
    looks = templates.by_colour[colour][2]
    chest = looks.index((DESIGN_INDEX["hidden chest"], 0))
    corridor = looks.index((DESIGN_INDEX["corridor"], 0))
    seen = _picture(templates, colour, chest)
    seen[:, :, 0] = (
        corridor_part * _picture(templates, colour, corridor)[:, :, 0] + (1 - corridor_part) * seen[:, :, 0]
    )
    seen[:, :, 0] += (
        numpy.random.default_rng(7).normal(0, 25, (TEMPLATE_PX, TEMPLATE_PX)).astype(numpy.float32)
    )
    flat = seen.ravel()
    _, test, share, sign = templates._pair_test(colour, corridor, chest)
    assert abs(share - sign * float(flat @ test)) < _asterion_noise.NOISE_CLOSE  # a close call
    assert templates._tournament(colour, [corridor, chest], flat, None)[0] == chest
    monkeypatch.setattr(_asterion_match, "NOISE_CLOSE", 0.0)
    assert templates._tournament(colour, [corridor, chest], flat, None)[0] == corridor


def test_chests_tests_are_built_with_the_templates() -> None:
    # Looks alike but for a chest (hidden chest and corridor, treasury and cell) are the most common
    # close calls weighed: built before any cell asks; a wing (asked lined up) and far looks are not.
    templates = Templates.from_profile(AsterionRecogniser().default_profile())
    looks = templates.by_colour["green"][2]
    chest, corridor = (
        looks.index((DESIGN_INDEX["hidden chest"], 0)),
        looks.index((DESIGN_INDEX["corridor"], 0)),
    )
    treasury, cell = looks.index((DESIGN_INDEX["treasury"], 1)), looks.index((DESIGN_INDEX["cell"], 1))
    wing = looks.index((DESIGN_INDEX["wing corridor"], 0))
    crossroads = looks.index((DESIGN_INDEX["crossroads"], 0))
    for one, other in ((chest, corridor), (treasury, cell)):
        assert templates._noise_tests[("green", one, other)][0] is not None
        assert templates._noise_tests[("green", other, one)][0] is not None
    assert ("green", corridor, wing) not in templates._noise_tests
    assert ("green", treasury, crossroads) not in templates._noise_tests
