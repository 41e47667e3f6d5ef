"""Asterion: where two looks (design and rotation) of a tile differ, read from the built-in drawings.

Where two looks differ is read from the built-in drawings (exact, so a wing, a chest or a path's end and
no noise); the cell is compared there only, grown a little, with the light there fitted (a gain and an
offset sloping across, and a chest's own shade when a path against a wall decides). The filters are
built by `_asterion_pair_tests.PairTests` per pair of looks, once, from the numerics in
_asterion_filters.

What depends on the drawings alone (where two looks differ, the slope of light there, each look's
spread there) is built for every pair of looks when templates are made (`build_pairs`), not inside a
timed frame: 1,540 pairs of the 56 looks of a colour, 0.45 s of one core of the development machine
(a Pi's core some three times that) and 40 MB, once per process (the drawings are shipped, the same
for every colour and taught edition). `clear_pairs` forgets them when the shipped drawings change.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy
import numpy.typing

from companion.games.asterion.tiles import COLOURS, DESIGNS, MINOTAUR_DESIGN
from companion.vision.base import Frame
from companion.vision.components import dimension_mm
from companion.vision.recognisers import _asterion_looks
from companion.vision.recognisers._asterion_filters import _sloping
from companion.vision.recognisers._asterion_labels import MINOTAUR
from companion.vision.recognisers._asterion_window import (
    _WEIGHTS,
    GAME,
    TEMPLATE_PX,
    turned,
)
from companion.vision.recognisers._lab import FloatArray
from companion.vision.recognisers._shipped import (
    shipped_colours,
)

DIFFERENT = 18.0
"""Lab distance (8-bit scale) from which two templates' pixels count as different."""


@functools.cache
def differ(design: int, rotation: int, other: int, other_rotation: int) -> numpy.typing.NDArray[numpy.intp]:
    """Where (flat pixel indices) two designs (turned) differ, from the seed's drawings in one colour.

    The drawings are exact, so the mask holds what tells them apart (a chest, a wing, a path's
    end) and no noise; a taught picture of a real tile is compared there.
    """
    apart = _drawn_pixels(design, rotation) - _drawn_pixels(other, other_rotation)
    # The drawings' pixels are whole numbers: their squared distances are exact in any order of adding.
    return numpy.flatnonzero(numpy.einsum("ij,ij->i", apart, apart) > DIFFERENT**2)


def _built_in() -> tuple[dict[str, Frame], Path]:
    """The built-in drawings and the file they are shipped in (`_asterion_looks`: the module, so that
    clear_pairs forgets what this one caches, and training the drawings)."""
    return _asterion_looks.built_in_drawings(), _asterion_looks.TILES_FILE


@functools.cache
def _drawn_pixels(design: int, rotation: int) -> FloatArray:
    """The built-in drawing of a design (in the first set's colour, or the Minotaur's), turned, as
    float pixels (pixels, 3): built once, as two looks' tests are built for many pairs."""
    colour = COLOURS[0] if design != MINOTAUR_DESIGN else MINOTAUR
    picture = turned(_built_in()[0][f"{colour}:{design}"], rotation)
    return numpy.ascontiguousarray(picture.reshape(-1, 3), dtype=numpy.float32)


PAIR_GROW_PX = 3
"""Two looks are compared this far (template pixels) around where they differ: the path and walls
about a wing fix the light there."""
TABLE_RIM_PX = math.floor(
    (dimension_mm(GAME, "cell") - dimension_mm(GAME, "tile")) / 2 / (dimension_mm(GAME, "cell") / TEMPLATE_PX)
)
"""The template's rim (pixels each side) that lies wholly beside the tile (1.4 pixels of table each side):
two looks are never compared there (`_pair_pixels`). The drawings show it as felt; a plane shows the
neutral grey, the table the reference kept, or the tile's own frame (learned templates show it there, a
tile seen larger or laid off its place). Grown onto it, a hidden chest's window fitted its light to that
against the frame's edge, and a travel edition's hidden chests (frame brighter than path, chest dark)
read as corridors (dev and burnt planes: 21 of them; 9 after). Two pixels (the next one is two thirds
table) read 4 more of them right but broke 6 bends (a bend's chest or wing lies near the tile's edge)."""
FAINT_SHARE = 0.4
"""Share of a thing's difference (a wing, horns) from a plain path that shows it is there, not a half:
glare and blur wash a wing out, but nothing draws one on a plain path (fitted on hard generated
frames of seeds 1, 7 and 11: 0.35 and 0.45 each read a few more cells wrong)."""
PLAIN_SPREAD = 6.0
"""A look is plain where two differ when its pixels there spread less than this (Lab, weighted)."""


@functools.cache
def _pair_window(
    design: int, rotation: int, other: int, other_rotation: int
) -> tuple[numpy.typing.NDArray[numpy.intp], FloatArray]:
    """Where (flat pixel indices) two looks are compared: where they differ, grown by PAIR_GROW_PX;
    and an offset sloping across those pixels as orthonormal columns (pixels, 3): light there (and a
    chest's shade, `_pair_chests`). The same both ways round: worked out once per pair of looks (a
    third of pairs were asked for both ways round, by cells of different colours, inside timed frames)."""
    if (other, other_rotation) < (design, rotation):
        return _pair_window(other, other_rotation, design, rotation)
    window = _pair_pixels(design, rotation, other, other_rotation)
    chests = _pair_chests(design, rotation, other, other_rotation)
    return window, _sloping(window, chests, _pair_frames(design, rotation, other, other_rotation))


@functools.cache
def _pair_pixels(
    design: int, rotation: int, other: int, other_rotation: int
) -> numpy.typing.NDArray[numpy.intp]:
    """`_pair_window`'s pixels: where two looks differ, grown by PAIR_GROW_PX within the tile (not onto
    the table's rim, TABLE_RIM_PX)."""
    mask = numpy.zeros(TEMPLATE_PX * TEMPLATE_PX, numpy.uint8)
    mask[differ(design, rotation, other, other_rotation)] = 1
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * PAIR_GROW_PX + 1, 2 * PAIR_GROW_PX + 1))
    grown = cv2.dilate(mask.reshape(TEMPLATE_PX, TEMPLATE_PX), grow)
    rim = TABLE_RIM_PX
    inside = numpy.zeros_like(grown)
    inside[rim:-rim, rim:-rim] = grown[rim:-rim, rim:-rim]
    return numpy.flatnonzero(inside.ravel())


@functools.cache
def _pair_chests(
    design: int, rotation: int, other: int, other_rotation: int
) -> numpy.typing.NDArray[numpy.bool_] | None:
    """Which of `_pair_pixels` show a chest whose shade is taken as light; None when none is.

    Where a path runs on one look and not the other, the path against the wall decides, not a chest's
    shade: editions print chests their own way (the travel edition's dark orange, outlined in black,
    read as wall, and a treasure corridor as a dead end). The chest's own offset is then taken as
    light (one more column of it, over the chests' pixels): its outline against its inside still
    counts, its shade does not. Dropping the chest's pixels instead lost a hidden chest's dead end,
    whose chest is most of what differs from a corridor."""
    window = _pair_pixels(design, rotation, other, other_rotation)
    chests = _chest_pixels(design, rotation, window) | _chest_pixels(other, other_rotation, window)
    if chests.any() and _path_against_wall(design, rotation, other, other_rotation) >= CHEST_ASIDE_PX:
        return chests
    return None


FRAME_LEAST_PX = 8
"""Pixels of the frame colour (frame, prisoners) where two looks are compared from which its shade is
taken as light there (`_pair_frames`)."""


@functools.cache
def _pair_frames(design: int, rotation: int, other: int, other_rotation: int) -> FloatArray | None:
    """How much of each of `_pair_pixels` the two looks draw in the frame colour (a frame, a prisoner:
    1 in both, a half in one), whose own offset is taken as light; None under FRAME_LEAST_PX.

    Prints shade their frames their own way against stone and path: the built-in green frame lies half
    way from stone to path in lightness, the travel print's a quarter, its blue darker than its stone.
    One gain on both looks' mean fits the stone and the path but not that, and the frame beside a
    path's end or a prisoner leaked into the share: the travel print's cells read as treasuries or
    corridors, its treasuries as corridors, its yellow hidden chests as corridors (dev 61, 83, burnt
    20261141-43). Its blue, green and red hidden chests lean the other way a little (a dozen read as
    corridors now), their lightness misleading either way where their colour is plain."""
    window = _pair_pixels(design, rotation, other, other_rotation)
    frames = (_framed(design, rotation)[window] + _framed(other, other_rotation)[window]) / 2
    shown = int(numpy.count_nonzero(frames))
    if shown < FRAME_LEAST_PX or shown == len(window):
        return None
    return numpy.asarray(frames, numpy.float32)


@functools.cache
def _framed(design: int, rotation: int) -> FloatArray:
    """Where (every pixel) a look's drawing shows the frame colour (its frame, prisoners), as 0 or 1."""
    pixels = _drawn_pixels(design, rotation)
    frame = _drawn_colours()[2]
    return numpy.asarray(numpy.linalg.norm(pixels - frame, axis=1) < DIFFERENT, numpy.float32)


CHEST_ASIDE_PX = 24
"""Pixels of path against wall (drawn) from which two looks are told apart without their chests' shade:
a path's end through the frame is 30 or so, a path's half a hundred and more; a treasury and a cell,
differing by their chest alone, none."""


def _has_coins(design: int) -> bool:
    return design != MINOTAUR_DESIGN and any(path.coins for path in DESIGNS[design].paths)


@functools.cache
def _chest_palettes() -> tuple[FloatArray, FloatArray]:
    """The drawn colours of chests and of everything else: a design with a chest against its twin
    without (the same paths and prisoners) differs by the chest alone; designs without chests show
    the rest (paths, walls, frames, prisoners, wings)."""
    chest: list[FloatArray] = []
    for number, drawn in enumerate(DESIGNS):
        bare = tuple(path._replace(coins=0) for path in drawn.paths)
        twin = next((i for i, d in enumerate(DESIGNS) if d.paths == bare and i != number), None)
        if _has_coins(number) and twin is not None:
            chest.append(_drawn_pixels(number, 0)[differ(number, 0, twin, 0)])
    rest = [_drawn_pixels(number, 0) for number in range(len(DESIGNS)) if not _has_coins(number)]
    return _unique_colours(chest), _unique_colours(rest)


def _unique_colours(pictures: list[FloatArray]) -> FloatArray:
    """The colours (whole 8-bit Lab numbers, as the drawings hold) of some pixels, each once: packed
    into one number each (numpy's unique along rows of three cost 20 ms, inside a timed frame)."""
    if not pictures:
        return numpy.zeros((0, 3), numpy.float32)
    packed = numpy.sort(numpy.concatenate(pictures).astype(numpy.int32) @ numpy.array([65536, 256, 1]))
    # Sorted, each kept where it differs from the one before: numpy.unique imports a module lazily, 35 ms.
    packed = packed[numpy.concatenate([[True], packed[1:] != packed[:-1]])]
    return numpy.stack([packed >> 16, (packed >> 8) & 255, packed & 255], axis=1).astype(numpy.float32)


def _chest_pixels(
    design: int, rotation: int, where: numpy.typing.NDArray[numpy.intp]
) -> numpy.typing.NDArray[numpy.bool_]:
    """Which of the pixels `where` show a chest in a design's drawing (`_chest_mask`)."""
    return _chest_mask(design, rotation)[where]


@functools.cache
def _chest_mask(design: int, rotation: int) -> numpy.typing.NDArray[numpy.bool_]:
    """Where (every pixel of the tile) a design's drawing, turned, shows a chest: nearer a chest's drawn
    colours than any other drawn colour. Worked out once per design and turned (not per pair of looks:
    they are built inside timed frames)."""
    if rotation:
        return turned(_chest_mask(design, 0).reshape(TEMPLATE_PX, TEMPLATE_PX), rotation).ravel()
    chest, rest = _chest_palettes()
    if not _has_coins(design) or len(chest) == 0:
        return numpy.zeros(TEMPLATE_PX * TEMPLATE_PX, numpy.bool_)
    # Pixels of the path, stone or frame drawn are no chest: only the others are compared with the
    # palettes (a few hundred of the 1,600).
    drawn = _drawn_pixels(design, 0)
    plain = numpy.zeros(len(drawn), numpy.bool_)
    for colour in _drawn_colours():
        plain |= numpy.linalg.norm(drawn - colour, axis=1) < DIFFERENT
    mask = numpy.zeros(len(drawn), numpy.bool_)
    pixels = drawn[~plain]

    def nearest(palette: FloatArray) -> FloatArray:
        # OpenCV's nearest neighbour (squared distances): numpy's product went through BLAS's threads.
        squared, _ = cv2.batchDistance(pixels, palette, -1, normType=cv2.NORM_L2SQR, K=1)
        return numpy.asarray(squared, numpy.float32).ravel()

    mask[~plain] = nearest(chest) < nearest(rest)
    return mask


@functools.cache
def _drawn_colours() -> tuple[FloatArray, FloatArray, FloatArray]:
    """The drawn path, stone and frame (of the drawings' frame colour) as Lab, read once."""
    colours = shipped_colours(_built_in()[1], GAME, ("path", "stone", COLOURS[0]))
    path, stone, frame = (
        numpy.array(colours[label][-1], numpy.float32) for label in ("path", "stone", COLOURS[0])
    )
    return path, stone, frame


@functools.cache
def _path_against_wall(design: int, rotation: int, other: int, other_rotation: int) -> int:
    """How many pixels show path in one look's drawing and wall in the other's: stone, or the frame a
    path's end runs through (the drawn colours of the drawings' frame colour)."""
    where = differ(design, rotation, other, other_rotation)
    (path, wall), (other_path, other_wall) = (
        _path_or_wall(design, rotation),
        _path_or_wall(other, other_rotation),
    )
    crossed = (path[where] & other_wall[where]) | (wall[where] & other_path[where])
    return int(crossed.sum())


@functools.cache
def _path_or_wall(
    design: int, rotation: int
) -> tuple[numpy.typing.NDArray[numpy.bool_], numpy.typing.NDArray[numpy.bool_]]:
    """Where (every pixel) a look's drawing shows path, and where wall (stone or frame): once per look,
    not per pair of looks (pairs are compared first inside timed frames)."""
    pixels = _drawn_pixels(design, rotation)
    path, stone, frame = (
        numpy.linalg.norm(pixels - colour, axis=1) < DIFFERENT for colour in _drawn_colours()
    )
    return numpy.asarray(path, numpy.bool_), numpy.asarray(stone | frame, numpy.bool_)


@functools.cache
def _winning_share(design: int, rotation: int, other: int, other_rotation: int) -> float:
    """The share of the second look's difference from the first from which the second wins.

    A half when both show something where they differ (a path here, a chest there); when one is
    plain there (a path without the other's wing), the thing wins from FAINT_SHARE shown: glare and
    blur wash a thing out, but nothing draws one on a plain path.
    """
    mine, theirs = _pair_spreads(design, rotation, other, other_rotation)
    if mine < PLAIN_SPREAD <= theirs:
        return FAINT_SHARE
    if theirs < PLAIN_SPREAD <= mine:
        return 1.0 - FAINT_SHARE
    return 0.5


@functools.cache
def _pair_spreads(design: int, rotation: int, other: int, other_rotation: int) -> tuple[float, float]:
    """How far each of two looks' drawn pixels spread where they differ (Lab, weighted): worked out
    once per pair of looks, whichever way round it is asked for."""
    if (other, other_rotation) < (design, rotation):
        theirs, mine = _pair_spreads(other, other_rotation, design, rotation)
        return mine, theirs
    where = differ(design, rotation, other, other_rotation)

    def spread(number: int, turn: int) -> float:
        pixels = _drawn_pixels(number, turn)[where]
        if len(pixels) == 0:
            return 0.0
        # Sums over their count, as numpy's means (the same float32 values, without their overhead).
        off = (pixels - pixels.sum(axis=0) / len(pixels)) * _WEIGHTS
        return math.sqrt(float((off * off).sum(axis=1).sum() / len(pixels)))

    return spread(design, rotation), spread(other, other_rotation)


def build_pairs(looks: Iterable[tuple[int, int]]) -> None:
    """Build every pair of `looks` (design, rotation)'s window, slope of light and winning share now,
    before frames are read: built lazily, 560 pairs cost 2.8 ms a frame over a 136-frame dev run, and
    a companion reads the same looks for hours (its honest cost per frame is the steady state)."""
    distinct = sorted(set(looks))
    for i, look in enumerate(distinct):
        for other in distinct[i + 1 :]:
            _pair_window(*look, *other)
            _winning_share(*look, *other)
            _winning_share(*other, *look)


def plain_twin(look: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether `other` (design, rotation) is `look` without a thing on its path (a wing, horns)."""
    if not len(differ(*look, *other)) or not things_on_path(*look, *other):
        return False
    mine, theirs = _pair_spreads(*look, *other)
    return theirs < PLAIN_SPREAD <= mine


def same_paths(look: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether `other` (design, rotation) has `look`'s paths with other things on them: no path against a
    wall where they differ (a wing, horns or a chest more or less, or one for another)."""
    return bool(len(differ(*look, *other))) and _path_against_wall(*look, *other) == 0


def clear_pairs() -> None:
    """Forget everything worked out from the shipped drawings (when training writes them afresh)."""
    for cached in (
        differ,
        _drawn_pixels,
        _pair_window,
        _pair_pixels,
        _pair_chests,
        _pair_frames,
        _framed,
        _chest_palettes,
        _chest_mask,
        _drawn_colours,
        _path_against_wall,
        _path_or_wall,
        things_on_path,
        _winning_share,
        _pair_spreads,
    ):
        cached.cache_clear()


@functools.cache
def things_on_path(design: int, rotation: int, other: int, other_rotation: int) -> bool:
    """Whether two looks differ by things drawn on a path alone (a wing, horns): no path against a wall
    where they differ, and no chest. Such a thing is a few pixels of path, where a pixel's misalignment
    decides (`lined_share`); a chest or a path's end is larger, and lined up again it was lost (hidden
    chests read as corridors on dev planes)."""
    if (other, other_rotation) < (design, rotation):
        return things_on_path(other, other_rotation, design, rotation)
    window = _pair_pixels(design, rotation, other, other_rotation)
    chests = _chest_pixels(design, rotation, window) | _chest_pixels(other, other_rotation, window)
    return not chests.any() and _path_against_wall(design, rotation, other, other_rotation) == 0
