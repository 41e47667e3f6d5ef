"""Deep shadows over the play area (a player standing between the lamp and the table): light, not a
changed table, though the light grid follows them only within some per cent, and where the cloth's
weave, lost in the camera's noise, shows no texture to carry the light over a shadow's sharp edge."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing
import pytest

from companion.vision import reference as reference_module
from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.reference import TableReference
from companion.vision.table_light import _filled
from tests.vision.test_reference import PIECES, PLANE_MM, layout, learned, mask_box, table, with_pieces

LINEN_BGR = (150.0, 160.0, 160.0)


def linen(rng: numpy.random.Generator) -> numpy.typing.NDArray[numpy.float32]:
    """A pale linen: a fine weave of a few levels, and a soft mottle over centimetres."""
    width, height = round(PLANE_MM[0] * PLANE_PX_PER_MM), round(PLANE_MM[1] * PLANE_PX_PER_MM)
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    weave = 0.5 * (numpy.sin(x * 1.9) + numpy.sin(y * 2.1))
    mottle = cv2.GaussianBlur(rng.normal(0.0, 1.0, (height, width)).astype(numpy.float32), (0, 0), 20.0)
    mottle = mottle / numpy.float32(mottle.std())
    level = (1.0 + 0.03 * weave + 0.04 * mottle)[..., None]
    return numpy.asarray(numpy.array(LINEN_BGR, numpy.float32) * level, numpy.float32)


def with_markers(light: numpy.typing.NDArray[numpy.float32], rng: numpy.random.Generator) -> Frame:
    """The cloth with the corner markers on their paper (the test tables' own), and the camera's noise."""
    markers = table("light-wood", rng)
    paper = numpy.all(markers >= 230, axis=2) | numpy.all(markers <= 30, axis=2)
    out = light.copy()
    out[paper] = markers[paper]
    return numpy.asarray(numpy.clip(out + rng.normal(0.0, 3.0, out.shape), 0, 255), numpy.uint8)


def test_a_quarter_lit_table_is_no_changed_table_and_its_pieces_still_differ(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The light grid follows a deep shadow within some per cent: the table a few levels bright differs
    # by more than its range, shrunk with the light, though within the tolerance.
    rng = numpy.random.default_rng(41)
    cloth = linen(rng)
    reference = learned(with_markers(cloth, rng))
    plane = with_pieces(with_markers(cloth, rng), PIECES)
    plane = numpy.asarray(numpy.clip(plane.astype(numpy.float32) * 0.25, 0, 255), numpy.uint8)
    view = reference.look(plane)
    assert not view.refused, view.reason
    assert numpy.mean(view.table[mask_box(20.0, 235.0, 380.0, 255.0)]) > 0.9
    for cx, cy in PIECES:
        assert view.foreground[mask_box(cx - 8, cy - 8, cx + 8, cy + 8)].all(), (cx, cy)
    # Faint differences counted under that light too, the table was faint all over: a changed table.
    monkeypatch.setattr(reference_module, "FAINT_LIGHT", 0.0)
    assert "learned at setup" in reference.look(plane).reason


def _shade_of(hue: tuple[float, float, float]) -> numpy.typing.NDArray[numpy.bool_] | None:
    """Log ratios of a plane whose left 60 % lies under a light `hue` (log, per channel) while the
    light measured is the lit side's (zero), the lit side matching: `_one_shade`'s mask, over a plane
    free of items."""
    log_ratio = numpy.zeros((100, 100, 3), numpy.float32)
    log_ratio[:, :60] = numpy.array(hue, numpy.float32)
    log_light = numpy.zeros_like(log_ratio)
    matches = numpy.zeros((100, 100), bool)
    matches[:, 60:] = True
    free = numpy.ones((100, 100), bool)
    return TableReference(layout())._one_shade(log_ratio, log_light, matches, free)


def test_one_deep_shadow_over_most_of_the_free_area_is_found_and_a_coloured_change_is_not() -> None:
    shade = _shade_of((-1.4, -1.35, -1.4))
    assert shade is not None and shade[:, :60].all() and not shade[:, 60:].any()
    # Of another hue than the lit table's light (a sleeve, a new cloth): no shadow.
    assert _shade_of((-1.4, -0.9, -0.6)) is None
    # Brighter: a lamp, which the grid follows.
    assert _shade_of((0.6, 0.6, 0.6)) is None


def test_cells_without_light_take_their_nearest_lit_neighbours_ring_by_ring() -> None:
    cells = numpy.zeros((5, 5, 3), numpy.float32)
    known = numpy.zeros((5, 5, 3), bool)
    cells[:, 0], known[:, 0] = -1.4, True  # the shadow's column
    cells[:, 4], known[:, 4] = 0.0, True  # the lit column
    out = _filled(cells, known)
    assert numpy.allclose(out[:, 1], -1.4) and numpy.allclose(out[:, 3], 0.0)
    assert numpy.allclose(out[:, 2], -0.7)
