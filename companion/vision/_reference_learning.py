"""The empty play area learned as a reference (reference.py's `TableReference` compares each later plane
with it): the planes of the empty area averaged down to the masks' size (`MASK_PX_PER_MM`), the arrays the
comparison reads made once from them (each pixel's neighbourhood range of levels and hue, its tolerance,
its texture), the markers' white balance and the lift's ceilings, the band around the plane, and the
area where no item lies. Separate from reference.py: what is made once when learning (and again when the
reference follows the table) apart from what is done with each plane."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import cv2
import numpy
import numpy.typing

from companion.vision._reference_band import band_of, with_middle
from companion.vision._reference_base import MASK_PX_PER_MM, ReferenceSettings
from companion.vision._reference_focus import Focus
from companion.vision._reference_texture import TableTexture
from companion.vision.base import MARKER_SIDE_MM, PLANE_PX_PER_MM, Frame, Layout, VisionError
from companion.vision.hand_check import HandCheck
from companion.vision.normalising import CANONICAL_WHITE, LIFT_CEILING, glare_ceiling, hotspot
from companion.vision.surround import Surround
from companion.vision.table_light import (
    SATURATED,
    Floats,
    LightGrid,
    MarkerPaper,
    Mask,
    corner_field,
    floats,
    log_level,
    sum3,
)

Homography = numpy.typing.NDArray[numpy.float64]

LOG_OFFSET = 4.0
"""Levels are lifted by this before their logs are taken (`log_level`): a dark pixel's noise would make its
log meaningless. The light's gain is measured between levels so lifted (`TableReference.look`)."""
MARKER_MARGIN_MM = 6.0
"""The corner markers' white border reaches this far beyond their black squares (a sheet cut a little
wide, or laid by its cut edge)."""
ITEM_SLACK_MM = 6.0
"""Items may lie this far beyond their regions' boxes."""
HUE_TOLERANCE = 0.12
"""How far (log) a pixel's hue may lie beyond its reference neighbourhood's, besides the noise's share of its
level (a dark pixel's hue is noisy)."""


class ReferenceError(VisionError):
    """Planes that cannot make or be compared with a reference (wrong size, none at all)."""


def hue_of(logs: Floats) -> Floats:
    """Per pixel, each channel's log level less the mean of the three (`logs`: the image's `log_level`):
    the hue, whatever the light."""
    return floats(cv2.subtract(logs, cv2.merge([sum3(logs) / 3.0] * 3)))


def _mask_size(layout: Layout) -> tuple[int, int]:
    width, height = layout.plane_mm
    return (max(8, round(width * MASK_PX_PER_MM)), max(8, round(height * MASK_PX_PER_MM)))


def _surround_for(layout: Layout) -> Surround:
    return Surround(layout.plane_mm, _mask_size(layout), MASK_PX_PER_MM)


@functools.lru_cache(maxsize=8)
def _band_geometry(plane_mm: tuple[float, float], size: tuple[int, int]) -> Surround:
    """A surround of this plane's size that only lends `band_of` its size and margin (never learns): made
    once, as building one (its depth map over the band) cost a third of warping the band each frame."""
    return Surround(plane_mm, size, MASK_PX_PER_MM)


class LearnedReference:
    """The empty play area of one layout as learned (`TableReference` compares later planes with it)."""

    def __init__(self, layout: Layout, settings: ReferenceSettings | None = None) -> None:
        self.layout = layout
        self.settings = settings or ReferenceSettings()
        self.plane_size = layout.plane_size_px()
        self.size = _mask_size(layout)
        self._markers = self._marker_squares()
        self._weight = self._free_weight()
        self._light = LightGrid(layout.plane_mm, self.size, self._weight, self.settings.light_band)
        self._paper = MarkerPaper(layout.plane_mm, PLANE_PX_PER_MM)
        self._surround = _surround_for(layout)
        self._hands = HandCheck(self.settings, self._surround, self._markers, self._weight)
        self._image: Floats | None = None
        self._log_white: Floats = numpy.zeros((self.size[1], self.size[0], 3), numpy.float32)
        self._unwhite: Floats = numpy.ones((self.size[1], self.size[0], 3), numpy.float32)
        """exp(-_log_white): the white balance taken off again (kept: it changes only when learning)."""
        self._ceiling: Floats | None = None
        self._lift_ceiling: Floats = numpy.full((self.size[1], self.size[0]), LIFT_CEILING, numpy.float32)
        """log(SATURATED) - _log_white: the camera level (log) the light correction brings to SATURATED
        where the light is the reference's; the light grid takes no light that pushes a table past it."""
        self._low: Floats | None = None
        self._high: Floats | None = None
        self._spread: Floats = numpy.zeros(0, numpy.float32)
        self._texture = TableTexture()
        self._focus = Focus()
        self._tolerance: Floats = numpy.zeros(0, numpy.float32)
        self._hue_low: Floats = numpy.zeros(0, numpy.float32)
        self._hue_high: Floats = numpy.zeros(0, numpy.float32)
        self._hue_tolerance: Floats = numpy.zeros(0, numpy.float32)
        self._one = numpy.ones((self.size[1], self.size[0], 3), numpy.float32)
        self._log_image: Floats = numpy.zeros(0, numpy.float32)
        self._shadow_chroma: Floats = numpy.zeros(0, numpy.float32)
        self._image_2: Floats = numpy.zeros(0, numpy.float32)
        self._two = numpy.full((self.size[1], self.size[0], 3), 2.0, numpy.float32)
        self._four = numpy.full((self.size[1], self.size[0], 3), LOG_OFFSET, numpy.float32)
        self._noise_floor = numpy.full_like(self._two, self.settings.tolerance)
        """The camera's noise: the least tolerance, however deep the shadow."""
        self.table_range = 0.0
        """The empty table's neighbourhood range, a share of its level (`learn`)."""
        self.white_balanced = False
        """The markers' paper could be measured: normalised colours are those under canonical white."""

    def learn(self, planes: Sequence[Frame], surrounds: Sequence[Frame] = ()) -> None:
        """Take these planes of the empty play area as the reference (several: their median, so a
        passing shadow or noise does not stay in it); `surrounds` (`surround`'s, of the same frames):
        the table around it, where arms come in."""
        if not planes:
            raise ReferenceError("a reference needs at least one plane of the empty play area")
        settings = self.settings
        small = numpy.median(numpy.stack([self._small(plane) for plane in planes]), axis=0)
        middle = numpy.clip(numpy.rint(small), 0, 255).astype(numpy.uint8)
        self._surround.learn(
            [with_middle(self._surround, surround, middle) for surround in surrounds],
            settings.tolerance,
            settings.relative_tolerance,
            settings.shadow_chroma,
            settings.light_band,
        )
        self._hands.reachable = self._surround.reachable(
            round((MARKER_SIDE_MM + 2 * MARKER_MARGIN_MM) * MASK_PX_PER_MM), settings.hand_min_edge_mm
        )
        self._set_image(numpy.asarray(small, numpy.float32))
        # How far the empty table's neighbourhoods range, a share of its level (the median pixel's): a
        # plain table's (laminate, wood, linen, felt) is narrow, a gingham's or a print's wide.
        spread = sum3(numpy.asarray(self._high) - numpy.asarray(self._low))
        self.table_range = float(numpy.median((spread / (sum3(small) + 6.0))[::2, ::2]))
        whites = [self._paper.white(plane) for plane in planes]
        valid = [white for white in whites if white is not None]
        self.white_balanced = bool(valid)
        if valid:
            corners = numpy.median(numpy.stack(valid), axis=0)
            self._log_white = corner_field(
                numpy.log(CANONICAL_WHITE / corners).astype(numpy.float32), self.size
            )
            self._log_white -= hotspot(small, self._log_white)
        else:
            self._log_white = numpy.zeros((self.size[1], self.size[0], 3), numpy.float32)
        self._unwhite = numpy.asarray(numpy.exp(-self._log_white), numpy.float32)
        self._ceiling = numpy.asarray(numpy.log(SATURATED) - self._log_white, numpy.float32)
        corner = round((MARKER_SIDE_MM + MARKER_MARGIN_MM) * MASK_PX_PER_MM)
        self._lift_ceiling = glare_ceiling(numpy.asarray(small, numpy.float32), self._markers, corner)

    @property
    def learned(self) -> bool:
        return self._image is not None

    @staticmethod
    def surround_of(layout: Layout, frame: Frame, homography: Homography) -> Frame:
        """The camera frame over the band around the layout's plane (`homography`: frame to plane pixels),
        for `learn` and `look`: the strips of it the band's comparison reads; the plane's middle is left
        black, and `learn` and `look` take it from the plane itself."""
        return band_of(_band_geometry(layout.plane_mm, _mask_size(layout)), frame, homography)

    def _set_image(self, image: Floats) -> None:
        self._image = image
        kernel = numpy.ones((3, 3), numpy.uint8)
        # Each pixel's neighbourhood range: the camera settling a millimetre off keeps texture table.
        self._low = numpy.asarray(cv2.erode(image, kernel), numpy.float32)
        self._high = numpy.asarray(cv2.dilate(image, kernel), numpy.float32)
        # A thin line's pixels: the darkest (or lightest) of their neighbourhood, by more than noise.
        spread = self._high - self._low
        line = ((image <= self._low) | (image >= self._high)) & (spread > self.settings.tolerance)
        # Multiplied by the mask (a spread is never negative: the same +0.0 elsewhere), numpy's `where` with a
        # scalar costs seven times more.
        self._spread = numpy.multiply(spread, line, dtype=numpy.float32)
        self._texture.remember(image)
        self._focus.remember(image, self._weight > 1.0)
        settings = self.settings
        self._tolerance = (settings.tolerance + settings.relative_tolerance * image).astype(
            numpy.float32, copy=False
        )
        self._log_image = log_level(image)
        self._image_2 = numpy.asarray(image + 2.0, numpy.float32)
        # Noise makes the channels of a dark table's shadow disagree more.
        self._shadow_chroma = settings.shadow_chroma + 5.0 / (sum3(image) / 3.0 + 2.0)
        # Each pixel's neighbourhood range of hue: its ranges per channel (from a dark print line to light
        # card) hold any colour between them, a green piece's too; their hues do not.
        hue = hue_of(self._log_image)  # the log levels just taken (numpy's log is a third of this)
        self._hue_low = numpy.asarray(cv2.erode(hue, kernel), numpy.float32)
        self._hue_high = numpy.asarray(cv2.dilate(hue, kernel), numpy.float32)
        self._hue_tolerance = (HUE_TOLERANCE + settings.tolerance / (sum3(image) / 3.0 + 4.0)).astype(
            numpy.float32, copy=False
        )

    def _small(self, plane: Frame) -> Floats:
        return self._small_bytes(plane).astype(numpy.float32)

    def _small_bytes(self, plane: Frame) -> Frame:
        """The plane averaged down to the masks' size."""
        expected = (self.plane_size[1], self.plane_size[0], 3)
        if plane.shape != expected or plane.dtype != numpy.uint8:
            raise ReferenceError(
                f"a plane of shape {plane.shape} ({plane.dtype}) is not this layout's {expected} uint8"
            )
        width, height = self.size
        if self.plane_size == (4 * width, 4 * height):
            # Halved twice, sixteenfold in 16 bits: OpenCV averages pairs of pixels many at a time but
            # sixteen one by one (four times the cost). At sixteen times the levels each half's rounding
            # drops nothing, and the last division rounds as the single resize does: the same bytes.
            # Widened and multiplied in one pass (numpy's in-place shift of a copy cost twice the copy).
            levels = numpy.multiply(plane, numpy.uint16(16), dtype=numpy.uint16)
            half = cv2.resize(levels, (2 * width, 2 * height), interpolation=cv2.INTER_AREA)
            sums = cv2.resize(half, self.size, interpolation=cv2.INTER_AREA)
            return numpy.asarray(cv2.convertScaleAbs(sums, alpha=1.0 / 16.0), numpy.uint8)
        return numpy.asarray(cv2.resize(plane, self.size, interpolation=cv2.INTER_AREA), numpy.uint8)

    def _marker_squares(self) -> Mask:
        """The corner markers and their white border, where the mask has them."""
        squares = numpy.zeros((self.size[1], self.size[0]), bool)
        side = round((MARKER_SIDE_MM + MARKER_MARGIN_MM) * MASK_PX_PER_MM)
        squares[:side, :side] = squares[:side, -side:] = squares[-side:, :side] = squares[-side:, -side:] = (
            True
        )
        return squares

    def _free_weight(self) -> Floats:
        """Pixels where no item lies are table unless a hand is there: they count more for the light."""
        weight = numpy.full((self.size[1], self.size[0]), 4.0, numpy.float32)
        scale = MASK_PX_PER_MM / PLANE_PX_PER_MM
        slack = round(ITEM_SLACK_MM * MASK_PX_PER_MM)  # pieces lie a little off their places
        for region in self.layout.items.values():
            x0, y0, x1, y1 = (round(v * scale) for v in region.box_px())
            x0, y0, x1, y1 = x0 - slack, y0 - slack, x1 + slack, y1 + slack
            weight[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = 1.0
        weight[self._markers] = 1.0
        return weight
