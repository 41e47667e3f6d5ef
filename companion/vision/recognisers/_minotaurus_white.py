"""Minotaurus: which faces are too coloured to be white, on a normalised plane.

There the light is canonical: a white face is the canonical white, its chroma near none, or it shares the
cast the normalisation left on the frame's other white faces (a lamp's clipped glare, a shadow's tint).
A pale face (a second print's pastel green or blue, a face washed by a glare) keeps its hue. The nearest
prototype alone cannot tell them: the white prototypes learned on the built-in edition spread out to the
casts of its whites (one at chroma 36, yellowish: a clipped white on a warm table), nearer a pale green
than that edition's saturated greens are. A face is white only if its colour lies within WHITE_CHROMA of
the canonical white, of another near-white face of the same frame, or of a taught white (an edition's
cream or ivory white), and, when paler than that, within WHITE_SATURATION of its lightness: a cast is a
tint of the light, as strong as the light, where a pastel pigment is as coloured in the shade (a second
print's pale blue, chroma 19 at lightness 115, where a cast white of that chroma is lit to 246).
"""

from __future__ import annotations

import numpy
import numpy.typing

WHITE_CHROMA = 20.0
"""Farthest (in Lab a, b at the table's brightness) a white face lies from the canonical white or from
the frame's other whites. The built-in edition's white prototypes reach chroma 17 but for the one outlier,
dev frames' whites 19 (a clipped white beside a cast); pale faces of other editions from 19 (blue) and 27
(green) up, the built-in colours from 30."""

WHITE_SATURATION = 0.14
"""Most chroma per lightness (OpenCV's 0-255 L) a white face shows: dev frames' cast whites up to 0.093,
every face of a colour (lit at all) from 0.108; the built-in white prototypes up to 0.09 but for the
outlier."""
PALE_CHROMA = 12.0
"""Least chroma that makes a face too saturated for white: below it, a dim face's noise and the paper
white's own tint (a cream edition's 8)."""

Casts = numpy.typing.NDArray[numpy.float32]


def too_coloured_for_white(
    casts: Casts, lightness: Casts, taught_whites: Casts | None = None
) -> numpy.typing.NDArray[numpy.bool_]:
    """Per face-up cell, whether it is too coloured to be white. `casts`: each face's (a, b) less the
    neutral table's; `lightness`: each face's L (0-255); `taught_whites`: the (a, b) casts of taught white
    prototypes, if any."""
    chroma = numpy.hypot(casts[:, 0], casts[:, 1])
    far = _too_coloured(chroma, lightness)
    if not far.any():
        return far
    near = casts[~far]
    if taught_whites is not None and len(taught_whites):
        near = numpy.concatenate([near, taught_whites.astype(numpy.float32)])
    if len(near):
        # Faces themselves near-white are never "far"; a far one is measured from its nearest white.
        apart = numpy.hypot(*(casts[far][:, None, :] - near[None, :, :]).transpose(2, 0, 1)).min(axis=1)
        far[far] = _too_coloured(apart, lightness[far])
    return far


def _too_coloured(chroma: Casts, lightness: Casts) -> numpy.typing.NDArray[numpy.bool_]:
    saturated = (chroma >= PALE_CHROMA) & (chroma >= WHITE_SATURATION * lightness)
    return numpy.asarray((chroma >= WHITE_CHROMA) | saturated, numpy.bool_)
