"""The light on the play area, measured against its reference: what the reference needs beside masks.

`LightGrid` measures the light's per-channel gain between the reference and a later plane:
first for the whole plane (the peak of the pixels' ratios: the table agrees on one, pieces
scatter), then per cell of a coarse grid from the pixels that agree with it, followed from cell
to cell where the light falls or rises further (a lamp low to one side, a player's shadow), and
spread smoothly back over the plane, so that these are light and not a piece (a cell whose light
would push its table past white, a hotspot's held by the pieces in it, takes the table's). `MarkerPaper`
reads the corner markers' white paper, which is in every plane, to bring colours to one canonical
white whatever the lamp. The channel reductions are here too: numpy's over a last axis of three are
several times slower than OpenCV's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import cv2
import numpy
import numpy.typing

from companion.vision.base import MARKER_SIDE_MM, Frame
from companion.vision.calibration import marker_bits, marker_corners_mm

Floats = numpy.typing.NDArray[numpy.float32]
Mask = numpy.typing.NDArray[numpy.bool_]

LIGHT_PX_PER_MM = 0.2
"""Resolution at which the light is measured: it varies over centimetres."""
LIGHT_CELL_MM = 35.0
"""Side of a cell of the light grid: a lamp's hotspot (15 cm across) or a head's shadow is larger, a
piece is smaller; at 5 cm the edge of a lamp's hotspot that moved or dimmed fell within a cell."""
SATURATED = 248.0
"""A channel this bright may be clipped: it matches any table the light makes at least as bright."""
TOO_DARK = 5.0
"""A reference channel this dark is too dark to measure a gain on. A navy board learned under a dim lamp
has its green and red at 8-15 (the reference averages their noise away): at 20 the grid could not follow
a warm lamp switched on over it in those channels, and the hotspot was taken for something foreign."""
LAMP_CHROMA = 0.1
"""How far (log) a lamp's brightening of a cell may differ between channels: a hotspot brightens every
channel alike, a yellow piece on dark wood differs from it in each by its own share."""
WALK_PASSES = 16
"""Passes in which the grid follows the light from cell to cell at the full band's width: a player's
soft shadow deepens over several cells, and each pass takes the grid at most one band's depth further into
it, on a steep ramp much less (a cell's light lags behind its pixels': 8 passes, stopped at the first that
gave no whole cell light of its own, left a shadow falling to a third over two cells at the lit side's)."""
PAPER_MIN = 16.0
"""The markers' white paper is measured from this level on in each channel (it is the median of hundreds of
pixels: noise averages out). A felt table under a dim lamp shows it at 30-35 yet clearly white on black ink
at 0-2: refused at 40, the plane went unbalanced to the recogniser, a seventh as bright as canonical."""
WALK_SETTLED = 0.05
"""A pass of the walk that moves no cell's light by this much (log) more, and gives no whole cell more light
of its own, has followed the light as far as it goes."""
WALK_STALLED = 3
"""Passes of the walk, each moving some cell's light no less than the least any pass did before, after which
it has followed the light as far as it will (it swings back and forth)."""
KEPT_CELL_SHARE = 0.25
"""Share of a cell whose pixels keep the reference's texture that gives the cell their light."""
DEEPEST_SHADE = 0.2
"""The light may be this much dimmer in places than over the plane as a whole (a player's head between
the lamp and a dark table leaves it a quarter lit or less), or as much brighter (the lamp's side of a
table whose far side is so lit)."""


PEAK_REACH = 1.5
"""The plane's light is looked for within this much (log) of the reference's light, either way."""
PEAK_BIN = 0.02
"""Width (log) of a bin of the histogram in which the plane's light is looked for."""
PEAK_BINS = round(2 * PEAK_REACH / PEAK_BIN) + 1
_ONE_THREAD_PRODUCT = 200_000
"""Multiplications of a matrix product below which OpenBLAS keeps it on the calling thread (its threshold
is 4 x 65536)."""


def floats(image: cv2.typing.MatLike) -> Floats:
    """An OpenCV result as float32 (no copy: it is one)."""
    return numpy.asarray(image, numpy.float32)


def sum3(image: Floats) -> Floats:
    """B + G + R per pixel."""
    return numpy.asarray(cv2.transform(image, numpy.ones((1, 3), numpy.float32)), numpy.float32)


_ACROSS_3 = numpy.ones((1, 3), numpy.uint8)
_NEIGHBOURS = numpy.ones((3, 3), numpy.uint8)
_REACH = -float(numpy.log(DEEPEST_SHADE))
"""How far (log) a cell's light may lie from the plane's (`DEEPEST_SHADE`)."""


@functools.cache
def _below(band: float) -> float:
    """The largest float32 below `band`: what lies under it passes OpenCV's threshold as under numpy's `<`."""
    return float(numpy.nextafter(numpy.float32(band), numpy.float32(-numpy.inf)))


def max3(image: Floats) -> Floats:
    """max(B, G, R) per pixel: the channels, side by side in a row, dilated over three (each pixel's first
    channel then holds its three's largest). Splitting them first cost half as much again."""
    height, width = image.shape[:2]
    rows = numpy.ascontiguousarray(image).reshape(height, width * 3)
    largest = cv2.dilate(rows, _ACROSS_3, anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    return numpy.ascontiguousarray(largest[:, 0::3], numpy.float32)


_SUM_TO_ONE = numpy.ones((1, 3), numpy.float32)
_SUM_TO_EACH = numpy.ones((3, 3), numpy.float32)


def any_above(image: Floats, level: float, channels: int = 1) -> Floats:
    """1.0 where any channel of the pixel lies above `level`, else 0.0, in `channels` (1 or 3) alike: each
    channel's test, counted over the three by one `cv2.transform` (the count is a small whole number,
    exact in float32), and the count's. The same as thresholding `max3`, in fewer passes (`max3`'s dilate
    costs twice a threshold on the light grid's images, and its channel copy as much again)."""
    each = cv2.threshold(image, level, 1.0, cv2.THRESH_BINARY)[1]
    count = cv2.transform(each, _SUM_TO_ONE if channels == 1 else _SUM_TO_EACH)
    return floats(cv2.threshold(count, 0.5, 1.0, cv2.THRESH_BINARY)[1])


def all_within(image: Floats, level: float, channels: int = 1) -> Floats:
    """1.0 where no channel of the pixel lies above `level` (`any_above`'s complement), in `channels`."""
    each = cv2.threshold(image, level, 1.0, cv2.THRESH_BINARY)[1]
    count = cv2.transform(each, _SUM_TO_ONE if channels == 1 else _SUM_TO_EACH)
    return floats(cv2.threshold(count, 0.5, 1.0, cv2.THRESH_BINARY_INV)[1])


def none_above(image: Floats, level: float) -> Mask:
    """True where no channel of the pixel lies above `level`: `max3(image) <= level`, as `any_above`."""
    each = cv2.threshold(image, level, 1.0, cv2.THRESH_BINARY)[1]
    return numpy.asarray(cv2.transform(each, _SUM_TO_ONE) < 0.5, bool)


def min3(image: Floats) -> Floats:
    """min(B, G, R) per pixel, as `max3`."""
    height, width = image.shape[:2]
    rows = numpy.ascontiguousarray(image).reshape(height, width * 3)
    smallest = cv2.erode(rows, _ACROSS_3, anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    return numpy.ascontiguousarray(smallest[:, 0::3], numpy.float32)


def log_level(image: Floats) -> Floats:
    """The log of each level, kept finite at black (ratios of logs are gains)."""
    return numpy.asarray(numpy.log(image + 4.0), dtype=numpy.float32)


class LightGrid:
    """Measures, for planes of one play area, the light's gain since its reference was learned."""

    def __init__(
        self,
        plane_mm: tuple[float, float],
        size: tuple[int, int],
        weight: Floats,
        band: float,
        cell_mm: float = LIGHT_CELL_MM,
    ):
        """`size`: the masks' (width, height); `weight` (at that size): how much each pixel counts for the
        whole plane's light; `band`: how far (log) from the light of the cells beside it a pixel may be
        to count for the grid (an arm's sharp side is no step the grid takes; the light's soft slope is);
        `cell_mm`: the side of the grid's cells."""
        width, height = plane_mm
        self.size = size
        self.grid = (max(2, round(width / cell_mm)), max(2, round(height / cell_mm)))
        self.coarse = (max(4, round(width * LIGHT_PX_PER_MM)), max(4, round(height * LIGHT_PX_PER_MM)))
        self.weight = numpy.asarray(
            cv2.resize(weight, self.coarse, interpolation=cv2.INTER_AREA), numpy.float32
        )
        self.band = band
        cell_weight = cv2.resize(weight, self.grid, interpolation=cv2.INTER_AREA)
        middle = 0.5 * (float(weight.min()) + float(weight.max()))
        self._free_cells = numpy.asarray(cell_weight > middle, bool)
        """Cells mostly where no item lies (`weight` at its highest)."""
        self._reference: Floats | None = None
        self._darkest: Floats = numpy.zeros(0, numpy.float32)
        self._ceiling: Floats | None = None
        self._headroom: Floats | None = None
        self._lifted: Floats | None = None
        self._spreaders: dict[tuple[int, int], tuple[Floats, Floats]] = {}

    def measure(
        self,
        log_ratio: Floats,
        current: Floats,
        reference: Floats,
        ceiling: Floats | None = None,
        kept: Callable[[], Mask] | None = None,
        log_reference: Floats | None = None,
        fill: bool = False,
    ) -> Floats:
        """Per mask pixel and channel, the log of the light's gain (log_ratio: the plane's log levels less
        the reference's, at the masks' size; current and reference: the levels themselves). `ceiling`
        (at the masks' size, when the plane is brought to canonical white): per pixel and channel, the log
        of the highest camera level the light may bring to `SATURATED` and no further (the log of
        `SATURATED` less the white balance): the grid takes no light under which a cell's table would
        be pushed past it. `kept`, when given: where the plane keeps the reference's texture, asked for
        only when a cell mostly free of items found no light of its own. `log_reference`, when known:
        `log_level(reference)` (the reference keeps it; its log costs more than the rest of the renewal).
        `fill`: the cells that found no light of their own nor from `kept` take the light of the nearest
        that did (`_filled`): under one deep shadow over most of the plane, the cells full of pieces
        inside it lie in it too."""
        band, coarse = self.band, self.coarse
        log_ratio = numpy.asarray(cv2.resize(log_ratio, coarse, interpolation=cv2.INTER_AREA), numpy.float32)
        one = _NEIGHBOURS
        brightest = cv2.resize(cv2.dilate(current, one), coarse, interpolation=cv2.INTER_NEAREST)
        if reference is not self._reference or ceiling is not self._ceiling:
            # The reference changes every few frames at most: its darkest neighbours are kept.
            self._reference, self._ceiling = reference, ceiling
            eroded = cv2.erode(reference, one)
            self._darkest = numpy.asarray(
                cv2.resize(eroded, coarse, interpolation=cv2.INTER_NEAREST), numpy.float32
            )
            # How far (log) a pixel's ratio may lie above the light before the light correction takes
            # it past white: the ceiling less the reference's own log level.
            self._headroom = None
            if ceiling is not None:
                logs = log_level(reference) if log_reference is None else log_reference
                headroom = cv2.subtract(ceiling, logs)
                self._headroom = floats(cv2.resize(headroom, coarse, interpolation=cv2.INTER_AREA))
        darkest = self._darkest
        # A clipped channel, or one too dark to measure, tells nothing of the light: it takes no part
        # (the others of its pixel do).
        usable = (brightest < SATURATED) & (darkest > TOO_DARK)
        overall = self._overall(log_ratio, usable)
        # As factors, for OpenCV's per-element operations in each pass (numpy's cost several times more).
        weight = usable.astype(numpy.float32)
        self._lifted = None
        if self._headroom is not None:
            # Each pixel's ratio less its headroom, once a frame (`_cells` compares it with each pass's
            # light); a channel that takes no part lies far below any light.
            lifted = floats(cv2.subtract(log_ratio, self._headroom))
            lifted[~usable] = -100.0
            self._lifted = lifted
        # The pixels agreeing with the plane's light give a first grid, those agreeing with that grid
        # the next, narrower: a lamp's gradient takes the far side of the table beyond the first band.
        flat = numpy.empty_like(log_ratio)
        flat[:] = overall
        cells, supported = self._cells(log_ratio, weight, flat, band, overall, overall)
        lacking = supported.size - int(numpy.count_nonzero(supported))
        # A shadow's soft edge is followed step by step (within the band of the light beside it) into the
        # cells that found no light of their own yet; an arm's sharp side is no step the grid takes (its
        # pixels lie beyond the band of the table's beside it).
        least_moved, stalled = numpy.inf, 0
        for _ in range(WALK_PASSES):
            if not lacking:
                break
            centre = self._spread(cells, coarse)
            walked, supported = self._cells(log_ratio, weight, centre, band, overall, cells)
            # A cell that found no light of its own is walked into next along its neighbours' slope, where
            # it deepens: a soft shadow's ramp steeper than the band a cell (dark wood, burnt seed 20261133
            # Hornochsen session 08 frame 13: -0.25, -0.6, -1.0, -1.3 from row to row) is followed; a sharp
            # edge's is no slope (the lit cells beside it are flat), so beyond it the light is no nearer.
            walked = _ramped(walked, supported, overall)
            still_lacking = supported.size - int(numpy.count_nonzero(supported))
            # Cells under pieces never find light of their own: once no whole cell more does, and the
            # cells that did no longer move, stop. (A cell's light is the mean of its pixels within the
            # band of the light carried in, so on a steep slope it lags behind, and catches up over
            # several passes while no further cell finds light: a shadow deepening across a few cells.)
            moved = float(numpy.max(numpy.abs(walked - cells), initial=0.0, where=supported))
            cells = walked
            # Nor does a walk whose cells have moved no less than they once did for `WALK_STALLED` passes: a
            # lagging cell catches up, moving less pass by pass; cells that swap their light with their
            # neighbours' back and forth (the pixels within the band changing with the light carried in)
            # never settle, and went on to the last pass (Asterion at rest: 16 passes, 4 ms a frame).
            stalled = stalled + 1 if moved >= least_moved else 0
            least_moved = min(least_moved, moved)
            settled = moved < WALK_SETTLED or stalled >= WALK_STALLED
            lacking = 0 if still_lacking > lacking - 3 and settled else still_lacking
        # A sharp shadow's edge is no step the walk takes either: the cells beyond it take the light of their
        # pixels that keep the table's texture. Cells under pieces find no light of their own either: only
        # a cell mostly free of items that found none asks for the texture (its comparison costs).
        if kept is not None and numpy.any(self._free_cells[..., None] & ~supported):
            cells, supported = self._kept_light(log_ratio, weight, kept(), cells, supported, overall)
            if fill:
                cells = _filled(cells, supported)
        for narrower in (band / 2, band / 3):
            centre = self._spread(cells, coarse)
            cells, _ = self._cells(log_ratio, weight, centre, narrower, overall, cells)
        return self._spread(cells, self.size)

    def _overall(self, log_ratio: Floats, usable: Mask) -> Floats:
        """The whole plane's light per channel: the most common ratio (weighted towards where no item
        lies), averaged over the pixels near it. Found on the channels' mean where most pixels show all
        three (under a lamp's fall-off each channel alone peaks anywhere along it, and the three peaks,
        far apart, would make a light no pixel agrees with); else channel by channel."""
        whole = usable[..., 0] & usable[..., 1] & usable[..., 2]
        if numpy.count_nonzero(whole) > whole.size // 4:
            grey = numpy.asarray(sum3(log_ratio), numpy.float32) / 3.0
            near = (numpy.abs(grey - self._peak(grey, whole)) < 0.08) & whole
            # OpenCV's masked mean: numpy's, over the pixels picked out by the mask, copies them first.
            return numpy.asarray(cv2.mean(log_ratio, mask=near.view(numpy.uint8))[:3], numpy.float32)
        overall = numpy.zeros(3, numpy.float32)
        for channel in range(3):
            ratios, fit = log_ratio[..., channel], usable[..., channel]
            near = (numpy.abs(ratios - self._peak(ratios, fit)) < 0.08) & fit
            overall[channel] = float(ratios[near].mean()) if numpy.any(near) else numpy.nan
        if numpy.all(numpy.isnan(overall)):
            return numpy.zeros(3, numpy.float32)
        # A channel clipped everywhere (a bright cloth under a bright lamp) follows the brightest other.
        return numpy.where(numpy.isnan(overall), numpy.nanmax(overall), overall).astype(numpy.float32)

    def _peak(self, ratios: Floats, fit: Mask) -> float:
        """The most common of these log ratios where `fit`, weighted towards where no item lies. Ratios
        beyond the histogram's range count nowhere: piled into its edge bins, a player's shadow deeper than
        it (the band a fifth lit or less, spread over ten bins when in range) outvoted the lit table's mode
        (the band's light came out at -1.4 of -0.1 and the whole lit band differed: "a hand"). Only when no
        ratio lies within it does the edge it lies beyond give the peak."""
        bins = numpy.round((ratios + PEAK_REACH) / PEAK_BIN)
        weight = numpy.where(fit, self.weight, 0.0)
        inside = numpy.where((bins >= 0) & (bins <= PEAK_BINS - 1), weight, 0.0)
        if numpy.any(inside > 0):
            weight = inside
        clipped = numpy.clip(bins, 0, PEAK_BINS - 1).astype(numpy.intp)
        counts = numpy.bincount(clipped.ravel(), weights=weight.ravel(), minlength=PEAK_BINS)
        smoothed = numpy.convolve(counts, [1.0, 2.0, 3.0, 2.0, 1.0], mode="same")
        return float(numpy.argmax(smoothed)) * PEAK_BIN - PEAK_REACH

    def _cells(
        self,
        log_ratio: Floats,
        usable: Floats,
        centre: Floats,
        band: float,
        overall: Floats,
        fallback: Floats,
    ) -> tuple[Floats, Mask]:
        """The light grid: per cell, the mean log ratio of the pixels within `band` of `centre` (an image
        like `log_ratio`) in every channel `usable` (1.0) of theirs; a cell with few such pixels takes its
        neighbours' light, and at last `fallback`'s (the previous pass's: a cell the narrower band finds
        empty keeps what the wider one found, not the plane's). With it, how many cells (and channels)
        found too few (False)."""
        deviation = floats(cv2.multiply(cv2.absdiff(log_ratio, centre), usable))
        # 1.0 where the largest deviation lies below the band (float32, as numpy compares with it).
        # 1.0 in every channel where the largest deviation lies below the band (float32, as numpy compares).
        weights = cv2.multiply(all_within(deviation, _below(band), channels=3), usable)
        support = numpy.asarray(cv2.resize(weights, self.grid, interpolation=cv2.INTER_AREA), numpy.float32)
        sums = numpy.asarray(
            cv2.resize(cv2.multiply(log_ratio, weights), self.grid, interpolation=cv2.INTER_AREA),
            numpy.float32,
        )
        if self._lifted is not None:
            # Under a lamp brightening one part of the table more than the rest, the pixels of a cell
            # that agree with the light beside it may be its pieces' (a dark back under a hotspot 1.6
            # times the rest passes for the table at the plane's light) while its table lies beyond
            # the band: the cell kept that light (the walk only goes on into cells that found none)
            # and multiplied its table past white, which nothing on a table is. Where a tenth of a
            # cell (in channels the camera did not clip) would land more than the full band past
            # `SATURATED`, the cell has no light of its own yet; when those pixels are brighter than
            # its centre alike in every channel (a lamp's light, not a piece's colour), theirs is its
            # light: the table under the hotspot.
            lifted = floats(cv2.subtract(self._lifted, centre))
            # Most passes find no pixel beyond the band at all: then no cell is whiter (and the channels'
            # largest, the same largest of all, is not needed).
            if float(lifted.max()) > self.band:
                over = any_above(lifted, self.band)
                whiter = cv2.resize(over, self.grid, interpolation=cv2.INTER_AREA) > 0.1
                if numpy.any(whiter):
                    self._to_brighter(
                        cells_of=(support, sums),
                        whiter=whiter,
                        over=over,
                        usable=usable,
                        log_ratio=log_ratio,
                        centre=centre,
                    )
        near_support = cv2.blur(support, (3, 3), borderType=cv2.BORDER_REPLICATE)
        near_sums = cv2.blur(sums, (3, 3), borderType=cv2.BORDER_REPLICATE)
        own = sums / numpy.maximum(support, 1e-6)
        borrowed = (near_sums + 0.01 * fallback) / (near_support + 0.01)
        supported = support > 0.1
        cells = numpy.where(supported, own, borrowed)
        # numpy.clip's, by its two halves: its dispatch cost more than both on a grid this small.
        clipped = numpy.minimum(numpy.maximum(cells, overall - _REACH), overall + _REACH, dtype=numpy.float32)
        return clipped, supported

    def _kept_light(
        self, log_ratio: Floats, usable: Floats, kept: Mask, cells: Floats, supported: Mask, overall: Floats
    ) -> tuple[Floats, Mask]:
        """The grid with each cell (and channel) that found no light of its own (not `supported`) given the
        light of its pixels that keep the reference's texture (`kept`, at the masks' size), where they
        cover `KEPT_CELL_SHARE` of it: a shadow keeps the cloth's checks and weave under any gain, however
        sharp its edge (the walk steps over no sharp edge: an arm's is one); an arm or a piece hides them.
        With the cells (and channels) that have light of their own now."""
        share = cv2.resize(kept.astype(numpy.float32), self.coarse, interpolation=cv2.INTER_AREA)
        within = (share > 0.5).astype(numpy.float32)
        weights = cv2.multiply(cv2.merge((within, within, within)), usable)
        support = numpy.asarray(cv2.resize(weights, self.grid, interpolation=cv2.INTER_AREA), numpy.float32)
        sums = numpy.asarray(
            cv2.resize(cv2.multiply(log_ratio, weights), self.grid, interpolation=cv2.INTER_AREA),
            numpy.float32,
        )
        found = ~supported & (support > KEPT_CELL_SHARE)
        own = sums / numpy.maximum(support, 1e-6)
        light = numpy.minimum(numpy.maximum(own, overall - _REACH), overall + _REACH, dtype=numpy.float32)
        return numpy.asarray(numpy.where(found, light, cells), numpy.float32), supported | found

    def _to_brighter(
        self,
        cells_of: tuple[Floats, Floats],
        whiter: Mask,
        over: Floats,
        usable: Floats,
        log_ratio: Floats,
        centre: Floats,
    ) -> None:
        """In the `whiter` cells of the grid's (support, sums) (`_cells`'), in place: the support and sums
        of the pixels `over` white where these are brighter than the cell's centre alike in every channel
        (by `LAMP_CHROMA` at most), else none (the cell borrows its neighbours' light). Taking them
        whatever their colour set the light of a cell on a yellow or white piece on a dark or printed
        table (Minotaurus seed 20261131's dark-wood, printed, felt sessions: 18 items lost); zeroing
        every such cell left a hotspot full of pieces under-lit (its neighbours were held by pieces)."""
        support, sums = cells_of
        bright = cv2.multiply(cv2.cvtColor(over, cv2.COLOR_GRAY2BGR), usable)
        bright_support = floats(cv2.resize(bright, self.grid, interpolation=cv2.INTER_AREA))
        bright_sums = floats(
            cv2.resize(cv2.multiply(log_ratio, bright), self.grid, interpolation=cv2.INTER_AREA)
        )
        lift = bright_sums / numpy.maximum(bright_support, 1e-6)
        lift -= floats(cv2.resize(centre, self.grid, interpolation=cv2.INTER_AREA))
        alike = (lift.max(axis=2) - lift.min(axis=2) < LAMP_CHROMA) & (bright_support.min(axis=2) > 0.05)
        taken = whiter & alike
        support[whiter], sums[whiter] = 0.0, 0.0
        support[taken], sums[taken] = bright_support[taken], bright_sums[taken]

    def _spread(self, cells: Floats, size: tuple[int, int]) -> Floats:
        """The grid spread smoothly over an image of `size`, carrying its slope on out to the edges (a
        lamp's gradient does not stop half a cell short of the plane's edge): bilinear, the outermost
        half cells extrapolated along the slope of the cells beside them."""
        spreaders = self._spreaders.get(size)
        if spreaders is None:
            spreaders = (
                _spreader(self.grid[1], size[1]),
                numpy.ascontiguousarray(_spreader(self.grid[0], size[0]).T),
            )
            self._spreaders[size] = spreaders
        to_rows, to_columns = spreaders
        # Separable, as two matrix products (each image row or column mixes two of the grid's): a third of
        # the cost of warping the grid, padded by its slope, to the image (OpenCV's warp computes every
        # pixel's coordinates; the grid's spread is the same for every frame).
        height, channels = cells.shape[0], cells.shape[2]
        across = numpy.matmul(cells.transpose(0, 2, 1), to_columns)
        across = numpy.ascontiguousarray(across.transpose(0, 2, 1)).reshape(height, -1)
        spread = numpy.empty((size[1], across.shape[1]), numpy.float32)
        # A few rows at a time: a product this small stays on this thread (OpenBLAS shares out a larger one,
        # and its threads' handing over cost ten times the product on a busy machine).
        rows = max(1, _ONE_THREAD_PRODUCT // (across.shape[0] * across.shape[1]))
        for first in range(0, size[1], rows):
            numpy.matmul(to_rows[first : first + rows], across, out=spread[first : first + rows])
        return spread.reshape(size[1], size[0], channels)


def _spreader(cells: int, pixels: int) -> Floats:
    """(pixels, cells): each pixel's weights of the cells along one axis for `LightGrid._spread`. Pixel x lies
    at cell coordinate (x + 0.5) * cells / pixels - 0.5, between two cells, or beyond the first or last
    cell's middle, where the line through the two outermost cells is carried on."""
    position = (numpy.arange(pixels) + 0.5) * cells / pixels - 0.5
    first = numpy.clip(numpy.floor(position).astype(numpy.intp), 0, cells - 2)
    share = position - first
    weights = numpy.zeros((pixels, cells))
    weights[numpy.arange(pixels), first] = 1.0 - share
    weights[numpy.arange(pixels), first + 1] = share
    return numpy.asarray(weights, numpy.float32)


@functools.cache
def _ramp_slices(axis: int, lower: bool) -> tuple[tuple[slice, ...], tuple[slice, ...], tuple[slice, ...]]:
    """For `_ramped`, along `axis`: the index tuples of the cells that have two neighbours on one side
    (`lower`: cell i's i - 1 and i - 2; else i + 1 and i + 2), of their next neighbours, and of the
    ones beyond those."""

    def along(part: slice) -> tuple[slice, ...]:
        return (slice(None),) * axis + (part,)

    if lower:
        return along(slice(2, None)), along(slice(1, -1)), along(slice(None, -2))
    return along(slice(None, -2)), along(slice(1, -1)), along(slice(2, None))


def _ramped(cells: Floats, supported: Mask, overall: Floats) -> Floats:
    """The grid with each cell (and channel) that found no light of its own given the light its supported
    neighbours' slope carries on to it (2 n1 - n2 of the two next cells along a row or a column, both
    supported; the mean over the directions that have them), within `_REACH` of the plane's light, where
    that is darker than the light it borrowed: a shadow deepening. (Carried brighter too, the walk followed
    a lit arm's slope onto it in a dim room: burnt seed 20261131, Hornochsen laminate session 09 frame 4,
    a hand not refused.) The others as they are."""
    total = numpy.zeros_like(cells)
    count = numpy.zeros_like(cells)
    # Each direction by slices (the first two cells from the side the neighbours lie on have none, as many
    # as there are cells less two do): numpy's roll, its copies and axis checks, cost two thirds of this.
    doubled = 2 * cells
    for axis in (0, 1):
        if cells.shape[axis] < 3:
            continue
        for lower in (True, False):
            lead, near, far = _ramp_slices(axis, lower)
            both = supported[near] & supported[far]
            total[lead] += numpy.where(both, doubled[near] - cells[far], 0.0)
            count[lead] += both
    ramp = numpy.minimum(numpy.maximum(total / numpy.maximum(count, 1), overall - _REACH), overall + _REACH)
    deeper = ~supported & (count > 0) & (ramp < cells)
    return numpy.asarray(numpy.where(deeper, ramp, cells), numpy.float32)


def _filled(cells: Floats, known: Mask) -> Floats:
    """The grid with each cell (and channel) not `known` given the mean light of its known neighbours (of
    eight), ring by ring inward from the known cells."""
    cells, known = cells.copy(), known.copy()
    kernel = numpy.ones((3, 3), numpy.float32)
    for _ in range(max(cells.shape[:2])):
        if numpy.all(known):
            break
        weights = known.astype(numpy.float32)
        count = cv2.filter2D(weights, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        total = cv2.filter2D(cells * weights, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        reached = ~known & (count > 0.5)
        if not numpy.any(reached):
            break
        cells[reached] = (total / numpy.maximum(count, 1.0))[reached]
        known |= reached
    return cells


class MarkerPaper:
    """The corner markers' white cells and black border in a plane of one play area: the paper is in
    every frame, so it tells the lamp's colour."""

    def __init__(self, plane_mm: tuple[float, float], px_per_mm: float) -> None:
        width, height = round(plane_mm[0] * px_per_mm), round(plane_mm[1] * px_per_mm)
        self.samples: list[tuple[Mask, Mask]] = []
        for marker_id, corners in marker_corners_mm(plane_mm).items():
            bits = marker_bits(marker_id)
            cell = MARKER_SIDE_MM / bits.shape[0]
            white, black = numpy.zeros((height, width), bool), numpy.zeros((height, width), bool)
            for row in range(bits.shape[0]):
                for column in range(bits.shape[1]):
                    # 1.5 mm inside each 5 mm cell: room for a calibration a millimetre off.
                    x0 = (corners[0][0] + column * cell + 1.5) * px_per_mm
                    y0 = (corners[0][1] + row * cell + 1.5) * px_per_mm
                    x1, y1 = x0 + (cell - 3.0) * px_per_mm, y0 + (cell - 3.0) * px_per_mm
                    target = black if bits[row, column] else white
                    target[round(y0) : round(y1), round(x0) : round(x1)] = True
            self.samples.append((white, black))

    def white(self, plane: Frame) -> Floats | None:
        """The white paper per corner (4, 3: top-left, top-right, bottom-right, bottom-left), or None when
        some marker does not show clearly white on black (covered, or the markers out of place)."""
        whites = []
        for white, black in self.samples:
            paper = numpy.median(plane[white], axis=0).astype(numpy.float32)
            ink = numpy.median(plane[black], axis=0).astype(numpy.float32)
            if paper.min() < PAPER_MIN or paper.sum() < 1.6 * ink.sum() + 60:
                return None
            whites.append(paper)
        return numpy.stack(whites)


def corner_field(corners: Floats, size: tuple[int, int]) -> Floats:
    """A (4, 3) value per corner of the plane spread bilinearly over an image of `size`."""
    width, height = size
    u = numpy.linspace(0.0, 1.0, width, dtype=numpy.float32)[None, :, None]
    v = numpy.linspace(0.0, 1.0, height, dtype=numpy.float32)[:, None, None]
    top_left, top_right, bottom_right, bottom_left = corners
    top = top_left * (1 - u) + top_right * u
    bottom = bottom_left * (1 - u) + bottom_right * u
    return numpy.asarray(top * (1 - v) + bottom * v, numpy.float32)
