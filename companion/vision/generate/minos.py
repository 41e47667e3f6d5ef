"""Minos scenes: six symbol dice thrown into a felt tray, each turned any way.

The symbols are simple distinct glyphs (arrow, jester's face, star, house,
gull, balance); the real dice look different, which teach mode learns. The
dice lie apart (a die's diagonal and more) and, so that "left to right" is
well defined, no two within `MIN_DX_MM` of each other across the tray.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

import cv2
import numpy
import numpy.typing

from companion.seeddata import load_seed
from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout
from companion.vision.components import dimension_mm, minos_tray_mm
from companion.vision.generate import Rng, SceneRenderer, register_renderer
from companion.vision.generate.minotaurus import paste

GAME = "minos"
SYMBOLS: tuple[str, ...] = tuple(load_seed(GAME)["dice"]["faces"])
DIE_MM = dimension_mm(GAME, "die")
SUPERSAMPLE = 4
MIN_DX_MM = 9.0
MIN_GAP_MM = 30.0
FELT_BGR = ((40, 70, 30), (70, 40, 30), (35, 35, 90), (45, 45, 45))
"""Green, blue, red and grey felt."""
IVORY_BGR = (215, 232, 240)
INK_BGR = (40, 30, 120)


@dataclasses.dataclass(frozen=True)
class Edition:
    """One print run: the dice's colour, the symbols' ink and stroke, the tray's felt and rim."""

    die_bgr: tuple[int, int, int]
    ink_bgr: tuple[int, int, int]
    stroke: float
    """Line symbols' thickness against the built-in one's."""
    felt_bgr: tuple[int, int, int]
    rim_bgr: tuple[int, int, int]


EDITIONS: dict[str, Edition] = {
    "default": Edition(IVORY_BGR, INK_BGR, 1.0, (40, 70, 30), (40, 70, 110)),
    "second-print": Edition((245, 245, 245), (30, 30, 30), 1.5, (90, 45, 25), (30, 30, 30)),
    "travel": Edition((120, 170, 210), (30, 30, 140), 0.75, (35, 35, 95), (150, 190, 215)),
}
"""Built-in ivory dice with red ink (drawn exactly as before), white dice with black ink, wooden dice."""
RIM_MM = 6.0

Points = numpy.typing.NDArray[numpy.float64]


def _draw_symbol(face: Frame, symbol: str, scale: float, edition: str = "default") -> None:
    """Draw the symbol (about 12 mm across) centred on the face; `scale` is pixels per mm."""
    look = EDITIONS[edition]
    ink, paper = look.ink_bgr, look.die_bgr
    centre = numpy.array([face.shape[1] / 2, face.shape[0] / 2])

    def pts(points: list[tuple[float, float]]) -> numpy.typing.NDArray[numpy.int32]:
        return numpy.round(centre + numpy.array(points) * scale).astype(numpy.int32)

    def px(point: tuple[float, float]) -> tuple[int, int]:
        x, y = centre + numpy.array(point) * scale
        return (round(float(x)), round(float(y)))

    thick = max(1, round(1.3 * look.stroke * scale))
    if symbol == "Pfeil":
        cv2.fillPoly(face, [pts([(-1.1, -1.0), (1.1, -1.0), (1.1, 6.0), (-1.1, 6.0)])], ink, cv2.LINE_AA)
        cv2.fillPoly(face, [pts([(-4.8, -0.5), (4.8, -0.5), (0.0, -6.5)])], ink, cv2.LINE_AA)
    elif symbol == "Joker":
        cv2.circle(face, px((0, 0)), round(5.5 * scale), ink, thick, cv2.LINE_AA)
        for eye in ((-2.0, -1.5), (2.0, -1.5)):
            cv2.circle(face, px(eye), round(0.9 * scale), ink, -1, cv2.LINE_AA)
        cv2.ellipse(face, px((0, 0.8)), (round(3.0 * scale), round(2.2 * scale)), 0, 20, 160, ink, thick)
    elif symbol == "Stern":
        angles = numpy.radians(numpy.arange(10) * 36 - 90)
        radii = numpy.where(numpy.arange(10) % 2 == 0, 6.3, 2.6)
        star = [
            (float(r * numpy.cos(a)), float(r * numpy.sin(a))) for r, a in zip(radii, angles, strict=True)
        ]
        cv2.fillPoly(face, [pts(star)], ink, cv2.LINE_AA)
    elif symbol == "Gebaeude":
        cv2.fillPoly(face, [pts([(-4.5, -0.8), (4.5, -0.8), (4.5, 5.8), (-4.5, 5.8)])], ink, cv2.LINE_AA)
        cv2.fillPoly(face, [pts([(-6.2, -0.3), (6.2, -0.3), (0.0, -6.3)])], ink, cv2.LINE_AA)
        cv2.fillPoly(face, [pts([(-1.3, 2.2), (1.3, 2.2), (1.3, 5.8), (-1.3, 5.8)])], paper, cv2.LINE_AA)
    elif symbol == "Moewe":
        t = numpy.linspace(0, 1, 20)
        left = [(-6.0 + 6.0 * float(x), -3.0 * float(numpy.sin(numpy.pi * x)) + 1.5) for x in t]
        right = [(float(x) * 6.0, -3.0 * float(numpy.sin(numpy.pi * x)) + 1.5) for x in t]
        cv2.polylines(
            face, [pts(left), pts(right)], False, ink, round(1.6 * look.stroke * scale), cv2.LINE_AA
        )
    elif symbol == "Waage":
        cv2.fillPoly(face, [pts([(-0.7, -5.0), (0.7, -5.0), (0.7, 5.0), (-0.7, 5.0)])], ink, cv2.LINE_AA)
        cv2.fillPoly(face, [pts([(-3.5, 4.6), (3.5, 4.6), (3.5, 6.2), (-3.5, 6.2)])], ink, cv2.LINE_AA)
        cv2.fillPoly(face, [pts([(-6.2, -4.6), (6.2, -4.6), (6.2, -3.6), (-6.2, -3.6)])], ink, cv2.LINE_AA)
        for side in (-4.6, 4.6):
            cv2.line(
                face, px((side, -4.0)), px((side - 1.6, 0.5)), ink, max(1, round(0.5 * look.stroke * scale))
            )
            cv2.line(
                face, px((side, -4.0)), px((side + 1.6, 0.5)), ink, max(1, round(0.5 * look.stroke * scale))
            )
            cv2.ellipse(face, px((side, 0.5)), (round(2.0 * scale), round(1.6 * scale)), 0, 0, 180, ink, -1)
    else:
        raise ValueError(f"no glyph for the Minos symbol {symbol!r}")


@functools.cache
def die_face(symbol: str, px_per_mm: float, edition: str = "default") -> Frame:
    """The top of a die showing the symbol upright, seen from above, anti-aliased."""
    side = round(DIE_MM * px_per_mm) * SUPERSAMPLE
    scale = px_per_mm * SUPERSAMPLE
    paper = EDITIONS[edition].die_bgr
    face = numpy.zeros((side, side, 3), numpy.uint8)
    corner = round(2.5 * scale)
    cv2.rectangle(face, (corner, 0), (side - 1 - corner, side - 1), paper, -1)
    cv2.rectangle(face, (0, corner), (side - 1, side - 1 - corner), paper, -1)
    for x, y in (
        (corner, corner),
        (side - 1 - corner, corner),
        (corner, side - 1 - corner),
        (side - 1 - corner, side - 1 - corner),
    ):
        cv2.circle(face, (x, y), corner, paper, -1, cv2.LINE_AA)
    _draw_symbol(face, symbol, scale, edition)
    small = cv2.resize(face, (side // SUPERSAMPLE, side // SUPERSAMPLE), interpolation=cv2.INTER_AREA)
    return numpy.asarray(small, numpy.uint8)


def _felt(width: int, height: int, rng: Rng) -> Frame:
    colour = numpy.array(FELT_BGR[int(rng.integers(len(FELT_BGR)))], numpy.float64) * rng.uniform(0.8, 1.2)
    fibres = rng.normal(0, 5.0, (height, width, 1))
    return numpy.asarray(numpy.clip(colour + fibres, 0, 255), numpy.uint8)


def _places(rng: Rng, count: int, tray: tuple[float, float, float, float]) -> Points:
    """Centres (mm) of `count` dice in the tray, apart from each other, none side by side in x."""
    x0, y0, x1, y1 = tray
    margin = DIE_MM * 0.75
    while True:
        chosen: list[tuple[float, float]] = []
        for _attempt in range(400):
            x, y = rng.uniform(x0 + margin, x1 - margin), rng.uniform(y0 + margin, y1 - margin)
            if all(
                abs(x - px) >= MIN_DX_MM and numpy.hypot(x - px, y - py) >= MIN_GAP_MM for px, py in chosen
            ):
                chosen.append((x, y))
                if len(chosen) == count:
                    return numpy.array(chosen)


def render_plane(labels: Mapping[str, str], layout: Layout, rng: Rng) -> Frame:
    width, height = layout.plane_size_px()
    plane = _felt(width, height, rng)
    _throw_dice(plane, labels, layout, rng, "default")
    return plane


def render_on(
    labels: Mapping[str, str], layout: Layout, rng: Rng, *, background: Frame, edition: str
) -> Frame:
    """The edition's tray (a felt floor inside a rim) on the given table, and the dice in it; items
    labelled "empty" are left out (the empty tray)."""
    plane = background.copy()
    look = EDITIONS[edition]
    x0, y0, x1, y1 = (round(v * PLANE_PX_PER_MM) for v in minos_tray_mm(layout.plane_mm))
    rim = round(RIM_MM * PLANE_PX_PER_MM)
    cv2.rectangle(plane, (x0 - rim, y0 - rim), (x1 + rim, y1 + rim), look.rim_bgr, -1)
    # The tray's felt is the same in every frame: a fixed seed, not the frame's.
    fibres = numpy.random.default_rng(11).normal(0, 5.0, (y1 - y0, x1 - x0, 1))
    plane[y0:y1, x0:x1] = numpy.clip(numpy.array(look.felt_bgr) + fibres, 0, 255).astype(numpy.uint8)
    _throw_dice(plane, labels, layout, rng, edition)
    return plane


def _throw_dice(plane: Frame, labels: Mapping[str, str], layout: Layout, rng: Rng, edition: str) -> None:
    ids = sorted(layout.items, key=lambda item: int(item.split(":")[1]))
    places = _places(rng, len(ids), minos_tray_mm(layout.plane_mm))
    places = places[numpy.argsort(places[:, 0])]  # die:0 is the leftmost
    for item, (x, y) in zip(ids, places, strict=True):
        if labels[item] == "empty":
            continue
        face = die_face(labels[item], PLANE_PX_PER_MM, edition)
        paste(plane, face, (x * PLANE_PX_PER_MM, y * PLANE_PX_PER_MM), rng.uniform(0, 360))


def sample_labels(layout: Layout, rng: Rng, hard: bool) -> dict[str, str]:
    return {item: SYMBOLS[int(rng.integers(len(SYMBOLS)))] for item in layout.items}


register_renderer(SceneRenderer(GAME, render_plane, sample_labels, {}, render_on, tuple(EDITIONS)))
