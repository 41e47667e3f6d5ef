"""Minotaurus: faint rows of ring pips read again unfilled, where the frame's faces show ring pips.

`filled` makes a row of pips of any print one dark bar, so that a print's rings fit the built-in round pips'
rows; but a bar keeps only the row's length, and a ring's thin wall, blurred by the lens and the camera's
JPEG, keeps about half a solid pip's darkness: on a dark face (a travel print's navy rings on its blue) the
bar's ends are lost in the face's JPEG blocks, and a row one pip longer or shorter fits as well. Unfilled,
a row of rings shows where each pip lies, half a pitch from where a row one longer or shorter has its own:
where the faces of a frame (one print) fit rows of rings better than rows of round or square pips, a face
whose value led by little is read by rows of rings. Only rings: rows of round or square pips the bars keep
whole, and a frame voted square may be one of rings (blurred, a ring and a square are alike), while no
round or square print's frame voted rings on the generated hard sets (RING_LEAD).
"""

from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.recognisers._minotaurus_glyphs import (
    FACE_MIDDLE_PX,
    GLYPH_PX_PER_MM,
    GLYPH_WINDOW_MM,
    TAKEN_FILL_PX,
    TURNS_DEG,
    VALUE_BOX_MM,
    Glyphs,
    GreyImage,
    face_level,
)
from companion.vision.recognisers._minotaurus_pips import PIP_PITCH_MM, PIP_RADIUS_MM, PIP_ROW_MM
from companion.vision.reference import NEUTRAL_BGR

STYLES = ("ring", "round", "square")
"""The pips' shapes a print may have; the rows of each are drawn (`style_rows`). Rings first."""
RING_WALL_MM = 0.8
"""A ring pip's wall, centred on PIP_RADIUS_MM."""
ROW_BLUR_PX = 1.0
"""Blur (plane pixels) of the drawn rows and of the face before they are compared: the lens's, about."""
ROW_SLACK_PX = (3, 4)
"""How far (x, y plane pixels) a row is looked for about where the horn put it: VALUE_SLACK_PX's."""
FAINT_LEAD = 0.1
"""A face whose value led the next by less (its `value_match` confidence under 0.5 plus this) is read again
in a frame of rings. (Generated hard sets, recogniser alone on the pipeline's planes, dev 2-99 cached and
burnt 20261139-42: 18 % of travel faces so faint, 0.3 % of others'.)"""
RING_LEAD = 0.03
"""How much better the frame's clearest face must fit a row of rings than one of round or square pips (at
the rings' turn) for the frame to be of rings. (Those sets and fresh dev 19, 23, frames with a faint face:
295 of 447 travel frames so voted, none of 113 default or second print.)"""
SUPERSAMPLE = 4


@dataclasses.dataclass(frozen=True)
class FaceRow:
    """A face whose value was read: its cell, where it lies (mm), whether the reference took it mostly for
    the table, where its horn put it (glyph pixels of its `glyph_window`), its value, that value's confidence
    and its row's likeness (see value_match)."""

    item: str
    centre_mm: tuple[float, float]
    taken: bool
    at: tuple[float, float]
    value: str
    sure: float
    likeness: float


def reread_ring_rows(plane: Frame, faces: list[FaceRow], glyphs: Glyphs, values: list[int]) -> dict[str, str]:
    """The values of the frame's faint faces (FAINT_LEAD) read by rows of rings, where the frame's clearest
    face shows rings (RING_LEAD); empty where none is faint, that face shows another style or a taught look
    reads them (its own pips)."""
    faint = [face for face in faces if face.sure < 0.5 + FAINT_LEAD]
    if len(glyphs.values) != 1 or not faint:
        return {}
    # One print in a frame: the face whose row matched best shows its pips best (the filled bars say
    # nothing of the pips' shape, only of the row's length).
    clearest = max(faces, key=lambda face: face.likeness)
    window = row_window(plane, clearest)
    if window is None:
        return {}
    # Each style at the turn its rows of rings fit best (the row's tilt, whatever its pips): fewer matches.
    turn, ring = _best_turn(window, style_rows()["ring"][clearest.value])
    others = [_likeness(window, (style_rows()[style][clearest.value][turn],)) for style in STYLES[1:]]
    if ring - max(others) < RING_LEAD:
        return {}
    classes, rows = [str(v) for v in values], style_rows()["ring"]
    reread = {}
    for face in faint:
        window = row_window(plane, face)
        if window is not None:
            turn, _ = _best_turn(window, rows[face.value])
            reread[face.item] = max(classes, key=lambda name: _likeness(window, (rows[name][turn],)))
    return reread


def row_window(plane: Frame, face: FaceRow) -> GreyImage | None:
    """The face's grey about its row of pips at plane resolution (VALUE_BOX_MM, ROW_SLACK_PX wider each side,
    blurred ROW_BLUR_PX), where its horn put it; None near the plane's edge. What the reference took for the
    table in it gets the face's grey, as in `glyph_window` (`face_grey`)."""
    height, width = plane.shape[:2]
    step = round(GLYPH_WINDOW_MM * PLANE_PX_PER_MM)
    cx, cy = (round(v * PLANE_PX_PER_MM) for v in face.centre_mm)
    to_plane = PLANE_PX_PER_MM / GLYPH_PX_PER_MM
    # The glyph window's origin, as glyph_window cut it.
    x = max(0, cx - step) + face.at[0] * to_plane
    y = max(0, cy - step) + face.at[1] * to_plane
    slack_x, slack_y = ROW_SLACK_PX
    rows, columns = _row_shape()
    rows, columns = rows + 2 * slack_y, columns + 2 * slack_x
    # Blurred with a margin about it, as the rows are drawn: the blur's reach of the face beside it counts.
    margin = 3
    top = round(y + VALUE_BOX_MM[1] * PLANE_PX_PER_MM) - slack_y - margin
    left = round(x + VALUE_BOX_MM[0] * PLANE_PX_PER_MM) - slack_x - margin
    if top < 0 or left < 0 or top + rows + 2 * margin > height or left + columns + 2 * margin > width:
        return None
    crop = plane[top : top + rows + 2 * margin, left : left + columns + 2 * margin]
    grey = numpy.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), numpy.uint8)
    neutral = cv2.inRange(crop, NEUTRAL_BGR, NEUTRAL_BGR) > 0
    if neutral.any():
        reach = TAKEN_FILL_PX if face.taken else FACE_MIDDLE_PX
        x0, y0 = max(0, cx - reach), max(0, cy - reach)
        about = plane[y0 : cy + reach, x0 : cx + reach]
        about_neutral = cv2.inRange(about, NEUTRAL_BGR, NEUTRAL_BGR) > 0
        about_grey = numpy.asarray(cv2.cvtColor(about, cv2.COLOR_BGR2GRAY), numpy.uint8)
        level = face_level(about_grey, about_neutral, (cx - x0, cy - y0), face.taken)
        if level is not None:
            grey[neutral] = level
    blurred = cv2.GaussianBlur(grey, (0, 0), ROW_BLUR_PX)
    return numpy.ascontiguousarray(blurred[margin:-margin, margin:-margin], numpy.uint8)


def _best_turn(window: GreyImage, rows: tuple[GreyImage, ...]) -> tuple[int, float]:
    """Which of a value's rows (one a turn) fits the window best, and its likeness."""
    likenesses = [_likeness(window, (row,)) for row in rows]
    best = max(range(len(rows)), key=likenesses.__getitem__)
    return best, likenesses[best]


def _likeness(window: GreyImage, rows: tuple[GreyImage, ...]) -> float:
    """The best likeness (NCC) of any of the drawn rows (a value's, turned) anywhere in the window."""
    return max(float(cv2.minMaxLoc(cv2.matchTemplate(window, row, cv2.TM_CCOEFF_NORMED))[1]) for row in rows)


def _row_shape() -> tuple[int, int]:
    x0, y0, x1, y1 = VALUE_BOX_MM
    return round((y1 - y0) * PLANE_PX_PER_MM), round((x1 - x0) * PLANE_PX_PER_MM)


@functools.cache
def style_rows() -> dict[str, dict[str, tuple[GreyImage, ...]]]:
    """Each style's rows of 1-5 pips, dark on a light face at plane resolution: VALUE_BOX_MM of a face drawn
    upright, turned each of TURNS_DEG, blurred ROW_BLUR_PX."""
    return {
        style: {str(value): _turned_rows(_face(style, value)) for value in range(1, 6)} for style in STYLES
    }


def _face(style: str, value: int) -> GreyImage:
    scale = PLANE_PX_PER_MM * SUPERSAMPLE
    side = round(2 * GLYPH_WINDOW_MM * PLANE_PX_PER_MM) * SUPERSAMPLE
    face = numpy.full((side, side), 235, numpy.uint8)
    radius = round(PIP_RADIUS_MM * scale)
    for n in range(value):
        x = (n - (value - 1) / 2) * PIP_PITCH_MM
        centre = (round(side / 2 + x * scale), round(side / 2 + PIP_ROW_MM * scale))
        if style == "ring":
            cv2.circle(face, centre, radius, 30, round(RING_WALL_MM * scale), cv2.LINE_AA)
        elif style == "round":
            cv2.circle(face, centre, radius, 30, -1, cv2.LINE_AA)
        else:
            corners = (centre[0] - radius, centre[1] - radius), (centre[0] + radius, centre[1] + radius)
            cv2.rectangle(face, corners[0], corners[1], 30, -1, cv2.LINE_AA)
    small = cv2.resize(face, (side // SUPERSAMPLE,) * 2, interpolation=cv2.INTER_AREA)
    return numpy.asarray(small, numpy.uint8)


def _turned_rows(face: GreyImage) -> tuple[GreyImage, ...]:
    size = face.shape[0]
    x0, y0, x1, y1 = (round(size / 2 + v * PLANE_PX_PER_MM) for v in VALUE_BOX_MM)
    rows = []
    for turn in TURNS_DEG:
        spin = cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), turn, 1.0)
        turned = cv2.warpAffine(face, spin, (size, size), borderMode=cv2.BORDER_REPLICATE)
        row = cv2.GaussianBlur(turned[y0:y1, x0:x1], (0, 0), ROW_BLUR_PX)
        rows.append(numpy.ascontiguousarray(row, numpy.uint8))
    return tuple(rows)
