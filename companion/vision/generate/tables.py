"""Procedural table tops: woods, laminate, linen, gingham, printed cloths and felt, in world mm.

Each kind is drawn from its physical make-up, at its real scale, so the camera's distance decides
how much of it survives: planks and their grain, a fine weave's threads, a check's woven stripes,
a printed motif repeating on a cloth. `choose_table` picks a kind's colours and scale for a session;
`draw_table` paints any stretch of it (the same look and seed give the same cloth everywhere).
No image files: everything is numpy on a millimetre grid.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame, VisionError

Rng = numpy.random.Generator
FloatImage = numpy.typing.NDArray[numpy.float32]
Colour = tuple[float, float, float]

TABLE_KINDS = ("light-wood", "dark-wood", "laminate", "linen", "gingham", "printed", "felt")
GLOSS = {
    "light-wood": 0.25,
    "dark-wood": 0.45,
    "laminate": 0.7,
    "linen": 0.0,
    "gingham": 0.0,
    "printed": 0.05,
}
"""How much of a lamp a varnished or plastic top mirrors (0: a cloth, which scatters it all)."""

WOOD_TONES: dict[str, tuple[Colour, ...]] = {
    "light-wood": ((120, 175, 215), (105, 160, 205), (140, 190, 225), (95, 145, 190)),  # birch, oak, pine
    "dark-wood": ((30, 50, 80), (25, 40, 62), (40, 62, 95), (20, 28, 45)),  # walnut, mahogany, wenge
}
LAMINATE_TONES: tuple[Colour, ...] = ((235, 238, 240), (200, 205, 208), (150, 165, 180), (45, 45, 48))
LINEN_TONES: tuple[Colour, ...] = ((165, 190, 205), (225, 230, 232), (150, 150, 145), (140, 110, 80))
CLOTH_INKS: tuple[Colour, ...] = (
    (50, 50, 190),
    (160, 90, 30),
    (60, 140, 50),
    (40, 170, 230),
    (120, 50, 120),
    (40, 40, 40),
    (30, 100, 220),
)
FELT_TONES: tuple[Colour, ...] = ((40, 95, 30), (90, 50, 25), (35, 35, 110), (55, 55, 55))


class TableError(VisionError):
    """An unknown table kind."""


@dataclasses.dataclass(frozen=True)
class TableLook:
    """One table top: its kind, colours, pattern scale and turn, and the seed of its texture."""

    kind: str
    base_bgr: Colour
    ink_bgr: tuple[Colour, ...]
    scale_mm: float
    """Plank width, check size or motif repeat; the weave's thread pitch for linen."""
    turn_deg: float
    seed: int

    @property
    def gloss(self) -> float:
        return GLOSS.get(self.kind, 0.0)


def choose_table(kind: str, rng: Rng) -> TableLook:
    """A random table of the kind, as homes and clubs have them."""
    if kind not in TABLE_KINDS:
        raise TableError(f"no table kind {kind!r} (known: {', '.join(TABLE_KINDS)})")
    seed = int(rng.integers(2**31))
    turn = float(rng.uniform(-4, 4) + rng.choice([0.0, 90.0]))
    inks: tuple[Colour, ...] = ()
    if kind in WOOD_TONES:
        tones = WOOD_TONES[kind]
        base, scale = _pick(tones, rng, 0.1), float(rng.uniform(80, 180))
    elif kind == "laminate":
        base, scale = _pick(LAMINATE_TONES, rng, 0.05), 1.0
    elif kind == "linen":
        base, scale = _pick(LINEN_TONES, rng, 0.08), float(rng.uniform(0.6, 1.2))
    elif kind == "gingham":
        base, scale = (238.0, 240.0, 242.0), float(rng.uniform(3.0, 25.0))
        inks = (_pick(CLOTH_INKS, rng, 0.1),)
    elif kind == "printed":
        ground = [(235, 238, 240), (200, 230, 240), (60, 45, 40), (150, 200, 220)]
        base, scale = _pick(tuple(ground), rng, 0.05), float(rng.uniform(25.0, 80.0))
        picks = rng.choice(len(CLOTH_INKS), size=int(rng.integers(2, 5)), replace=False)
        inks = tuple(CLOTH_INKS[int(n)] for n in picks)
    else:
        base, scale = _pick(FELT_TONES, rng, 0.15), 1.0
    return TableLook(kind, base, inks, scale, turn, seed)


def _pick(tones: tuple[Colour, ...], rng: Rng, spread: float) -> Colour:
    tone = numpy.array(tones[int(rng.integers(len(tones)))]) * rng.uniform(1 - spread, 1 + spread, 3)
    b, g, r = (float(c) for c in numpy.clip(tone, 0, 255))
    return (b, g, r)


def draw_table(
    look: TableLook, origin_mm: tuple[float, float], size_px: tuple[int, int], px_per_mm: float
) -> Frame:
    """The table top over the rectangle starting at `origin_mm`, `size_px` (width, height) pixels."""
    width, height = size_px
    xs = origin_mm[0] + numpy.arange(width, dtype=numpy.float32) / px_per_mm
    ys = origin_mm[1] + numpy.arange(height, dtype=numpy.float32) / px_per_mm
    x, y = numpy.meshgrid(xs, ys)
    turn = numpy.radians(look.turn_deg)
    along = (x * numpy.cos(turn) + y * numpy.sin(turn)).astype(numpy.float32)
    across = (-x * numpy.sin(turn) + y * numpy.cos(turn)).astype(numpy.float32)
    rng = numpy.random.default_rng(look.seed)
    base = numpy.array(look.base_bgr, numpy.float32)
    if look.kind in WOOD_TONES:
        image = _wood(along, across, look, rng, base)
    elif look.kind == "laminate":
        image = (
            base
            * (1 + _noise(along, across, rng, 40.0, 0.02) + _noise(along, across, rng, 1.5, 0.02))[..., None]
        )
    elif look.kind == "linen":
        image = _linen(along, across, look, rng, base)
    elif look.kind == "gingham":
        image = _gingham(along, across, look, base)
    elif look.kind == "printed":
        image = _printed(along, across, look, rng, base)
    else:  # felt: fibres finer than a pixel, some mottling
        image = (
            base
            * (1 + _noise(along, across, rng, 30.0, 0.05) + _noise(along, across, rng, 0.8, 0.06))[..., None]
        )
    return numpy.asarray(numpy.clip(image, 0, 255), numpy.uint8)


def _noise(along: FloatImage, across: FloatImage, rng: Rng, cell_mm: float, strength: float) -> FloatImage:
    """Smooth noise of features about `cell_mm` across, +-strength, on the given coordinates."""
    lo_a, lo_c = float(along.min()), float(across.min())
    columns = int((float(along.max()) - lo_a) / cell_mm) + 3
    rows = int((float(across.max()) - lo_c) / cell_mm) + 3
    grid = rng.normal(0.0, strength, (min(rows, 4000), min(columns, 4000))).astype(numpy.float32)
    map_a = ((along - lo_a) / cell_mm).astype(numpy.float32)
    map_c = ((across - lo_c) / cell_mm).astype(numpy.float32)
    sampled = cv2.remap(grid, map_a, map_c, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)
    return numpy.asarray(sampled, numpy.float32)


def _wood(along: FloatImage, across: FloatImage, look: TableLook, rng: Rng, base: FloatImage) -> FloatImage:
    """Planks `scale_mm` wide running along; in each, grain lines wavering along it, and knots."""
    plank = numpy.floor(across / look.scale_mm)
    plank_ids = plank.astype(numpy.int64) - int(plank.min())
    count = int(plank_ids.max()) + 1
    # Planks of one tree differ in how dark they are, hardly in hue.
    tones = (rng.uniform(0.82, 1.15, (count, 1)) * rng.uniform(0.96, 1.04, (count, 3))).astype(numpy.float32)
    offsets = rng.uniform(0, 1000, count).astype(numpy.float32)
    wobble = _noise(along, across, rng, 150.0, 8.0)
    rings = numpy.sin((across + wobble + offsets[plank_ids]) * (2 * numpy.pi / rng.uniform(4.0, 9.0)))
    fine = _noise(along * 0.05, across, rng, 0.6, 0.05)  # fibres: long along, thin across
    shade = 1 + 0.07 * rings + fine + _noise(along, across, rng, 120.0, 0.05)
    image = base * tones[plank_ids] * shade[..., None]
    seam = numpy.abs(across / look.scale_mm - numpy.round(across / look.scale_mm)) * look.scale_mm < 0.6
    image[seam] *= 0.45  # the dark gap between two planks
    return numpy.asarray(image, numpy.float32)


def _linen(along: FloatImage, across: FloatImage, look: TableLook, rng: Rng, base: FloatImage) -> FloatImage:
    """Plain weave: warp and weft threads of uneven thickness (slubs) crossing every `scale_mm`."""
    pitch = look.scale_mm
    warp = _noise(along * 0.02, across / pitch, rng, 1.0, 0.08)  # each thread's slubs, long along it
    weft = _noise(along / pitch, across * 0.02, rng, 1.0, 0.08)
    over = numpy.sign(numpy.sin(along * numpy.pi / pitch) * numpy.sin(across * numpy.pi / pitch))
    threads = numpy.where(over > 0, warp, weft) + 0.05 * numpy.cos(along * 2 * numpy.pi / pitch)
    shade = 1 + threads + _noise(along, across, rng, 50.0, 0.04)
    return numpy.asarray(base * shade[..., None], numpy.float32)


def _gingham(along: FloatImage, across: FloatImage, look: TableLook, base: FloatImage) -> FloatImage:
    """Coloured stripes both ways over white: one colour where one crosses, deeper where two do."""
    size = look.scale_mm
    stripe_a = (numpy.floor(along / size) % 2 == 0).astype(numpy.float32)[..., None]
    stripe_c = (numpy.floor(across / size) % 2 == 0).astype(numpy.float32)[..., None]
    ink = numpy.array(look.ink_bgr[0], numpy.float32)
    half = base * 0.5 + ink * 0.5  # one coloured thread in two: a tint
    one = stripe_a + stripe_c - 2 * stripe_a * stripe_c
    both = stripe_a * stripe_c
    return numpy.asarray(base * (1 - one - both) + half * one + ink * both, numpy.float32)


def _printed(
    along: FloatImage, across: FloatImage, look: TableLook, rng: Rng, base: FloatImage
) -> FloatImage:
    """A motif repeating every `scale_mm`: flowers (petals round a heart) or a geometric one."""
    repeat = look.scale_mm
    # Alternate rows shift by half a repeat, as printed cloths do.
    row = numpy.floor(across / repeat)
    u = (along / repeat + 0.5 * (row % 2)) % 1.0 - 0.5
    v = (across / repeat) % 1.0 - 0.5
    radius = numpy.hypot(u, v)
    angle = numpy.arctan2(v, u)
    image = numpy.broadcast_to(base, (*along.shape, 3)).astype(numpy.float32).copy()
    inks = [numpy.array(ink, numpy.float32) for ink in look.ink_bgr]
    if rng.random() < 0.6:
        petals = int(rng.integers(4, 8))
        petal = radius < 0.33 * (0.55 + 0.45 * numpy.abs(numpy.cos(angle * petals / 2)))
        image[petal] = inks[0]
        image[radius < 0.1] = inks[1 % len(inks)]
        leaf = numpy.hypot(u - 0.36, v - 0.36) < 0.1
        image[leaf] = inks[-1]
    else:
        diamond = numpy.abs(u) + numpy.abs(v) < 0.3
        image[diamond] = inks[0]
        image[numpy.abs(numpy.abs(u) + numpy.abs(v) - 0.42) < 0.03] = inks[1 % len(inks)]
        image[(numpy.abs(u) > 0.45) | (numpy.abs(v) > 0.45)] = inks[-1]
    image *= (1 + _noise(along, across, rng, 1.0, 0.03))[..., None]  # the cloth's weave under the print
    return image
