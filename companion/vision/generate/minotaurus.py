"""Minotaurus scenes: the matrix of horn pieces on a wooden table, face down, taken, or face up.

A piece is a `TILE_MM` square: its back dark with a gold ring, its front in
the piece's colour with a black horn (curving to its side) above a row of
1-5 pips. Pieces lie a little off their cell's centre and a little turned,
as hands leave them. The real edition looks different; teach mode learns it.
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
from companion.vision.components import dimension_mm
from companion.vision.generate import Rng, SceneRenderer, register_renderer
from companion.vision.vocabulary import minotaurus_piece_label, parse_minotaurus_piece

GAME = "minotaurus"
_SEED = load_seed(GAME)
COLOURS: tuple[str, ...] = tuple(colour["name"] for colour in _SEED["colours"])
HORNS: tuple[str, ...] = tuple(_SEED["horns"]["names"])
TILE_MM = dimension_mm(GAME, "piece")
COLOURS_BGR: dict[str, tuple[int, int, int]] = {
    "blue": (165, 85, 25),
    "red": (45, 40, 200),
    "yellow": (45, 205, 235),
    "green": (60, 150, 45),
    "white": (232, 236, 236),
}
"""Front colours of the built-in edition, by the seed's colour names (others get a grey)."""
BACK_BGR = (40, 38, 42)
EMBLEM_BGR = (70, 160, 200)
GLYPH_BGR = (28, 26, 26)
SUPERSAMPLE = 4


@dataclasses.dataclass(frozen=True)
class Edition:
    """One print run's look: front colours, the back and its emblem, the glyphs' ink and shapes."""

    colours_bgr: Mapping[str, tuple[int, int, int]]
    back_bgr: tuple[int, int, int]
    emblem_bgr: tuple[int, int, int]
    glyph_bgr: tuple[int, int, int]
    pip: str
    """"round", "square" or "ring"."""
    horn_width: float
    """The horn glyph's thickness against the built-in one's."""
    emblem: str
    """The back's mark: "ring" (a ring round a dot), "cross" or "diamond"."""


EDITIONS: dict[str, Edition] = {
    "default": Edition(COLOURS_BGR, BACK_BGR, EMBLEM_BGR, GLYPH_BGR, "round", 1.0, "ring"),
    "second-print": Edition(
        {
            "blue": (190, 130, 60),
            "red": (40, 70, 215),
            "yellow": (60, 180, 215),
            "green": (90, 175, 110),
            "white": (215, 228, 238),
        },
        (80, 48, 28),
        (200, 200, 205),
        (45, 35, 60),
        "square",
        1.4,
        "cross",
    ),
    "travel": Edition(
        {
            "blue": (140, 60, 10),
            "red": (35, 25, 160),
            "yellow": (30, 225, 245),
            "green": (40, 120, 30),
            "white": (245, 245, 245),
        },
        (30, 30, 105),
        (60, 190, 225),
        (90, 40, 20),
        "ring",
        0.7,
        "diamond",
    ),
}
"""The built-in look (drawn exactly as before, so shipped data stays valid) and two other print runs."""


def _horn_polygon(horn: str, scale: float, width: float = 1.0) -> numpy.typing.NDArray[numpy.int32]:
    """The horn glyph: a tapering crescent from its base to its tip, in tile pixels about the centre."""
    t = numpy.linspace(0.0, 1.0, 24)[:, None]
    base, bend, tip = numpy.array([-7.0, -1.5]), numpy.array([7.5, -2.5]), numpy.array([7.5, -13.0])
    spine = (1 - t) ** 2 * base + 2 * (1 - t) * t * bend + t**2 * tip
    tangent = 2 * (1 - t) * (bend - base) + 2 * t * (tip - bend)
    normal = (
        numpy.stack([-tangent[:, 1], tangent[:, 0]], axis=1) / numpy.linalg.norm(tangent, axis=1)[:, None]
    )
    half_width = (2.8 * (1 - t) + 0.3 * t)[:, 0:1] * width
    outline = numpy.concatenate([spine + normal * half_width, (spine - normal * half_width)[::-1]])
    if horn == "left":
        outline[:, 0] = -outline[:, 0]
    return numpy.round(outline * scale * SUPERSAMPLE).astype(numpy.int32)


@functools.cache
def piece_face(
    label: str, px_per_mm: float, colour_bgr: tuple[int, int, int] | None = None, edition: str = "default"
) -> Frame:
    """A piece seen straight from above ("down" or "<colour>-<value>-<horn>"), anti-aliased, square."""
    look = EDITIONS[edition]
    side = round(TILE_MM * px_per_mm) * SUPERSAMPLE
    centre = numpy.array([side / 2, side / 2])
    scale = px_per_mm * SUPERSAMPLE
    middle = (side // 2, side // 2)
    if label == "down":
        face = numpy.full((side, side, 3), look.back_bgr, dtype=numpy.uint8)
        if look.emblem == "ring":
            cv2.circle(face, middle, round(8 * scale), look.emblem_bgr, round(1.4 * scale), cv2.LINE_AA)
            cv2.circle(face, middle, round(1.6 * scale), look.emblem_bgr, -1, cv2.LINE_AA)
        else:
            reach = round(7 * scale)
            if look.emblem == "cross":
                arms = [((-reach, 0), (reach, 0)), ((0, -reach), (0, reach))]
            else:  # a diamond's four sides
                tips = [(0, -reach), (reach, 0), (0, reach), (-reach, 0)]
                arms = [(tips[n], tips[(n + 1) % 4]) for n in range(4)]
            for (x0, y0), (x1, y1) in arms:
                start, end = (middle[0] + x0, middle[1] + y0), (middle[0] + x1, middle[1] + y1)
                cv2.line(face, start, end, look.emblem_bgr, round(1.4 * scale), cv2.LINE_AA)
    else:
        colour, value, horn = parse_minotaurus_piece(label, HORNS)
        body = colour_bgr or look.colours_bgr.get(colour, (150, 150, 150))
        face = numpy.full((side, side, 3), body, dtype=numpy.uint8)
        horn_outline = _horn_polygon(horn, px_per_mm, look.horn_width) + centre.astype(numpy.int32)
        cv2.fillPoly(face, [horn_outline], look.glyph_bgr, cv2.LINE_AA)
        for n in range(value):
            x = (n - (value - 1) / 2) * 5.4
            point = (round(side / 2 + x * scale), round(side / 2 + 7.0 * scale))
            radius = round(2.0 * scale)
            if look.pip == "round":
                cv2.circle(face, point, radius, look.glyph_bgr, -1, cv2.LINE_AA)
            elif look.pip == "ring":
                cv2.circle(face, point, radius, look.glyph_bgr, round(0.8 * scale), cv2.LINE_AA)
            else:
                corner_a = (point[0] - radius, point[1] - radius)
                corner_b = (point[0] + radius, point[1] + radius)
                cv2.rectangle(face, corner_a, corner_b, look.glyph_bgr, -1, cv2.LINE_AA)
    small = cv2.resize(face, (side // SUPERSAMPLE, side // SUPERSAMPLE), interpolation=cv2.INTER_AREA)
    return numpy.asarray(small, dtype=numpy.uint8)


def wood_table(width: int, height: int, rng: Rng) -> Frame:
    """A wooden table top: a random warm tone with grain along x."""
    tone = numpy.array([rng.uniform(45, 95), rng.uniform(75, 130), rng.uniform(110, 170)])
    rows = numpy.cumsum(rng.normal(0, 1.0, height))
    rows = (rows - rows.mean()) / max(float(rows.std()), 1e-6)
    grain = numpy.sin(
        rows[:, None] * rng.uniform(1.5, 3.0) + numpy.linspace(0, rng.uniform(2, 6), width)[None, :]
    )
    shade = 1.0 + 0.06 * grain[..., None] + rng.normal(0, 0.015, (height, 1, 1))
    return numpy.asarray(numpy.clip(tone * shade, 0, 255), dtype=numpy.uint8)


def paste(
    plane: Frame, face: Frame, centre_px: tuple[float, float], angle_deg: float, shadow: bool = True
) -> None:
    """Lay a square face onto the plane, turned by angle_deg about its centre, with a soft shadow."""
    side = face.shape[0]
    reach = int(numpy.ceil(side * 0.75)) + 4
    cx, cy = centre_px
    x0, y0 = int(cx) - reach, int(cy) - reach
    window = (2 * reach, 2 * reach)
    turn = cv2.getRotationMatrix2D((side / 2 - 0.5, side / 2 - 0.5), angle_deg, 1.0)
    turn[:, 2] += (cx - x0 - side / 2, cy - y0 - side / 2)
    warped = cv2.warpAffine(face, turn, window, flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(numpy.ones((side, side), numpy.float32), turn, window, flags=cv2.INTER_LINEAR)
    height, width = plane.shape[:2]
    sx0, sy0, sx1, sy1 = max(0, x0), max(0, y0), min(width, x0 + window[0]), min(height, y0 + window[1])
    if sx0 >= sx1 or sy0 >= sy1:
        return
    crop = (slice(sy0 - y0, sy1 - y0), slice(sx0 - x0, sx1 - x0))
    target = plane[sy0:sy1, sx0:sx1].astype(numpy.float32)
    if shadow:
        offset = numpy.array([[1, 0, 2], [0, 1, 3]], numpy.float32)
        dark = cv2.GaussianBlur(cv2.warpAffine(mask, offset, window), (0, 0), 2.5)[crop]
        target *= (1.0 - 0.45 * dark)[..., None]
    alpha = mask[crop][..., None]
    target = target * (1 - alpha) + warped[crop].astype(numpy.float32) * alpha
    plane[sy0:sy1, sx0:sx1] = numpy.clip(target, 0, 255).astype(numpy.uint8)


def render_plane(labels: Mapping[str, str], layout: Layout, rng: Rng) -> Frame:
    width, height = layout.plane_size_px()
    plane = wood_table(width, height, rng)
    _lay_pieces(plane, labels, layout, rng, "default")
    return plane


def render_on(
    labels: Mapping[str, str], layout: Layout, rng: Rng, *, background: Frame, edition: str
) -> Frame:
    """The pieces of the edition laid on the given table."""
    plane = background.copy()
    _lay_pieces(plane, labels, layout, rng, edition)
    return plane


def _lay_pieces(plane: Frame, labels: Mapping[str, str], layout: Layout, rng: Rng, edition: str) -> None:
    jitter = 3.0
    for item, region in layout.items.items():
        label = labels.get(item, "empty")
        if label == "empty":
            continue
        dx, dy = rng.uniform(-jitter, jitter, 2) * PLANE_PX_PER_MM
        cx, cy = region.centre_px()
        face = piece_face(label, PLANE_PX_PER_MM, edition=edition)
        paste(plane, face, (cx + dx, cy + dy), rng.uniform(-9, 9))


def _values_in_play(cells: int) -> list[int]:
    """The values of the seeds' setup whose matrix has this many cells."""
    for setup in _SEED["setup"]:
        if setup["rows"] * setup["columns"] == cells:
            return list(setup["values"])
    raise ValueError(f"no Minotaurus setup has a matrix of {cells} cells")


def sample_labels(layout: Layout, rng: Rng, hard: bool) -> dict[str, str]:
    """Some pieces taken, the rest face down, and a few face up (more than in play, to test more)."""
    cells = sorted(layout.items, key=lambda item: int(item.split(":")[1]))
    values = _values_in_play(len(cells))
    taken = rng.uniform(0.0, 0.6)
    labels = {cell: ("empty" if rng.random() < taken else "down") for cell in cells}
    occupied = [cell for cell in cells if labels[cell] == "down"]
    shown = min(len(occupied), int(rng.integers(0, 7 if hard else 5)))
    for cell in rng.choice(occupied, size=shown, replace=False) if shown else []:
        colour = COLOURS[int(rng.integers(len(COLOURS)))]
        labels[str(cell)] = minotaurus_piece_label(
            colour, int(rng.choice(values)), HORNS[int(rng.integers(2))]
        )
    return labels


register_renderer(
    SceneRenderer(GAME, render_plane, sample_labels, {"players": 5}, render_on, tuple(EDITIONS))
)
