"""Asterion: matching a cell against the templates of every design and rotation in its frame colour.

The templates (`Templates`) are Lab pictures of every look (design and rotation) of each frame
colour: the built-in ones shipped in asterion_tiles.json (the seed's designs as drawn and blurred
as a camera blurs, written by companion.vision.training.asterion), and the user's taught ones. A
cell is matched by normalised correlation over the whole tile, lined up by the best shift; looks
scoring close to the best are then told apart pairwise, only around the pixels where their
drawings differ (a wing, a chest, a path's end), with the light there fitted (a gain and an offset
sloping across) so that glare or shadow on one tile does not decide. A close call is read again
without the pixels the reference took for the table (its neutral grey inside the tile).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.games.asterion.tiles import COLOURS, DESIGNS, MINOTAUR_DESIGN
from companion.vision.base import Frame, Profile, decode_template, encode_template
from companion.vision.recognisers._asterion_labels import MINOTAUR, tile_label
from companion.vision.recognisers._lab import FloatArray, to_lab
from companion.vision.recognisers._shipped import (
    ShippedDataError,
    decoded_templates,
    load_shipped,
    rewrite_command,
    shipped_colours,
    shipped_path,
)
from companion.vision.reference import NEUTRAL_BGR

GAME = "asterion"

TEMPLATE_PX = 40
"""A cell is compared with the templates at TEMPLATE_PX x TEMPLATE_PX (1.1 mm per pixel)."""
SHIFT_PX = 3
"""How far (template pixels) a tile may lie off its cell's centre: matching searches these shifts."""
CLOSE_CALL = 0.08
"""Templates scoring within this of the best are told apart by the pixels where they differ."""
CANDIDATES = 9
"""At most this many labels scoring within CLOSE_CALL of the best are told apart pairwise (each design's
best label first: on dev planes, seeds 5-34, 25 of 126 cells read wrong had their label cut at 6; 12
read 5 more cells right of 16,000 than 9, and cost 0.9 ms a frame more)."""

MISSING_LEAST_PX = 8
MISSING_RIM_PX = 3
"""A cell is read without the pixels showing the table's neutral grey when at least MISSING_LEAST_PX do,
MISSING_RIM_PX and more inside its window's edge (a tile's edge lies 1.4 pixels inside it)."""
UNSURE = 0.2
"""A cell read by a lead under this (less than fully sure, as the recogniser counts) is looked at for
pixels the table covers, and read again without them (most cells are not: 20 us each)."""
PARTIAL_SHARE = 10
PARTIAL_LEAST_PX = 12
"""Two looks are told apart without the pixels the table covers when those are at least a
PARTIAL_SHARE-th of where they are compared, on what is left when at least PARTIAL_LEAST_PX are."""

CHANNEL_WEIGHTS = (1.0, 0.8, 0.8)
"""Weights of CIELAB's L, a and b in a template: colour tells a chest from a prisoner, a wing from a path."""


_WEIGHTS = numpy.array(CHANNEL_WEIGHTS, numpy.float32)
_WEIGHT_VALUES = _WEIGHTS.tolist()
_NEUTRAL_LOW = numpy.array([v - 1 for v in NEUTRAL_BGR], numpy.uint8)
_NEUTRAL_HIGH = numpy.array([v + 1 for v in NEUTRAL_BGR], numpy.uint8)
_BESIDE = numpy.ones((3, 3), numpy.uint8)
_NEUTRAL_GREY = numpy.float32(
    cv2.cvtColor(numpy.array([[NEUTRAL_BGR]], numpy.uint8), cv2.COLOR_BGR2GRAY)[0, 0]
)
Missing = numpy.typing.NDArray[numpy.bool_] | None
"""A cell's pixels (flat) the table covers (`Window.missing`), or None when (almost) none."""


def channels(picture: FloatArray) -> FloatArray:
    """A Lab picture as (3, pixels), channel after channel: numpy reduces rows far faster than columns."""
    return numpy.ascontiguousarray(picture.reshape(-1, 3).T, dtype=numpy.float32)


def _features(window: FloatArray) -> FloatArray:
    """A cell's Lab picture (TEMPLATE_PX square) as one vector: each channel centred and scaled, then all.

    Pixel after pixel, channels interleaved as the picture holds them (templates and cells alike, so
    their products are as channel after channel): no copy into channel order first."""
    picture = numpy.ascontiguousarray(window, dtype=numpy.float32)
    means, deviations = cv2.meanStdDev(picture)
    norms = deviations.ravel() * math.sqrt(picture.shape[0] * picture.shape[1])
    scale = (_WEIGHTS / (norms + 1.0)).astype(numpy.float32)
    vector = ((picture - means.ravel().astype(numpy.float32)) * scale).ravel()
    length = math.sqrt(float(vector @ vector))
    return numpy.asarray(vector / length if length > 0 else vector, numpy.float32)


def _scores(matrix: FloatArray, window: FloatArray) -> FloatArray:
    """`matrix @ _features(window)` for a matrix of `_features` rows, without centring the cell: each
    row's channels are centred already, so a channel's mean adds nothing to the products.

    The three channels' scales in Python floats and applied by OpenCV (numpy broadcasting three
    values along a picture's pixels cost a fifth of the call): the same float32 products."""
    picture = numpy.ascontiguousarray(window, dtype=numpy.float32)
    root = math.sqrt(picture.shape[0] * picture.shape[1])
    norms = [deviation * root for deviation in cv2.meanStdDev(picture)[1].ravel().tolist()]
    scale = [weight / (norm + 1.0) for weight, norm in zip(_WEIGHT_VALUES, norms, strict=True)]
    length = math.sqrt(sum((s * n) * (s * n) for s, n in zip(scale, norms, strict=True)))
    # A 4-tuple is a scalar to OpenCV (its stubs know arrays only): per channel, in float32 as numpy.
    per_channel: Any = (*numpy.array(scale, numpy.float32).tolist(), 0.0)
    scaled = cv2.multiply(picture, per_channel)
    products = numpy.asarray(matrix @ scaled.ravel(), numpy.float32)
    return products / numpy.float32(length) if length > 0 else products


def _interleaved(test: FloatArray) -> FloatArray:
    """A filter over a picture as `channels` (channel after channel) made to apply to the picture's own
    pixel order (channels interleaved): a cell is then filtered as it lies, not copied channel-wise."""
    return numpy.ascontiguousarray(test.reshape(3, -1).T.ravel())


class Window:
    """A cell at template scale with SHIFT_PX pixels to spare each side, as BGR and grey, cut from one
    shrunk copy of the whole plane; its Lab is converted where a tile is lined up in it (`part`):
    converting the whole shrunk plane cost 0.7 ms a frame, and half the cells are flat (the bare table)
    and need the grey alone."""

    def __init__(
        self, bgr: Frame, grey: FloatArray, scales: numpy.typing.NDArray[numpy.float64] | None = None
    ) -> None:
        self.bgr = bgr
        self.grey = grey
        self._scales = scales
        self._parts: dict[tuple[int, int], FloatArray] = {}
        self.lined: dict[str, tuple[FloatArray, tuple[int, int], FloatArray, tuple[Window, int, int]]] = {}
        """Per frame colour: the cell lined up with its looks (`Templates.lined_up`), its scores
        against them and where it was cut from, as a doubtful cell's likeness in two colours found them
        before its match."""

    def part(self, dy: int, dx: int) -> FloatArray:
        """The Lab view TEMPLATE_PX square from (dy, dx) in the window."""
        key = (dy, dx)
        if key not in self._parts:
            self._parts[key] = to_lab(
                numpy.ascontiguousarray(self.bgr[dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX])
            )
        return self._parts[key]

    def missing(self, dy: int, dx: int) -> Missing:
        """Which pixels (flat, TEMPLATE_PX square from (dy, dx)) inside the tile show the table's
        NEUTRAL_BGR, and those beside them (blended with it), when at least MISSING_LEAST_PX do; else
        None. Not its rim: the table shows between tiles, and there the looks agree."""
        inner = slice(MISSING_RIM_PX, TEMPLATE_PX - MISSING_RIM_PX)
        # The table's grey is grey 128: few cells show that many pixels of it, and those only are
        # looked at in colour.
        grey = self.grey[dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX][inner, inner]
        if int(numpy.count_nonzero(grey == _NEUTRAL_GREY)) < MISSING_LEAST_PX:
            return None
        picture = numpy.ascontiguousarray(
            self.bgr[dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX][inner, inner]
        )
        neutral = cv2.inRange(picture, _NEUTRAL_LOW, _NEUTRAL_HIGH)
        if cv2.countNonZero(neutral) < MISSING_LEAST_PX:
            return None
        mask = numpy.zeros((TEMPLATE_PX, TEMPLATE_PX), numpy.uint8)
        mask[inner, inner] = cv2.dilate(neutral, _BESIDE)
        return numpy.asarray(mask.ravel() > 0, numpy.bool_)

    def scales(self) -> numpy.typing.NDArray[numpy.float64]:
        """`shift_scales` of the window's grey, unless given (`SmallPlane` gives them for many cells at
        once)."""
        if self._scales is None:
            values, squares = cv2.integral2(self.grey, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
            self._scales = shift_scales(values, squares, numpy.zeros((1, 2), numpy.intp))[0]
        return self._scales

    @classmethod
    def of(cls, bgr: Frame) -> Window:
        grey = numpy.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), numpy.float32)
        return cls(bgr, grey)

    def middle(self) -> FloatArray:
        """The cell as it lies (no shift), TEMPLATE_PX square."""
        return self.part(SHIFT_PX, SHIFT_PX)


_STEPS = 2 * SHIFT_PX + 1
"""Shifts searched along each axis."""
_SIDE = TEMPLATE_PX + 2 * SHIFT_PX
"""A window's side."""


def shift_scales(
    values: numpy.typing.NDArray[Any],
    squares: numpy.typing.NDArray[Any],
    corners: numpy.typing.NDArray[numpy.intp],
) -> numpy.typing.NDArray[numpy.float64]:
    """Per window whose top left corner (x, y rows) is given: one over the square root of the sum of
    squared deviations of its grey over the TEMPLATE_PX square at each shift (the shifts row after
    row), 0 where the grey is flat there; from the grey's integral images of values and squares (whole
    numbers: exact in any order), each looked up flat at once."""
    width = values.shape[1]
    at = (corners[:, 1] * width + corners[:, 0])[:, None, None] + _box_corners(width)
    value, square = values.ravel().take(at), squares.ravel().take(at)
    total = (value[:, 3] - value[:, 1] - value[:, 2] + value[:, 0]).astype(numpy.float64)
    total_sq = (square[:, 3] - square[:, 1] - square[:, 2] + square[:, 0]).astype(numpy.float64)
    spreads = numpy.sqrt(numpy.maximum(total_sq - total * total / (TEMPLATE_PX * TEMPLATE_PX), 0.0))
    # As OpenCV's matchTemplate: a flat square correlates 0 with anything.
    scales = numpy.divide(1.0, spreads, out=numpy.zeros_like(spreads), where=spreads > 0)
    return numpy.asarray(scales, numpy.float64)


@functools.cache
def _box_corners(width: int) -> numpy.typing.NDArray[numpy.intp]:
    """Where (flat, in an integral image `width` wide) the TEMPLATE_PX square at each shift has its
    corners, from a window's top left corner: top left, top right, bottom left, bottom right."""
    down = numpy.arange(_STEPS)[:, None] * width
    across = numpy.arange(_STEPS)[None, :]
    first = (down + across).ravel()
    side, below = TEMPLATE_PX, TEMPLATE_PX * width
    return numpy.stack([first, first + side, first + below, first + below + side])


class _Shifts:
    """A template's lightness lined up with a window at every shift by one product: a row per shift holds
    the template less its mean where that shift puts it in the window. OpenCV's matchTemplate went
    through Fourier transforms for 49 sums (40 us a cell, a sixth of reading)."""

    def __init__(self, template: FloatArray) -> None:
        light = numpy.asarray(template[..., 0], numpy.float64)
        centred = light - light.mean()
        rows = numpy.zeros((_STEPS, _STEPS, _SIDE, _SIDE), numpy.float32)
        for dy in range(_STEPS):
            for dx in range(_STEPS):
                rows[dy, dx, dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX] = centred
        self.rows = rows.reshape(_STEPS * _STEPS, _SIDE * _SIDE)
        self.norm = float(numpy.sqrt((centred * centred).sum()))

    def aligned_in(
        self, windows: list[Window]
    ) -> tuple[FloatArray, tuple[int, int], tuple[Window, int, int]]:
        """As `_aligned_in` with this template: the best normalised correlation coefficient of the
        lightness (the template's and the window's means taken out, over their spreads) over windows and
        shifts (the first best, as OpenCV's), its Lab view, shift, and the window and place (dy, dx) in
        it the view was cut from."""
        best, chosen = -2.0, (0, 0, 0)
        for index, window in enumerate(windows):
            scores = (self.rows @ window.grey.ravel()) * window.scales()
            at = int(scores.argmax())
            top = float(scores[at]) / self.norm if self.norm > 0 else 0.0
            if top > best:
                best, chosen = top, (index, at // _STEPS, at % _STEPS)
        index, dy, dx = chosen
        return windows[index].part(dy, dx), (dx - SHIFT_PX, dy - SHIFT_PX), (windows[index], dy, dx)


def lined_up(windows: list[Window], template: FloatArray, centred: FloatArray | None = None) -> FloatArray:
    """The Lab view (TEMPLATE_PX square) of the turn and shift that best match the template's lightness.

    `centred`: the Lab view of the first window's centre, when known, returned as it is when best."""
    return aligned(windows, template, centred)[0]


def aligned(
    windows: list[Window], template: FloatArray, centred: FloatArray | None = None
) -> tuple[FloatArray, tuple[int, int]]:
    """`lined_up`'s view, and the shift (x, y template pixels from the window's centre) it was found at."""
    view, shift, _ = _aligned_in(windows, template, centred)
    return view, shift


def _aligned_in(
    windows: list[Window], template: FloatArray, centred: FloatArray | None = None
) -> tuple[FloatArray, tuple[int, int], tuple[Window, int, int]]:
    """`aligned`, and the window and place (dy, dx) in it the view was cut from."""
    light_template = numpy.ascontiguousarray(template[..., 0])
    best, chosen = -2.0, (0, 0, 0)
    for index, window in enumerate(windows):
        scores = cv2.matchTemplate(window.grey, light_template, cv2.TM_CCOEFF_NORMED)
        _, top, _, (dx, dy) = cv2.minMaxLoc(scores)
        if top > best:
            best, chosen = float(top), (index, dy, dx)
    index, dy, dx = chosen
    shift = (dx - SHIFT_PX, dy - SHIFT_PX)
    cut = (windows[index], dy, dx)
    if centred is not None and chosen == (0, SHIFT_PX, SHIFT_PX):
        return centred, shift, cut
    return windows[index].part(dy, dx), shift, cut


def turned(image: numpy.typing.NDArray[Any], quarter_turns: int) -> numpy.typing.NDArray[Any]:
    """A template (rows, columns, channels) of a tile turned clockwise by quarter turns."""
    return numpy.ascontiguousarray(numpy.rot90(image, k=-quarter_turns, axes=(0, 1)))


TILES_FILE = shipped_path("asterion_tiles")
"""The built-in edition: its colours (Lab prototypes) and a template per frame colour and design."""


def built_in_shapes() -> list[str]:
    """Every "<frame colour>:<design number>" of the game: each set's designs, and the Minotaur tile."""
    shapes = [(colour, d) for colour in COLOURS for d in range(len(DESIGNS))] + [(MINOTAUR, MINOTAUR_DESIGN)]
    return [f"{colour}:{d}" for colour, d in shapes]


@functools.cache
def built_in_templates() -> dict[str, Frame]:
    """Template per "<frame colour>:<design number>": the built-in tile, unturned, as normalised planes
    show it (learned from generated sessions), as 8-bit Lab at TEMPLATE_PX (shipped in TILES_FILE)."""
    return _shipped_pictures("templates")


@functools.cache
def built_in_drawings() -> dict[str, Frame]:
    """The built-in tiles as drawn (exact, flat, blurred as a camera blurs), like `built_in_templates`:
    where two designs differ is read from these, which differ there only (learned pictures differ a
    little everywhere, in the light and grain of the frames they were learned from)."""
    return _shipped_pictures("drawings")


def _shipped_pictures(key: str) -> dict[str, Frame]:
    document = load_shipped(TILES_FILE, GAME, (key,), {"template_px": TEMPLATE_PX})
    pictures = decoded_templates(document[key], TILES_FILE, GAME)
    missing = [shape for shape in built_in_shapes() if shape not in pictures]
    if missing:
        raise ShippedDataError(
            f"{TILES_FILE} lacks the {key} {', '.join(missing)}; write it afresh with {rewrite_command(GAME)}"
        )
    return {shape: pictures[shape] for shape in built_in_shapes()}


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
        self._labels = {
            colour: [tile_label(colour, *look) for look in looks] for colour, (_, looks) in by_colour.items()
        }
        # Every look of a colour averaged: its frame and the tile's edge, sharp in all of them, line a
        # cell up as well as its own look does, before its look is known (one correlation, not two).
        self._mean = {
            colour: numpy.mean(numpy.stack(pictures), axis=0).astype(numpy.float32)
            for colour, (pictures, _) in by_colour.items()
        }
        self._shifts = {colour: _Shifts(mean) for colour, mean in self._mean.items()}
        # Two looks are told apart on the drawings where the built-in edition's are known: learned
        # pictures differ a little all over (the light and grain of the frames each was learned from),
        # and that, not a faint wing, decided between a corridor and a winged one.
        drawings = built_in_drawings()
        self._softened = {
            colour: [
                channels(_softened(self._drawing(drawings, colour, i) if self._drawn(colour, i) == i else p))
                for i, p in enumerate(pictures)
            ]
            for colour, (pictures, _) in by_colour.items()
        }
        self._alikes: dict[tuple[str, int], list[int]] = {}
        self._by_channel: dict[str, tuple[FloatArray, FloatArray]] = {}
        self._colour_tests: dict[tuple[str, int, str, int], FloatArray] = {}
        self._tests: dict[
            tuple[str, int, int], tuple[numpy.typing.NDArray[numpy.intp], FloatArray, float]
        ] = {}

    def _drawing(self, drawings: dict[str, Frame], colour: str, look: int) -> FloatArray:
        """The built-in drawing of a look (a built-in picture), turned as the look is."""
        pictures = self.by_colour[colour][1]
        sources = self._sources.get(colour)
        design, rotation = self.by_colour[colour][2][look]
        drawing = drawings.get(f"{colour}:{design}")
        if drawing is None or (sources and sources[look]):
            return pictures[look]
        return turned(drawing.astype(numpy.float32), rotation)

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
        test = _interleaved(_difference_test(softened[mine], softened[theirs], window, sloping))
        # The filter gives the share less a half (the mean of both looks is explained already).
        share = _winning_share(*looks[mine], *looks[theirs]) - 0.5
        self._tests[key] = (window, test, share)
        self._tests[(colour, challenger, champion)] = (window, -test, -share)  # the same test, turned round
        return self._tests[key]

    def _channel_wise(self, colour: str) -> tuple[FloatArray, FloatArray]:
        """A colour's looks' features as (looks x 3, pixels), channel after channel, and their squares."""
        if colour not in self._by_channel:
            features = self.by_colour[colour][0]
            looks = numpy.ascontiguousarray(
                features.reshape(len(features), -1, 3).transpose(0, 2, 1).reshape(3 * len(features), -1)
            )
            self._by_channel[colour] = (looks, looks * looks)
        return self._by_channel[colour]

    def _partial_test(
        self,
        colour: str,
        champion: int,
        challenger: int,
        window: numpy.typing.NDArray[numpy.intp],
        kept: numpy.typing.NDArray[numpy.bool_],
    ) -> FloatArray | None:
        """`_pair_test`'s filter over the kept pixels of its window alone; None when under
        PARTIAL_LEAST_PX are kept or they lie on a line (no slope of light to fit)."""
        _, _, looks = self.by_colour[colour]
        mine, theirs = self._drawn(colour, champion), self._drawn(colour, challenger)
        if int(kept.sum()) < PARTIAL_LEAST_PX:
            return None
        chests = _pair_chests(*looks[mine], *looks[theirs])
        chests = None if chests is None or not chests[kept].any() else chests[kept]
        try:
            sloping = _sloping(window[kept], chests)
        except numpy.linalg.LinAlgError:
            return None
        softened = self._softened[colour]
        return _interleaved(_difference_test(softened[mine], softened[theirs], window[kept], sloping))

    def lined_up(self, colour: str, windows: list[Window]) -> tuple[FloatArray, tuple[int, int]]:
        """The cell lined up with its colour's looks: the Lab view and its shift (`aligned`)."""
        view, shift, _, _ = self._lined_scored(colour, windows)
        return view, shift

    def _lined_scored(
        self, colour: str, windows: list[Window]
    ) -> tuple[FloatArray, tuple[int, int], FloatArray, tuple[Window, int, int]]:
        """`lined_up`, the view's scores against the colour's looks, and the window and place the view
        was cut from: kept with a single window (a doubtful cell's likeness, then its match, line it up
        in the same colour)."""
        memo = windows[0].lined if len(windows) == 1 else {}
        if colour not in memo:
            view, shift, cut = self._shifts[colour].aligned_in(windows)
            memo[colour] = (view, shift, _scores(self.by_colour[colour][0], view), cut)
        return memo[colour]

    def _candidates(self, colour: str, scores: FloatArray) -> list[int]:
        """The looks told apart pairwise: within CLOSE_CALL of the best, the best look of each label,
        each design's best label first, then other turns (a hidden chest's and a treasury's four turns
        crowded a crossroads out of a travel edition's cell, whose whole tile correlated 0.04 less than
        theirs, a paler path, and which its pair tests would have found), at most CANDIDATES, in
        order of score. The looks of one label (a winged corridor at either end) are one: they crowded
        a plainer design out, whose learned picture correlates a little less."""
        looks = self.by_colour[colour][2]
        labels = self._labels[colour]
        values = scores.tolist()
        floor = max(values) - CLOSE_CALL
        order: list[int] = []
        later: list[int] = []
        named: set[str] = set()
        designs: set[int] = set()
        for i in sorted(
            (i for i, v in enumerate(values) if v >= floor), key=values.__getitem__, reverse=True
        ):
            if labels[i] in named:
                continue
            named.add(labels[i])
            (later if looks[i][0] in designs else order).append(i)
            designs.add(looks[i][0])
        return sorted((order + later)[:CANDIDATES], key=values.__getitem__, reverse=True)

    def _partial_scores(
        self, colour: str, view: FloatArray, kept: numpy.typing.NDArray[numpy.bool_]
    ) -> FloatArray:
        """`_scores` over the kept pixels alone: the correlation of the view with each look there.

        Where the reference took a tile's pixels for the table (a linen as pale as a path), they show
        its neutral grey, as dark as a wall: a crossroads' arm of it read as a junction. Each look's
        channels are as `_features` scaled them; centred over the kept pixels (the view's centring
        there makes the looks' needless in the product, not in their lengths)."""
        features = self.by_colour[colour][0]
        count = int(kept.sum())
        picture = numpy.asarray(view, numpy.float32).reshape(-1, 3)
        seen = numpy.zeros_like(picture)
        shown = picture[kept]
        shown = shown - shown.mean(axis=0)
        seen[kept] = shown * (_WEIGHTS / (numpy.sqrt((shown * shown).sum(axis=0)) + 1.0))
        length = math.sqrt(float((seen * seen).sum()))
        if length == 0 or count < 2:
            return numpy.zeros(len(features), numpy.float32)
        products = features @ (seen.ravel() / length)
        # Each look's channels' sums and sums of squares over the kept pixels: two products with the
        # looks channel-wise (numpy's einsum over the looks cost 0.8 ms a cell).
        by_channel, squared = self._channel_wise(colour)
        weights = kept.astype(numpy.float32)
        sums = (by_channel @ weights).reshape(len(features), 3)
        squares = (squared @ weights).reshape(len(features), 3)
        lengths = numpy.sqrt(numpy.maximum((squares - sums * sums / count).sum(axis=1), 1e-12))
        return numpy.asarray(products / lengths, numpy.float32)

    def match(
        self,
        colour: str,
        windows: list[Window],
        lined: tuple[FloatArray, tuple[int, int]] | None = None,
    ) -> tuple[int, int, float, tuple[int, int], float]:
        """(design, rotation, margin over the best other look, where the tile lies: its shift from the
        window's centre in template pixels, the best correlation of any look) of the template the cell
        shows.

        `windows` are the cell at template scale (`_asterion_grid.cell_windows`; the first as it lies).
        The cell as it lies picks the best template; the shift that matches it best lines the
        cell up; the templates scoring close to the best for the lined-up cell are then told
        apart pairwise, around where they differ only (a chest, a wing, a path's end):
        whole-tile correlation hardly moves for a small wing washed out by blur or glare.
        `lined`: the windows' `lined_up`, when known already.
        """
        looks = self.by_colour[colour][2]
        cut: tuple[Window, int, int] | None = None
        if lined is None:
            view, shift, scores, cut = self._lined_scored(colour, windows)
        else:
            view, shift = lined
            scores = _scores(self.by_colour[colour][0], view)
        # How like a tile the cell is counts the table's grey too (a bare cell is all of it).
        top = float(scores.max())
        order = self._candidates(colour, scores)
        if len(order) == 1:
            return looks[order[0]][0], looks[order[0]][1], 1.0, shift, top
        seen = numpy.ascontiguousarray(view, dtype=numpy.float32).ravel()
        champion, margin = self._tournament(colour, order, seen, None)
        if cut is not None and margin < UNSURE:
            # Not sure: maybe the reference took some of the tile for the table (a linen as pale as
            # a path shows a crossroads' arm in the table's grey, as dark as a wall, and it read as a
            # junction). Which look it is, then, only from what the table leaves.
            missing = cut[0].missing(cut[1], cut[2])
            if missing is not None:
                order = self._candidates(colour, self._partial_scores(colour, view, ~missing))
                champion, margin = order[0], 1.0
                if len(order) > 1:
                    champion, margin = self._tournament(colour, order, seen, missing)
        return looks[champion][0], looks[champion][1], margin, shift, top

    def _tournament(
        self, colour: str, order: list[int], seen: FloatArray, missing: Missing
    ) -> tuple[int, float]:
        """The look (of `order`, the candidates) the cell `seen` (flat) shows, and its least lead over
        another label's; `missing`: the cell's pixels the table covers, not looked at."""
        labels = self._labels[colour]
        champion = order[0]
        label = labels[champion]
        margin = 1.0
        partial: dict[tuple[int, int], FloatArray | None] = {}

        def lead(look: int, other: int) -> float:
            """How much better `look` than `other` explains the cell where they differ (antisymmetric)."""
            window, test, winning_share = self._pair_test(colour, look, other)
            if len(window) < 3:
                return 0.0
            if missing is not None and int(missing[window].sum()) * PARTIAL_SHARE >= len(window):
                # Told apart where the table does not cover the tile, or not at all.
                if (look, other) not in partial:
                    kept = self._partial_test(colour, look, other, window, ~missing[window])
                    partial[(look, other)] = kept
                    partial[(other, look)] = None if kept is None else -kept
                kept_test = partial[(look, other)]
                if kept_test is None:
                    return 0.0
                test = kept_test
            return winning_share - float(seen @ test)

        # A label against another: each of its turns the game counts as the same (a wing at either
        # end) against all of the other's, each pair compared where they differ only. Turns of one
        # label are never compared with each other: the light at the two ends of a tile differs more
        # than a washed-out wing does.
        mine = self._alike(colour, champion)
        compared = {label}
        for candidate in order[1:]:
            other = labels[candidate]
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
        return champion, margin

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
                if all(len(differ(design, rotation, *looks[kept])) for kept in alike):
                    alike.append(i)
            self._alikes[key] = alike or [look]
        return self._alikes[key]

    def likeness(self, colour: str, windows: list[Window]) -> float:
        """The best correlation of the cell, lined up as in `match`, with any template of the colour."""
        return float(self._lined_scored(colour, windows)[2].max())

    def colour_lead(self, colour: str, other: str, windows: list[Window]) -> float:
        """How much better the cell shows `colour`'s frame and prisoners than `other`'s (negative: worse).

        The cell's best look in `colour` against the same look in `other`, compared where the two
        pictures differ (frame, prisoner) as two looks are in `match`: under glare all frames pale
        alike, but an offset and a gain per channel, fitted there, undo that."""
        looks = self.by_colour[colour][2]
        view, _, scores, _ = self._lined_scored(colour, windows)
        best = self._drawn(colour, int(numpy.argmax(scores)))
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
            self._colour_tests[key] = _interleaved(_difference_test(mine, theirs, window))
        return -float(numpy.ascontiguousarray(view, dtype=numpy.float32).ravel() @ self._colour_tests[key])

    @classmethod
    def from_profile(cls, profile: Profile) -> Templates:
        by_colour: dict[str, tuple[list[FloatArray], list[tuple[int, int]]]] = {}
        sources: dict[str, list[str]] = {}
        templates = {**profile.templates, **_transferred(profile.templates)}
        names = sorted(name for name in templates if name.startswith("tile:"))
        for name in names:
            _, colour, design_text = name.split(":")[:3]
            design = int(design_text)
            picture = decode_template(templates[name]).astype(numpy.float32)
            pictures, looks = by_colour.setdefault(colour, ([], []))
            for rotation in range(1 if design == MINOTAUR_DESIGN else 4):
                pictures.append(turned(picture, rotation))
                looks.append((design, rotation))
                sources.setdefault(colour, []).append(":".join(name.split(":")[3:]))
        return cls(by_colour, sources)


def _transferred(templates: dict[str, str]) -> dict[str, str]:
    """Looks of a taught edition that were not taught, from the built-in ones: per frame colour, the
    affine map of Lab colours that takes the built-in pictures of the taught designs to the taught
    ones (frame, stone and path of this print), applied to the other designs' built-in pictures.
    Without them a taught blank cell out-scored every built-in design of its colour (a corridor of the
    edition is more like its cell than like the built-in corridor)."""
    pairs: dict[str, list[tuple[FloatArray, FloatArray]]] = {}
    for name in templates:
        parts = name.split(":")
        if len(parts) == 4 and parts[3] == "taught" and f"tile:{parts[1]}:{parts[2]}" in templates:
            built_in = decode_template(templates[f"tile:{parts[1]}:{parts[2]}"]).astype(numpy.float32)
            taught = decode_template(templates[name]).astype(numpy.float32)
            pairs.setdefault(parts[1], []).append((built_in.reshape(-1, 3), taught.reshape(-1, 3)))
    made: dict[str, str] = {}
    for colour, shown in pairs.items():
        source = numpy.concatenate([numpy.c_[b, numpy.ones(len(b), numpy.float32)] for b, _ in shown])
        target = numpy.concatenate([t for _, t in shown])
        mapping = numpy.linalg.lstsq(source, target, rcond=None)[0]
        for name in templates:
            parts = name.split(":")
            if len(parts) != 3 or parts[1] != colour or f"{name}:taught" in templates:
                continue
            built_in = decode_template(templates[name]).astype(numpy.float32)
            flat = numpy.c_[built_in.reshape(-1, 3), numpy.ones(built_in.shape[0] * built_in.shape[1])]
            picture = numpy.clip(numpy.round(flat @ mapping), 0, 255).astype(numpy.uint8)
            made[f"{name}:transferred"] = encode_template(picture.reshape(built_in.shape))
    return made


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


@functools.cache
def _drawn_pixels(design: int, rotation: int) -> FloatArray:
    """The built-in drawing of a design (in the first set's colour, or the Minotaur's), turned, as
    float pixels (pixels, 3): built once, as two looks' tests are built for many pairs."""
    colour = COLOURS[0] if design != MINOTAUR_DESIGN else MINOTAUR
    picture = turned(built_in_drawings()[f"{colour}:{design}"], rotation)
    return numpy.ascontiguousarray(picture.reshape(-1, 3), dtype=numpy.float32)


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
    """The filter giving how much of the difference from `mine` to `theirs` (pictures as `channels`)
    a cell shows in the window, beyond their mean under some light (see `Templates._pair_test`)."""
    if sloping is None:
        sloping = _sloping(window)
    # Taken where the looks are compared first, then subtracted and averaged (the same values): not
    # over the whole cell.
    mine_there, theirs_there = mine[:, window], theirs[:, window]
    difference = theirs_there - mine_there
    both = (mine_there + theirs_there) / 2
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


def _sloping(
    window: numpy.typing.NDArray[numpy.intp], apart: numpy.typing.NDArray[numpy.bool_] | None = None
) -> FloatArray:
    """An offset sloping across the window's pixels, and one over the pixels `apart` if given (a chest),
    as orthonormal columns (pixels, 3 or 4)."""
    if len(window) < 3:
        return numpy.zeros((len(window), 3), numpy.float32)
    across = (window % TEMPLATE_PX).astype(numpy.float32) / TEMPLATE_PX - 0.5
    down = (window // TEMPLATE_PX).astype(numpy.float32) / TEMPLATE_PX - 0.5
    # Orthonormal columns spanning the same as QR's (three columns: by their Gram matrix's Cholesky
    # factor, a tenth of numpy's QR here); the tests use only the projection, whatever the signs.
    parts = [numpy.ones_like(across), across, down]
    if apart is not None:
        parts.append(apart.astype(numpy.float32))
    columns = numpy.stack(parts, axis=1).astype(numpy.float64)
    factor = numpy.linalg.cholesky(columns.T @ columns)
    return numpy.asarray(numpy.linalg.solve(factor, columns.T).T, numpy.float32)


@functools.cache
def _pair_window(
    design: int, rotation: int, other: int, other_rotation: int
) -> tuple[numpy.typing.NDArray[numpy.intp], FloatArray]:
    """Where (flat pixel indices) two looks are compared: where they differ, grown by PAIR_GROW_PX;
    and an offset sloping across those pixels as orthonormal columns (pixels, 3): light there (and a
    chest's shade, `_pair_chests`)."""
    window = _pair_pixels(design, rotation, other, other_rotation)
    return window, _sloping(window, _pair_chests(design, rotation, other, other_rotation))


@functools.cache
def _pair_pixels(
    design: int, rotation: int, other: int, other_rotation: int
) -> numpy.typing.NDArray[numpy.intp]:
    """`_pair_window`'s pixels: where two looks differ, grown by PAIR_GROW_PX."""
    mask = numpy.zeros(TEMPLATE_PX * TEMPLATE_PX, numpy.uint8)
    mask[differ(design, rotation, other, other_rotation)] = 1
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * PAIR_GROW_PX + 1, 2 * PAIR_GROW_PX + 1))
    return numpy.flatnonzero(cv2.dilate(mask.reshape(TEMPLATE_PX, TEMPLATE_PX), grow).ravel())


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
    colours = shipped_colours(TILES_FILE, GAME, ("path", "stone", COLOURS[0]))
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
    where = differ(design, rotation, other, other_rotation)

    def spread(number: int, turn: int) -> float:
        pixels = _drawn_pixels(number, turn)[where]
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


def in_light_of(view: FloatArray, picture: FloatArray) -> FloatArray:
    """The cell's pixels, (3, pixels), with its light matched to a template's (given as `channels`)."""
    seen, reference = channels(view), picture
    count = seen.shape[1]
    seen_mean = seen.sum(axis=1) / count
    reference_mean = reference.sum(axis=1) / count
    spread = (seen * seen).sum(axis=1) / count - seen_mean * seen_mean
    covariance = (seen * reference).sum(axis=1) / count - seen_mean * reference_mean
    gain = covariance / numpy.maximum(spread, 1e-3)
    return numpy.asarray(seen * gain[:, None] + (reference_mean - seen_mean * gain)[:, None], numpy.float32)


def local_lead(
    adjusted: FloatArray, mine: FloatArray, theirs: FloatArray, where: numpy.typing.NDArray[numpy.intp]
) -> float:
    """How much better `mine` than `theirs` (as `channels`) fits the cell (light matched) where they differ.

    Pixel by pixel where they differ only: a small chest or wing decides, not the whole tile.
    """
    if len(where) < 3 or len(where) > adjusted.shape[1] - 16:
        return 0.0
    seen = adjusted[:, where]
    mine_off = seen - mine[:, where]
    theirs_off = seen - theirs[:, where]
    mine_sq = float((mine_off * mine_off).sum())
    theirs_sq = float((theirs_off * theirs_off).sum())
    return (theirs_sq - mine_sq) / (theirs_sq + mine_sq + 1e-9)
