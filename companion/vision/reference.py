"""The empty play area as a reference: what differs from it is a piece, a die, a ring or a hand.

Learned at setup from planes of the empty area, the way camera dart scorers compare
against the board before the throw, and kept current as the light changes. Each later
plane is compared with it at `MASK_PX_PER_MM` (masks need no detail; small is cheap):

- the light: a per-channel gain between reference and plane, first for the whole plane
  (the peak of the pixels' brightness ratios: the table agrees on one, pieces scatter),
  then per cell of a coarse grid from the pixels that agree with it, so a lamp to one side
  or a soft shadow across the table is light, not a piece;
- the table: a pixel that, light corrected, lies within its reference neighbourhood's
  colour range is table; so is a pixel darker than the table by one factor in every
  channel (a shadow) close to something that is no table (the piece casting it);
- a hand: a large foreign region that crosses the plane's edge (an arm comes from
  outside), whatever its colour: no skin model, as skin tones and sleeves vary.

`normalise` gives the recognisers a plane with the light corrected to canonical white
(the markers' white paper, in every frame at the plane's corners, maps to
`CANONICAL_WHITE`) and every table pixel replaced by `NEUTRAL_BGR`: they and the
profiles taught on them never see the tablecloth.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import cv2
import numpy
import numpy.typing

from companion.vision.base import MARKER_SIDE_MM, PLANE_PX_PER_MM, Frame, Layout, VisionError
from companion.vision.calibration import marker_bits, marker_corners_mm

Floats = numpy.typing.NDArray[numpy.float32]
Mask = numpy.typing.NDArray[numpy.bool_]

NEUTRAL_BGR = (128, 128, 128)
"""What every table pixel becomes in a normalised plane: a mid grey, far from the dark backs and the
white faces of pieces, and neutral so that a piece's edge blended with it keeps its hue."""
CANONICAL_WHITE = 235.0
"""The level the markers' white paper is brought to in a normalised plane (each channel)."""
MASK_PX_PER_MM = 0.5
"""Resolution of the comparison with the reference (the plane has 2 px/mm): 2 mm pixels are small
beside a die or a piece, and a sixteenth of the plane's pixels to compare."""
LIGHT_PX_PER_MM = 0.2
"""Resolution at which the light is measured: it varies over centimetres."""
LIGHT_CELL_MM = 50.0
"""Side of a cell of the light grid: a lamp's gradient or a head's shadow is larger, a piece smaller."""
HAND_BLUR_MM = 9.0
"""Width of the window over which the difference from the table is averaged for the hand check."""
HAND_JOIN_MM = 21.0
"""Gaps up to this wide between changed regions are closed for the hand check."""
HOLE_MM2 = 300.0
"""Table-like holes inside a foreign region up to this size are part of it: a piece the colour of one
check of the cloth still shows whole where the check lies inside it."""
TEXTURE_MM = 9.0
"""Side of the window in which the plane's texture is compared with the reference's."""
TEXTURED = 4.0
"""Grey levels of deviation within that window above which the reference shows texture."""
FAINT_MM = 5.0
"""Side of the window over which faint differences are averaged."""
BRIDGE_MM = 9.0
"""A piece reaches this far (a square's side) beyond what differs where the cloth's texture is gone."""
KEEP_LEVEL = 80
"""Where the foreground mask, spread smoothly to the plane's pixels, exceeds this (of 255), the plane's
own pixel is kept in a normalised plane."""
UPDATE_EVERY = 5
"""The reference takes in the table's present look once every this many accepted frames."""
SATURATED = 248.0
"""A channel this bright may be clipped: it matches any table the light makes at least as bright."""
EMPTY_LABELS = frozenset({"empty", "clear", "unseen"})
"""Labels that mean "nothing there": a plane read as all of these shows the empty play area."""


class ReferenceError(VisionError):
    """Planes that cannot make or be compared with a reference (wrong size, none at all)."""


@dataclasses.dataclass(frozen=True)
class ReferenceSettings:
    tolerance: float = 14.0
    """Grey levels a light-corrected pixel may lie beyond its reference neighbourhood's range (noise)..."""
    relative_tolerance: float = 0.07
    """...plus this share of the reference's level (a bright table is noisier in absolute terms)."""
    faint_level: float = 0.5
    """Differences within the tolerance that average more than this share of it over `FAINT_MM`
    (summed over B, G and R) are no table either."""
    shadow_min: float = 0.45
    """A shadow darkens the table by no more than this factor (a dark piece on a grey table is darker)."""
    shadow_chroma: float = 0.05
    """A shadow darkens every channel alike: their ratios to the table differ by at most this."""
    shadow_reach_mm: float = 10.0
    """A shadow-like pixel is table only this close to something that is no table (what casts it)."""
    light_band: float = 0.25
    """A pixel's log ratio to the reference within this of the plane's light counts for the light grid;
    the grid stays within it too (an arm of the table's hue must not pass for a shadow)."""
    hand_level: float = 1.0
    """A pixel's distance beyond the reference's range, in tolerances summed over B, G and R, averaged
    over `HAND_BLUR_MM`, that marks it changed for the hand check (noise averages out; a skin on a wood
    of its hue does not)."""
    hand_min_area_mm2: float = 2500.0
    """A foreign region crossing the plane's edge this large is a hand or an arm..."""
    hand_min_edge_mm: float = 25.0
    """...when it crosses the edge over this length at least (a wrist, a sleeve; a piece pushed to the
    edge crosses it over less and is smaller)."""
    min_table_share: float = 0.08
    """Less of the plane than this matching the reference: the cloth or the camera changed, relearn."""
    min_free_share: float = 0.45
    """Less than this share of the area where no item lies matching the reference: not an arm, a new cloth."""
    update_rate: float = 0.02
    """Share of a table pixel's present look taken into the reference per accepted frame (pixels near pieces
    and under them are never taken)."""


@dataclasses.dataclass(frozen=True)
class TableView:
    """One plane compared with the reference (all arrays at MASK_PX_PER_MM)."""

    foreground: Mask
    """True where the plane is no table: pieces, dice, rings, hands."""
    correction: Floats
    """Per pixel and channel, the factor that brings the plane to canonical light."""
    table: Mask
    """Table matching the reference in colour (shadows excluded): these pixels may update it."""
    table_share: float
    hand: bool
    reason: str
    """Why the plane must not be read ("" when it may)."""

    @property
    def refused(self) -> bool:
        return bool(self.reason)


def _paper_samples(plane_mm: tuple[float, float], px_per_mm: float) -> list[tuple[Mask, Mask]]:
    """Per corner marker, the pixels of its white cells and of its black border, in a plane of that
    resolution: a 1.5 mm margin inside each 5 mm cell leaves room for a calibration off by a millimetre."""
    width, height = round(plane_mm[0] * px_per_mm), round(plane_mm[1] * px_per_mm)
    samples = []
    for marker_id, corners in marker_corners_mm(plane_mm).items():
        bits = marker_bits(marker_id)
        cell = MARKER_SIDE_MM / bits.shape[0]
        white, black = numpy.zeros((height, width), bool), numpy.zeros((height, width), bool)
        for row in range(bits.shape[0]):
            for column in range(bits.shape[1]):
                x0 = (corners[0][0] + column * cell + 1.5) * px_per_mm
                y0 = (corners[0][1] + row * cell + 1.5) * px_per_mm
                x1, y1 = x0 + (cell - 3.0) * px_per_mm, y0 + (cell - 3.0) * px_per_mm
                target = black if bits[row, column] else white
                target[round(y0) : round(y1), round(x0) : round(x1)] = True
        samples.append((white, black))
    return samples


def _px(mm: float) -> int:
    """A window of about `mm` millimetres as an odd number of mask pixels (3 at least)."""
    return max(3, round(mm * MASK_PX_PER_MM) | 1)


def _square(mm: float) -> numpy.typing.NDArray[numpy.uint8]:
    return numpy.ones((_px(mm), _px(mm)), numpy.uint8)


# Reductions over the three channels: numpy's over a last axis of three are several times slower.
def _sum3(image: Floats) -> Floats:
    return numpy.asarray(cv2.transform(image, numpy.ones((1, 3), numpy.float32)), numpy.float32)


def _max3(image: Floats) -> Floats:
    blue, green, red = cv2.split(image)
    return numpy.asarray(cv2.max(cv2.max(blue, green), red), numpy.float32)


def _min3(image: Floats) -> Floats:
    blue, green, red = cv2.split(image)
    return numpy.asarray(cv2.min(cv2.min(blue, green), red), numpy.float32)


def _log(image: Floats) -> Floats:
    return numpy.asarray(numpy.log(image + 4.0), dtype=numpy.float32)


class TableReference:
    """The empty play area of one layout, and how each later plane differs from it."""

    def __init__(self, layout: Layout, settings: ReferenceSettings | None = None) -> None:
        self.layout = layout
        self.settings = settings or ReferenceSettings()
        width, height = layout.plane_mm
        self.plane_size = layout.plane_size_px()
        self.size = (max(8, round(width * MASK_PX_PER_MM)), max(8, round(height * MASK_PX_PER_MM)))
        self.grid = (max(2, round(width / LIGHT_CELL_MM)), max(2, round(height / LIGHT_CELL_MM)))
        self.light_size = (max(4, round(width * LIGHT_PX_PER_MM)), max(4, round(height * LIGHT_PX_PER_MM)))
        self._weight = self._free_weight()
        self._light_weight = cv2.resize(self._weight, self.light_size, interpolation=cv2.INTER_AREA)
        self._paper = _paper_samples(layout.plane_mm, PLANE_PX_PER_MM)
        self._neutral = numpy.empty((self.plane_size[1], self.plane_size[0], 3), numpy.uint8)
        self._neutral[:] = NEUTRAL_BGR
        self._frames_since_update = 0
        self._image: Floats | None = None
        self._log_white: Floats = numpy.zeros((self.size[1], self.size[0], 3), numpy.float32)
        self._low: Floats | None = None
        self._high: Floats | None = None
        self._grey: Floats | None = None
        self._grey_mean: Floats | None = None
        self._grey_deviation: Floats | None = None
        self._tolerance: Floats = numpy.zeros(0, numpy.float32)
        self._log_image: Floats = numpy.zeros(0, numpy.float32)
        self._shadow_chroma: Floats = numpy.zeros(0, numpy.float32)
        self.white_balanced = False
        """The markers' paper could be measured: normalised colours are those under canonical white."""

    # ------------------------------------------------------------ learning

    def learn(self, planes: Sequence[Frame]) -> None:
        """Take these planes of the empty play area as the reference (several: their median, so a
        passing shadow or noise does not stay in it)."""
        if not planes:
            raise ReferenceError("a reference needs at least one plane of the empty play area")
        small = numpy.median(numpy.stack([self._small(plane) for plane in planes]), axis=0)
        self._set_image(numpy.asarray(small, numpy.float32))
        whites = [self._paper_white(plane) for plane in planes]
        valid = [white for white in whites if white is not None]
        self.white_balanced = bool(valid)
        if valid:
            corners = numpy.median(numpy.stack(valid), axis=0)
            self._log_white = self._corner_field(numpy.log(CANONICAL_WHITE / corners).astype(numpy.float32))
        else:
            self._log_white = numpy.zeros((self.size[1], self.size[0], 3), numpy.float32)

    @property
    def learned(self) -> bool:
        return self._image is not None

    def _set_image(self, image: Floats) -> None:
        self._image = image
        kernel = numpy.ones((3, 3), numpy.uint8)
        # Each pixel's neighbourhood range: the camera settling a millimetre off keeps texture table.
        self._low = numpy.asarray(cv2.erode(image, kernel), numpy.float32)
        self._high = numpy.asarray(cv2.dilate(image, kernel), numpy.float32)
        self._remember_texture(image)
        settings = self.settings
        self._tolerance = (settings.tolerance + settings.relative_tolerance * image).astype(numpy.float32)
        self._log_image = _log(image)
        # Noise makes the channels of a dark table's shadow disagree more.
        self._shadow_chroma = settings.shadow_chroma + 5.0 / (_sum3(image) / 3.0 + 2.0)

    def _remember_texture(self, image: Floats) -> None:
        side = (_px(TEXTURE_MM), _px(TEXTURE_MM))
        grey = _sum3(image) / 3.0
        mean = cv2.blur(grey, side)
        self._grey, self._grey_mean = grey, numpy.asarray(mean, numpy.float32)
        variance = cv2.blur(grey * grey, side) - mean * mean
        self._grey_deviation = numpy.asarray(numpy.sqrt(numpy.maximum(variance, 0.0)), numpy.float32)

    def _small(self, plane: Frame) -> Floats:
        expected = (self.plane_size[1], self.plane_size[0], 3)
        if plane.shape != expected or plane.dtype != numpy.uint8:
            raise ReferenceError(
                f"a plane of shape {plane.shape} ({plane.dtype}) is not this layout's {expected} uint8"
            )
        return numpy.asarray(cv2.resize(plane, self.size, interpolation=cv2.INTER_AREA), numpy.float32)

    def _free_weight(self) -> Floats:
        """Pixels where no item lies are table unless a hand is there: they count more for the light."""
        weight = numpy.full((self.size[1], self.size[0]), 4.0, numpy.float32)
        scale = MASK_PX_PER_MM / PLANE_PX_PER_MM
        for region in self.layout.items.values():
            x0, y0, x1, y1 = (round(v * scale) for v in region.box_px())
            weight[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = 1.0
        return weight

    def _paper_white(self, plane: Frame) -> Floats | None:
        """The markers' white paper per corner (4, 3), or None when it is not clearly white on black."""
        whites = []
        for white, black in self._paper:
            paper = numpy.median(plane[white], axis=0).astype(numpy.float32)
            ink = numpy.median(plane[black], axis=0).astype(numpy.float32)
            if paper.min() < 40 or paper.sum() < 1.6 * ink.sum() + 60:
                return None
            whites.append(paper)
        return numpy.stack(whites)

    def _corner_field(self, corners: Floats) -> Floats:
        """A (4, 3) value per marker corner spread bilinearly over the small plane."""
        width, height = self.size
        u = numpy.linspace(0.0, 1.0, width, dtype=numpy.float32)[None, :, None]
        v = numpy.linspace(0.0, 1.0, height, dtype=numpy.float32)[:, None, None]
        top_left, top_right, bottom_right, bottom_left = corners
        top = top_left * (1 - u) + top_right * u
        bottom = bottom_left * (1 - u) + bottom_right * u
        return numpy.asarray(top * (1 - v) + bottom * v, numpy.float32)

    # ------------------------------------------------------------ comparing

    def look(self, plane: Frame) -> TableView:
        """Compare a plane with the reference: where the table is, the light, and whether a hand is in."""
        if self._image is None or self._low is None or self._high is None:
            raise ReferenceError("no reference learned: show the empty play area first")
        settings = self.settings
        current = self._small(plane)
        log_ratio = _log(current) - self._log_image
        log_light = self._light(log_ratio, current)
        gain = numpy.exp(log_light)
        # Compared as the camera sees it: where the light drives the table past white, white matches.
        low = numpy.minimum(self._low * gain, SATURATED)
        outside = numpy.maximum(numpy.maximum(low - current, current - self._high * gain), 0.0)
        outside[current >= SATURATED] = 0.0  # a clipped channel could be any table brighter than white
        tolerance = self._tolerance * gain
        matches = _max3(outside - tolerance) <= 0.0
        ratio = (current / gain + 2.0) / (self._image + 2.0)
        darkening = _sum3(ratio) / 3.0
        shadow_like = (
            ~matches
            & (darkening >= settings.shadow_min)
            & (darkening <= 1.0)
            & (_max3(ratio) - _min3(ratio) <= self._shadow_chroma)
        )
        # A piece close to the table's colour (a dark back on dark wood) differs by little in each pixel,
        # but alike over its whole face: averaged over a few millimetres that stands out of the noise.
        distance = _sum3(outside / tolerance)
        beyond = numpy.where(matches, distance, 0.0).astype(numpy.float32)
        faint = cv2.blur(beyond, (_px(FAINT_MM), _px(FAINT_MM))) > settings.faint_level
        matches &= ~faint
        foreign = ~matches & ~shadow_like
        # Only a solid foreign region casts a shadow: not the stray pixels of an arm of the table's hue.
        solid = cv2.morphologyEx(foreign.astype(numpy.uint8), cv2.MORPH_OPEN, _square(5.0))
        near_foreign = cv2.dilate(solid, _square(2 * settings.shadow_reach_mm)) > 0
        cast_shadow = shadow_like & near_foreign
        raw = (foreign | (shadow_like & ~near_foreign)).astype(numpy.uint8)
        # A piece's few table-coloured pixels are piece. (A mask pixel averages 16 of the plane's, so
        # noise leaves no speckle to open away; opening would cut a piece on a check into pieces.)
        foreground = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, numpy.ones((3, 3), numpy.uint8))
        lost = self._texture_lost(numpy.asarray(current / gain, numpy.float32))
        # A piece of one of the cloth's colours matches it in places, but hides its texture there: beside
        # what differs, where the texture is gone is piece too (between pieces the cloth shows).
        bridged = cv2.dilate(foreground, _square(BRIDGE_MM))
        foreground = self._filled(foreground | (bridged & lost.astype(numpy.uint8)))
        # An arm of nearly the table's colour differs from it by little, but over a large area: the
        # difference averaged over a few millimetres shows it where single pixels are within the noise.
        excess = numpy.where(cast_shadow, 0.0, distance).astype(numpy.float32)
        side = _px(HAND_BLUR_MM)
        averaged = cv2.blur(excess, (side, side))
        # A lost texture counts only over an arm's width: a piece hides it too, but is no hand by itself.
        lost_widely = cv2.blur(lost.astype(numpy.float32), (_px(TEXTURE_MM), _px(TEXTURE_MM))) > 0.6
        different = (averaged > settings.hand_level) | lost_widely | (foreground > 0)
        table_share = float(numpy.count_nonzero(matches)) / matches.size
        # An arm of nearly the table's colour shows by its sides, its shading and its shadow, not its
        # ridge: joined up, they make one region again.
        joined = numpy.asarray(
            cv2.morphologyEx(different.astype(numpy.uint8), cv2.MORPH_CLOSE, _square(HAND_JOIN_MM)),
            numpy.uint8,
        )
        hand = self._hand(joined)
        free = self._weight > 1.0
        free_share = float(numpy.count_nonzero(matches & free)) / max(1, int(numpy.count_nonzero(free)))
        reason = ""
        if free_share < settings.min_free_share:
            # Most of the area where no item lies differs too: no arm does that, a new cloth does.
            hand = False
            reason = (
                "the table no longer looks like the empty play area learned at setup "
                "(cloth, camera or lamp changed): show the empty area again"
            )
        elif hand:
            reason = "a hand is over the table"
        elif table_share < settings.min_table_share:
            reason = (
                "the table no longer looks like the empty play area learned at setup "
                "(cloth, camera or lamp changed): show the empty area again"
            )
        correction = numpy.exp(self._log_white - log_light).astype(numpy.float32)
        return TableView(foreground > 0, correction, matches, table_share, hand, reason)

    def _light(self, log_ratio: Floats, current: Floats) -> Floats:
        """Per pixel and channel, the log of the light's gain since the reference was learned."""
        if self._image is None:
            raise ReferenceError("no reference learned: show the empty play area first")
        band = self.settings.light_band
        # The light is smooth: it is measured on a coarser grid still (cheap), then spread back.
        coarse = self.light_size
        log_ratio = numpy.asarray(cv2.resize(log_ratio, coarse, interpolation=cv2.INTER_AREA), numpy.float32)
        brightest = cv2.resize(cv2.dilate(current, _square(1.0)), coarse, interpolation=cv2.INTER_NEAREST)
        darkest = cv2.resize(cv2.erode(self._image, _square(1.0)), coarse, interpolation=cv2.INTER_NEAREST)
        # A clipped channel, or one too dark to measure (the markers' black), tells nothing of the light:
        # it takes no part (the others of its pixel do).
        unclipped = (brightest < SATURATED) & (darkest > 20.0)
        overall = numpy.zeros(3, numpy.float32)
        for channel in range(3):
            ratios, usable = log_ratio[..., channel], unclipped[..., channel]
            weight = numpy.where(usable, self._light_weight, 0.0)
            bins = numpy.clip(numpy.round((ratios + 1.5) / 0.02), 0, 150).astype(numpy.intp)
            counts = numpy.bincount(bins.ravel(), weights=weight.ravel(), minlength=151)
            smoothed = numpy.convolve(counts, [1.0, 2.0, 3.0, 2.0, 1.0], mode="same")
            peak = float(numpy.argmax(smoothed)) * 0.02 - 1.5
            near = (numpy.abs(ratios - peak) < 0.08) & usable
            overall[channel] = float(ratios[near].mean()) if numpy.any(near) else numpy.nan
        if numpy.all(numpy.isnan(overall)):
            overall[:] = 0.0
        overall = numpy.where(numpy.isnan(overall), numpy.nanmax(overall), overall).astype(numpy.float32)
        # Twice: the pixels agreeing with the plane's light give a first grid, and those agreeing with
        # that grid the final one (a lamp's gradient takes the far side of the table beyond the band).
        cells = self._cells(log_ratio, unclipped, overall, band, overall)
        for narrower in (band / 2, band / 3):
            cells = self._cells(log_ratio, unclipped, self._spread(cells, coarse), narrower, overall)
        return self._spread(cells, self.size)

    def _spread(self, cells: Floats, size: tuple[int, int]) -> Floats:
        """The grid spread smoothly over the small plane, carrying its slope on out to the plane's edges
        (a lamp's gradient does not stop half a cell short of the edge)."""
        padded = numpy.pad(cells, ((1, 1), (1, 1), (0, 0)), mode="reflect", reflect_type="odd")
        scale_x, scale_y = self.grid[0] / size[0], self.grid[1] / size[1]
        # Small-plane pixel x lies at grid coordinate (x + 0.5) * scale - 0.5, plus one for the padding.
        to_grid = numpy.array([[scale_x, 0.0, 0.5 * scale_x + 0.5], [0.0, scale_y, 0.5 * scale_y + 0.5]])
        spread = cv2.warpAffine(
            padded,
            to_grid,
            size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return numpy.asarray(spread, numpy.float32)

    def _cells(
        self, log_ratio: Floats, unclipped: Mask, centre: Floats, band: float, overall: Floats
    ) -> Floats:
        """The light grid: per cell, the mean log ratio of the pixels within `band` of `centre` in every
        channel; a cell with few such pixels takes its neighbours' (and at last the plane's) light."""
        deviation = numpy.where(unclipped, numpy.abs(log_ratio - centre), 0.0).astype(numpy.float32)
        agree = (_max3(deviation) < band)[..., None] & unclipped
        weights = agree.astype(numpy.float32)
        grid = self.grid
        support = numpy.asarray(cv2.resize(weights, grid, interpolation=cv2.INTER_AREA), numpy.float32)
        sums = numpy.asarray(
            cv2.resize(log_ratio * weights, grid, interpolation=cv2.INTER_AREA), numpy.float32
        )
        near_support = cv2.blur(support, (3, 3), borderType=cv2.BORDER_REPLICATE)
        near_sums = cv2.blur(sums, (3, 3), borderType=cv2.BORDER_REPLICATE)
        own = sums / numpy.maximum(support, 1e-6)
        borrowed = (near_sums + 0.01 * overall) / (near_support + 0.01)
        cells = numpy.where(support > 0.1, own, borrowed)
        # Light across one table varies by less than this; an arm of the table's hue darker still stays out.
        reach = 2 * self.settings.light_band
        return numpy.asarray(numpy.clip(cells, overall - reach, overall + reach), numpy.float32)

    def _texture_lost(self, corrected: Floats) -> Mask:
        """Where the reference shows texture (grain, a weave, checks) that the plane no longer shows: an
        arm of the very colour of the table hides it, a shadow keeps it."""
        if self._grey is None or self._grey_mean is None or self._grey_deviation is None:
            return numpy.zeros(corrected.shape[:2], bool)
        side = (_px(TEXTURE_MM), _px(TEXTURE_MM))
        grey = _sum3(corrected) / 3.0
        mean = cv2.blur(grey, side)
        deviation = numpy.sqrt(numpy.maximum(cv2.blur(grey * grey, side) - mean * mean, 0.0))
        covariance = cv2.blur(grey * self._grey, side) - mean * self._grey_mean
        correlation = covariance / (deviation * self._grey_deviation + 1.0)
        textured = self._grey_deviation > TEXTURED
        return numpy.asarray(textured & (correlation < 0.3), bool)

    def _filled(self, foreground: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
        """The foreground with its small enclosed holes filled (not the table enclosed by a ring of
        pieces: that hole is larger)."""
        count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - foreground, connectivity=4)
        small = stats[:, cv2.CC_STAT_AREA] <= HOLE_MM2 * MASK_PX_PER_MM**2
        height, width = foreground.shape
        # A hole touches no edge of the plane: its box lies inside.
        inside = (stats[:, cv2.CC_STAT_LEFT] > 0) & (stats[:, cv2.CC_STAT_TOP] > 0)
        inside &= stats[:, cv2.CC_STAT_LEFT] + stats[:, cv2.CC_STAT_WIDTH] < width
        inside &= stats[:, cv2.CC_STAT_TOP] + stats[:, cv2.CC_STAT_HEIGHT] < height
        holes = small & inside
        holes[0] = False  # label 0: the foreground itself
        if count <= 1 or not numpy.any(holes):
            return foreground
        return numpy.asarray(foreground | holes[labels].astype(numpy.uint8), numpy.uint8)

    def _hand(self, foreground: numpy.typing.NDArray[numpy.uint8]) -> bool:
        """A foreign region crossing the plane's edge, large and wide where it crosses: an arm."""
        count, labels, stats, _ = cv2.connectedComponentsWithStats(foreground, connectivity=8)
        if count <= 1:
            return False
        edge = numpy.concatenate([labels[0], labels[-1], labels[1:-1, 0], labels[1:-1, -1]])
        crossing = numpy.bincount(edge, minlength=count)
        min_area = self.settings.hand_min_area_mm2 * MASK_PX_PER_MM**2
        min_edge = self.settings.hand_min_edge_mm * MASK_PX_PER_MM
        for label in range(1, count):
            if crossing[label] >= min_edge and stats[label, cv2.CC_STAT_AREA] >= min_area:
                return True
        return False

    # ------------------------------------------------------------ using and updating

    def normalise(self, plane: Frame, view: TableView | None = None) -> Frame:
        """The plane in canonical light with every table pixel replaced by NEUTRAL_BGR."""
        view = view if view is not None else self.look(plane)
        width, height = self.plane_size
        # Spread smoothly and cut a little below half: the outline runs between the mask's 2 mm pixels
        # where the piece's edge is, and a pixel half piece is kept (its blur belongs to the piece).
        spread = cv2.resize(
            view.foreground.astype(numpy.uint8) * 255, (width, height), interpolation=cv2.INTER_LINEAR
        )
        keep_full = (spread > KEEP_LEVEL).astype(numpy.uint8)
        # The correction is smooth: scaled to bytes (1/80 steps) it multiplies the plane in one pass.
        scaled = numpy.clip(view.correction * 80.0, 0, 255).astype(numpy.uint8)
        factor = cv2.resize(scaled, (width, height), interpolation=cv2.INTER_LINEAR)
        corrected = cv2.multiply(plane, factor, scale=1.0 / 80.0)
        out = self._neutral.copy()  # a copy is a memcpy; filling with a colour is not
        cv2.copyTo(corrected, keep_full, out)
        return out

    def keep_current(self, plane: Frame, view: TableView) -> None:
        """Let the reference follow the table where it shows clearly (never from under or beside a
        piece, nor from a refused plane): dust, a cloth that settled, light the grid cannot model."""
        if self._image is None or view.refused or self.settings.update_rate <= 0:
            return
        # Light and dust change over seconds, not frames: every UPDATE_EVERY-th frame is enough, and
        # spares the cost of renewing the reference's ranges and texture each frame.
        self._frames_since_update += 1
        if self._frames_since_update < UPDATE_EVERY:
            return
        self._frames_since_update = 0
        near = cv2.dilate(view.foreground.astype(numpy.uint8), _square(10.0)) > 0
        clear = view.table & ~near
        if not numpy.any(clear):
            return
        # In the reference's own light: the correction less the white balance is the light's gain.
        in_reference_light = self._small(plane) * view.correction * numpy.exp(-self._log_white)
        image = self._image.copy()
        rate = min(1.0, self.settings.update_rate * UPDATE_EVERY)
        image[clear] += rate * (in_reference_light[clear] - image[clear])
        self._set_image(image)


def normalised_plane(empty: Sequence[Frame], plane: Frame, layout: Layout) -> Frame:
    """`plane` normalised against a reference learned from the planes of the empty area `empty`: what a
    recogniser reads and a training script should learn from (table pixels NEUTRAL_BGR, canonical light)."""
    reference = TableReference(layout)
    reference.learn(empty)
    return reference.normalise(plane)


@dataclasses.dataclass(frozen=True)
class LearnResult:
    """What learning the empty play area came to, in words for the setup page."""

    learned: bool
    message: str
    planes: int = 0
    """How many of the frames showed the markers (and so went into the reference)."""


def learn_from_planes(
    layout: Layout, planes: Sequence[Frame], frames: int
) -> tuple[TableReference | None, LearnResult]:
    """A reference from the planes of the empty area seen in `frames` camera frames (those with markers)."""
    if not planes:
        return None, LearnResult(
            False, f"the corner markers were not found in {frames} frame(s): the empty area was not learned"
        )
    reference = TableReference(layout)
    reference.learn(planes)
    message = f"learned the empty play area from {len(planes)} of {frames} frame(s)"
    if not reference.white_balanced:
        message += "; the markers' white paper could not be measured, so colours are not white-balanced"
    return reference, LearnResult(True, message, len(planes))
