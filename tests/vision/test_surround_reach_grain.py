"""A region `BandCrossing.reaching` finds that shows the table's grain all over is no arm (`REACHED_GRAIN`):
a lamp's pool the band's own light took for a pale arm keeps the weave, an arm over the band hides it where
it crosses. Bench seed 20261149 (now burnt) Minos linen session 03 frame 10 was refused at rest so."""

from __future__ import annotations

import numpy
import numpy.typing

from companion.vision._surround_crossing import BandCrossing
from companion.vision._surround_sleeve import Grain
from companion.vision.table_light import Mask

MARGIN, PX_PER_MM = 15, 0.5
WIDTH, HEIGHT = 140, 90
"""The plane at the masks' size, the band `MARGIN` wide around it."""


def scene() -> tuple[BandCrossing, Mask, numpy.typing.NDArray[numpy.uint8], Mask]:
    """A band crossed at its bottom by a solid region 60 mm wide, a hand's area of the plane's changes
    straight in from it, within reach of a board's rim all along the bottom."""
    crossing = BandCrossing(MARGIN, (WIDTH + 2 * MARGIN, HEIGHT + 2 * MARGIN), PX_PER_MM)
    band = numpy.zeros((HEIGHT + 2 * MARGIN, WIDTH + 2 * MARGIN), bool)
    band[-MARGIN:, 60:90] = True
    inside = numpy.zeros((HEIGHT, WIDTH), numpy.uint8)
    inside[55:, 40:110] = 1
    reachable = numpy.zeros((HEIGHT, WIDTH), bool)
    reachable[-35:, :] = True
    return crossing, band, inside, reachable


Texture = numpy.typing.NDArray[numpy.float64]


def grain_over(reference: Texture, now: Texture) -> Grain:
    """`Surround.grain_of`'s measure on hand-made textures: the correlation of `now` with `reference` over
    a mask, and over how many pixels."""

    def grain(mask: Mask) -> tuple[float, int]:
        a, b = now[mask], reference[mask]
        return float((a * b).sum() / (numpy.sqrt((a * a).sum() * (b * b).sum()) + 1e-6)), int(mask.sum())

    return grain


def weave(seed: int) -> Texture:
    return numpy.random.default_rng(seed).normal(0.0, 1.0, (HEIGHT + 2 * MARGIN, WIDTH + 2 * MARGIN))


def test_the_scene_reaches_a_hand_without_the_grain() -> None:
    crossing, band, inside, reachable = scene()
    assert crossing.reaching(band, inside, 18.0, reachable)


def test_a_lamps_pool_keeping_the_weave_reaches_no_hand() -> None:
    crossing, band, inside, reachable = scene()
    table = weave(1)
    # The weave under a warmer, brighter light: scaled, with the camera's noise.
    lit = 1.3 * table + 0.1 * weave(2)
    assert not crossing.reaching(band, inside, 18.0, reachable, grain=grain_over(table, lit))


def test_an_arm_hiding_the_weave_where_it_crosses_reaches_the_hand() -> None:
    crossing, band, inside, reachable = scene()
    table = weave(1)
    # The region is the arm's crossing (40 % of it) beside the lit table it joined: flat where it lies.
    now = 1.3 * table + 0.1 * weave(2)
    now[-MARGIN:, 60:72] = 0.1 * weave(3)[-MARGIN:, 60:72]
    assert crossing.reaching(band, inside, 18.0, reachable, grain=grain_over(table, now))
