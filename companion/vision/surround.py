"""The table around the play area: an arm reaching in crosses it, a piece on the area does not.

Pieces, dice and rings may lie right up to the plane's edge (the Minos tray leaves ~14 mm free), so
inside the plane an arm coming in and a piece lying at the edge look much alike. Just outside the
plane no item lies: the camera frame warped to a band `SURROUND_MM` wide around the plane (at the
masks' resolution) is learned with the empty area and compared with it like the plane itself; an
arm is a region changed across the whole band and on into the plane, as wide there as a wrist.
The band measures its own light against its reference (a player's shadow or a lamp's hotspot may lie
over the band and not the plane, or the other way round), and shadows (an arm's, a player's head's)
darken the table alike in every channel: they are no change. Nor is a lamp's glare that the empty table
was learned without (its own colour, fading smoothly, the table's texture showing through it:
_surround_side.py, with the band's overall gain that its light is measured under).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision._surround_side import (
    GAIN_SAMPLE,
    LOG_OFFSET,
    Side,
    glare,
    overall_gain,
    shifted,
    steep_step,
    typed,
)
from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.table_light import (
    SATURATED,
    Floats,
    LightGrid,
    Mask,
    floats,
    log_level,
    max3,
    min3,
    sum3,
)

SURROUND_MM = 30.0
"""Width of the band around the plane that is watched for arms: wider than a hand's shadow's offset
and a standing piece's parallax, narrower than any arm's reach into the area."""
WARP_PX_PER_MM = 1.0
"""The frame is warped at this resolution and then averaged down to the masks' (a 2 mm pixel sampled
from one camera pixel would alias a cloth's checks into noise)."""
TEXTURE_PX = 5
"""Side of the window (mask pixels) in which the band's texture is compared with the reference's."""
TEXTURED = 4.0
"""Grey levels of deviation within that window above which the reference shows texture."""
OUTLINE_DEPTHS = 1 / 3
"""An outline crosses the band: its pixels lie at this share of the band's depths at least (an arm's side
runs from the outer edge to the plane; pieces standing at the plane's edge step sharply just beside it)."""
PLAIN = 12.0
"""Grey levels of deviation within the texture window below which the cloth is plain enough to tell an
outline by."""
STRIP_PAD = 6
"""Mask pixels each strip of the band reaches beyond the part of it kept: the windows' half widths."""
SHADE_LIFT = 2.5
"""The band may be brighter than its light says by this factor: that light is measured over cells as
wide as a lamp's fall-off, so the lit side of a shadow's edge within a cell is brighter than it (an arm
on a dark table is brighter still, or of another hue)."""
BAND_LIGHT_CELL_MM = 50.0
"""Side of a cell of the band's light grid: wider than the plane's (no piece lies in the band to tell a
hotspot's edge from; a coarser grid costs less)."""
DARK_NOISE = 5.0
"""Grey levels of the camera's noise (and its JPEG's) on a near-black table. Where the table at the light
is darker than the noise floor plus this, the hand check's tolerance is its level less this (at least
this) in place of the floor, which holds for lit tables: a dark arm over a near-black cloth in a dim room
differs from it by 4-8 levels a channel, alike all over."""
SHADOW_HUE = 0.08
"""How much more the channels' darkening may differ in a shadow than noise makes them (two lights)."""

KEPT_TEXTURE = 0.4
"""A region crossing the band whose texture (relative to its neighbourhood's level) agrees this well
with the reference's is the table under a shadow, however deep: a sharp-edged player's shadow keeps the
wood's grain, an arm replaces it."""
KEPT_TEXTURE_PX = 60
"""Textured mask pixels of a region, away from its edges, that the texture's agreement is judged on (on
a plain cloth there is no texture to keep: the region's depth and hue decide alone). A deep shadow on
faintly grained dark wood leaves few pixels that differ enough to count (83 of a player's shadow over the
band, correlation 0.70: dev minoa 77 dark wood, refused at 100); an arm hides the grain, and over 60
pixels its chance correlation (some 1/sqrt(60) = 0.13) stays far below `KEPT_TEXTURE`."""
KEPT_TEXTURE_Z = 4.0
"""Fewer textured pixels than `KEPT_TEXTURE_PX` (down to `KEPT_TEXTURE_MIN_PX`) tell a kept texture when
their correlation times the square root of their count reaches this: as unlikely by chance as
`KEPT_TEXTURE` over 100 pixels; taken on the textures with their own levels taken out (`centred`: a flat
region's level relative to its neighbourhood's plus 2 is an offset that correlates by itself). A player's
sharp shadow a third deep over dark wood leaves 25-39 such pixels (burnt 20261139: Minotaurus session 08
frames 6 and 10, correlation 0.92 and 0.89; Hornochsen session 08 frame 8, 0.94), refused as arms."""
KEPT_TEXTURE_SURE_Z = 8.0
"""A region whose texture agrees this surely (`KEPT_TEXTURE_Z`'s measure) and that lost it nowhere (under
a quarter of a wrist's crossing of the band) is the table under a shadow however much its depth spreads
(`KEPT_DEPTH_SPREAD`): the band's light, measured over cells wider than a sharp shadow's edge, bends part
of the way towards it, and the darkening against it varies over the shadow (dev hornochsen 2, dark wood
frame 6: 0.26, its texture at 11.4, nothing lost). A sleeve laid in such a shadow hides the grain under
it; an arm's shadow over linen with the arm beyond the band, its depth spread 0.215, agreed at 4.6 (dev
hornochsen 34)."""
KEPT_TEXTURE_MIN_PX = 20
"""Fewest textured pixels that tell a kept texture at all (`KEPT_TEXTURE_Z`)."""
KEPT_FEW_CONTRAST = 2.0
"""With fewer textured pixels than `KEPT_TEXTURE_PX` (`KEPT_TEXTURE_Z`) the texture is kept only at the
reference's contrast (relative to its neighbourhood's level) within this factor: a shadow scales the
table's texture by one factor, its contrast stays (1.0-1.3 times the reference's on those burnt frames).
Those few pixels lie along a few grain lines and may correlate by chance: a flat dark sleeve over
faintly grained dark wood showed 28 at 0.92 (before its level was taken out), at 3.7 times the grain's
contrast."""
KEPT_DISTANCE = 3.0
"""Only pixels that differ from the reference this much (in tolerances) tell whether a region keeps its
texture."""
KEPT_UNLIKE = 0.1
"""Share of a shaded region's differing pixels that may be of another hue than a shadow's (noise)."""
KEPT_DEPTH_SPREAD = 0.2
"""Deviation of the log darkening within a shaded region (a player's shadow is as deep all over, some
0.1; an arm and its shadow joined differ by more, even a grey sleeve of the shadow's hue)."""
KEPT_LOST_SHARE = 0.4
"""A region whose texture is lost (`_texture_lost`) over this share of its pixels the texture test is taken on
(and over a quarter of a wrist's crossing of the band) hides the table: an arm, however well the rest agrees.
A black sleeve over plain laminate, across the marker sheet's paper edge, darkens the band like a deep
shadow, and the few pixels the correlation was taken on (the paper's edge beside it, noise on black)
agreed with the reference's (0.47); it had lost the texture over 56 % of them, players' shadows on light
wood 3-22 %."""
TEXTURE_PLANES = 11
"""Planes of `Surround.changed`'s texture (see `_kept_texture`)."""
BRIDGED_ARM_MM2 = 2500.0
"""An arm that crosses the plane's edge only over a marker covers at least this much of the plane beyond."""

REACH_MM = 70.0
"""How far into the plane an arm of its very colour may come unseen before its hand shows (a forearm
over the toss's collar plate, 40-55 mm)."""
RIM_DIFFERS = 0.25
"""A plane's rim whose colour is beyond the range of the table's nearby (halfway across the band) by this
much (the largest channel's log ratio) is a board's: an arm of the board's colour may come in over it
unseen while the table around shows it. Where the rim is the table around, the band sees no more of an
arm than the plane's rim does."""
RIM_NEAR_MM = 20.0
"""How far along the edge the table's range is taken for the rim beside it (a check or a print's colours
are all the table's)."""
REACHED_HAND_MM2 = 6000.0
"""The changed region a hand unseen up to it makes at least (a palm and fingers, 8000 mm² and more); a
ring lying there, some 2800 mm², is none."""


WARM_BUMP = 0.11
"""How much redder (the log of red over blue) and brighter (the mean of the channels' log gains) than a
smooth light over the band (`_smooth`) the band's own light may be before it is no light but a pale
skin-toned arm: the light grid takes such an arm, wider than its cell, for a pink light (burnt 20261136,
Minotaurus on laminate: 0.17 both, the arm then matched as table; the plane's light took in its hand
alike). A lamp switched on, its pool warmer and brighter, is smooth over the band (dark wood at rest: 0.17
both above the band's median, 0.03 above the smooth light); light redder only, or brighter only, is
light (a light grid led astray by tiles on a linen at rest: 0.27 redder, 0.43 brighter); a shadow is
darker and bluer. At rest on burnt and dev frames whose band's own light was measured: at most 0.084."""
WARM_BUMP_REFIT = True
"""Whether the smooth light is fitted again without the samples half a `WARM_BUMP` above it (`_warm`)."""
WARM_BENT_SHARE = 0.25
"""At most this share of the fit's samples half a `WARM_BUMP` above it are left out of its refit (`_warm`)."""
WARM_SAMPLE = 3
"""Every so many of the band's pixels make the smooth light's fit (`_smooth`)."""

LIFT_FLOOR = 0.8
"""A step of the darkening with the band of the table's hue and at least this bright against its reference
on both sides of it (within the band's light's error: the band of a linen learned under a player's shadow
came out 0.87-1.1 beside the shadow's old edge) may be that shadow's, gone since: an outline only where the
band steps too. An arm hiding the marker sheet's paper edge is darker than the paper (0.6-0.8)."""

_WINDOW = numpy.ones((TEXTURE_PX, TEXTURE_PX), numpy.uint8)

BandChanges = tuple[Mask, Mask, Mask, Floats]
"""`Surround.changed`'s masks, and the band's texture agreement with the reference's (`_kept_texture`'s
planes, each of the band's size, first)."""


class Surround:
    """The band around one plane: its warp from the camera frame, its reference, and what changed."""

    def __init__(self, plane_mm: tuple[float, float], size: tuple[int, int], px_per_mm: float) -> None:
        """`size`: the masks' (width, height) for the plane; `px_per_mm`: their resolution."""
        self.margin = round(SURROUND_MM * px_per_mm)
        self.size = (size[0] + 2 * self.margin, size[1] + 2 * self.margin)
        self.px_per_mm = px_per_mm
        self.scale = (size[0] / plane_mm[0], size[1] / plane_mm[1])
        self.plane_mm = plane_mm
        self._low: Floats | None = None
        self._log_image: Floats | None = None
        self._noise = numpy.float32(0.0)
        self._image: Floats = numpy.zeros(0, numpy.float32)
        self._inverse_4: Floats = numpy.zeros(0, numpy.float32)
        self._sampled: Floats = numpy.zeros((0, 3), numpy.float32)
        """The reference's levels at the band's pixels sampled for its overall gain (`GAIN_SAMPLE`,
        `overall_gain`), and their grey levels' sum."""
        self._sampled_grey: Floats = numpy.zeros(0, numpy.float32)
        self._light: LightGrid | None = None
        self._sides: tuple[Side, ...] = ()
        """The reference's arrays, gathered into the band's two sides (`_gather`)."""
        height, width = self.size[1], self.size[0]
        y, x = numpy.mgrid[0:height, 0:width]
        self._depth = numpy.minimum(numpy.minimum(y, x), numpy.minimum(height - 1 - y, width - 1 - x))
        """Per pixel, how far in from the band's outer edge (mask pixels)."""
        self._band_pixels = numpy.flatnonzero(self._depth < self.margin)
        """The band's pixels' indices in an image of its size, raveled."""
        across, down = (
            x.astype(numpy.float32) / numpy.float32(width),
            y.astype(numpy.float32) / numpy.float32(height),
        )
        self._terms = numpy.stack(
            [numpy.ones_like(across), across, down, across * across, down * down, across * down], axis=-1
        ).reshape(-1, 6)
        """Per pixel, the terms of a quadratic in x and y (`_smooth`)."""
        self._sample = self._band_pixels[::WARM_SAMPLE]
        self._gain_sample = self._band_pixels[::GAIN_SAMPLE]
        self._fit = numpy.asarray(numpy.linalg.pinv(self._terms[self._sample]), numpy.float32)
        """The least-squares fit of a quadratic's coefficients to values at the `_sample` pixels: the
        pixels are fixed, so is their fit's matrix."""

    def warp(self, frame: Frame, homography: numpy.typing.NDArray[numpy.float64]) -> Frame:
        """The camera frame over the plane and its band (`homography`: frame to plane pixels)."""
        fine_scale = WARP_PX_PER_MM / PLANE_PX_PER_MM
        shift = SURROUND_MM * WARP_PX_PER_MM
        to_fine = numpy.array([[fine_scale, 0, shift], [0, fine_scale, shift], [0, 0, 1]]) @ homography
        fine_size = (
            round((self.plane_mm[0] + 2 * SURROUND_MM) * WARP_PX_PER_MM),
            round((self.plane_mm[1] + 2 * SURROUND_MM) * WARP_PX_PER_MM),
        )
        # Beyond the camera's view the frame's edge is carried on: an arm entering there streaks outward.
        fine = cv2.warpPerspective(
            frame, to_fine, fine_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return numpy.asarray(cv2.resize(fine, self.size, interpolation=cv2.INTER_AREA), numpy.uint8)

    @property
    def learned(self) -> bool:
        return self._low is not None

    def learn(
        self, surrounds: Sequence[Frame], tolerance: float, relative: float, chroma: float, light_band: float
    ) -> None:
        """The band of the empty area (several: their median), with the reference's noise settings
        (`light_band`: the plane's `LightGrid` band)."""
        if not surrounds:
            self._low = None
            self._sides = ()
            return
        # The band measures its own light, a smooth ratio to its reference: the plane's carried outward
        # misses a shadow or a lamp's hotspot over the band alone, or one the band is spared. The band
        # counts most for it; the plane's pieces stay out of it.
        weight = numpy.full((self.size[1], self.size[0]), 4.0, numpy.float32)
        weight[self.margin : -self.margin, self.margin : -self.margin] = 1.0
        surround_mm = (self.size[0] / self.scale[0], self.size[1] / self.scale[1])
        self._light = LightGrid(surround_mm, self.size, weight, light_band, BAND_LIGHT_CELL_MM)
        image = numpy.median(numpy.stack([s.astype(numpy.float32) for s in surrounds]), axis=0)
        image = numpy.asarray(image, numpy.float32)
        kernel = numpy.ones((3, 3), numpy.uint8)
        self._low = numpy.asarray(cv2.erode(image, kernel), numpy.float32)
        self._log_image = log_level(image)
        self._inverse_4 = numpy.asarray(1.0 / (image + LOG_OFFSET), numpy.float32)
        self._sampled = numpy.ascontiguousarray(image.reshape(-1, 3)[self._gain_sample], numpy.float32)
        self._sampled_grey = numpy.asarray(self._sampled.sum(axis=1), numpy.float32)
        self._noise = numpy.float32(tolerance)
        self._image = image
        window = (TEXTURE_PX, TEXTURE_PX)
        grey = sum3(image) / 3.0
        mean = cv2.blur(grey, window)
        variance = cv2.blur(grey * grey, window) - mean * mean
        deviation = numpy.sqrt(numpy.maximum(variance, 0.0))
        # Noise makes the channels of a shadow disagree more, the more in its darkest channel (the lens's
        # flare and the camera's noise lift a near-black channel most): a yellow check's blue at 17, a
        # quarter of it in a player's shadow, strays by as much as its own level allows, not the grey's.
        chroma_of = chroma + 5.0 / (min3(numpy.asarray(cv2.blur(image, window), numpy.float32)) + 2.0)
        high = numpy.asarray(cv2.dilate(image, kernel), numpy.float32)
        reference = {
            "low": self._low,
            "high": high,
            "low_lifted": self._low + LOG_OFFSET,
            "high_lifted": high + LOG_OFFSET,
            "both_lifted": self._low + high + 2 * LOG_OFFSET,
            "offset": numpy.full_like(image, LOG_OFFSET),
            "tolerance": relative * image,
            "mean_2": cv2.blur(image, window) + 2.0,
            "shadow_hue": chroma_of + SHADOW_HUE,
            "plain": deviation < PLAIN,
            "plain_around": cv2.erode((deviation < PLAIN).astype(numpy.uint8), _WINDOW) > 0,
            "in_band": self._depth < self.margin,
            "grey": grey,
            "grey_mean": mean,
            "grey_deviation": deviation,
            "textured": deviation > TEXTURED,
            "relative": numpy.where(deviation > TEXTURED, grey / (mean + 2.0) - 1.0, 0.0),
            "centred": numpy.where(deviation > TEXTURED, (grey - mean) / (mean + 2.0), 0.0),
            "steep_step": steep_step(numpy.asarray(cv2.blur(image, window) + 2.0, numpy.float32)),
        }
        gathered = {name: self._gather(numpy.asarray(values)) for name, values in reference.items()}
        self._sides = tuple(
            Side(**{name: typed(pair[n]) for name, pair in gathered.items()}) for n in range(2)
        )

    def _gather(self, image: numpy.typing.NDArray[Any]) -> tuple[numpy.typing.NDArray[Any], ...]:
        """The band's two sides of strips, each strip a few pixels wider than the part of it kept, for
        the windows at its inner side: the top strip over the bottom one, the left beside the right. Their
        inner sides meet, `2 * STRIP_PAD` pixels from what is kept: no window reaches across (so each
        part kept is as computed on the whole image), and half as many calls as four strips cost."""
        m = self.margin + STRIP_PAD
        height, width = image.shape[:2]
        across = numpy.concatenate((image[:m], image[height - m :]), axis=0)
        down = numpy.concatenate((image[:, :m], image[:, width - m :]), axis=1)
        return across, down

    def _scatter(self, whole: numpy.typing.NDArray[Any], sides: Sequence[numpy.typing.NDArray[Any]]) -> None:
        """Puts the kept parts of the two sides (`_gather`'s) into the whole band's image."""
        m = self.margin
        height, width = whole.shape[-2:]
        across, down = sides
        # Rows and columns are the last two axes (a mask's, or the texture's planes').
        whole[..., :m, :] = across[..., :m, :]
        whole[..., height - m :, :] = across[..., across.shape[-2] - m :, :]
        whole[..., m : height - m, :m] = down[..., m : height - m, :m]
        whole[..., m : height - m, width - m :] = down[..., m : height - m, down.shape[-1] - m :]

    def changed(
        self, surround: Frame, shadow_min: float, blur: int, level: float, log_light: Floats | None = None
    ) -> BandChanges:
        """Where the band differs from its reference beyond light and shadow; where it differs at all
        (shadows too: a grey sleeve on a grey cloth darkens it alike in every channel); and where its
        darkening changes sharply (an arm's outline, not a soft shadow's). The plane's
        own pixels are left False: the plane's comparison has them. Under the band's own light; last,
        the texture's agreement (`_kept_texture`). With `log_light` (the plane's, at the masks' size),
        under that light carried on outward, only where the band differs at all (the other masks empty,
        the texture without pixels): cheaper, and enough to tell that nothing crosses the band. Under its
        own light, where that light is a pale arm's rather than a light's (`_warm`) differs beyond light
        and shadow too."""
        height, width = self.size[1], self.size[0]
        nothing = numpy.zeros((height, width), bool)
        if self._low is None or self._log_image is None or self._light is None or not self._sides:
            return nothing, nothing, nothing, numpy.zeros((TEXTURE_PLANES, *nothing.shape), numpy.float32)
        m = self.margin
        overall: Floats | None = None
        if log_light is not None:
            gains = [
                numpy.asarray(cv2.exp(side), numpy.float32)
                for side in self._gather(cv2.copyMakeBorder(log_light, m, m, m, m, cv2.BORDER_REPLICATE))
            ]
        else:
            current = numpy.asarray(surround, numpy.float32)
            # The log of one ratio of lifted levels (OpenCV's log: numpy's costs twice as much): the frame's
            # lifted under the band's overall light, so that the lift is one in the reference's light and a
            # gain on near-black wood is measured as on its paper (`LOG_OFFSET`).
            now = current.reshape(-1, 3)[self._gain_sample]
            overall = overall_gain(now, self._sampled, self._sampled_grey)
            lifted = shifted(current, numpy.float32(LOG_OFFSET) * overall)
            log_ratio = cv2.log(cv2.multiply(lifted, self._inverse_4))
            light = self._light.measure(numpy.asarray(log_ratio, numpy.float32), current, self._image)
            gains = [numpy.asarray(cv2.exp(side), numpy.float32) for side in self._gather(light)]
            warm = self._warm(light)
        # Only the band is compared, side by side (the plane inside has its own, finer comparison).
        found = [
            self._side_changes(side, frame, gain, shadow_min, blur, level, overall)
            for side, frame, gain in zip(self._sides, self._gather(surround), gains, strict=True)
        ]
        changed, any_change, outline = nothing, nothing.copy(), nothing
        # 2 MB of zeros that no caller of this mode reads
        texture = numpy.zeros((TEXTURE_PLANES, 0, 0), numpy.float32)
        self._scatter(any_change, [masks[1] for masks in found])
        if log_light is None:
            changed, outline = nothing.copy(), nothing.copy()
            texture = numpy.zeros((TEXTURE_PLANES, height, width), numpy.float32)
            self._scatter(changed, [masks[0] for masks in found])
            changed |= warm
            self._scatter(outline, [masks[2] for masks in found])
            self._scatter(texture, [masks[3] for masks in found])
        return changed, any_change, outline, texture

    def _warm(self, light: Floats) -> Mask:
        """Where the band's own light (log gains, BGR) is both redder and brighter than a smooth light
        over the band by more than `WARM_BUMP`: a pale skin-toned arm the light grid took for light."""
        red_blue = numpy.asarray(cv2.subtract(light[..., 2], light[..., 0]), numpy.float32)
        level = sum3(light) * numpy.float32(1.0 / 3.0)
        red_fit, level_fit = self._smooth(red_blue), self._smooth(level)
        # An arm over a sixth of a side bends the fit towards itself by half its bump (burnt 20261139,
        # Minos on light wood: 0.2 redder and 0.15 brighter than the wood beside it, 0.06-0.11 above the
        # fit): fitted again without the samples half a bump above it, the light is the table's.
        half = numpy.float32(WARM_BUMP / 2)
        bent = ((red_blue - red_fit > half) & (level - level_fit > half)).ravel()[self._sample]
        # Most of the band that far above its fit is a light no quadratic follows, not an arm.
        if WARM_BUMP_REFIT and 0 < numpy.count_nonzero(bent) <= WARM_BENT_SHARE * bent.size:
            red_fit, level_fit = self._smooth(red_blue, ~bent), self._smooth(level, ~bent)
        redder = red_blue - red_fit > WARM_BUMP
        brighter = level - level_fit > WARM_BUMP
        return numpy.asarray(redder & brighter & (self._depth < self.margin), bool)

    def _smooth(self, values: Floats, kept: Mask | None = None) -> Floats:
        """`values` (at the surround's size) as a quadratic in x and y least-squares fitted over the
        band's pixels (`kept`: only those of the `_sample` pixels): a lamp's pool, its colour mixing with
        daylight, vary no faster over the band."""
        sampled = values.ravel()[self._sample]
        if kept is None:
            coefficients = self._fit @ sampled
        else:
            terms = self._terms[self._sample][kept]
            coefficients = numpy.linalg.lstsq(terms, sampled[kept], rcond=None)[0].astype(numpy.float32)
        terms = self._terms
        return numpy.asarray((terms @ coefficients).reshape(values.shape), numpy.float32)

    def _side_changes(
        self,
        side: Side,
        surround: Frame,
        gain: Floats,
        shadow_min: float,
        blur: int,
        level: float,
        overall: Floats | None,
    ) -> BandChanges:
        """`changed`'s masks for one side of the band (`_gather`'s); under the band's own light (`overall`:
        its overall gain, `overall_gain`) all four, else (the plane's light carried outward) only the
        second (where it differs at all), the others left empty."""
        # OpenCV's per-element operations: numpy's temporaries would cost more than the band's arm test.
        current = numpy.asarray(surround, numpy.float32)
        whole = overall is not None
        if overall is None:
            low, high = cv2.multiply(side.low, gain), cv2.multiply(side.high, gain)
            at_light = cv2.multiply(cv2.add(side.low, side.high), gain, scale=0.5)
            corrected = floats(cv2.divide(current, gain))
        else:
            # The light was measured between levels lifted by `LOG_OFFSET`, the frame's under the overall
            # gain: the table it predicts is lifted alike, (reference + offset) x gain - offset x overall,
            # and the frame brought back to the reference's light so.
            shift = numpy.float32(LOG_OFFSET) * overall
            low = shifted(floats(cv2.multiply(side.low_lifted, gain)), -shift)
            high = shifted(floats(cv2.multiply(side.high_lifted, gain)), -shift)
            at_light = shifted(floats(cv2.multiply(side.both_lifted, gain, scale=0.5)), -shift)
            corrected = floats(cv2.subtract(cv2.divide(shifted(current, shift), gain), side.offset))
        low = numpy.minimum(low, numpy.float32(SATURATED))
        over, under = cv2.subtract(current, high), cv2.subtract(low, current)
        outside = numpy.maximum(cv2.max(over, under), numpy.float32(0.0))
        # A clipped channel could be any table brighter than white.
        unclipped = cv2.threshold(current, SATURATED - 0.5, 1.0, cv2.THRESH_BINARY_INV)[1]
        # On a table darker than the noise floor plus DARK_NOISE, its level less DARK_NOISE (at least that).
        noise = numpy.clip(at_light - numpy.float32(DARK_NOISE), numpy.float32(DARK_NOISE), self._noise)
        scaled = cv2.divide(cv2.multiply(outside, unclipped), cv2.multiply(side.tolerance, gain) + noise)
        distance = sum3(numpy.asarray(scaled, numpy.float32))
        lost, grey, mean = self._texture_lost(corrected, side)
        # A shadow is judged over a few millimetres: on a checked cloth single pixels, a little off
        # their reference ones, differ in hue even in a shadow.
        window = (TEXTURE_PX, TEXTURE_PX)
        blurred: Floats = numpy.zeros(0, numpy.float32)
        differs = cv2.blur(distance, (blur, blur)) > level
        if whole:
            blurred = floats(cv2.blur(corrected, window) + numpy.float32(2.0))
            # A lamp's glare the empty table was learned without is light, not a change.
            lamp = glare(blurred, grey, lost, differs, side, self.margin)
            if lamp is not None and numpy.any(lamp):
                distance[lamp] = 0.0
                differs = cv2.blur(distance, (blur, blur)) > level
        # What differs beyond light and shadow differs at all: where it differs at all needs no shadow's.
        any_change = differs | lost
        if not whole:
            empty = numpy.zeros(0, bool)
            return empty, any_change, empty, numpy.zeros(0, numpy.float32)
        ratio = numpy.asarray(cv2.divide(blurred, side.mean_2), numpy.float32)
        darkening = numpy.asarray(sum3(ratio) * numpy.float32(1.0 / 3.0), numpy.float32)
        # Where the lamp is shaded, daylight still reaches: a shadow is a little bluer as well as darker.
        # Where the plane is shaded and the band is not, the plane's light carried outward is too dim
        # there: the band is brighter than its reference by as much, alike in every channel.
        hue = cv2.subtract(max3(ratio), min3(ratio)) <= side.shadow_hue * numpy.maximum(darkening, 1.0)
        shadow = (darkening >= shadow_min) & (darkening <= SHADE_LIFT) & hue
        excess = numpy.where(shadow, numpy.float32(0.0), distance)
        changed = (cv2.blur(excess, (blur, blur)) > level) | lost
        # An arm's sides are sharp where they cross the band; a head's shadow fades over centimetres.
        rise_x = cv2.Sobel(darkening, cv2.CV_32F, 1, 0, ksize=1, scale=0.5)
        rise_y = cv2.Sobel(darkening, cv2.CV_32F, 0, 1, ksize=1, scale=0.5)
        # On a print or checks a shadow a pixel off its reference steps sharply too: plain cloth only.
        steep = cv2.magnitude(rise_x, rise_y) > side.steep_step
        # The darkening steps where the band steps now (an arm's side) or where its reference does, hidden
        # now: the marker sheet's edge or a grain line under an arm, the band darker than its reference on
        # one side of it at least. A player's shadow over the band while the empty area was learned, gone
        # since, leaves its sharp old edge in the darkening alone, the band of the table's hue and as bright
        # as its reference or brighter on both sides (`LIFT_FLOOR`): there the step has to be the band's
        # own too (each channel's step over its reference level, the reference's left out: a third of the
        # central difference, the mean of the three channels' as the darkening's).
        step_x, step_y = (
            sum3(
                numpy.asarray(
                    cv2.divide(cv2.Sobel(blurred, cv2.CV_32F, dx, 1 - dx, ksize=1, scale=1 / 6), side.mean_2),
                    numpy.float32,
                )
            )
            for dx in (1, 0)
        )
        lifted_by = cv2.erode(darkening, _WINDOW)
        lifted = hue & (lifted_by > numpy.float32(LIFT_FLOOR))
        outline = steep & side.plain & (~lifted | (cv2.magnitude(step_x, step_y) > side.steep_step))
        table_hue = hue & ((darkening <= SHADE_LIFT) | ~lost)
        relative = grey / (mean + numpy.float32(2.0)) - numpy.float32(1.0)
        centred = (grey - mean) / (mean + numpy.float32(2.0))
        texture = self._kept_texture(relative, centred, side, steep, distance, table_hue, darkening, lost)
        return numpy.asarray(changed, bool), any_change, numpy.asarray(outline, bool), texture

    @staticmethod
    def _texture_lost(corrected: Floats, side: Side) -> tuple[Mask, Floats, Floats]:
        """Where the reference shows texture (grain, weave, checks) that is gone over a wide window: an
        arm of the very colour of the table hides it, a shadow keeps it. With the grey levels and their
        mean over the window."""
        window = (TEXTURE_PX, TEXTURE_PX)
        grey = sum3(corrected) / 3.0
        mean = numpy.asarray(cv2.blur(grey, window), numpy.float32)
        # OpenCV's per-element operations: the same arithmetic as numpy's, without its temporaries.
        variance = cv2.subtract(cv2.blur(cv2.multiply(grey, grey), window), cv2.multiply(mean, mean))
        deviation = cv2.sqrt(cv2.threshold(variance, 0.0, 0.0, cv2.THRESH_TOZERO)[1])
        covariance = cv2.subtract(
            cv2.blur(cv2.multiply(grey, side.grey), window), cv2.multiply(mean, side.grey_mean)
        )
        correlation = cv2.divide(
            covariance, cv2.multiply(deviation, side.grey_deviation) + numpy.float32(1.0)
        )
        lost = (side.textured & (correlation < 0.3)).astype(numpy.float32)
        return numpy.asarray(cv2.blur(lost, window) > 0.6, bool), grey, mean

    def _kept_texture(
        self,
        relative: Floats,
        centred: Floats,
        side: Side,
        steep: Mask,
        distance: Floats,
        shadow_hue: Mask,
        darkening: Floats,
        lost: Mask,
    ) -> Floats:
        """Per pixel, what `_shaded` sums over a region (`relative`: the grey level relative to its
        neighbourhood's, less one; `shadow_hue`: where the pixel may be the table under
        another light: a shadow's hue and depth, or brighter where no texture is lost, as when a shadow over
        the band while the empty area was learned has lifted by more than the band's light follows, not
        an arm of the table's hue hiding its grain): for the correlation of the band's texture with
        the reference's (each relative to its neighbourhood's level, so a shadow's gain drops out) the
        cross product and the two energies, where the reference is textured, the pixel differs and no
        steep edge is near (a shadow's is no texture of the table; the table around an arm that the
        band's changes take in keeps its texture); then whether the pixel is of no shadow's hue, whether
        it counts, its log darkening and that squared, and whether its texture is lost (`lost`); last, the
        correlation's three on `centred` (the grey level less its neighbourhood's, relative to it)."""
        differing = distance >= KEPT_DISTANCE
        left_out = (steep | ~differing).astype(numpy.uint8)
        edge = cv2.dilate(left_out, numpy.ones((3, 3), numpy.uint8)) > 0
        reference = numpy.where(edge, 0.0, side.relative)
        # What differs yet is of no shadow's hue (`shadow_hue`): an arm's, not the table's.
        unlike = differing & ~shadow_hue
        # A shadow's depth is one within it; an arm beside it (a grey sleeve on a print) is at another.
        # Only its steep pixels are left out: leaving out its whole edge as the texture test does also
        # dropped a skin-toned arm's pixels beside a sharp shadow, and the arm went unseen.
        counted = differing & ~steep
        planes = numpy.empty((TEXTURE_PLANES, *relative.shape), numpy.float32)
        numpy.multiply(relative, reference, out=planes[0])
        numpy.multiply(relative, relative, out=planes[1])
        planes[1][reference == 0.0] = 0.0
        numpy.multiply(reference, reference, out=planes[2])
        planes[3], planes[4] = unlike, counted
        numpy.log(numpy.maximum(darkening, numpy.float32(0.01)), out=planes[5])
        planes[5][~counted] = 0.0
        numpy.multiply(planes[5], planes[5], out=planes[6])
        planes[7] = lost
        # The correlation's three again with each texture's own level taken out (`centred`, the
        # reference's alike): in `relative` a flat region keeps an offset (the 2 added to its level's
        # mean), and over few pixels that offset alone correlates with a dark reference's (`KEPT_TEXTURE_Z`).
        reference = numpy.where(edge, 0.0, side.centred)
        numpy.multiply(centred, reference, out=planes[8])
        numpy.multiply(centred, centred, out=planes[9])
        planes[9][reference == 0.0] = 0.0
        numpy.multiply(reference, reference, out=planes[10])
        return planes

    def crossing(
        self,
        band: Mask,
        inside: numpy.typing.NDArray[numpy.uint8],
        min_width_mm: float,
        outline: Mask | None = None,
        bridges: Mask | None = None,
        texture: Floats | None = None,
    ) -> bool:
        """Whether a changed region runs from the band's outer edge across it and on into the plane
        (`band`: the band's changes; `inside`: the plane's, at the masks' size), at least
        `min_width_mm` wide at the band's outer edge and at the plane's edge (and with `outline`, with
        at least as many of its pixels as the band is wide). `bridges` (the plane's) join what lies on
        either side of them but do not count as the plane's changes. With `texture` (`changed`'s), a
        region whose texture in the band agrees with the reference's is a shadow."""
        m = self.margin
        joined = band.astype(numpy.uint8)
        joined[m:-m, m:-m] = inside
        if bridges is not None:
            joined[m:-m, m:-m][bridges] = 1
        count, found = cv2.connectedComponents(joined, connectivity=8)
        if count <= 1:
            return False
        labels = numpy.asarray(found, numpy.int32)
        width = min_width_mm * self.px_per_mm
        outer = ring(labels, 1)
        at_edge = ring(labels, m)
        further_in = ring(labels, m + 3)
        outer_count = numpy.bincount(outer, minlength=count)
        edge_count = numpy.bincount(at_edge, minlength=count)
        in_count = numpy.bincount(further_in, minlength=count)
        wide = (outer_count >= width) & (edge_count >= width) & (in_count >= width / 2)
        wide[0] = False
        if not numpy.any(wide):
            return False  # what follows only narrows `wide` further: no need to count it
        if bridges is not None:
            # Come in by a bridge (over a marker), an arm goes on over the plane, a hand's area of it; a
            # ring or a shadow lying beside the marker does not.
            unbridged = labels.copy()
            unbridged[m:-m, m:-m][bridges] = 0
            by_itself = numpy.bincount(ring(unbridged, m), minlength=count) >= width
            area = numpy.bincount(unbridged[m:-m, m:-m].ravel(), minlength=count)
            far_in = area >= BRIDGED_ARM_MM2 * self.px_per_mm**2
            wide &= by_itself | far_in
        if outline is not None:
            wide &= self._outlined(labels, count, outline)
        if texture is not None and numpy.any(wide):
            wide &= ~self._shaded(labels, count, texture, width)
        return bool(numpy.any(wide))

    def _outlined(self, labels: numpy.typing.NDArray[numpy.int32], count: int, outline: Mask) -> Mask:
        """Per region, whether an outline crosses the band along it (`outline`: `changed`'s): one side
        of an arm."""
        m = self.margin
        # An outline across the band at least: one side of the arm.
        sharp = numpy.bincount(labels[outline], minlength=count) >= m
        # Across the band: at a third of its depths at least.
        depth = numpy.minimum(self._depth[outline], m - 1)
        seen = numpy.bincount(labels[outline] * m + depth, minlength=count * m).reshape(count, m) > 0
        return numpy.asarray(sharp & (numpy.count_nonzero(seen, axis=1) >= m * OUTLINE_DEPTHS), bool)

    def reachable(self, corner_px: int, arm_mm: float) -> Mask:
        """The plane's pixels (the masks' size) within `REACH_MM` straight in from where its rim is a
        board's, unlike the table around (`RIM_DIFFERS`), along an arm's width (`arm_mm`) at least, but
        for the `corner_px` at either end of each edge (the markers' paper): where `reaching` may find a
        hand."""
        m = self.margin
        width, height = self.size[0] - 2 * m, self.size[1] - 2 * m
        out = numpy.zeros((height, width), bool)
        if not self.learned or min(width, height) <= 2 * corner_px:
            return out
        log = numpy.log(self._image + numpy.float32(4.0))
        # Per side, the table halfway across the band, a few pixels deep (depth x position x channel; a
        # board may reach out a little beyond the plane), and the plane's rim (the same): the rim is a
        # board's where its colour is beyond the table's range nearby (a check's or a print's colours
        # are all the table's).
        a, b = m // 2 - 2, m // 2 + 2
        sides = (
            (log[a:b, m:-m], log[m : m + 2, m:-m]),
            (log[-b:-a, m:-m], log[-m - 2 : -m, m:-m]),
            (log[m:-m, a:b].transpose(1, 0, 2), log[m:-m, m : m + 2].transpose(1, 0, 2)),
            (log[m:-m, -b:-a].transpose(1, 0, 2), log[m:-m, -m - 2 : -m].transpose(1, 0, 2)),
        )
        near = numpy.ones((1, 2 * round(RIM_NEAR_MM * self.px_per_mm) + 1), numpy.uint8)
        board = []
        arm = numpy.ones((1, max(1, round(arm_mm * self.px_per_mm))), numpy.uint8)
        for table, rim in sides:
            low = cv2.erode(numpy.ascontiguousarray(table.min(axis=0)[None]), near)[0]
            high = cv2.dilate(numpy.ascontiguousarray(table.max(axis=0)[None]), near)[0]
            colour = rim.mean(axis=0)
            beyond = numpy.maximum(low - colour, colour - high).max(axis=-1) > RIM_DIFFERS
            beyond[:corner_px] = beyond[-corner_px:] = False
            board.append(cv2.morphologyEx(beyond.astype(numpy.uint8)[None], cv2.MORPH_OPEN, arm)[0] > 0)
        reach = min(round(REACH_MM * self.px_per_mm), height // 2, width // 2)
        out[:reach, :] |= board[0][None, :]
        out[-reach:, :] |= board[1][None, :]
        out[:, :reach] |= board[2][:, None]
        out[:, -reach:] |= board[3][:, None]
        return out

    def reaching(
        self,
        band: Mask,
        inside: numpy.typing.NDArray[numpy.uint8],
        min_width_mm: float,
        reachable: Mask,
        outline: Mask | None = None,
        texture: Floats | None = None,
    ) -> bool:
        """Whether a region crossing the band (`band`: its changes, as `crossing`'s, with `outline` and
        `texture` as there) as wide as an arm (`min_width_mm`) at its outer edge and halfway to the
        plane's, faces, straight on into the plane within `REACH_MM` of its edge where that is a board's
        rim (`reachable`), a changed region of the plane (`inside`) as large as a hand
        (`REACHED_HAND_MM2`): an arm of the board's very colour (a skin tone as the toss's collar plate)
        is unseen over it where it comes in, but its hand, shaded and with fingers, is not."""
        if not numpy.any(reachable):
            return False  # no board's rim: the plane's own changes show an arm where it comes in
        m = self.margin
        ring_band = band.astype(numpy.uint8)
        ring_band[m:-m, m:-m] = 0
        count, found = cv2.connectedComponents(ring_band, connectivity=8)
        if count <= 1:
            return False
        labels = numpy.asarray(found, numpy.int32)
        width = min_width_mm * self.px_per_mm
        outer_count = numpy.bincount(ring(labels, 1), minlength=count)
        # Half across the band at least: the board may reach out past the plane under the arm too.
        half = m // 2
        edge_count = numpy.bincount(ring(labels, half), minlength=count)
        wide = (outer_count >= width) & (edge_count >= width)
        wide[0] = False
        if outline is not None and numpy.any(wide):
            wide &= self._outlined(labels, count, outline)
        if texture is not None and numpy.any(wide):
            wide &= ~self._shaded(labels, count, texture, width)
        if not numpy.any(wide):
            return False
        # Straight on into the plane from where the crossing regions meet its edge.
        entering = wide[labels]
        reach = min(round(REACH_MM * self.px_per_mm), (inside.shape[0] - 1) // 2, (inside.shape[1] - 1) // 2)
        facing = numpy.zeros(inside.shape, bool)
        facing[:reach, :] |= entering[half, m:-m][None, :]
        facing[-reach:, :] |= entering[-1 - half, m:-m][None, :]
        facing[:, :reach] |= entering[m:-m, half][:, None]
        facing[:, -reach:] |= entering[m:-m, -1 - half][:, None]
        facing &= reachable
        _, plane_labels, stats, _ = cv2.connectedComponentsWithStats(inside, connectivity=8)
        large = stats[:, cv2.CC_STAT_AREA] >= REACHED_HAND_MM2 * self.px_per_mm**2
        large[0] = False
        return bool(numpy.any(large[numpy.asarray(plane_labels, numpy.int32)[facing]]))

    def _shaded(
        self, labels: numpy.typing.NDArray[numpy.int32], count: int, texture: Floats, width: float
    ) -> Mask:
        """Per region, whether its part in the band keeps the reference's texture under one gain
        (`width`: an arm's least, in mask pixels)."""
        m = self.margin
        # The band's pixels alone (the plane's are zeros in the texture, and no part of a region there).
        flat = labels.ravel()[self._band_pixels]
        planes = texture.reshape(TEXTURE_PLANES, -1)[:, self._band_pixels]
        sums = [numpy.bincount(flat, planes[k], minlength=count) for k in range(TEXTURE_PLANES)]
        textured = numpy.bincount(flat[planes[2] > 0.0], minlength=count)
        correlation = sums[0] / numpy.sqrt(sums[1] * sums[2] + 1e-12)
        # An arm beside its own shadow: the shadow keeps the texture, the arm's other hue tells it.
        # However large the shadow it lies in, a quarter of a wrist's crossing of the band is an arm.
        alike = sums[3] <= numpy.minimum(KEPT_UNLIKE * sums[4], width * m / 4.0)
        inner = numpy.maximum(sums[4], 1.0)
        spread = numpy.sqrt(numpy.maximum(sums[6] / inner - (sums[5] / inner) ** 2, 0.0))
        # The texture's agreement with its own level taken out, at the reference's contrast (a shadow
        # scales it by one factor): how unlikely by chance (`KEPT_TEXTURE_Z`, `KEPT_TEXTURE_SURE_Z`).
        centred = sums[8] / numpy.sqrt(sums[9] * sums[10] + 1e-12)
        contrast = numpy.sqrt(sums[9] / numpy.maximum(sums[10], 1e-12))
        scaled = (contrast <= KEPT_FEW_CONTRAST) & (contrast >= 1.0 / KEPT_FEW_CONTRAST)
        evidence = numpy.where(scaled, centred * numpy.sqrt(textured), 0.0)
        # Where it lost no texture at all (less than a quarter of a wrist's crossing of the band).
        sure = (evidence >= KEPT_TEXTURE_SURE_Z) & (sums[7] < width * m / 4.0)
        alike &= (spread <= KEPT_DEPTH_SPREAD) | sure
        # A shadow keeps the texture nearly everywhere; an arm hides it wherever it lies over some (the
        # correlation, summed over the region, may still be carried by the rest of it).
        alike &= (sums[7] < KEPT_LOST_SHARE * textured) | (sums[7] < width * m / 4.0)
        kept = (textured >= KEPT_TEXTURE_PX) & (correlation > KEPT_TEXTURE)
        # Fewer pixels tell it only with a correlation as unlikely by chance.
        kept |= (textured >= KEPT_TEXTURE_MIN_PX) & (evidence >= KEPT_TEXTURE_Z)
        return numpy.asarray(kept & alike, bool)


def ring(labels: numpy.typing.NDArray[numpy.int32], inset: int) -> numpy.typing.NDArray[numpy.int32]:
    """The labels along the rectangle `inset` pixels in from the image's edges."""
    top, bottom, left, right = inset, labels.shape[0] - 1 - inset, inset, labels.shape[1] - 1 - inset
    return numpy.concatenate(
        [
            labels[top, left : right + 1],
            labels[bottom, left : right + 1],
            labels[top:bottom, left],
            labels[top:bottom, right],
        ]
    )
