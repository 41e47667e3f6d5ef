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
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision._surround_compare import DARK_NOISE as DARK_NOISE
from companion.vision._surround_compare import side_differs, side_rest
from companion.vision._surround_crossing import REACH_MM, BandCrossing, Shades
from companion.vision._surround_hidden import grain_hidden
from companion.vision._surround_shade import SHADE_PIECE_MM2, smooth_shades
from companion.vision._surround_side import (
    GAIN_SAMPLE,
    LOG_OFFSET,
    Side,
    overall_gain,
    shifted,
    steep_step,
    typed,
)
from companion.vision._surround_sleeve import Grain
from companion.vision._surround_texture import (
    TEXTURE_PLANES,
    TEXTURE_PX,
    TEXTURED,
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
BAND_LIGHT_CELL_MM = 50.0
"""Side of a cell of the band's light grid: wider than the plane's (no piece lies in the band to tell a
hotspot's edge from; a coarser grid costs less)."""
SHADOW_HUE = 0.08
"""How much more the channels' darkening may differ in a shadow than noise makes them (two lights)."""

RIM_DIFFERS = 0.06
"""A plane's rim whose colour is beyond the range of the table's nearby (halfway across the band) by this
much (the largest channel's log ratio) is a board's: an arm of the board's colour may come in over it
unseen while the table around shows it. Where the rim is the table around, the band sees no more of an
arm than the plane's rim does. The toss's pale collar plate on the printed cloth lies only 0.05-0.10
beyond the print's pale ground (burnt 20261144 Toss printed session 12 frame 6, let through at 0.25; from
0.08 on its rim is the table's); over every frame at rest and hand frame of the hand check's corpus (11141
frames) 0.06 changed no other verdict."""
RIM_NEAR_MM = 20.0
"""How far along the edge the table's range is taken for the rim beside it (a check or a print's colours
are all the table's)."""

_WINDOW = numpy.ones((TEXTURE_PX, TEXTURE_PX), numpy.uint8)

BandChanges = tuple[Mask, Mask, Mask, Floats]
"""`Surround.changed`'s masks, and the band's texture agreement with the reference's (`kept_texture`'s
planes, each of the band's size, first)."""


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
        """The reference's arrays, gathered into the band's two sides (`_gather`)."""
        self._grain: tuple[Floats, Floats, Mask] | None = None
        """The reference's grey less its window's mean, that squared, and where it is textured
        (`grain_of`)."""
        self._texture: Floats = numpy.zeros((TEXTURE_PLANES, 0, 0), numpy.float32)
        """`changed`'s texture under the band's own light, written again at each such call."""
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
        self._warm_light.learn(image)
        window = (TEXTURE_PX, TEXTURE_PX)
        grey = sum3(image) / 3.0
        mean = cv2.blur(grey, window)
        variance = cv2.blur(grey * grey, window) - mean * mean
        deviation = numpy.sqrt(numpy.maximum(variance, 0.0))
        centred = numpy.asarray(grey - mean, numpy.float32)
        self._grain = (centred, centred * centred, numpy.asarray(deviation > TEXTURED, bool))
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
            warm = self._warm_light.warm(light, numpy.asarray(log_ratio, numpy.float32))
        # Only the band is compared, side by side (the plane inside has its own, finer comparison).
        differing = [
            side_differs(side, frame, gain, blur, level, overall, self._noise, self.margin)
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
                side_rest(side, state, shadow_min, blur, level)
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

    def shades_of(self, surround: Frame) -> Shades:
        """Per region of the band's changes in `surround` (`crossing`'s labels), whether it is the table
        under one smooth shade (`smooth_shades`)."""
        in_band, piece = self._depth < self.margin, SHADE_PIECE_MM2 * self.px_per_mm**2
        return lambda labels, count: smooth_shades(surround, self._image, labels, count, in_band, piece)

    def grain_of(self, surround: Frame) -> Grain:
        """Over a mask of the band in `surround`, how well its texture (each pixel's grey less its window's
        mean) agrees with the reference's where that is textured, and over how many such pixels: a shadow
        keeps the table's grain, a sleeve hides it."""

        def agreement(mask: Mask) -> tuple[float, int]:
            if self._grain is None:
                return 0.0, 0
            reference, energy, textured = self._grain
            counted = mask & textured
            count = int(numpy.count_nonzero(counted))
            if count == 0:
                return 0.0, 0
            grey = sum3(numpy.asarray(surround, numpy.float32)) / 3.0
            centred = grey - cv2.blur(grey, (TEXTURE_PX, TEXTURE_PX))
            cross = float((centred[counted] * reference[counted]).sum())
            own = float((centred[counted] ** 2).sum()) * float(energy[counted].sum())
            return cross / (own**0.5 + 1e-6), count

        return agreement

    def level_of(self, surround: Frame) -> Callable[[], Floats]:
        """A function giving the band's log level over its reference's in `surround` (the channels' mean
        at each pixel): `lit_and_shaded`'s, called only where it finds a pair of regions to weigh."""
        return lambda: floats(
            cv2.log(cv2.divide(numpy.asarray(surround, numpy.float32) + 4.0, self._image + 4.0)).mean(axis=2)
        )

    def grain_hidden(self, surround: Frame, carried: Mask, inside: numpy.typing.NDArray[numpy.uint8]) -> bool:
        """Whether two regions of what differs in the band of `surround` under the plane's light (`carried`)
        an arm's width apart, one meeting the plane's changes (`inside`), hide the grain's profile between
        them that it keeps beside them (`_surround_hidden.grain_hidden`): an arm the band's light took in."""
        if self._image.size == 0:
            return False
        now = sum3(numpy.asarray(surround, numpy.float32))
        return grain_hidden(carried, inside, now, sum3(self._image), self.margin, self.px_per_mm)

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
