"""Asterion: the pieces two looks are told apart by (where they differ, the light fitted there)."""

from __future__ import annotations

import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.recognisers._asterion_filters import _inverse_cholesky, _sloping
from companion.vision.recognisers._asterion_pairs import FAINT_SHARE, _pair_window, _winning_share
from companion.vision.recognisers._asterion_window import TEMPLATE_PX


def _columns(
    window: numpy.typing.NDArray[numpy.intp], apart: numpy.typing.NDArray[numpy.bool_]
) -> numpy.ndarray:
    across = (window % TEMPLATE_PX) / TEMPLATE_PX - 0.5
    down = (window // TEMPLATE_PX) / TEMPLATE_PX - 0.5
    return numpy.stack([numpy.ones(len(window)), across, down, apart.astype(float)], axis=1)


def test_an_offset_sloping_across_a_window_is_given_as_orthonormal_columns_spanning_it() -> None:
    # A patch of pixels (a wing's window) with some of them a chest's: the columns are orthonormal and
    # project the offset, both slopes and the chest's own offset onto themselves.
    rows, cols = numpy.mgrid[10:20, 5:17]
    window = (rows * TEMPLATE_PX + cols).ravel()
    apart = (cols.ravel() > 12) & (rows.ravel() < 14)
    for chest in (None, apart):
        columns = _sloping(window, chest)
        assert columns.shape == (len(window), 3 if chest is None else 4)
        assert numpy.allclose(columns.T @ columns, numpy.eye(columns.shape[1]), atol=1e-5)
        spanned = _columns(window, apart)[:, : columns.shape[1]]
        assert numpy.allclose(columns @ (columns.T @ spanned), spanned, atol=1e-5)


def test_the_small_cholesky_factor_is_inverted_as_numpy_factors_it() -> None:
    columns = numpy.random.default_rng(3).normal(size=(60, 4))
    gram = columns.T @ columns
    assert numpy.allclose(_inverse_cholesky(gram) @ numpy.linalg.cholesky(gram), numpy.eye(4), atol=1e-9)
    # Not positive definite: refused as numpy refuses it (a partial test is then not made).
    with pytest.raises(numpy.linalg.LinAlgError):
        _inverse_cholesky(numpy.array([[1.0, 2.0], [2.0, 1.0]]))


def test_two_looks_are_compared_alike_whichever_way_round_they_are_asked_for() -> None:
    corridor, wing = DESIGN_INDEX["corridor"], DESIGN_INDEX["wing corridor"]
    _pair_window.cache_clear()
    _winning_share.cache_clear()
    # Asked first with the winged look first, then the plain one first.
    window, sloping = _pair_window(wing, 0, corridor, 0)
    other_window, other_sloping = _pair_window(corridor, 0, wing, 0)
    assert numpy.array_equal(window, other_window)
    assert numpy.array_equal(sloping, other_sloping)
    assert len(window) > 20
    # A wing on a plain path wins from FAINT_SHARE of it shown, either way round.
    assert _winning_share(wing, 0, corridor, 0) == 1.0 - FAINT_SHARE
    assert _winning_share(corridor, 0, wing, 0) == FAINT_SHARE


def test_every_pair_of_looks_is_built_with_the_templates_not_when_a_frame_asks() -> None:
    from companion.vision.recognisers import _asterion_pairs as pairs
    from companion.vision.recognisers._asterion_match import Templates
    from companion.vision.recognisers.asterion import AsterionRecogniser

    pairs.clear_pairs()
    # Made afresh (the recogniser keeps the templates of recent profiles across recognisers).
    templates = Templates.from_profile(AsterionRecogniser().default_profile())
    built = (pairs._pair_pixels.cache_info().misses, pairs._path_against_wall.cache_info().misses)
    assert built[0] == 56 * 55 // 2
    # Every pair a tournament may ask for, either way round, in every colour: nothing more is worked out.
    for colour, (_, _, looks) in templates.by_colour.items():
        for champion in range(0, len(looks), 5):
            for challenger in range(len(looks)):
                if champion != challenger:
                    templates._pair_test(colour, champion, challenger)
    assert (pairs._pair_pixels.cache_info().misses, pairs._path_against_wall.cache_info().misses) == built


def test_forgetting_the_drawings_forgets_every_pair_built_from_them() -> None:
    import functools

    from companion.vision.recognisers import _asterion_pairs as pairs

    corridor, wing = DESIGN_INDEX["corridor"], DESIGN_INDEX["wing corridor"]
    pairs.build_pairs([(corridor, 0), (wing, 0), (wing, 1)])
    cached = [f for f in vars(pairs).values() if isinstance(f, functools._lru_cache_wrapper)]
    assert any(f.cache_info().currsize for f in cached)
    pairs.clear_pairs()
    # Every cache of the module (one added later too) is emptied: training writes new drawings.
    assert [f.__name__ for f in cached if f.cache_info().currsize] == []
