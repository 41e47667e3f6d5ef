"""An arm the band's own light takes in whole (hand_check.py, after `crossed`): a dark sleeve over dark wood
in a dim room darkens the band evenly, as a shadow would, and only its two sides differ, neither as wide as an
arm nor sharp enough for an outline. A shadow darkens the table's grain with it; an arm hides it. Averaged
along the band's depth, grain lines crossing the band stand out of the camera's noise (single pixels'
texture does not: `sleeve_crossing` needs outlines and textured pixels), so the grain's profile along the
band between two sides an arm's width apart is compared with the reference's, and beside them.
Separate from _surround_sleeve.py: it pairs the regions differing under the plane's light carried outward,
and judges profiles, not textured pixels."""

from __future__ import annotations

import numpy
import numpy.typing

from companion.vision._surround_sleeve import SLEEVE_MAX_MM, SLEEVE_MIN_MM, SLEEVE_TOUCH_PX
from companion.vision.table_light import Floats, Mask

HIDDEN_GAP_MM = 20.0
"""The two sides leave at least this much of the band between them (a forearm is wider)."""
PROFILE_PX = 7
"""Mask pixels of the running mean the grain's profile is taken less (grain lines are 2-4 px apart)."""
HIDDEN_AGREEMENT = 0.2
"""Between the sides the profile agrees with the reference's no better than this (burnt 20261151
Minotaurus dark wood session 08 frame 8, a dark sleeve: -0.17; frames at rest between such a pair, over all
2,187 frames of the dev and burnt corpus where the gate opens: 0.445 at the least, a laminate with the
travel print, then 0.737)..."""
KEPT_AGREEMENT = 0.7
"""... and beside them (on each side that has room) at least this (there 0.86 and 0.98; frames at rest
with a pair of sides whose grain is gone between them: 0.02-0.23 beside it, a marker's or a sheet's
edge in the reference)."""
HIDDEN_DARKER = 0.9
"""Between the sides the band is darker than its reference by this factor at least (a sleeve in a dim room:
0.75; a frame at rest, printed laminate beside a lamp, whose profile there agreed -0.11 with the
reference's: 1.08, lit)."""
GRAIN_LEVELS = 2.5
"""The grain's profile, the three channels' levels summed, its spread where it is to be judged (between and
beside), at the frame's darkening, at least this: under a deep shadow (the band at 0.14-0.3 of its
reference, dev Hornochsen printed travel and Asterion dark wood at rest) the grain kept sinks under the
noise (0.5-1.2), as plain laminate's or linen's has no profile (1-2). The sleeve's: 5.3 at 0.75, 3.9."""


def grain_hidden(
    carried: Mask,
    inside: numpy.typing.NDArray[numpy.uint8],
    band: Floats,
    reference: Floats,
    margin: int,
    px_per_mm: float,
) -> bool:
    """Whether two regions of what differs in the band under the plane's light (`carried`), across its
    middle line an arm's width apart on one side, one meeting the plane's changes (`inside`) at its edge,
    hide the grain between them that the band (`band`, its levels summed over the channels) keeps beside
    them against its reference (`reference`, alike)."""
    m = margin
    height, width = band.shape
    touching = numpy.zeros((height, width), bool)
    touching[m:-m, m:-m] = inside > 0
    sides = (
        (band[:m].mean(axis=0), reference[:m].mean(axis=0), carried[m // 2], touching[m]),
        (band[-m:].mean(axis=0), reference[-m:].mean(axis=0), carried[-1 - m // 2], touching[-m - 1]),
        (band[:, :m].mean(axis=1), reference[:, :m].mean(axis=1), carried[:, m // 2], touching[:, m]),
        (
            band[:, -m:].mean(axis=1),
            reference[:, -m:].mean(axis=1),
            carried[:, -1 - m // 2],
            touching[:, -m - 1],
        ),
    )
    least, most, gap = SLEEVE_MIN_MM * px_per_mm, SLEEVE_MAX_MM * px_per_mm, HIDDEN_GAP_MM * px_per_mm
    for now, then, line, edge in sides:
        steps = numpy.diff(numpy.concatenate([[0], line.astype(numpy.int8), [0]]))
        starts, ends = numpy.flatnonzero(steps == 1), numpy.flatnonzero(steps == -1)
        runs = [(int(a), int(b)) for a, b in zip(starts, ends, strict=True)]
        for n, (a0, a1) in enumerate(runs):
            for b0, b1 in runs[n + 1 :]:
                if not least <= (b0 + b1 - a0 - a1) / 2 <= most or b0 - a1 < gap:
                    continue
                meets = (
                    edge[max(0, a0 - SLEEVE_TOUCH_PX) : a1 + SLEEVE_TOUCH_PX].any()
                    or edge[max(0, b0 - SLEEVE_TOUCH_PX) : b1 + SLEEVE_TOUCH_PX].any()
                )
                if meets and _hidden(now, then, (a0, a1, b0, b1), m):
                    return True
    return False


def _hidden(now: Floats, then: Floats, pair: tuple[int, int, int, int], margin: int) -> bool:
    """Whether the profile `now` hides the grain of `then` between the pair's runs, keeping it beside them."""
    a0, a1, b0, b1 = pair
    darkening = (float(now[a1:b0].mean()) + 6.0) / (float(then[a1:b0].mean()) + 6.0)
    if darkening > HIDDEN_DARKER:
        return False
    between = _agreement(now[a1:b0], then[a1:b0], darkening)
    if between is None or between > HIDDEN_AGREEMENT:
        return False
    # Beside the pair as far as it is wide, within the side (the corners are the next side's).
    w = b0 - a1
    low, high = max(margin, a0 - w), min(len(now) - margin, b1 + w)
    beside = [
        _agreement(now[lo:hi], then[lo:hi], darkening) for lo, hi in ((low, a0), (b1, high)) if hi - lo >= 6
    ]
    return bool(beside) and all(kept is not None and kept >= KEPT_AGREEMENT for kept in beside)


def _agreement(now: Floats, then: Floats, darkening: float) -> float | None:
    """The correlation of two profiles less their running means (`PROFILE_PX`), or None where the
    reference's grain at the darkening spreads less than `GRAIN_LEVELS`."""
    a, b = _less_mean(now)[2:-2], _less_mean(then)[2:-2]
    if b.size < 2 or float(b.std()) * darkening < GRAIN_LEVELS:
        return None
    return float((a * b).sum() / (numpy.sqrt(float((a * a).sum()) * float((b * b).sum())) + 1e-6))


def _less_mean(profile: Floats) -> Floats:
    half = PROFILE_PX // 2
    padded = numpy.pad(profile, half, mode="edge")
    mean = numpy.convolve(padded, numpy.ones(PROFILE_PX, numpy.float32) / PROFILE_PX, "valid")
    return numpy.asarray(profile - mean, numpy.float32)
