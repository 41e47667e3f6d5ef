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
_surround_side.py, with the band's overall gain that its light is measured under). Nor is the band's own
light where it is a pale arm's (_surround_warm.py). Whether a region of the changes crosses the band, and
whether it keeps the table's texture (a shadow's), are decided in _surround_crossing.py and
_surround_texture.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import cv2
import numpy
import numpy.typing

from companion.vision._surround_crossing import REACH_MM, BandCrossing, Shades
from companion.vision._surround_shade import SHADE_PIECE_MM2, smooth_shades
from companion.vision._surround_side import (
    GAIN_SAMPLE,
    LOG_OFFSET,
    Side,
    clipped_ratio,
    glare,
    overall_gain,
    shifted,
    steep_step,
    typed,
)
from companion.vision._surround_texture import (
    TEXTURE_PLANES,
    TEXTURE_PX,
    TEXTURED,
    kept_texture,
    texture_lost,
)
from companion.vision._surround_warm import WarmLight
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

RIM_DIFFERS = 0.25
"""A plane's rim whose colour is beyond the range of the table's nearby (halfway across the band) by this
much (the largest channel's log ratio) is a board's: an arm of the board's colour may come in over it
unseen while the table around shows it. Where the rim is the table around, the band sees no more of an
arm than the plane's rim does."""
RIM_NEAR_MM = 20.0
"""How far along the edge the table's range is taken for the rim beside it (a check or a print's colours
are all the table's)."""

LIFT_FLOOR = 0.8
"""A step of the darkening with the band of the table's hue and at least this bright against its reference
on both sides of it (within the band's light's error: the band of a linen learned under a player's shadow
came out 0.87-1.1 beside the shadow's old edge) may be that shadow's, gone since: an outline only where the
band steps too. An arm hiding the marker sheet's paper edge is darker than the paper (0.6-0.8)."""

_WINDOW = numpy.ones((TEXTURE_PX, TEXTURE_PX), numpy.uint8)

BandChanges = tuple[Mask, Mask, Mask, Floats]
"""`Surround.changed`'s masks, and the band's texture agreement with the reference's (`kept_texture`'s
planes, each of the band's size, first)."""


class _Differs(NamedTuple):
    """Where one side of the band differs at all (`Surround._side_differs`), and what the rest of its
    comparison under its own light goes on from (`Surround._side_rest`)."""

    any_change: Mask
    distance: Floats
    lost: Mask
    grey: Floats
    mean: Floats
    blurred: Floats


class Surround(BandCrossing):
    """The band around one plane: its warp from the camera frame, its reference, and what changed."""

    def __init__(self, plane_mm: tuple[float, float], size: tuple[int, int], px_per_mm: float) -> None:
        """`size`: the masks' (width, height) for the plane; `px_per_mm`: their resolution."""
        margin = round(SURROUND_MM * px_per_mm)
        super().__init__(margin, (size[0] + 2 * margin, size[1] + 2 * margin), px_per_mm)
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
        self._texture: Floats = numpy.zeros((TEXTURE_PLANES, 0, 0), numpy.float32)
        """`changed`'s texture under the band's own light, written again at each such call."""
        """The reference's arrays, gathered into the band's two sides (`_gather`)."""
        self._gain_sample = self._band_pixels[::GAIN_SAMPLE]
        self._warm_light = WarmLight(self.size, self._band_pixels, self._depth < self.margin)
        """Whether the band's own light is a pale arm's (`changed`)."""

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
            "clipped": numpy.asarray(
                cv2.blur(numpy.asarray(image >= SATURATED, numpy.float32), window) > 0.5, numpy.float32
            ),
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
        the texture's agreement (`kept_texture`). With `log_light` (the plane's, at the masks' size),
        under that light carried on outward, only where the band differs at all (the other masks empty,
        the texture without pixels): cheaper, and enough to tell that nothing crosses the band. (The
        texture is the band's own buffer: the next call under its own light writes it again.) Under its
        own light, where that light is a pale arm's rather than a light's (`WarmLight.warm`) differs beyond
        light and shadow too."""
        changes = self._changed(surround, shadow_min, blur, level, log_light, None)
        assert changes is not None  # only a test of `crosses` leaves them out
        return changes

    def changed_if_crossed(
        self, surround: Frame, shadow_min: float, blur: int, level: float, crosses: Callable[[Mask], bool]
    ) -> BandChanges | None:
        """`changed` under the band's own light, or None where `crosses`, asked of where the band differs
        at all or its light is a pale arm's (`changed`'s second mask, or its first's warm pixels), says
        no region of it crosses the band: the first mask lies within that, and the other two masks
        only narrow the regions a crossing counts, so no crossing of the band's changes (`crosses` being
        such a test, `BandCrossing.crossing` or `reaching` without outline or texture) could be found in
        them either. The rest of the comparison (shadows, outlines, texture: half its cost) is left out."""
        return self._changed(surround, shadow_min, blur, level, None, crosses)

    def _changed(
        self,
        surround: Frame,
        shadow_min: float,
        blur: int,
        level: float,
        log_light: Floats | None,
        crosses: Callable[[Mask], bool] | None,
    ) -> BandChanges | None:
        """`changed`, or under the band's own light with `crosses`, `changed_if_crossed`."""
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
            warm = self._warm_light.warm(light)
        # Only the band is compared, side by side (the plane inside has its own, finer comparison).
        differing = [
            self._side_differs(side, frame, gain, blur, level, overall)
            for side, frame, gain in zip(self._sides, self._gather(surround), gains, strict=True)
        ]
        changed, any_change, outline = nothing, nothing.copy(), nothing
        # 2 MB of zeros that no caller of this mode reads
        texture = numpy.zeros((TEXTURE_PLANES, 0, 0), numpy.float32)
        self._scatter(any_change, [state.any_change for state in differing])
        if log_light is None:
            if crosses is not None and not crosses(any_change | warm):
                return None
            found = [
                self._side_rest(side, state, shadow_min, blur, level)
                for side, state in zip(self._sides, differing, strict=True)
            ]
            changed, outline = nothing.copy(), nothing.copy()
            # Into the band's pixels of one buffer kept from call to call (the plane's stay zero): a fresh
            # one, 2.6 MB on Asterion, cost 0.3 ms a call in its pages alone.
            if self._texture.shape != (TEXTURE_PLANES, height, width):
                self._texture = numpy.zeros((TEXTURE_PLANES, height, width), numpy.float32)
            texture = self._texture
            self._scatter(changed, [masks[0] for masks in found])
            changed |= warm
            self._scatter(outline, [masks[1] for masks in found])
            self._scatter(texture, [masks[2] for masks in found])
        return changed, any_change, outline, texture

    def _side_differs(
        self, side: Side, surround: Frame, gain: Floats, blur: int, level: float, overall: Floats | None
    ) -> _Differs:
        """`changed`'s second mask (where the band differs at all) for one side of the band (`_gather`'s),
        under the band's own light (`overall`: its overall gain, `overall_gain`) or the plane's light
        carried outward; with what `_side_rest` goes on from."""
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
        lost, grey, mean = texture_lost(corrected, side)
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
        return _Differs(differs | lost, distance, lost, grey, mean, blurred)

    def _side_rest(
        self, side: Side, state: _Differs, shadow_min: float, blur: int, level: float
    ) -> tuple[Mask, Mask, Floats]:
        """`changed`'s first and third masks (beyond light and shadow; an outline) and the texture for one
        side of the band under its own light, from where it differs at all (`_side_differs`)."""
        distance, lost, grey, mean, blurred = (
            state.distance,
            state.lost,
            state.grey,
            state.mean,
            state.blurred,
        )
        ratio = numpy.asarray(cv2.divide(blurred, side.mean_2), numpy.float32)
        darkening = numpy.asarray(sum3(ratio) * numpy.float32(1.0 / 3.0), numpy.float32)
        # Where the lamp is shaded, daylight still reaches: a shadow is a little bluer as well as darker.
        # Where the plane is shaded and the band is not, the plane's light carried outward is too dim
        # there: the band is brighter than its reference by as much, alike in every channel.
        scaled = clipped_ratio(ratio, side.clipped)
        hue = cv2.subtract(max3(scaled), min3(scaled)) <= side.shadow_hue * numpy.maximum(darkening, 1.0)
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
        centred = (grey - mean) / (mean + numpy.float32(2.0))
        texture = kept_texture(centred, side, steep, distance, table_hue, darkening, lost)
        return numpy.asarray(changed, bool), numpy.asarray(outline, bool), texture

    def shades_of(self, surround: Frame) -> Shades:
        """Per region of the band's changes in `surround` (`crossing`'s labels), whether it is the table
        under one smooth shade (`smooth_shades`)."""
        in_band, piece = self._depth < self.margin, SHADE_PIECE_MM2 * self.px_per_mm**2
        return lambda labels, count: smooth_shades(surround, self._image, labels, count, in_band, piece)

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
