"""Whether the band's own light is a pale skin-toned arm's rather than a light's (surround.py's
`Surround.changed`): the light grid, its cells wider than an arm, takes such an arm for a warm pink light,
and only its bump above a smooth light over the whole band tells it. Separate from surround.py: a fit of its
own (a quadratic over the band's sampled pixels), made once per band."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.table_light import SATURATED, Floats, Mask, sum3

WARM_BUMP = 0.11
"""How much redder (the log of red over blue) and brighter (the mean of the channels' log gains) than a
smooth light over the band (`_smooth`) the band's own light may be before it is no light but a pale
skin-toned arm: the light grid takes such an arm, wider than its cell, for a pink light (burnt 20261136,
Minotaurus on laminate: 0.17 both, the arm then matched as table; the plane's light took in its hand
alike). A lamp switched on, its pool warmer and brighter, is smooth over the band (dark wood at rest: 0.17
both above the band's median, 0.03 above the smooth light); light redder only, or brighter only, is
light (a light grid led astray by tiles on a linen at rest: 0.27 redder, 0.43 brighter); a shadow is
darker and bluer. At rest on burnt and dev frames whose band's own light was measured: at most 0.084."""
COOL_BUMP = 0.35
"""How much bluer (the log of blue over red) than a smooth light over the band the band's own light may be,
no darker than it (`COOL_LEVEL`), before it is no light but a white sleeve over a table whose green and red
the lamp's pool saturates: only its blue can rise, so the light grid takes it for a bluer light (burnt seed
20261155, Minotaurus light wood square edge session 00 frame 6, let through: 0.51 bluer than the smooth
light, 0.75 than the reference, its level even with the table's). A shadow is bluer and darker. Over every
frame at rest whose band's own light was measured (1181 of K1's corpus and the burnt sets 20261154-55),
against the fit before any refit, 7 reached 0.35 and 2 0.51 (up to 0.68, Minotaurus light wood session 07
frame 10 of burnt 20261146); none of them was refused by it."""
COOL_LEVEL = 0.05
"""How much darker than the smooth light a light `COOL_BUMP` bluer (or, where the table is saturated in
green and red, `WARM_BUMP` redder) may be and still be a sleeve."""
CREAM_SHARE = 0.2
"""The share of a region redder by `WARM_BUMP` over a saturated table whose pixels must be redder themselves
for it to be a cream sleeve (`WarmLight._redder_itself`)."""
WARM_BUMP_REFIT = True
"""Whether the smooth light is fitted again without the samples half a `WARM_BUMP` above it (`warm`)."""
WARM_BENT_SHARE = 0.25
"""At most this share of the fit's samples half a `WARM_BUMP` above it are left out of its refit (`warm`)."""
WARM_SAMPLE = 3
"""Every so many of the band's pixels make the smooth light's fit (`_smooth`)."""


class WarmLight:
    """The smooth light over one band that its own light is compared with (`warm`)."""

    def __init__(
        self, size: tuple[int, int], band_pixels: numpy.typing.NDArray[numpy.intp], in_band: Mask
    ) -> None:
        """`size`: the (width, height) of the plane with the band around it (mask pixels); `band_pixels`:
        the band's pixels' indices in an image of that size, raveled; `in_band`: the band's pixels."""
        height, width = size[1], size[0]
        y, x = numpy.mgrid[0:height, 0:width]
        across, down = (
            x.astype(numpy.float32) / numpy.float32(width),
            y.astype(numpy.float32) / numpy.float32(height),
        )
        self._terms = numpy.stack(
            [numpy.ones_like(across), across, down, across * across, down * down, across * down], axis=-1
        ).reshape(-1, 6)
        """Per pixel, the terms of a quadratic in x and y (`_smooth`)."""
        self._sample = band_pixels[::WARM_SAMPLE]
        self._fit = numpy.asarray(numpy.linalg.pinv(self._terms[self._sample]), numpy.float32)
        """The least-squares fit of a quadratic's coefficients to values at the `_sample` pixels: the
        pixels are fixed, so is their fit's matrix."""
        self._in_band = in_band
        self._band = band_pixels
        self._band_terms = numpy.ascontiguousarray(self._terms[band_pixels])
        """The terms at the band's pixels: only there is the light compared with its fit (`warm` is
        False off the band), 44 % of the surround's pixels on Asterion."""
        self._band_sample = numpy.arange(0, len(band_pixels), WARM_SAMPLE)
        """The `_sample` pixels among the band's."""
        self._saturated = numpy.zeros(len(band_pixels), bool)
        """The band's pixels where the reference's green and red are both clipped (`learn`)."""

    def learn(self, reference: Floats) -> None:
        """The band's reference (BGR levels, the plane with the band around it): where its green and red
        are clipped, a pale sleeve lowers its blue alone (`warm`)."""
        flat = reference.reshape(-1, 3)[self._band]
        self._saturated = (flat[:, 1] >= SATURATED) & (flat[:, 2] >= SATURATED)

    def warm(self, light: Floats, ratio: Floats) -> Mask:
        """Where the band's own light (log gains, BGR) is both redder and brighter than a smooth light
        over the band by more than `WARM_BUMP`: a pale skin-toned arm the light grid took for light; or
        bluer by `COOL_BUMP` and not darker: a white sleeve over a saturated table; or, where the table is
        saturated in green and red, redder by `WARM_BUMP` and not darker, the band itself too (`ratio`: its
        log ratio to the reference, BGR): a cream sleeve there."""
        red_blue = numpy.asarray(cv2.subtract(light[..., 2], light[..., 0]), numpy.float32)
        red_blue = red_blue.ravel()[self._band]
        level = (sum3(light) * numpy.float32(1.0 / 3.0)).ravel()[self._band]
        red_fit, level_fit = self._smooth(red_blue), self._smooth(level)
        # An arm over a sixth of a side bends the fit towards itself by half its bump (burnt 20261139,
        # Minos on light wood: 0.2 redder and 0.15 brighter than the wood beside it, 0.06-0.11 above the
        # fit): fitted again without the samples half a bump above it, the light is the table's.
        half = numpy.float32(WARM_BUMP / 2)
        sample = self._band_sample
        bent = (red_blue[sample] - red_fit[sample] > half) & (level[sample] - level_fit[sample] > half)
        # Most of the band that far above its fit is a light no quadratic follows, not an arm.
        if WARM_BUMP_REFIT and 0 < numpy.count_nonzero(bent) <= WARM_BENT_SHARE * bent.size:
            red_fit, level_fit = self._smooth(red_blue, ~bent), self._smooth(level, ~bent)
        redder = red_blue - red_fit > WARM_BUMP
        brighter = level - level_fit > WARM_BUMP
        # A white sleeve over a table the lamp's pool saturates in green and red raises its blue alone.
        even = level - level_fit > -COOL_LEVEL
        cool = (red_fit - red_blue > COOL_BUMP) & even
        # A cream sleeve over it lowers its blue alone: redder, but no brighter, as a warmer light would
        # be there (burnt 20261143 Hornochsen linen session 10 frame 10, a lit linen at 250-255 in green
        # and red: 0.19 redder than the smooth light, 0.04 darker).
        cream = redder & even & self._saturated
        if numpy.any(cream):
            cream = self._redder_itself(cream, ratio)
        warm = numpy.zeros(self._in_band.shape, bool)
        warm.ravel()[self._band] = (redder & brighter) | cool | cream
        return warm

    def _redder_itself(self, cream: Mask, ratio: Floats) -> Mask:
        """Of `cream` (at the band's pixels), the regions where `CREAM_SHARE` of the pixels at least are
        redder themselves (`ratio`: the band's log ratio to its reference, BGR) than a smooth fit of that
        over the band by half a `WARM_BUMP`: a sleeve changes the band's pixels, where the light grid's
        cells over the plane lean towards its pieces beside the band's (yellow tiles by a clipped linen's
        rim at rest, dev 13 Asterion linen session 03 frame 5: the light 0.14 redder, the band itself
        0.005 at most; the sleeve of burnt 20261143: 82 of its 208 pixels)."""
        own = numpy.asarray(cv2.subtract(ratio[..., 2], ratio[..., 0]), numpy.float32).ravel()[self._band]
        itself = own - self._smooth(own) > numpy.float32(WARM_BUMP / 2)
        image = numpy.zeros(self._in_band.shape, numpy.uint8)
        image.ravel()[self._band] = cream
        count, found = cv2.connectedComponents(image, connectivity=8)
        labels = numpy.asarray(found, numpy.int32).ravel()[self._band]
        sizes = numpy.bincount(labels[cream], minlength=count)
        kept = numpy.bincount(labels[cream & itself], minlength=count) >= CREAM_SHARE * sizes
        kept[0] = False
        return numpy.asarray(kept[labels] & cream, bool)

    def _smooth(self, values: Floats, kept: Mask | None = None) -> Floats:
        """`values` (at the band's pixels) as a quadratic in x and y least-squares fitted over the band's
        pixels (`kept`: only those of the `_sample` pixels): a lamp's pool, its colour mixing with
        daylight, vary no faster over the band."""
        sampled = values[self._band_sample]
        if kept is None:
            coefficients = self._fit @ sampled
        else:
            terms = self._terms[self._sample][kept]
            coefficients = numpy.linalg.lstsq(terms, sampled[kept], rcond=None)[0].astype(numpy.float32)
        return numpy.asarray(self._band_terms @ coefficients, numpy.float32)
