"""Minos: where the dice lie in the tray's plane, and each die's top cut out square.

Two planes reach the recogniser. A normalised one (the empty tray learned at setup, see
companion/vision/reference.py) has every pixel that matches the empty table replaced by NEUTRAL_BGR:
what is left is dice, their sides and stray bits of change. Dice stand 18 mm tall, so their tops are
seen displaced outward from under the camera, and their sides show beside them; a top is the bright
part of what is left (the sides face away from the light above, and under canonical light a die's top
is its brightest part), so each left-over blob is cut at a share of its own bright level and each
bright part of a die's size is a top. All tops lie in one plane, so they share one size in the plane
(the camera sees them from the same height): the frame's typical top gives every die its scale.

A plane without a reference (the camera as it is) has the tray's felt around the dice: a top-hat
filter (the image less its opening by a square larger than a die) keeps what is small and bright,
Otsu's threshold splits it, and blobs of a die's size and squareness are the dice.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy
import numpy.typing
from cv2.typing import MatLike

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.components import dimension_mm, minos_tray_mm
from companion.vision.reference import NEUTRAL_BGR

GreyImage = numpy.typing.NDArray[numpy.uint8]
Mask = numpy.typing.NDArray[numpy.bool_]

DIE_MM = dimension_mm("minos", "die")
PLANE_MM = (280.0, 180.0)
TRAY_MM = minos_tray_mm(PLANE_MM)
"""The tray's inside (x0, y0, x1, y1), clear of the corner markers: the dice lie in it."""
DICE = 6
COARSE_PX_PER_MM = 1.0
SEARCH_BEYOND_TRAY_MM = 8.0
"""Without a reference, dice are looked for this far beyond the tray's inside too (the lens bends the
edges a little)."""
NEUTRAL_SHARE = 0.3
"""A plane exactly NEUTRAL_BGR over this share of it was normalised (a camera picture is never that flat)."""
TOP_LEVEL = 0.8
"""A die's top is where a blob is at least this share of its bright level (its 90th percentile): the
sides, in the light from above, are darker by a third or more."""
TRIM_MM = 7.0
"""What hangs on to a top's bright part thinner than this is no top (see _bright_tops)."""
BRIDGE_MM = 5.0
"""Dark gaps in a top's bright part up to this wide are bridged (a stroke of the symbol near its edge)."""
WHOLE_TOP = 0.6
"""A solid part at least this share of a die's area is a top seen (nearly) whole."""
LEAST_SCALE = 0.95
MOST_SCALE = 1.25
"""Bounds of a top's side in the plane against DIE_MM (see _normalised_dice)."""
SMALLEST_BLOB = 0.4
"""Blobs under this share of a die's area are no die (noise, a scrap of shadow)."""
TOP_SHARE = 0.5
"""A blob's bright level is its 90th percentile, and in a blob of many dice's area also that of its
brightest pixels over this share of a die's area."""
ODD_PART = 0.8
SQUARE_PART = 0.8
"""A solid part whose sides differ more than this, or which fills less of its rectangle, is no plain
top (see _squared)..."""
CORE_SHARE = 0.8
"""...and is opened again by a disc of this share of a die's side."""
STROKE_MM = 4.0
"""What is thinner than this hangs on to a top partly seen, and is no part of it (see _solid_parts)."""
HULL_SCALE = 1.15
"""The hull of a C's arms longer than this times a top's largest side spans more than a top (see
_solid_parts)."""
SPARE_TOPS = 3
"""Tops beyond the dice's number kept (see find_tops)."""
ANOTHER_DIE = 2.0
"""What is left of a blob once its tops are taken out is cut again at its own level when it is this many
dice's areas at least: another die, its top and its side (see _bright_tops)."""
SMALLEST_TOP = 0.3
"""Bright parts under this share of a die's area are no top (a glint on a side)."""


@dataclasses.dataclass(frozen=True)
class FoundDie:
    centre_px: tuple[float, float]
    """In plane pixels."""
    angle_deg: float
    side_px: float = DIE_MM * PLANE_PX_PER_MM
    """Side of the die's top as seen in the plane (a top stands above it, so it looks larger)."""


@dataclasses.dataclass(frozen=True)
class _Top:
    centre: tuple[float, float]
    size: tuple[float, float]
    angle: float
    area: float
    blob_centre: tuple[float, float]
    """The centre of all that differs there: the top, and the sides and foot seen beside it (nearer the
    point under the camera)."""

    @property
    def squareness(self) -> float:
        return self.area / max(self.size[0] * self.size[1], 1e-6)

    @property
    def side(self) -> float:
        return (self.size[0] + self.size[1]) / 2

    def typical(self, die_px: float) -> bool:
        """Whether this is a top seen whole: square, solid, of a die's size (at the height of a top)."""
        return (
            self.squareness > 0.8 and max(self.size) < 1.2 * min(self.size) and 0.8 < self.side / die_px < 1.4
        )


def neutral_mask(plane: Frame) -> Mask:
    """Where the plane is exactly the reference's neutral background (within a grey level)."""
    low = tuple(float(v - 1) for v in NEUTRAL_BGR)
    high = tuple(float(v + 1) for v in NEUTRAL_BGR)
    return numpy.asarray(cv2.inRange(plane, low, high) > 0, numpy.bool_)


def is_normalised(neutral: Mask) -> bool:
    return bool(numpy.count_nonzero(neutral) >= NEUTRAL_SHARE * neutral.size)


def find_dice(plane: Frame, neutral: Mask | None = None) -> list[FoundDie]:
    """The dice on the tray, left to right (the tops keep the dice's order: seen from one point, they
    are the feet's places scaled about the point under the camera)."""
    return sorted(find_tops(plane, neutral)[:DICE], key=lambda die: die.centre_px[0])


def find_tops(plane: Frame, neutral: Mask | None = None, grey: GreyImage | None = None) -> list[FoundDie]:
    """What may be dice's tops, the likeliest first by their shape: on a normalised plane up to
    SPARE_TOPS more than there are dice (a bright scrap the reference left can be as square as a top,
    and only the symbol on it tells; see MinosRecogniser.read)."""
    neutral = neutral_mask(plane) if neutral is None else neutral
    grey = numpy.asarray(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY), numpy.uint8) if grey is None else grey
    return _normalised_dice(grey, neutral) if is_normalised(neutral) else _felt_dice(grey)


# ---------------------------------------------------------------- normalised planes


def _normalised_dice(grey: GreyImage, neutral: Mask) -> list[FoundDie]:
    die_px = DIE_MM * PLANE_PX_PER_MM
    tops = _bright_tops(grey, neutral, die_px)
    typical = [top for top in tops if top.typical(die_px)]
    measured = float(numpy.median([top.side for top in typical])) if typical else die_px
    # A top stands DIE_MM above the plane, so it looks larger by H / (H - DIE_MM) from a camera at H: from
    # the lowest a camera sees the tray from, a tenth, and a wide lens near the table's edge shows the
    # tray's far side larger still (a dark-wood dev session's tops were a fifth larger, and read wrongly
    # at a bound of 1.12). A white die's sides in a light that drives them to white look like its top
    # and widen it: the bound keeps the scale a die's.
    side = min(max(measured, LEAST_SCALE * die_px), MOST_SCALE * die_px)
    # A top partly taken for table (a die the colour of the cloth beside it) is smaller or less square,
    # but still read: better a die read from most of its top than not found.
    plausible = [
        top
        for top in tops
        if max(top.size) <= 2.0 * side and min(top.size) >= 0.45 * side and top.squareness >= 0.4
    ]
    ranked = sorted(plausible, key=lambda top: -_die_likeness(top, side))
    best = _distinct(ranked, side)[: DICE + SPARE_TOPS]
    return [FoundDie(_completed(top, side, neutral), top.angle, side) for top in best]


def _die_likeness(top: _Top, side: float) -> float:
    """How much of a die's square the top's rectangle covers, times how much of that rectangle it fills:
    a long scrap of a die's area (a lit strip the reference left at the tray's edge) covers half a die."""
    cover = min(top.size[0], side) * min(top.size[1], side) / side**2
    return cover * top.squareness


def _distinct(ranked: list[_Top], side: float) -> list[_Top]:
    """The tops in rank order, less those within half a die of a better one (one die found twice)."""
    kept: list[_Top] = []
    for top in ranked:
        if all(math.dist(top.centre, other.centre) > side / 2 for other in kept):
            kept.append(top)
    return kept


def _completed(top: _Top, side: float, neutral: Mask) -> tuple[float, float]:
    """The centre of the whole top whose bright part is `top`. Where the part is shorter than a top along
    one of its axes, the rest was taken for table (a die of the colour of the cloth or paper beside it)
    and shows neutral, so the top reaches on to the side beyond which the plane is more neutral. Where it
    is longer, it took in the die's sides (as bright as the top in a light that drives both to white),
    which are seen on the side of the point under the camera, as is the foot: the top is the far end."""
    turn = numpy.radians(top.angle)
    axes = (numpy.array([numpy.cos(turn), numpy.sin(turn)]), numpy.array([-numpy.sin(turn), numpy.cos(turn)]))
    centre = numpy.array(top.centre)
    height, width = neutral.shape
    for axis, across, length, breadth in ((axes[0], axes[1], *top.size), (axes[1], axes[0], *top.size[::-1])):
        missing = side - length
        if abs(missing) < 0.1 * side:
            continue
        if missing < 0:
            away = float(numpy.dot(centre - numpy.array(top.blob_centre), axis))
            centre = centre + (1.0 if away >= 0 else -1.0) * axis * (-missing) / 2
            continue
        neutral_share = []
        for sign in (-1.0, 1.0):
            strip = [
                centre + sign * axis * (length + missing * along) / 2 + across * breadth * spread / 2
                for along in (0.3, 0.6, 0.9)
                for spread in (-0.6, -0.3, 0.0, 0.3, 0.6)
            ]
            # Beyond the plane's edge counts as neutral: a top seen far out from a low camera reaches
            # over the edge of the plane the markers span.
            missed = [
                not (0 <= x < width and 0 <= y < height) or bool(neutral[int(y), int(x)]) for x, y in strip
            ]
            neutral_share.append(sum(missed) / len(missed))
        sign = 1.0 if neutral_share[1] > neutral_share[0] else -1.0
        centre = centre + sign * axis * missing / 2
    return float(centre[0]), float(centre[1])


def _bright_tops(grey: GreyImage, neutral: Mask, die_px: float) -> list[_Top]:
    changed = cv2.morphologyEx(
        (~neutral).astype(numpy.uint8), cv2.MORPH_OPEN, numpy.ones((3, 3), numpy.uint8)
    )
    # Labels alone, and each blob's box from its outline: OpenCV's statistics cost five times the labels.
    _, labels = cv2.connectedComponents(changed, connectivity=8)
    outlines, _ = cv2.findContours(changed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    trim = TRIM_MM * PLANE_PX_PER_MM / 2
    # The bridging disc's radius: half an odd kernel's side, as when it was OpenCV's elliptic kernel
    # (half a pixel less left a top split by its symbol's stroke on a linen dev session).
    bridge = (round(BRIDGE_MM * PLANE_PX_PER_MM) | 1) / 2
    tops: list[_Top] = []
    for blob_outline in outlines:
        if cv2.contourArea(blob_outline) < SMALLEST_BLOB * die_px**2:
            continue
        x, y, width, height = cv2.boundingRect(blob_outline)
        blob = int(labels[blob_outline[0, 0, 1], blob_outline[0, 0, 0]])
        inside = labels[y : y + height, x : x + width] == blob
        window = grey[y : y + height, x : x + width]
        moments = cv2.moments(inside.view(numpy.uint8), binaryImage=True)
        middle = (moments["m10"] / moments["m00"] + x, moments["m01"] / moments["m00"] + y)
        # A top is cut at a share of its blob's bright level, and a blob of a few dice touching (a die's
        # side against the next die's top) has the level of its brightest die: a top dimmer than that (a
        # large dark symbol, a die further from the lamp) may not pass (a burnt benchmark's felt frame:
        # the die went unseen and the five right of it were read one place to the left). So the tops
        # found are taken out, with a trim's width about them, and the rest of the blob is cut again at
        # its own level; once a top seen whole is taken, only tops seen whole are taken from the rest:
        # what is left of a die found (its side) is as bright as a top in its own light. Until then the
        # rest is cut as a blob of its own: what was taken may have been a brighter scrap only (a white
        # patch the reference left, joined by a dark streak to a joker whose top had a corner taken for
        # table: a burnt benchmark's laminate frame, where the joker went unseen).
        rest = inside
        whole_taken = False
        for _ in range(DICE):
            found = []
            for part in _tops_within(rest, window, die_px, trim, bridge):
                (cx, cy), (w, h), angle = cv2.minAreaRect(part)
                area = float(cv2.contourArea(part))
                top = _Top((float(cx) + x, float(cy) + y), (float(w), float(h)), float(angle), area, middle)
                whole = top.typical(die_px)
                if whole or not whole_taken:
                    tops.append(top)
                    found.append((part, whole))
            whole_taken = whole_taken or any(whole for _, whole in found)
            # Another die left in the blob shows its top and its side: more than a die's side alone, which
            # may be as square as a top (a blob of one die was at most 2.8 dice's areas on dev sessions,
            # its top 1.2 of them). Counted first, before the rest is cut out: most blobs are one die.
            left = numpy.count_nonzero(rest) - sum(cv2.contourArea(part) for part, _ in found)
            if not found or left < ANOTHER_DIE * die_px**2:
                break
            taken = numpy.zeros(rest.shape, numpy.uint8)
            cv2.drawContours(taken, [part for part, _ in found], -1, 1, thickness=cv2.FILLED)
            rest = rest & ~_grown(taken, trim)
            if numpy.count_nonzero(rest) < ANOTHER_DIE * die_px**2:
                break
    return tops


def _tops_within(inside: Mask, window: GreyImage, die_px: float, trim: float, bridge: float) -> list[MatLike]:
    """The outlines of the tops in the blob `inside` of the window, each cut at a share of its bright
    level."""
    values = window[inside]
    if values.size < SMALLEST_TOP * die_px**2:
        return []
    # A blob of a few dice and a large scrap the reference left (a patch of the tray under changed
    # light) has two bright levels: the scrap's, which a die in shade may only just pass, and its
    # brightest die's, which the scrap does not. Both are tried; a die found at both is one (see
    # _distinct).
    area = float(values.size)
    shares = {0.1, min(0.1, TOP_SHARE * die_px**2 / area)}
    found: list[MatLike] = []
    for level in {_top_value(values, share) for share in shares}:
        bright = (inside & (window >= TOP_LEVEL * level)).astype(numpy.uint8)
        # A symbol's stroke may reach nearly to a top's edge and split its bright part: bridged, and
        # then only the outline counts (the ink inside a top is part of it).
        bright = _closed(bright, bridge)
        contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for outline in contours:
            if cv2.contourArea(outline) >= SMALLEST_TOP * die_px**2:
                found.extend(_solid_parts(outline, bright.shape, trim, die_px))
    return found


def _grown(mask: GreyImage, radius: float) -> Mask:
    """The mask grown by a disc of `radius` (through a distance transform, as _opened)."""
    return numpy.asarray(
        cv2.distanceTransform((mask == 0).astype(numpy.uint8), cv2.DIST_L2, cv2.DIST_MASK_5) <= radius,
        numpy.bool_,
    )


def _top_value(values: GreyImage, share: float) -> float:
    """The value that the brightest `share` of the values reach (a percentile, by partition)."""
    at = min(values.size - 1, int((1 - share) * (values.size - 1)))
    return float(numpy.partition(values, at)[at])


def _opened(mask: GreyImage, radius: float) -> GreyImage:
    """The mask opened by a disc of `radius`, through distance transforms (an elliptic kernel of a
    die's size costs many times more)."""
    eroded = cv2.distanceTransform(mask, cv2.DIST_L2, cv2.DIST_MASK_5) > radius
    grown = cv2.distanceTransform((~eroded).astype(numpy.uint8), cv2.DIST_L2, cv2.DIST_MASK_5) <= radius
    return (grown & (mask > 0)).astype(numpy.uint8)


def _closed(mask: GreyImage, radius: float) -> GreyImage:
    """The mask closed by a disc of `radius`, through distance transforms (see _opened)."""
    grown = cv2.distanceTransform((mask == 0).astype(numpy.uint8), cv2.DIST_L2, cv2.DIST_MASK_5) <= radius
    shrunk = cv2.distanceTransform(grown.astype(numpy.uint8), cv2.DIST_L2, cv2.DIST_MASK_5) > radius
    return numpy.asarray(shrunk | (mask > 0), numpy.uint8)


def _solid_parts(outline: MatLike, shape: tuple[int, ...], trim: float, die_px: float) -> list[MatLike]:
    """The outlines of the tops within one bright outline. A top is a solid square: what hangs on to it
    thinner than a disc of radius `trim` (a lit edge of the die's side, a scrap of lighter cloth where the
    reference was unsure) is cut off; corners stay nearly whole, and the rectangle about a rounded square
    is the square's. A top mostly taken for table, its ink open to the missing part (a C of thin arms),
    leaves nothing that solid: what is left of it spans its hull."""
    x, y, width, height = cv2.boundingRect(outline)
    pad = 1
    filled = numpy.zeros((height + 2 * pad, width + 2 * pad), numpy.uint8)
    offset = (pad - x, pad - y)
    cv2.drawContours(filled, [outline], -1, 1, thickness=cv2.FILLED, offset=offset)
    solid = _opened(filled, trim)
    parts, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x - pad, y - pad))
    found = [part for part in parts if cv2.contourArea(part) >= SMALLEST_TOP * die_px**2]
    found = [piece for part in found for piece in _squared(part, die_px)]
    if any(cv2.contourArea(part) >= WHOLE_TOP * die_px**2 for part in found):
        return found
    # The hull of the C, less what hangs on to it thinner than a stroke (a marker's thin arm the
    # reference left, which would stretch the hull past a die's size).
    arms, _ = cv2.findContours(
        _opened(filled, STROKE_MM * PLANE_PX_PER_MM / 2),
        cv2.RETR_EXTERNAL,
        cv2.CHAIN_APPROX_SIMPLE,
        offset=(x - pad, y - pad),
    )
    # A top whose symbol's stroke reaches its edge beside a strip taken for table is a C of several arms
    # (a top against a white marker sheet): their hull is the top when it is of a die's size. The widest
    # arm's alone may be a third of a top, too narrow to pass for one.
    if arms:
        whole = cv2.convexHull(numpy.vstack(arms))
        (_, _), (w, h), _ = cv2.minAreaRect(whole)
        if max(w, h) <= HULL_SCALE * MOST_SCALE * die_px and cv2.contourArea(whole) >= WHOLE_TOP * die_px**2:
            return [whole]
    widest = max(arms, key=cv2.contourArea, default=outline)
    hull = cv2.convexHull(widest if cv2.contourArea(widest) >= SMALLEST_TOP * die_px**2 else outline)
    return [hull] if cv2.contourArea(hull) >= SMALLEST_TOP * die_px**2 else found


def _squared(part: MatLike, die_px: float) -> list[MatLike]:
    """A solid part that is no square (a top joined to a bright strip as thick as a die's edge, such as
    a corner marker's arm the reference left) opened again by a disc of most of a die's side: the strip
    goes, the top stays. Kept as it was unless that leaves a top seen (nearly) whole."""
    (_, _), (w, h), _ = cv2.minAreaRect(part)
    if min(w, h) >= ODD_PART * max(w, h) and cv2.contourArea(part) >= SQUARE_PART * w * h:
        return [part]
    x, y, width, height = cv2.boundingRect(part)
    solid = numpy.zeros((height + 2, width + 2), numpy.uint8)
    cv2.drawContours(solid, [part], -1, 1, thickness=cv2.FILLED, offset=(1 - x, 1 - y))
    core = _opened(solid, CORE_SHARE * die_px / 2)
    pieces, _ = cv2.findContours(core, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x - 1, y - 1))
    whole = [piece for piece in pieces if cv2.contourArea(piece) >= WHOLE_TOP * die_px**2]
    return whole or [part]


# ---------------------------------------------------------------- planes without a reference


def _felt_dice(grey: GreyImage) -> list[FoundDie]:
    factor = COARSE_PX_PER_MM / PLANE_PX_PER_MM
    small = cv2.resize(grey, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    x0, y0, x1, y1 = (round(v * COARSE_PX_PER_MM) for v in TRAY_MM)
    reach = round(SEARCH_BEYOND_TRAY_MM * COARSE_PX_PER_MM)
    x0, y0 = max(0, x0 - reach), max(0, y0 - reach)
    tray = small[y0 : y1 + reach, x0 : x1 + reach]
    side = round(DIE_MM * 1.6 * COARSE_PX_PER_MM) | 1
    bright = cv2.morphologyEx(tray, cv2.MORPH_TOPHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
    level, _ = cv2.threshold(bright, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Half Otsu's level: a die under glare stands out less than the others, but far more than the felt.
    found = _die_blobs(numpy.asarray(bright, numpy.uint8), max(0.5 * level, 15.0), split=True)
    best = sorted(found, key=lambda pair: -pair[0])[:DICE]
    offset = (1 / factor - 1) / 2
    return [
        FoundDie(((x + x0) / factor + offset, (y + y0) / factor + offset), angle)
        for _, ((x, y), angle) in best
    ]


def _die_blobs(
    bright: GreyImage, level: float, *, split: bool
) -> list[tuple[float, tuple[tuple[float, float], float]]]:
    """Blobs brighter than `level` of a die's size and squareness: (squareness, ((x, y), angle)).

    A blob too big for a die is often a die under glare merged with the glare's bright streak; the die
    is brighter still, so the blob is split at its own Otsu level (once).
    """
    mask = (bright > level).astype(numpy.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    die_area = (DIE_MM * COARSE_PX_PER_MM) ** 2
    found: list[tuple[float, tuple[tuple[float, float], float]]] = []
    for contour in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        if split and w * h >= 1.8 * die_area:
            x, y, width, height = cv2.boundingRect(contour)
            part = numpy.where(
                mask[y : y + height, x : x + width] > 0, bright[y : y + height, x : x + width], 0
            )
            own, _ = cv2.threshold(part.astype(numpy.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            for square, ((px, py), turn) in _die_blobs(
                part.astype(numpy.uint8), max(own, level), split=False
            ):
                found.append((square, ((px + x, py + y), turn)))
            continue
        if not (0.45 * die_area < w * h < 1.8 * die_area) or max(w, h) > 1.5 * min(w, h):
            continue
        square = abs(cv2.contourArea(contour)) / max(w * h, 1e-6)
        if square >= 0.6:
            found.append((square, ((float(cx), float(cy)), float(angle))))
    return found


# ---------------------------------------------------------------- cutting a top out


def upright_cut(
    image: GreyImage,
    die: FoundDie,
    side_mm: float,
    margin_px: int,
    beyond: int | None = None,
    zoom: float = 1.0,
) -> GreyImage:
    """The square of `side_mm` (of a die's DIE_MM) about the die's centre, turned square to the plane (up
    to a quarter turn) and scaled so that the die's top is DIE_MM at plane scale; `margin_px` more on
    every side (for matching at small shifts); `beyond`: what lies beyond the plane (None: its edge
    continued); `zoom`: at this share of plane scale."""
    scale = zoom * DIE_MM * PLANE_PX_PER_MM / max(die.side_px, 1.0)
    side = round(side_mm * PLANE_PX_PER_MM * zoom) + 2 * margin_px
    turn = cv2.getRotationMatrix2D(die.centre_px, die.angle_deg, scale)
    turn[:, 2] += numpy.array([side / 2 - die.centre_px[0] - 0.5, side / 2 - die.centre_px[1] - 0.5])
    # Beyond the plane: the nearest pixels (a picture), or the value given (a mask of what is seen).
    border = cv2.BORDER_REPLICATE if beyond is None else cv2.BORDER_CONSTANT
    cut = cv2.warpAffine(
        image, turn, (side, side), flags=cv2.INTER_LINEAR, borderMode=border, borderValue=beyond or 0
    )
    return numpy.asarray(cut, numpy.uint8)


def shifted(die: FoundDie, dx: float, dy: float) -> FoundDie:
    """The die moved by (dx, dy) pixels of its upright cut (see `upright_cut`: turned and scaled)."""
    scale = DIE_MM * PLANE_PX_PER_MM / max(die.side_px, 1.0)
    turn = cv2.getRotationMatrix2D(die.centre_px, die.angle_deg, scale)[:, :2]
    offset = numpy.linalg.solve(turn, numpy.array([dx, dy], numpy.float64))
    x, y = die.centre_px
    return dataclasses.replace(die, centre_px=(x + float(offset[0]), y + float(offset[1])))
