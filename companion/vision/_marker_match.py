"""Finding one corner marker by its print where the others (or the last frame) say it lies.

OpenCV's detector finds a marker from the outline of its black square. Where something dark touches that
square (a tile laid over the corner of a sheet laid by its cut edge, a tile's shadow, a dark board rim),
the outline runs on into it, is no quadrilateral, and no setting of the detector finds the marker, though
its print is plainly there. Here the neighbourhood is seen square-on through a guess of where the marker
lies, and the marker's own print (its id's cells, a cell of white around) is slid over it at a few turns:
a dark patch that merely touches the square spoils a corner of the match, not the match.
"""

from __future__ import annotations

import functools
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision._marker_finder import Snapshot
from companion.vision.base import ARUCO_DICTIONARY, Frame

Points = numpy.typing.NDArray[numpy.float32]
Image = numpy.typing.NDArray[numpy.float32]

CELL_PX = 4
"""Pixels per marker cell in the square-on view: the farthest marker of a 1280x720 frame has cells of
4-6 px."""
QUIET = 0
"""Cells of white paper round the print in the template: none, as a sheet cut along the black square's
outer edges (as the printed sheet is) has no white beyond them, and a tile may lie against its inner
sides; the code cells within the black border place it."""
TURNS_DEG = (-4.0, 0.0, 4.0)
"""Turns tried between the guess and the marker (the fine fit after takes up the rest, 2 degrees and
more): a sheet laid by hand is turned up to 3 degrees, and a guess from one marker follows that one's
turn. Seven turns 2 degrees apart placed the corners no better (hard seed-5 frames: median 0.76 px)."""
MIN_SCORE = 0.7
"""Least normalised correlation taken as the marker: its print at the right place scores 0.8-0.95 even
blurred with a corner covered; the table, tiles or another id's print at most about 0.5."""


MIN_CODE_SCORE = 0.6
"""Least correlation of the code cells alone (see _code_score): the right id scores 0.8 or more, another
id's code at most about 0.3."""


@functools.cache
def _template(marker_id: int, turn_deg: float) -> numpy.typing.NDArray[numpy.float32]:
    """The marker's print (its black border and code), turned about its centre (CELL_PX per cell), with
    QUIET cells of white paper round it."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    cells = int(dictionary.markerSize) + 2
    side = (cells + 2 * QUIET) * CELL_PX
    upscale = 8
    quiet = QUIET * CELL_PX * upscale
    printed: Any = cv2.aruco.generateImageMarker(dictionary, marker_id, cells * CELL_PX * upscale)
    printed = cv2.copyMakeBorder(printed, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)
    centre = ((side * upscale - 1) / 2.0, (side * upscale - 1) / 2.0)
    turned = cv2.warpAffine(
        printed,
        cv2.getRotationMatrix2D(centre, -turn_deg, 1.0),
        printed.shape[::-1],
        flags=cv2.INTER_LINEAR,
        borderValue=255,
    )
    small = cv2.resize(turned, (side, side), interpolation=cv2.INTER_AREA)
    return numpy.asarray(small, dtype=numpy.float32)


_LAST_FOUND: dict[int, Snapshot] = {}
"""Each marker's neighbourhood where match_marker last found it: the calibrator looks for a marker found by
its print there again in the next frame (its corners as `expected`)."""


def forget_matches() -> None:
    """Forget where match_marker found each marker (it then searches afresh)."""
    _LAST_FOUND.clear()


def match_marker(frame: Frame, marker_id: int, expected: Points, reach: float = 1.0) -> Points | None:
    """The marker's corners in frame pixels (in the order of `expected`, its TL, TR, BR, BL as printed),
    found by its print within `reach` of its sides around `expected` (its corners as guessed); None when
    nothing there matches it well (MIN_SCORE, MIN_CODE_SCORE).

    Asked for it at the very corners it was last found at, and its neighbourhood unchanged there (the
    camera and the marker at rest; Snapshot.still), the same corners come back at once: the match and
    its fine fit cost a millisecond a frame for a marker a tile touches."""
    last = _LAST_FOUND.get(marker_id)
    if last is not None and last.still(frame, expected):
        return last.corners.copy()
    found = _matched(frame, marker_id, expected, reach)
    if found is not None:
        _LAST_FOUND[marker_id] = Snapshot(frame, found)
    return found


def _matched(frame: Frame, marker_id: int, expected: Points, reach: float) -> Points | None:
    """match_marker's search."""
    dictionary_cells = _template(marker_id, 0.0).shape[0] // CELL_PX - 2 * QUIET
    square = numpy.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=numpy.float32) * dictionary_cells * CELL_PX
    # The square-on view: the guessed marker in its middle, `reach` sides of room on each side, plus the
    # template's own white.
    room = (reach * dictionary_cells + QUIET) * CELL_PX
    size = round(dictionary_cells * CELL_PX + 2 * room)
    to_frame = cv2.getPerspectiveTransform(square + room, expected.astype(numpy.float32))
    view: Any = cv2.warpPerspective(
        frame,
        to_frame,
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    if view.ndim == 3:  # the frame's colours: only the view's few pixels are made grey
        view = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    view = view.astype(numpy.float32)
    best: tuple[float, float, tuple[int, int], Any] | None = None
    for turn in TURNS_DEG:
        template = _template(marker_id, turn)
        scores = cv2.matchTemplate(view, template, cv2.TM_CCOEFF_NORMED)
        _low, high, _at_low, at = cv2.minMaxLoc(scores)
        if best is None or high > best[0]:
            best = (float(high), turn, (int(at[0]), int(at[1])), scores)
    assert best is not None
    score, turn, (x, y), scores = best
    if score < MIN_SCORE or _code_score(view, marker_id, turn, x, y) < MIN_CODE_SCORE:
        return None
    dx, dy = _peak_offset(scores, x, y)
    half = (dictionary_cells + 2 * QUIET) * CELL_PX / 2.0
    centre = numpy.array([x + dx + half - 0.5, y + dy + half - 0.5], dtype=numpy.float32)
    angle = numpy.radians(turn)
    rotation = numpy.array(
        [[numpy.cos(angle), -numpy.sin(angle)], [numpy.sin(angle), numpy.cos(angle)]], dtype=numpy.float32
    )
    # The template's pixels to the view's: the best turn and place, then fitted finely (ECC, an affine
    # map: the turns tried are 2 degrees apart and the guess's size may be a few per cent off).
    coarse = numpy.hstack([rotation, (centre - rotation @ numpy.array([half - 0.5, half - 0.5]))[:, None]])
    warp = _aligned(view, _template(marker_id, 0.0), coarse.astype(numpy.float32))
    printed = square + QUIET * CELL_PX - 0.5
    corners = printed @ warp[:, :2].T + warp[:, 2]
    return numpy.asarray(
        cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_frame), dtype=numpy.float32
    ).reshape(4, 2)


def _aligned(
    view: numpy.typing.NDArray[numpy.float32],
    template: numpy.typing.NDArray[numpy.float32],
    coarse: numpy.typing.NDArray[numpy.float32],
) -> numpy.typing.NDArray[numpy.float32]:
    """The affine map from the template's pixels to the view's that best lays the template on the view,
    starting from `coarse`; `coarse` itself when the fit fails or wanders off (more than a cell, or a
    tenth in size: not this marker)."""
    warp: Any = coarse.copy()
    criteria = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 30, 1e-4)
    try:
        _score, warp = cv2.findTransformECC(  # type: ignore[call-overload]
            template, view, warp, cv2.MOTION_AFFINE, criteria, None, 1
        )
    except cv2.error:
        return coarse
    middle = numpy.array([template.shape[1] / 2.0, template.shape[0] / 2.0], dtype=numpy.float32)
    moved = float(numpy.linalg.norm((warp[:, :2] - coarse[:, :2]) @ middle + warp[:, 2] - coarse[:, 2]))
    scale = float(numpy.sqrt(abs(numpy.linalg.det(warp[:, :2]))))
    if moved > CELL_PX or not 0.9 <= scale <= 1.1:
        return coarse
    return numpy.asarray(warp, dtype=numpy.float32)


def _code_score(
    view: numpy.typing.NDArray[numpy.float32], marker_id: int, turn: float, x: int, y: int
) -> float:
    """Correlation of the marker's code cells alone (inside its black border) with the view where the
    whole print matched best: the border and the paper match any id's print; the code only this id's."""
    template = _template(marker_id, turn)
    inner = slice((QUIET + 1) * CELL_PX, template.shape[0] - (QUIET + 1) * CELL_PX)
    code = template[inner, inner]
    seen = view[y : y + template.shape[0], x : x + template.shape[1]][inner, inner]
    scores = cv2.matchTemplate(
        numpy.ascontiguousarray(seen), numpy.ascontiguousarray(code), cv2.TM_CCOEFF_NORMED
    )
    return float(scores.max())


def _peak_offset(scores: numpy.typing.NDArray[numpy.float32], x: int, y: int) -> tuple[float, float]:
    """Sub-pixel offset of the peak at (x, y): a parabola through it and its neighbours on each axis."""

    def along(before: float, at: float, after: float) -> float:
        curve = before - 2 * at + after
        return 0.0 if curve >= 0 else float(numpy.clip(0.5 * (before - after) / curve, -0.5, 0.5))

    height, width = scores.shape
    dx = along(scores[y, x - 1], scores[y, x], scores[y, x + 1]) if 0 < x < width - 1 else 0.0
    dy = along(scores[y - 1, x], scores[y, x], scores[y + 1, x]) if 0 < y < height - 1 else 0.0
    return dx, dy
