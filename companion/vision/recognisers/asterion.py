"""Asterion: the labyrinth tiles on the grid, their design, colour and rotation.

Items: "cell:X,Y" for every cell of a grid of `columns` x `rows` cells (options,
default 9 x 7) around the Minotaur tile at (0, 0), x growing eastwards and y
southwards as in the game. Labels: "<colour>:<design>@<rotation>" (a player's
tile: its set's colour, the design's name from seeds/asterion.toml, quarter turns
clockwise 0-3), "minotaur@0", or "empty". A tile that looks the same turned (a
crossroads, a corridor) gets the smallest rotation that shows the same paths, as
the game counts them (`distinct_rotations`).

How: the four corners of a tile show its set's colour (paths never reach a
corner), so each cell's corners, labelled by the nearest colour prototype in
CIELAB, tell an empty cell from a tile and give its colour. The tile is then
matched by normalised correlation against templates of every design and rotation
in that colour; the built-in templates are rendered from the seed's designs, and
teaching adds the user's own tiles (seen at every rotation).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.games.asterion.tiles import COLOURS, DESIGN_INDEX, DESIGNS, MINOTAUR_DESIGN, turned_paths
from companion.vision.base import (
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    ItemRegion,
    Layout,
    Profile,
    Reading,
    decode_template,
    encode_template,
    register_recogniser,
)
from companion.vision.recognisers._lab import (
    FloatArray,
    balanced,
    bgr_to_lab,
    learn_colour,
    neutral_gains,
    palette_for,
    to_lab,
)

GAME = "asterion"
EMPTY = "empty"
MINOTAUR = "minotaur"
TABLE = "table"

CELL_MM = 44.0
TILE_MM = 41.0
MARGIN_MM = 36.0
"""Clear of the 30 mm corner markers."""
CORNER_INSET_MM = 3.5
"""Where a tile's corners are sampled: this far inside the tile's edge, in its coloured frame."""
CORNER_PATCH_MM = 2.0
TEMPLATE_PX = 40
"""A cell is compared with the templates at TEMPLATE_PX x TEMPLATE_PX (1.1 mm per pixel)."""
SHIFT_PX = 2
"""How far (template pixels) a tile may lie off its cell's centre: matching searches these shifts."""
CLOSE_CALL = 0.08
"""Templates scoring within this of the best are told apart by the pixels where they differ."""
TILE_CONTRAST = 10.0
"""Least spread of grey inside a cell with a tile (walls against paths); the bare table is flat."""
TILE_VOTE = 0.4
"""A cell holds a tile when this share of its corner pixels shows one tile colour."""

ROUGH_CONTRAST = 8.0
"""A cell whose corners show no tile colour clearly (under TILE_VOTE) is empty when the spread of grey
inside it, read roughly from the plane, stays under this (tiles show 12+). Not when its corners show
the table: a green frame in shadow showed it at 0.96 of them (hard generated frames, seed 11)."""
TILE_LIKENESS = 0.5
"""Otherwise it holds a tile when its inside, lined up, correlates this well with a design: on hard
generated frames of seeds 1, 7 and 11 the bare table under glare or shadow stayed below 0.41 (16,000
cells), tiles scored 0.64 and more."""

FAR_LIKELIER = 0.1
"""How much better a cell must correlate with the designs of its corners' second nearest frame colour
to be read in it (red in shadow against the Minotaur's purple: 0.70 against 0.47)."""

FRAME_LABELS = (*COLOURS, MINOTAUR)
"""The colours a tile's frame can have: each set's, and the Minotaur tile's."""
OTHER_LABELS = (TABLE, "stone", "path")
"""Surfaces a corner sample may also see when a tile lies off its cell: table, a wall, a path."""

_CELL = re.compile(r"^cell:(-?\d+),(-?\d+)$")


def parse_cell(item_id: str) -> tuple[int, int]:
    match = _CELL.match(item_id)
    if not match:
        raise ValueError(f"asterion: {item_id!r} is not a cell item (cell:X,Y)")
    return int(match.group(1)), int(match.group(2))


@functools.cache
def canonical_rotation(design: int, rotation: int) -> int:
    """The smallest rotation showing the same paths as `rotation` (the game's notion of the same)."""
    look = frozenset(turned_paths(design, rotation % 4))
    return next(r for r in range(4) if frozenset(turned_paths(design, r)) == look)


def tile_label(colour: str | None, design: int, rotation: int) -> str:
    """The label of a placed tile; colour None (and design MINOTAUR_DESIGN) for the Minotaur tile."""
    if design == MINOTAUR_DESIGN:
        return f"{MINOTAUR}@0"
    return f"{colour}:{DESIGNS[design].name}@{canonical_rotation(design, rotation)}"


def parse_label(label: str) -> tuple[str, int, int] | None:
    """(frame colour, design number, rotation) of a tile label; None for "empty"."""
    if label == EMPTY:
        return None
    if label == f"{MINOTAUR}@0":
        return MINOTAUR, MINOTAUR_DESIGN, 0
    head, _, turn = label.rpartition("@")
    colour, _, name = head.partition(":")
    if colour not in COLOURS or name not in DESIGN_INDEX or turn not in ("0", "1", "2", "3"):
        raise ValueError(
            f"asterion: {label!r} is not a tile label: use '<colour>:<design>@<0-3>', 'minotaur@0' or 'empty'"
        )
    return colour, DESIGN_INDEX[name], int(turn)


def asterion_layout(columns: int, rows: int) -> Layout:
    if not (1 <= columns <= 25 and 1 <= rows <= 25):
        raise ValueError(f"asterion layout: columns and rows must be 1 to 25, not {columns} x {rows}")
    x_min, y_min = -(columns // 2), -(rows // 2)
    items = {
        f"cell:{x},{y}": ItemRegion(
            (MARGIN_MM + (x - x_min + 0.5) * CELL_MM, MARGIN_MM + (y - y_min + 0.5) * CELL_MM),
            (CELL_MM, CELL_MM),
        )
        for y in range(y_min, y_min + rows)
        for x in range(x_min, x_min + columns)
    }
    return Layout((2 * MARGIN_MM + columns * CELL_MM, 2 * MARGIN_MM + rows * CELL_MM), items)


# ---------------------------------------------------------------- templates


CHANNEL_WEIGHTS = (1.0, 0.8, 0.8)
"""Weights of CIELAB's L, a and b in a template: colour tells a chest from a prisoner, a wing from a path."""


_WEIGHTS = numpy.array(CHANNEL_WEIGHTS, numpy.float32)


def _channels(picture: FloatArray) -> FloatArray:
    """A Lab picture as (3, pixels), channel after channel: numpy reduces rows far faster than columns."""
    return numpy.ascontiguousarray(picture.reshape(-1, 3).T, dtype=numpy.float32)


def _features(window: FloatArray) -> FloatArray:
    """A cell's Lab picture (TEMPLATE_PX square) as one vector: each channel centred and scaled, then all."""
    channels = _channels(window)
    centred = channels - channels.mean(axis=1, keepdims=True)
    norms = numpy.sqrt((centred * centred).sum(axis=1, keepdims=True))
    vector = (centred * (_WEIGHTS[:, None] / (norms + 1.0))).ravel()
    length = math.sqrt(float(vector @ vector))
    return numpy.asarray(vector / length if length > 0 else vector, numpy.float32)


def _shrunk(picture: Frame, side: int) -> Frame:
    """A square picture (an even side) shrunk to `side`: halved by area averaging, then to size by
    straight lines. OpenCV averages areas ten times faster by a whole factor than by 2.2 (a cell's
    window: 4 us, not 45; the figures stay within a frame on seeds 1, 3, 7 and 11)."""
    height, width = picture.shape[:2]
    halved = cv2.resize(picture, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    return numpy.asarray(cv2.resize(halved, (side, side), interpolation=cv2.INTER_LINEAR), numpy.uint8)


def _template_image(cell: Frame) -> Frame:
    """A cell's picture (BGR, one cell at plane scale) as a template: 8-bit Lab at template scale."""
    # Area averaging all the way: templates are made once, and the smoothest read best (shrunk
    # like a cell's window, seed 1 read one more frame wrong).
    small = numpy.asarray(
        cv2.resize(cell, (TEMPLATE_PX, TEMPLATE_PX), interpolation=cv2.INTER_AREA), numpy.uint8
    )
    return numpy.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), numpy.uint8)


TEACHING_TURNS_DEG = (-2.5, 0.0, 2.5)
"""Turns tried when lining a taught shot up, so that the taught picture is square. Reading tries
no turn: on hard generated frames turns of 2.5 degrees each way read no better (the templates are
smooth enough) and cost three times as much."""


def _cell_windows(plane: Frame, region: ItemRegion, turns: tuple[float, ...] = (0.0,)) -> list[Frame]:
    """The cell at template scale, turned by each of `turns`, SHIFT_PX pixels to spare each side (BGR)."""
    scale = TEMPLATE_PX / (CELL_MM * PLANE_PX_PER_MM)
    side = TEMPLATE_PX + 2 * SHIFT_PX
    if turns == (0.0,):  # only shifts are searched: shrinking the right crop is enough
        cx, cy = region.centre_px()
        halved = round(side / scale / 2)  # the crop's side after halving it
        x0, y0 = round(cx) - halved, round(cy) - halved
        x1, y1 = x0 + 2 * halved, y0 + 2 * halved
        height, width = plane.shape[:2]
        if x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height:
            return [_shrunk(plane[y0:y1, x0:x1], side)]
    crop, x0, y0 = _cell_crop(plane, region)
    cx, cy = region.centre_px()
    cx, cy = cx - x0, cy - y0
    # Shrink first (area averaging, no aliasing), then turn the small picture.
    small = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    cx, cy = (cx + 0.5) * scale - 0.5, (cy + 0.5) * scale - 0.5  # pixel centres, before and after shrinking
    windows = []
    for turn in turns:
        matrix = cv2.getRotationMatrix2D((cx, cy), turn, 1.0)
        matrix[0, 2] += (side - 1) / 2 - cx
        matrix[1, 2] += (side - 1) / 2 - cy
        window = cv2.warpAffine(
            small, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        windows.append(numpy.asarray(window, numpy.uint8))
    return windows


def _lined_up(windows: list[Frame], template: FloatArray, centred: FloatArray | None = None) -> FloatArray:
    """The Lab view (TEMPLATE_PX square) of the turn and shift that best match the template's lightness.

    `centred`: the Lab view of the first window's centre, when known, returned as it is when best."""
    size = TEMPLATE_PX
    light_template = numpy.ascontiguousarray(template[..., 0])
    best, chosen = -2.0, (0, 0, 0)
    for index, window in enumerate(windows):
        light = numpy.asarray(cv2.cvtColor(window, cv2.COLOR_BGR2GRAY), numpy.float32)
        scores = cv2.matchTemplate(light, light_template, cv2.TM_CCOEFF_NORMED)
        _, top, _, (dx, dy) = cv2.minMaxLoc(scores)
        if top > best:
            best, chosen = float(top), (index, dy, dx)
    index, dy, dx = chosen
    if centred is not None and chosen == (0, SHIFT_PX, SHIFT_PX):
        return centred
    return to_lab(numpy.ascontiguousarray(windows[index][dy : dy + size, dx : dx + size]))


def _contrast(window: Frame) -> float:
    """The spread (standard deviation) of grey inside a cell's window, away from its edges."""
    inside = window[8:-8, 8:-8]
    grey = cv2.cvtColor(numpy.ascontiguousarray(inside), cv2.COLOR_BGR2GRAY)
    return float(cv2.meanStdDev(grey)[1][0, 0])


def _rough_contrast(plane: Frame, region: ItemRegion) -> float:
    """The spread of grey inside a cell, straight from the plane (every other pixel): a quick first look."""
    cx, cy = region.centre_px()
    half = round(CELL_MM * PLANE_PX_PER_MM * 0.35)
    x, y = round(cx), round(cy)
    inside = numpy.ascontiguousarray(plane[y - half : y + half : 2, x - half : x + half : 2])
    return float(cv2.meanStdDev(cv2.cvtColor(inside, cv2.COLOR_BGR2GRAY))[1][0, 0])


def _cell_crop(plane: Frame, region: ItemRegion) -> tuple[Frame, int, int]:
    """The cell with a few millimetres to spare (a tile off its place), and the crop's origin."""
    cx, cy = region.centre_px()
    half = (CELL_MM / 2 + 3.0) * PLANE_PX_PER_MM
    x0, y0 = max(0, round(cx - half)), max(0, round(cy - half))
    return plane[y0 : round(cy + half), x0 : round(cx + half)], x0, y0


def _turned(image: numpy.typing.NDArray[Any], quarter_turns: int) -> numpy.typing.NDArray[Any]:
    """A template (rows, columns, channels) of a tile turned clockwise by quarter turns."""
    return numpy.ascontiguousarray(numpy.rot90(image, k=-quarter_turns, axes=(0, 1)))


TEMPLATE_BLUR_PX = 1.6
"""Built-in templates are blurred (plane pixels) as a camera blurs: a sharp template under-rates a chest."""


def _as_seen(cell: Frame) -> Frame:
    return numpy.asarray(cv2.GaussianBlur(cell, (0, 0), TEMPLATE_BLUR_PX), numpy.uint8)


@functools.cache
def _built_in_templates() -> dict[str, Frame]:
    """Template per "<frame colour>:<design number>": the renderer's tile, unturned, on the table."""
    from companion.vision.generate.asterion import draw_cell

    shapes = [(colour, d) for colour in COLOURS for d in range(len(DESIGNS))] + [(MINOTAUR, MINOTAUR_DESIGN)]
    return {f"{colour}:{d}": _template_image(_as_seen(draw_cell(colour, d))) for colour, d in shapes}


class Templates:
    """Per frame colour: every design at every rotation, as Lab pictures and as feature vectors."""

    def __init__(
        self,
        by_colour: dict[str, tuple[list[FloatArray], list[tuple[int, int]]]],
        sources: dict[str, list[str]] | None = None,
    ) -> None:
        """`sources`: per colour, what each picture was made from ("" drawn, "taught" from shots)."""
        self.by_colour = {
            colour: (numpy.stack([_features(p) for p in pictures]), pictures, looks)
            for colour, (pictures, looks) in by_colour.items()
        }
        self._sources = sources or {}
        self._softened = {
            colour: [_channels(_softened(p)) for p in pictures] for colour, (pictures, _) in by_colour.items()
        }
        self._alikes: dict[tuple[str, int], list[int]] = {}
        self._colour_tests: dict[tuple[str, int, str, int], FloatArray] = {}
        self._tests: dict[
            tuple[str, int, int], tuple[numpy.typing.NDArray[numpy.intp], FloatArray, float]
        ] = {}

    def _drawn(self, colour: str, look: int) -> int:
        """The drawn picture of a look: two looks are told apart on drawings, whose difference is
        the designs' alone (a taught picture of one shot is off by a pixel or a turn somewhere)."""
        sources = self._sources.get(colour)
        if not sources or not sources[look]:
            return look
        looks = self.by_colour[colour][2]
        return next(
            (i for i, other in enumerate(looks) if other == looks[look] and not sources[i]),
            look,
        )

    def _pair_test(
        self, colour: str, champion: int, challenger: int
    ) -> tuple[numpy.typing.NDArray[numpy.intp], FloatArray, float]:
        """Where to look, the filter giving the share of the challenger seen there, and the share that wins.

        Around the pixels where two looks differ (`_pair_window`), the cell is modelled per
        channel as the mean of both looks' pictures under some light (a gain and an offset
        sloping across, fitted there, so glare or shadow on this tile alone does not matter;
        without the slope, light falling off across a tile put a chest on the wrong side) plus
        some of the difference from the champion to the challenger, as much for all channels:
        from minus a half (the champion) to a half (the challenger). Least squares gives that
        amount as one dot product with the cell's pixels: with the difference less what the
        light explains (the Frisch-Waugh-Lovell theorem), normalised. The same sum with the
        looks swapped changes sign, so no look is favoured by being the champion.
        """
        key = (colour, champion, challenger)
        if key in self._tests:
            return self._tests[key]
        _, _, looks = self.by_colour[colour]
        mine, theirs = self._drawn(colour, champion), self._drawn(colour, challenger)
        window, sloping = _pair_window(*looks[mine], *looks[theirs])
        if len(window) < 3:  # alike (a look taught and drawn): nothing to tell them apart by
            self._tests[key] = self._tests[(colour, challenger, champion)] = (window, _NO_TEST, 0.0)
            return self._tests[key]
        softened = self._softened[colour]
        test = _difference_test(softened[mine], softened[theirs], window, sloping)
        # The filter gives the share less a half (the mean of both looks is explained already).
        share = _winning_share(*looks[mine], *looks[theirs]) - 0.5
        self._tests[key] = (window, test, share)
        self._tests[(colour, challenger, champion)] = (window, -test, -share)  # the same test, turned round
        return self._tests[key]

    def match(self, colour: str, windows: list[Frame]) -> tuple[int, int, float]:
        """(design, rotation, margin over the best other look) of the template the cell shows.

        `windows` are the cell at template scale (`_cell_windows`; the first as it lies).
        The cell as it lies picks the best template; the shift that matches it best lines the
        cell up; the templates scoring close to the best for the lined-up cell are then told
        apart pairwise, around where they differ only (a chest, a wing, a path's end):
        whole-tile correlation hardly moves for a small wing washed out by blur or glare.
        """
        matrix, pictures, looks = self.by_colour[colour]
        middle = to_lab(numpy.ascontiguousarray(windows[0][SHIFT_PX:-SHIFT_PX, SHIFT_PX:-SHIFT_PX]))
        scores = matrix @ _features(middle)
        view = _lined_up(windows, pictures[int(numpy.argmax(scores))], middle)
        if view is not middle:  # lined up off the centre: score again (a taught look needs it)
            scores = matrix @ _features(view)
        best = float(scores.max())
        close = numpy.flatnonzero(scores >= best - CLOSE_CALL)
        order = [int(i) for i in close[numpy.argsort(scores[close])[::-1]][:6]]
        champion = order[0]
        label = tile_label(colour, *looks[champion])
        margin = 1.0
        if len(order) == 1:
            return looks[champion][0], looks[champion][1], margin
        seen = _channels(view).ravel()

        def lead(look: int, other: int) -> float:
            """How much better `look` than `other` explains the cell where they differ (antisymmetric)."""
            window, test, winning_share = self._pair_test(colour, look, other)
            return winning_share - float(seen @ test) if len(window) >= 3 else 0.0

        # A label against another: each of its turns the game counts as the same (a wing at either
        # end) against all of the other's, each pair compared where they differ only. Turns of one
        # label are never compared with each other: the light at the two ends of a tile differs more
        # than a washed-out wing does.
        mine = self._alike(colour, champion)
        compared = {label}
        for candidate in order[1:]:
            other = tile_label(colour, *looks[candidate])
            if other in compared:
                continue
            compared.add(other)
            theirs = self._alike(colour, candidate)
            best_lead, best = max((min(lead(look, o) for o in theirs), look) for look in mine)
            if best_lead < 0:
                best_lead, best = max((min(lead(o, look) for look in mine), o) for o in theirs)
                mine, label = theirs, other
            champion = best
            margin = min(margin, abs(best_lead))
        return looks[champion][0], looks[champion][1], margin

    def _alike(self, colour: str, look: int) -> list[int]:
        """The drawn looks of the same label as `look` (a wing corridor and its half turn), one of
        each drawing (a corridor turned half round is drawn the same)."""
        key = (colour, look)
        if key not in self._alikes:
            looks = self.by_colour[colour][2]
            sources = self._sources.get(colour)
            label = tile_label(colour, *looks[look])
            alike: list[int] = []
            for i, (design, rotation) in enumerate(looks):
                if (sources and sources[i]) or tile_label(colour, design, rotation) != label:
                    continue
                if all(len(_differ(design, rotation, *looks[kept])) for kept in alike):
                    alike.append(i)
            self._alikes[key] = alike or [look]
        return self._alikes[key]

    def likeness(self, colour: str, windows: list[Frame]) -> float:
        """The best correlation of the cell, lined up as in `match`, with any template of the colour."""
        matrix, pictures, _ = self.by_colour[colour]
        middle = to_lab(numpy.ascontiguousarray(windows[0][SHIFT_PX:-SHIFT_PX, SHIFT_PX:-SHIFT_PX]))
        scores = matrix @ _features(middle)
        view = _lined_up(windows, pictures[int(numpy.argmax(scores))], middle)
        if view is not middle:
            scores = matrix @ _features(view)
        return float(scores.max())

    def colour_lead(self, colour: str, other: str, windows: list[Frame]) -> float:
        """How much better the cell shows `colour`'s frame and prisoners than `other`'s (negative: worse).

        The cell's best look in `colour` against the same look in `other`, compared where the two
        pictures differ (frame, prisoner) as two looks are in `match`: under glare all frames pale
        alike, but an offset and a gain per channel, fitted there, undo that."""
        matrix, pictures, looks = self.by_colour[colour]
        middle = to_lab(numpy.ascontiguousarray(windows[0][SHIFT_PX:-SHIFT_PX, SHIFT_PX:-SHIFT_PX]))
        view = _lined_up(windows, pictures[int(numpy.argmax(matrix @ _features(middle)))], middle)
        best = self._drawn(colour, int(numpy.argmax(matrix @ _features(view))))
        other_looks = self.by_colour[other][2]
        sources = self._sources.get(other)
        twin = next(
            (i for i, look in enumerate(other_looks) if look == looks[best] and not (sources and sources[i])),
            None,
        )
        if twin is None:
            return 0.0
        key = (colour, best, other, twin)
        if key not in self._colour_tests:
            mine, theirs = self._softened[colour][best], self._softened[other][twin]
            picture = numpy.zeros(TEMPLATE_PX * TEMPLATE_PX, numpy.uint8)
            picture[(((mine - theirs) * _WEIGHTS[:, None]) ** 2).sum(axis=0) > DIFFERENT**2] = 1
            grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * PAIR_GROW_PX + 1, 2 * PAIR_GROW_PX + 1))
            window = numpy.flatnonzero(cv2.dilate(picture.reshape(TEMPLATE_PX, TEMPLATE_PX), grow).ravel())
            self._colour_tests[key] = _difference_test(mine, theirs, window)
        return -float(_channels(view).ravel() @ self._colour_tests[key])

    @classmethod
    def from_profile(cls, profile: Profile) -> Templates:
        by_colour: dict[str, tuple[list[FloatArray], list[tuple[int, int]]]] = {}
        sources: dict[str, list[str]] = {}
        names = [name for name in profile.templates if name.startswith("tile:")]
        for name in sorted(names):
            _, colour, design_text = name.split(":")[:3]
            design = int(design_text)
            picture = decode_template(profile.templates[name]).astype(numpy.float32)
            pictures, looks = by_colour.setdefault(colour, ([], []))
            for rotation in range(1 if design == MINOTAUR_DESIGN else 4):
                pictures.append(_turned(picture, rotation))
                looks.append((design, rotation))
                sources.setdefault(colour, []).append(":".join(name.split(":")[3:]))
        return cls(by_colour, sources)


DIFFERENT = 18.0
"""Lab distance (8-bit scale) from which two templates' pixels count as different."""


@functools.cache
def _differ(design: int, rotation: int, other: int, other_rotation: int) -> numpy.typing.NDArray[numpy.intp]:
    """Where (flat pixel indices) two designs (turned) differ, from the seed's drawings in one colour.

    The drawings are exact, so the mask holds what tells them apart (a chest, a wing, a path's
    end) and no noise; a taught picture of a real tile is compared there.
    """
    pictures = _built_in_templates()
    colour = COLOURS[0] if design != MINOTAUR_DESIGN and other != MINOTAUR_DESIGN else MINOTAUR
    mine = _turned(pictures[f"{colour if design != MINOTAUR_DESIGN else MINOTAUR}:{design}"], rotation)
    theirs = _turned(pictures[f"{colour if other != MINOTAUR_DESIGN else MINOTAUR}:{other}"], other_rotation)
    difference = ((mine.astype(numpy.float32) - theirs.astype(numpy.float32)) ** 2).sum(axis=2)
    return numpy.flatnonzero(difference > DIFFERENT**2)


PAIR_GROW_PX = 3
"""Two looks are compared this far (template pixels) around where they differ: the path and walls
about a wing fix the light there."""
_NO_TEST = numpy.zeros(3 * TEMPLATE_PX * TEMPLATE_PX, numpy.float32)
PAIR_SOFTEN_PX = 0.8
"""Looks are compared blurred this much more (template pixels): hard frames blur a wing further than the
templates do, and a sharp difference under-rates it."""
FAINT_SHARE = 0.4
"""Share of a thing's difference (a wing, horns) from a plain path that shows it is there, not a half:
glare and blur wash a wing out, but nothing draws one on a plain path (fitted on hard generated
frames of seeds 1, 7 and 11: 0.35 and 0.45 each read a few more cells wrong)."""
PLAIN_SPREAD = 6.0
"""A look is plain where two differ when its pixels there spread less than this (Lab, weighted)."""


def _difference_test(
    mine: FloatArray,
    theirs: FloatArray,
    window: numpy.typing.NDArray[numpy.intp],
    sloping: FloatArray | None = None,
) -> FloatArray:
    """The filter giving how much of the difference from `mine` to `theirs` (pictures as `_channels`)
    a cell shows in the window, beyond their mean under some light (see `Templates._pair_test`)."""
    if sloping is None:
        sloping = _sloping(window)
    difference = (theirs - mine)[:, window]
    both = ((mine + theirs) / 2)[:, window]
    # What light explains there: an offset sloping across (a lamp's fall-off, the edge of
    # glare), and a gain on the mean of both looks.
    difference = difference - (difference @ sloping) @ sloping.T
    both = both - (both @ sloping) @ sloping.T
    explained = (difference * both).sum(axis=1, keepdims=True) / numpy.maximum(
        (both * both).sum(axis=1, keepdims=True), 1e-6
    )
    residual = difference - explained * both
    weighted = residual * (_WEIGHTS * _WEIGHTS)[:, None]
    energy = float((weighted * residual).sum())
    # Spread over the whole cell (zero outside the window): one dense product then costs
    # less than picking the window's pixels out of the cell.
    spread = numpy.zeros((3, TEMPLATE_PX * TEMPLATE_PX), numpy.float32)
    spread[:, window] = weighted / max(energy, 1e-6)
    return spread.ravel()


def _sloping(window: numpy.typing.NDArray[numpy.intp]) -> FloatArray:
    """An offset sloping across the window's pixels, as orthonormal columns (pixels, 3)."""
    if len(window) < 3:
        return numpy.zeros((len(window), 3), numpy.float32)
    across = (window % TEMPLATE_PX).astype(numpy.float32) / TEMPLATE_PX - 0.5
    down = (window // TEMPLATE_PX).astype(numpy.float32) / TEMPLATE_PX - 0.5
    sloping, _ = numpy.linalg.qr(numpy.stack([numpy.ones_like(across), across, down], axis=1))
    return numpy.asarray(sloping, numpy.float32)


@functools.cache
def _pair_window(
    design: int, rotation: int, other: int, other_rotation: int
) -> tuple[numpy.typing.NDArray[numpy.intp], FloatArray]:
    """Where (flat pixel indices) two looks are compared: where they differ, grown by PAIR_GROW_PX;
    and an offset sloping across those pixels as orthonormal columns (pixels, 3): light there."""
    mask = numpy.zeros(TEMPLATE_PX * TEMPLATE_PX, numpy.uint8)
    mask[_differ(design, rotation, other, other_rotation)] = 1
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * PAIR_GROW_PX + 1, 2 * PAIR_GROW_PX + 1))
    grown = cv2.dilate(mask.reshape(TEMPLATE_PX, TEMPLATE_PX), grow)
    window = numpy.flatnonzero(grown.ravel())
    return window, _sloping(window)


@functools.cache
def _winning_share(design: int, rotation: int, other: int, other_rotation: int) -> float:
    """The share of the second look's difference from the first from which the second wins.

    A half when both show something where they differ (a path here, a chest there); when one is
    plain there (a path without the other's wing), the thing wins from FAINT_SHARE shown: glare and
    blur wash a thing out, but nothing draws one on a plain path.
    """
    where = _differ(design, rotation, other, other_rotation)
    pictures = _built_in_templates()

    def spread(number: int, turn: int) -> float:
        colour = COLOURS[0] if number != MINOTAUR_DESIGN else MINOTAUR
        pixels = _turned(pictures[f"{colour}:{number}"], turn).astype(numpy.float32).reshape(-1, 3)[where]
        if len(pixels) == 0:
            return 0.0
        off = (pixels - pixels.mean(axis=0)) * _WEIGHTS
        return math.sqrt(float((off * off).sum(axis=1).mean()))

    mine, theirs = spread(design, rotation), spread(other, other_rotation)
    if mine < PLAIN_SPREAD <= theirs:
        return FAINT_SHARE
    if theirs < PLAIN_SPREAD <= mine:
        return 1.0 - FAINT_SHARE
    return 0.5


def _softened(picture: FloatArray) -> FloatArray:
    return numpy.asarray(
        cv2.GaussianBlur(numpy.ascontiguousarray(picture, numpy.float32), (0, 0), PAIR_SOFTEN_PX),
        numpy.float32,
    )


def _in_light_of(view: FloatArray, picture: FloatArray) -> FloatArray:
    """The cell's pixels, (3, pixels), with its light matched to a template's (given as `_channels`)."""
    seen, reference = _channels(view), picture
    count = seen.shape[1]
    seen_mean = seen.sum(axis=1) / count
    reference_mean = reference.sum(axis=1) / count
    spread = (seen * seen).sum(axis=1) / count - seen_mean * seen_mean
    covariance = (seen * reference).sum(axis=1) / count - seen_mean * reference_mean
    gain = covariance / numpy.maximum(spread, 1e-3)
    return numpy.asarray(seen * gain[:, None] + (reference_mean - seen_mean * gain)[:, None], numpy.float32)


def _local_lead(
    adjusted: FloatArray, mine: FloatArray, theirs: FloatArray, differ: numpy.typing.NDArray[numpy.intp]
) -> float:
    """How much better `mine` than `theirs` (as `_channels`) fits the cell (light matched) where they differ.

    Pixel by pixel where they differ only: a small chest or wing decides, not the whole tile.
    """
    if len(differ) < 3 or len(differ) > adjusted.shape[1] - 16:
        return 0.0
    seen = adjusted[:, differ]
    mine_off = seen - mine[:, differ]
    theirs_off = seen - theirs[:, differ]
    mine_sq = float((mine_off * mine_off).sum())
    theirs_sq = float((theirs_off * theirs_off).sum())
    return (theirs_sq - mine_sq) / (theirs_sq + mine_sq + 1e-9)


# ---------------------------------------------------------------- the recogniser


def default_colours() -> dict[str, list[list[float]]]:
    from companion.vision.generate import asterion as scene

    colours = {name: [bgr_to_lab(bgr)] for name, bgr in scene.FRAME_BGR.items()}
    colours[TABLE] = [bgr_to_lab(scene.TABLE_BGR)]
    colours["stone"] = [bgr_to_lab(scene.STONE_BGR)]
    colours["path"] = [bgr_to_lab(scene.PATH_BGR)]
    return colours


def _path_like(profile: Profile) -> int:
    """The frame colour (index in FRAME_LABELS) nearest to the path's: glare washes it to look like one."""
    path = numpy.array(profile.colours["path"][0], numpy.float32)
    distances = [
        min(
            float(numpy.linalg.norm(numpy.array(proto, numpy.float32) - path))
            for proto in profile.colours[label]
        )
        for label in FRAME_LABELS
    ]
    return int(numpy.argmin(distances))


class AsterionRecogniser:
    game = GAME

    def __init__(self) -> None:
        self._default: Profile | None = None
        self._templates: tuple[Profile, Templates] | None = None
        self._corners: (
            tuple[Layout, numpy.typing.NDArray[numpy.intp], numpy.typing.NDArray[numpy.intp]] | None
        ) = None

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return asterion_layout(int(options.get("columns", 9)), int(options.get("rows", 7)))

    def default_profile(self) -> Profile:
        """The built-in edition: the renderer's colours and tiles."""
        return Profile(
            game=GAME,
            colours=default_colours(),
            templates={
                f"tile:{shape}": encode_template(picture) for shape, picture in _built_in_templates().items()
            },
            params={"taught_colours": []},
        )

    def _profile(self, profile: Profile | None) -> Profile:
        if self._default is None:
            self._default = self.default_profile()
        if profile is None:
            return self._default
        return Profile(
            game=GAME,
            edition=profile.edition,
            colours={**self._default.colours, **profile.colours},
            templates={**self._default.templates, **profile.templates},
            params={**self._default.params, **profile.params},
            shots=profile.shots,
        )

    def _templates_for(self, profile: Profile) -> Templates:
        if self._templates is None or self._templates[0] is not profile:
            self._templates = (profile, Templates.from_profile(profile))
        return self._templates[1]

    def _corner_pixels(
        self, layout: Layout
    ) -> tuple[numpy.typing.NDArray[numpy.intp], numpy.typing.NDArray[numpy.intp]]:
        """Row and column indices of every cell's four corner patches: (cells, pixels) each."""
        if self._corners is not None and self._corners[0] is layout:
            return self._corners[1], self._corners[2]
        reach = (TILE_MM / 2 - CORNER_INSET_MM) * PLANE_PX_PER_MM
        half = CORNER_PATCH_MM * PLANE_PX_PER_MM / 2
        offsets = numpy.arange(-half, half + 0.01, 1.0)
        rows, cols = [], []
        for region in layout.items.values():
            cx, cy = region.centre_px()
            ys, xs = [], []
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                gy, gx = numpy.meshgrid(cy + sy * reach + offsets, cx + sx * reach + offsets, indexing="ij")
                ys.append(gy.ravel())
                xs.append(gx.ravel())
            rows.append(numpy.concatenate(ys))
            cols.append(numpy.concatenate(xs))
        width, height = layout.plane_size_px()
        row_index = numpy.clip(numpy.round(rows), 0, height - 1).astype(numpy.intp)
        col_index = numpy.clip(numpy.round(cols), 0, width - 1).astype(numpy.intp)
        self._corners = (layout, row_index, col_index)
        return row_index, col_index

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        profile = self._profile(profile)
        plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
        labels = (*FRAME_LABELS, *OTHER_LABELS)
        palette = palette_for(profile.colours, labels)
        rows, cols = self._corner_pixels(layout)
        owners = palette.classify_bgr(plane[rows, cols])  # (cells, corner pixels)
        votes = numpy.stack([(owners == i).mean(axis=1) for i in range(len(FRAME_LABELS))], axis=1)
        templates = self._templates_for(profile)
        items: dict[str, str] = {}
        confidence: dict[str, float] = {}
        for index, item_id in enumerate(layout.items):
            colour_index = int(votes[index].argmax())
            share = float(votes[index, colour_index])
            doubtful = share < TILE_VOTE
            if doubtful and _rough_contrast(plane, layout.items[item_id]) < ROUGH_CONTRAST:
                items[item_id] = EMPTY
                confidence[item_id] = 1.0 - share / TILE_VOTE * 0.7
                continue
            windows = _cell_windows(plane, layout.items[item_id])
            contrast = _contrast(windows[0])
            if doubtful:
                # Corners not clearly of a tile's colour: a yellow frame under glare reads as a
                # path, a red one in shadow as a wall or the table. A tile when its inside is like
                # one of the designs. Its colour: of the two frame colours nearest its corners
                # (corners that look like the path count for the frame colour nearest the path's:
                # glare washes a yellow frame to sand), the one whose designs are far likelier (a
                # red frame in shadow is about as near to the Minotaur's purple), else the one
                # whose frame and prisoner the cell shows (yellow's and green's designs are alike).
                likeness = 0.0
                if contrast >= TILE_CONTRAST:
                    frames = palette_for(profile.colours, FRAME_LABELS)
                    nearest = numpy.bincount(
                        frames.classify_bgr(plane[rows[index], cols[index]]), minlength=len(FRAME_LABELS)
                    )
                    nearest[_path_like(profile)] += int((owners[index] == labels.index("path")).sum())
                    first, second = (int(i) for i in numpy.argsort(nearest)[::-1][:2])
                    colour_index, likeness = first, templates.likeness(FRAME_LABELS[first], windows)
                    other = templates.likeness(FRAME_LABELS[second], windows) if nearest[second] else 0.0
                    if other > likeness + FAR_LIKELIER or (
                        other >= TILE_LIKENESS
                        and templates.colour_lead(FRAME_LABELS[first], FRAME_LABELS[second], windows) < 0
                    ):
                        colour_index, likeness = second, other
                if contrast < TILE_CONTRAST or likeness < TILE_LIKENESS:
                    items[item_id] = EMPTY
                    confidence[item_id] = 1.0 - share / TILE_VOTE * 0.7
                    continue
                share = TILE_VOTE
            colour = FRAME_LABELS[colour_index]
            if contrast < TILE_CONTRAST:
                # Corners of a tile's colour but a flat inside: glare or a shadow on the bare table.
                items[item_id] = EMPTY
                confidence[item_id] = 0.5
                continue
            design, rotation, margin = templates.match(colour, windows)
            items[item_id] = tile_label(colour, design, rotation)
            confidence[item_id] = float(min(1.0, max(0.0, margin * 5)) * min(1.0, share / 0.8))
        return Reading(items, confidence)

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn the frame colours, the table, and each shown tile's look (at every rotation)."""
        base = self._profile(profile)
        plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
        rows, cols = self._corner_pixels(layout)
        index_of = {item_id: i for i, item_id in enumerate(layout.items)}
        samples: dict[str, list[FloatArray]] = {}
        templates = dict(base.templates)
        counts: dict[str, int] = dict(base.params.get("taught_tiles", {}))
        for item_id, label in labels.items():
            if item_id not in index_of:
                raise ValueError(f"asterion teach: no item {item_id!r} in the layout")
            shown = parse_label(label)
            corners = to_lab(plane[rows[index_of[item_id]], cols[index_of[item_id]]][None, ...])[0]
            if shown is None:
                samples.setdefault(TABLE, []).append(corners)
                continue
            colour, design, rotation = shown
            samples.setdefault(colour, []).append(corners)
            # The cell turned back to the printed orientation: what the unturned tile looks like here.
            windows = _cell_windows(plane, layout.items[item_id], TEACHING_TURNS_DEG)
            built_in = _built_in_templates()[f"{colour}:{design}"].astype(numpy.float32)
            # The label names one of the turns that look alike to the game (a chest corridor turned
            # half round); the drawing tells which one lies here.
            turns = [r for r in range(4) if tile_label(colour, design, r) == label] or [rotation]
            view = _lined_up(windows, _turned(built_in, turns[0]))
            adjusted = _in_light_of(view, _channels(_turned(built_in, turns[0])))
            turn = turns[0]
            for other in turns[1:]:
                where = _differ(design, turn, design, other)
                mine, theirs = _channels(_turned(built_in, turn)), _channels(_turned(built_in, other))
                if _local_lead(adjusted, mine, theirs, where) < 0:
                    turn = other
            look = _turned(_lined_up(windows, _turned(built_in, turn)), -turn % 4)
            # Smoothed a little: the stone's grain and the sensor's noise are not the design.
            look = numpy.asarray(cv2.GaussianBlur(look, (0, 0), 0.8), numpy.float32)
            name = f"tile:{colour}:{design}:taught"
            seen = counts.get(name, 0)
            if seen:
                previous = decode_template(templates[name]).astype(numpy.float32)
                look = (previous * seen + look) / (seen + 1)
            templates[name] = encode_template(numpy.clip(numpy.round(look), 0, 255).astype(numpy.uint8))
            counts[name] = seen + 1
        colours = base.colours
        taught = list(base.params.get("taught_colours", []))
        for label, groups in samples.items():
            colours, taught = learn_colour(colours, taught, label, groups)
        return Profile(
            game=GAME,
            edition=profile.edition,
            colours=colours,
            templates=templates,
            params={**base.params, "taught_colours": taught, "taught_tiles": counts},
            shots=profile.shots + 1,
        )


register_recogniser(GAME, AsterionRecogniser)
