"""Pieces of the cloth's own colour under a shadow cast after the empty table was learned: the shadow
darkens the table evenly, the marks on the pieces (a back's emblem) stand out of it as they did in the
light, at its scale, where the noise floor's tolerance takes every level for table."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing
import pytest

from companion.vision import reference as reference_module
from companion.vision.base import PLANE_PX_PER_MM, Frame
from tests.vision.test_reference import PIECE_MM, PIECES, PLANE_MM, learned, mask_box
from tests.vision.test_reference_shade import with_markers

NAVY_BGR = (60.0, 32.0, 21.0)
"""A navy felt, and the backs lying on it (the same dye)."""
EMBLEM_BGR = (110.0, 95.0, 85.0)
"""Its pale plus: under a third of the light 15-19 levels over the back, as a back's emblem in a dim room."""


def navy(rng: numpy.random.Generator) -> numpy.typing.NDArray[numpy.float32]:
    """The felt's light: a soft mottle over centimetres, by a few per cent."""
    width, height = round(PLANE_MM[0] * PLANE_PX_PER_MM), round(PLANE_MM[1] * PLANE_PX_PER_MM)
    mottle = cv2.GaussianBlur(rng.normal(0.0, 1.0, (height, width)).astype(numpy.float32), (0, 0), 16.0)
    mottle = mottle / numpy.float32(mottle.std())
    return numpy.asarray(
        numpy.array(NAVY_BGR, numpy.float32) * (1.0 + 0.04 * mottle)[..., None], numpy.float32
    )


def with_backs(
    cloth: numpy.typing.NDArray[numpy.float32], emblem: tuple[float, float, float] = EMBLEM_BGR
) -> numpy.typing.NDArray[numpy.float32]:
    """Backs of the felt's colour on it, each with a pale plus (strokes 3 mm wide, 16 mm long)."""
    out = cloth.copy()
    half = PIECE_MM * PLANE_PX_PER_MM / 2
    arm, stroke = round(8 * PLANE_PX_PER_MM), round(1.5 * PLANE_PX_PER_MM)
    for cx, cy in PIECES:
        x, y = round(cx * PLANE_PX_PER_MM), round(cy * PLANE_PX_PER_MM)
        cv2.rectangle(
            out, (round(x - half), round(y - half)), (round(x + half), round(y + half)), NAVY_BGR, -1
        )
        cv2.rectangle(out, (x - arm, y - stroke), (x + arm, y + stroke), emblem, -1)
        cv2.rectangle(out, (x - stroke, y - arm), (x + stroke, y + arm), emblem, -1)
    return out


def shaded(plane: Frame, light: float, rng: numpy.random.Generator) -> Frame:
    """The plane under a light `light` of the learned one, with the camera's noise."""
    dim = plane.astype(numpy.float32) * light + rng.normal(0.0, 2.0, plane.shape)
    return numpy.asarray(numpy.clip(dim, 0, 255), numpy.uint8)


def emblems_found(view_foreground: numpy.typing.NDArray[numpy.bool_]) -> list[float]:
    """Share of each back's plus (its middle 8 mm) the view holds for foreground."""
    return [float(numpy.mean(view_foreground[mask_box(cx - 4, cy - 4, cx + 4, cy + 4)])) for cx, cy in PIECES]


def test_a_backs_emblem_under_a_shadow_cast_since_is_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = numpy.random.default_rng(43)
    cloth = navy(rng)
    reference = learned(with_markers(cloth, rng))
    plane = shaded(with_markers(with_backs(cloth), rng), 0.3, rng)
    view = reference.look(plane)
    assert not view.refused, view.reason
    assert min(emblems_found(view.foreground)) > 0.5, emblems_found(view.foreground)
    # The felt beside them, darkened alike, stays table.
    assert numpy.mean(view.foreground[mask_box(20.0, 235.0, 380.0, 255.0)]) < 0.02
    # Without the marks, the emblems are within the noise floor's tolerance of the shadowed felt.
    monkeypatch.setattr(reference_module, "MARK_LEVEL", 1e9)
    assert max(emblems_found(reference.look(plane).foreground)) < 0.5


def test_the_empty_felt_under_a_deep_shadow_shows_no_marks() -> None:
    rng = numpy.random.default_rng(44)
    cloth = navy(rng)
    reference = learned(with_markers(cloth, rng))
    view = reference.look(shaded(with_markers(cloth, rng), 0.3, rng))
    assert not view.refused, view.reason
    assert numpy.mean(view.foreground[mask_box(20.0, 20.0, 380.0, 240.0)]) < 0.01


def plus_found(foreground: numpy.typing.NDArray[numpy.bool_]) -> float:
    """Share of the backs' plus arms (16 x 4 mm each way) the view holds for foreground, over every back."""
    shares = [
        float(numpy.mean(foreground[mask_box(cx - 8, cy - 2, cx + 8, cy + 2)]))
        + float(numpy.mean(foreground[mask_box(cx - 2, cy - 8, cx + 2, cy + 8)]))
        for cx, cy in PIECES
    ]
    return sum(shares) / (2 * len(shares))


def test_a_fainter_plus_is_found_to_its_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its strokes' edges, half in a mask pixel, stand out by less than its core: beside the core, enough.
    rng = numpy.random.default_rng(43)
    cloth = navy(rng)
    reference = learned(with_markers(cloth, rng))
    plane = shaded(with_markers(with_backs(cloth, (85.0, 65.0, 55.0)), rng), 0.3, rng)
    view = reference.look(plane)
    assert plus_found(view.foreground) > 0.75, plus_found(view.foreground)
    assert numpy.mean(view.foreground[mask_box(20.0, 235.0, 380.0, 255.0)]) < 0.02
    monkeypatch.setattr(reference_module, "MARK_EDGE", 1e9)
    assert plus_found(reference.look(plane).foreground) < 0.7
