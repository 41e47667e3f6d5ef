"""Tanz der Hornochsen: finding a tile on a plane and the window its number is read in.

On a normalised plane (reference.py: the empty play area replaced by a neutral grey; _hornochsen_seen.py
measures it) a tile is whatever is no empty area; its face's outline (a minimum-area rectangle of its bright
pixels) straightens it, and where the outline ran into a neighbour or lost a strip to the empty area, the
number's own ink (_hornochsen_ink.py) centres the window instead. On a raw plane (no reference) the
recogniser finds the face by its colours and straightens it the same way. hornochsen.py and
_hornochsen_faces.py read what these find.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, ItemRegion
from companion.vision.recognisers._hornochsen_glyphs import TILE_MM
from companion.vision.recognisers._hornochsen_ink import (
    NEAR_MM,
    faint_ink_centre,
    faint_ink_number,
    ink_number,
)
from companion.vision.recognisers._hornochsen_seen import (
    NORMALISED_TILE_SHARE,
    Seen,
    shaped_tiles,
    square_levels,
)

# (Re-exported: the training module finds a lesson's tiles on the same normalised planes.)
from companion.vision.recognisers._hornochsen_seen import table_mask as table_mask
from companion.vision.recognisers._lab import FloatArray

STRAIGHT_MARGIN_MM = 3.0
"""The straightened tile's margin round its face."""


WIDE_MM = 9.0
"""A tile is looked for this far beyond its square on a normalised plane: a tile laid off centre, or a
plane several millimetres off (markers laid by their cut edge), still shows whole (at 6 mm, a tile 8 mm off
lost its first digit into the window's replicated border)."""


def _wide_box(region: ItemRegion, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = region.box_px()
    wide = round(WIDE_MM * PLANE_PX_PER_MM)
    return max(0, x0 - wide), max(0, y0 - wide), min(shape[1], x1 + wide), min(shape[0], y1 + wide)


def face_up_tile(
    plane: Frame, table: numpy.typing.NDArray[numpy.uint8], region: ItemRegion, seen: Seen | None = None
) -> FloatArray | None:
    """A square's face-up tile on a normalised plane, straightened, as reading finds it (for learning;
    `seen`: the plane as Seen.of makes it, when made already)."""
    seen = seen if seen is not None else Seen.of(plane, table)
    tile, (_, light, _) = square_levels(seen, region)
    return normalised_tile(seen, region, light) if tile >= NORMALISED_TILE_SHARE else None


class TileWindow(NamedTuple):
    """A square's surround as normalised_tile looks at it: its lightness (where the empty area was, the
    face's), the square's centre in it and the tile's outline found there (None where none was)."""

    light: Frame
    here: tuple[float, float]
    rect: RotatedRect | None


def tile_window(seen: Seen, region: ItemRegion, face_level: float) -> TileWindow:
    """normalised_tile's look about a square (see there), for it to straighten the tile from, once or twice
    (centred on the outline, then on the number's ink: hornochsen.py asks for both of one square)."""
    x0, y0, x1, y1 = _wide_box(region, seen.table.shape)
    # Where the reference took part of a face for the empty area (a face as light as the board's print
    # round it), the neutral grey would read as ink: it takes the face's lightness instead (the empty
    # area's 255 and'ed with that level, the tiles' grey, 0 there, the larger: two calls a window, where a
    # copy, a filled array, a copy under the mask and the mask's own inRange were four).
    level = int(numpy.uint8(min(255.0, face_level)))
    empty = cv2.bitwise_and(seen.table[y0:y1, x0:x1], level)  # type: ignore[call-overload]
    light = numpy.asarray(cv2.max(seen.tiles[y0:y1, x0:x1], empty), numpy.uint8)
    centre = region.centre_px()
    here = (centre[0] - x0, centre[1] - y0)
    return TileWindow(light, here, _tile_rect(light, None, here, face_level, seen.shaped_at(x0, y0, x1, y1)))


def normalised_tile(
    seen: Seen,
    region: ItemRegion,
    face_level: float,
    on_ink: bool = False,
    window: TileWindow | None = None,
    level: bool = False,
) -> FloatArray | None:
    """The face-up tile of a square of a normalised plane, straightened (see straighten); where neither a
    tile's outline nor a number's ink is found, the square as it lies. `face_level`: the face's lightness
    (the middle's brightest tenth). `on_ink`: the window centred on the number's ink instead of the tile's
    outline (None where that is no better).
    `window`: tile_window's look at the square with this face_level, when taken already. `level`: the
    window left upright, whatever the outline's turn (see _hornochsen_faces.read_face)."""
    light, here, rect = window if window is not None else tile_window(seen, region, face_level)
    if rect is not None and max(rect[1]) <= OVERSIZE * TILE_MM * PLANE_PX_PER_MM:
        angle = 0.0 if level else outline_turn(rect)
        # An outline narrower than a tile lost a strip to the empty area or the board (a face washed out
        # where the reference took it for the table): centred on it, a digit falls off the window's edge
        # (dev seed 8: 18 read 8 from an outline 41 px wide, its 1 cut off).
        narrow = min(rect[1]) < NARROW * TILE_MM * PLANE_PX_PER_MM
        if not on_ink and not narrow:
            return _upright(light, rect[0], angle)
        # The number is printed in the tile's middle: its ink centres the window better than an outline
        # whose side ran into a neighbour or lost a strip to the empty area (where a digit falls off).
        found = ink_number(light, face_level, rect[0])
        # (Unless the ink window is asked for, only a number's two digits move it: one may be half of it.)
        inked = None if found is None or (not on_ink and found[1] < 2) else found[0]
        # A narrow outline's centre is off by up to half the strip it lost, so its ink may lie further.
        reach = RECENTRE_PX * (NARROW_REACH if narrow else 1.0)
        if inked is None:
            return None if on_ink else _upright(light, rect[0], angle)
        if numpy.hypot(inked[0] - rect[0][0], inked[1] - rect[0][1]) > reach:
            if not (on_ink and found is not None and found[1] == 2 and _near(inked, here)):
                return None if on_ink else _upright(light, rect[0], angle)
            # The outline is astray: its turn, as an oversize one's, is the tile's only when slight.
            angle = angle if abs(angle) <= OVERSIZE_TURN else 0.0
        return _upright(light, inked, angle)
    if on_ink:
        # An outline larger than a tile ran into a neighbour: ink_number from the square's centre may pair
        # one digit with a line or the neighbour's edge, from the outline's centre it finds the number's
        # two digits where they lie near the square's centre (dev seed 58 laminate, travel: a 19 beside a
        # neighbour, read 1 in a window centred on the 1 and the tile's edge, its 9 off the window's side).
        found = ink_number(light, face_level, rect[0]) if rect is not None else None
        if found is None or found[1] < 2 or not _near(found[0], here):
            return None
        angle = outline_turn(rect) if rect is not None and not level else 0.0
        return _upright(light, found[0], angle if abs(angle) <= OVERSIZE_TURN else 0.0)
    # An outline larger than a tile took in some of a neighbour or of the board between tiles washed out
    # to a face's lightness (or there is none): the number is the ink nearest the square's centre, and
    # the window is centred on it; the outline, when there is one, still tells how the tile is turned
    # when it is turned a little. Turned further, it is the shape of the tile and what it ran into (dev
    # seed 13: 79, 13 and 56 read wrong in windows turned 16-30 degrees off upright tiles).
    found = ink_number(light, face_level, here)
    inked = None if found is None else found[0]
    if found is None:
        inked = faint_ink_centre(light, face_level, here)
    elif found[1] < 2:
        # One digit at INK_LEVEL may be the darker of two printed faint: where the faint level finds two,
        # they are the number (burnt 20261138 laminate, travel edition: an 85 on a 237 face, the 8's ink
        # 148 at its darkest, broken into specks at 142, the 5 above it; centred on the 8, read 8).
        faint = faint_ink_number(light, face_level, here)
        if faint is not None and faint[1] == 2:
            inked = faint[0]
    angle = outline_turn(rect) if rect is not None and not level else 0.0
    if inked is None:
        # With no outline either: a face the reference took for the empty area but round its number,
        # printed faint (lighter than INK_LEVEL of the face). The digit reader takes its face and ink
        # levels from the window's middle, where the number is, and may still read it (dev seed 13,
        # printed table: 24 and 39 read empty).
        return _upright(light, here, 0.0) if rect is None else _upright(light, rect[0], angle)
    return _upright(light, inked, angle if abs(angle) <= OVERSIZE_TURN else 0.0)


def _near(inked: tuple[float, float], here: tuple[float, float]) -> bool:
    """Whether a number's two digits of ink lie within RECENTRE_PX of the square's centre: an outline of a
    tile's size may still be the wrong shape (a cloth's blotches the reference left joined to half the
    face: burnt 20261139 gingham, a 73 read 7 from an outline 23 px off its ink, the 3 off the window's
    side), and a number's ink where its square lies is the tile's."""
    return bool(numpy.hypot(inked[0] - here[0], inked[1] - here[1]) <= RECENTRE_PX)


def outline_turn(rect: RotatedRect) -> float:
    """The turn (degrees, -45 to 45) from upright of a tile's outline."""
    return ((rect[2] + 45) % 90) - 45


def ink_tile(window: TileWindow, face_level: float) -> FloatArray | None:
    """The window centred on the number's ink nearest the square's centre, whatever outline was found
    (None where no digit-sized ink lies near it): as a player reads the number printed in the middle of
    the tile lying there. An outline of a tile's size may still be off (a face torn where the reference
    took strips of it for the empty area: played slots on linen and gingham, dev seeds 13 and 21, whose
    outlines lay 20-25 pixels off the tile and 30 degrees askew, so 79, 84 and 98 fell off their windows),
    and normalised_tile's ink is looked for about that outline's centre only."""
    light, here, rect = window
    found = ink_number(light, face_level, here, PAIR_WIDE_MM)
    if found is None:
        return None
    inked = found[0]
    angle = ((rect[2] + 45) % 90) - 45 if rect is not None else 0.0
    return _upright(light, inked, angle if abs(angle) <= OVERSIZE_TURN else 0.0)


def evened(window: TileWindow) -> TileWindow:
    """The window with its lightness divided by the face's round each pixel (the window closed by a disc
    wider than a digit's stroke: ink gone, face and shadow kept), scaled to EVEN_LEVEL. A tile in a
    shadow's edge (light wood, dev seed 13: a row's tiles at 60-110 with their lower halves darker) has
    its face darker than the window's brightest tenth's ink level, all of it ink at one level; evened,
    its digits stand out of it as a player sees them."""
    light = window.light
    face = cv2.morphologyEx(light, cv2.MORPH_CLOSE, _EVEN_DISC)
    even = cv2.divide(light, numpy.maximum(face, 1), scale=EVEN_LEVEL)
    return TileWindow(numpy.asarray(even, numpy.uint8), window.here, window.rect)


EVEN_LEVEL = 200.0
"""The lightness an evened window's face is scaled to."""
EVEN_DISC_MM = 6.0
"""The disc closing a window to its face: wider than a blurred digit's stroke (2-4 mm), narrower than the
tile (whose shadow's edge it follows)."""
_EVEN_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(EVEN_DISC_MM * PLANE_PX_PER_MM) | 1,) * 2)


PAIR_WIDE_MM = 24.0
"""A number's two digits blurred into one shape of ink are this wide at most (each 6-8 mm wide, 1.5-3 mm
apart; a tile is 26 mm): ink_tile takes such a shape for the number (dev seeds 13 and 21: 84 and 98 blurred
together on linen and gingham, 15 mm wide and more, were no digit-sized ink)."""


NARROW = 0.85
"""An outline whose shorter side is less than this share of a tile's lost a strip (dev seeds 5, 8, 13: faces'
outlines' shorter sides are 1.02 of a tile at the median, 0.885 at the 5th percentile, 2 % under 0.85; at
0.9 the windows of whole tiles moved too, and a frame fewer was read)."""
NARROW_REACH = 1.5
"""A narrow outline's number may lie this many times RECENTRE_PX from its centre."""
OVERSIZE_TURN = 10.0
"""An oversize outline's turn (degrees) is the tile's up to this; beyond, the window is left upright."""


RECENTRE_PX = 10.0 * PLANE_PX_PER_MM
"""A number's ink lies this close to its tile outline's centre at most (a found outline off by a strip of a
few millimetres); ink further off belongs to a neighbour."""


def middle_of(image: numpy.typing.NDArray[Any], share: float) -> numpy.typing.NDArray[Any]:
    height, width = image.shape[:2]
    dy, dx = round(height * (1 - share) / 2), round(width * (1 - share) / 2)
    return image[dy : height - dy, dx : width - dx]


BRIGHT_SHARES = (0.65, 0.85, 0.93)
"""The face is the brightest thing in its square: a table of a similar hue is darker than the first share of
the lightness of the crop's brightest tenth; the later ones outline a face that ran into its surround."""
OVERSIZE = 1.2
"""A face outline this much larger than a tile has taken in some of its surround."""

RotatedRect = tuple[tuple[float, float], tuple[float, float], float]


def _face_rect(
    mask: numpy.typing.NDArray[numpy.uint8], centre: tuple[float, float] | None = None
) -> RotatedRect | None:
    """The minimum-area rectangle of the largest shape of the bright face pixels (`mask`, see _shaped; with
    `centre`, the largest of those reaching within a few millimetres of it: not a neighbour's tile), when
    it is of a tile's size."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    if centre is None:
        largest = max(contours, key=cv2.contourArea)
    else:
        # The largest shape near the centre: shapes are tried largest first (most are specks, and the
        # distance test costs more than the area), the first near one kept (max's pick among equal areas).
        near = -NEAR_MM * PLANE_PX_PER_MM
        areas = [cv2.contourArea(c) for c in contours]
        order = sorted(range(len(contours)), key=lambda k: -areas[k])
        chosen = next((k for k in order if cv2.pointPolygonTest(contours[k], centre, True) >= near), None)
        if chosen is None:
            return None
        largest = contours[chosen]
    (cx, cy), (w, h), angle = cv2.minAreaRect(largest)
    if not 0.75 * TILE_MM * PLANE_PX_PER_MM < min(w, h) <= max(w, h) < 1.45 * TILE_MM * PLANE_PX_PER_MM:
        return None
    return (cx, cy), (w, h), angle


def straighten(
    crop: Frame,
    face_mask: numpy.typing.NDArray[numpy.bool_],
    light: Frame | None = None,
    centre: tuple[float, float] | None = None,
    brightest: float | None = None,
) -> FloatArray | None:
    """The tile's lightness (`light`, by default the crop's grey), turned upright and centred, with a
    margin; None when no tile is found. With `centre`, the tile is the one there (see _face_rect).
    `brightest`: the face's lightness when known (else the crop's brightest tenth)."""
    if light is None:
        light = numpy.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), numpy.uint8)
    rect = _tile_rect(light, face_mask, centre, brightest)
    if rect is None:
        return None
    (cx, cy), _, angle = rect
    return _upright(light, (cx, cy), ((angle + 45) % 90) - 45)  # the nearest upright: tiles lie square-ish


def _tile_rect(
    light: Frame,
    face_mask: numpy.typing.NDArray[numpy.bool_] | numpy.typing.NDArray[numpy.uint8] | None,
    centre: tuple[float, float] | None,
    brightest: float | None,
    shaped: numpy.typing.NDArray[numpy.uint8] | None = None,
) -> RotatedRect | None:
    """The outline of the tile's face (see straighten). `shaped`: _shaped of the face, when made already
    (then `face_mask` is not looked at)."""
    if brightest is None:
        brightest = float(numpy.partition(light.ravel(), light.size * 9 // 10)[light.size * 9 // 10])
    rect = None
    if shaped is None:
        assert face_mask is not None, "a face's mask or its shaped lightness is needed"
        shaped = _shaped(light, numpy.asarray(face_mask, numpy.uint8))
    # On a raw plane, what outlines no tile at the first share is no tile (a table's grain lit up would
    # show one at a tighter share); on a normalised one the table is gone and tighter shares may be tried.
    for share in BRIGHT_SHARES if centre is not None else BRIGHT_SHARES[:2]:
        # (cv2's threshold on bytes, 0/1: as numpy's comparison, in fewer calls.)
        bright = numpy.asarray(cv2.threshold(shaped, share * brightest, 1, cv2.THRESH_BINARY)[1], numpy.uint8)
        found = _face_rect(bright, centre)
        if found is None and rect is None and centre is None:
            return None
        rect = found if found is not None else rect
        if rect is not None and max(rect[1]) <= OVERSIZE * TILE_MM * PLANE_PX_PER_MM:
            break
        # The face ran into a surround of its colour and nearly its lightness (a light table, the board
        # between two tiles): only the face's own lightness outlines the tile then.
    return rect


def _shaped(light: Frame, faces: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """The face's lightness (0 off `faces`), closed and opened: thresholded at a share, the bright face
    pixels with the ink inside the face closed (it is part of the tile) and thin bridges to look-alike
    surroundings cut. (Flat morphology commutes with a threshold: the same pixels as closing and opening
    each share's bright pixels, for the morphology's cost once a tile, not once a share.)"""
    return shaped_tiles(numpy.asarray(cv2.bitwise_and(light, light, mask=faces), numpy.uint8))


def _upright(light: Frame, centre: tuple[float, float], angle: float) -> FloatArray:
    """The tile's lightness about its centre, turned by `angle` (degrees) and cut out with a margin."""
    cx, cy = centre
    # A margin round the tile: a tile found a little off centre still has its digits clear of the sides.
    side = round((TILE_MM + 2 * STRAIGHT_MARGIN_MM) * PLANE_PX_PER_MM)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    matrix[0, 2] += side / 2 - cx
    matrix[1, 2] += side / 2 - cy
    turned = cv2.warpAffine(
        light, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return numpy.asarray(turned, dtype=numpy.float32)
