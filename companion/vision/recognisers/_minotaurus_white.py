"""Minotaurus: which faces are too coloured to be white, on a normalised plane.

There the light is canonical: a white face is the canonical white, its chroma near none, or it shares the
cast the normalisation left on the frame's other white faces (a lamp's clipped glare, a shadow's tint).
A pale face (a second print's pastel green or blue, a face washed by a glare) keeps its hue. The nearest
prototype alone cannot tell them: the white prototypes learned on the built-in edition spread out to the
casts of its whites (one at chroma 36, yellowish: a clipped white on a warm table), nearer a pale green
than that edition's saturated greens are. A face is white only if its colour lies within WHITE_CHROMA of
the canonical white, of another near-white face of the same frame, or of a taught white (an edition's
cream or ivory white).
"""

from __future__ import annotations

import numpy
import numpy.typing

WHITE_CHROMA = 20.0
"""Farthest (in Lab a, b at the table's brightness) a white face lies from the canonical white or from
the frame's other whites. The built-in edition's white prototypes reach chroma 17 but for the one outlier,
dev frames' whites 19 (a clipped white beside a cast); pale faces of other editions from 19 (blue) and 27
(green) up, the built-in colours from 30."""

Casts = numpy.typing.NDArray[numpy.float32]


def too_coloured_for_white(
    casts: Casts, taught_whites: Casts | None = None
) -> numpy.typing.NDArray[numpy.bool_]:
    """Per face-up cell, whether it is too coloured to be white. `casts`: each face's (a, b) less the
    neutral table's; `taught_whites`: the (a, b) casts of taught white prototypes, if any."""
    chroma = numpy.hypot(casts[:, 0], casts[:, 1])
    far = chroma >= WHITE_CHROMA
    if not far.any():
        return far
    near = casts[~far]
    if taught_whites is not None and len(taught_whites):
        near = numpy.concatenate([near, taught_whites.astype(numpy.float32)])
    if len(near):
        # Faces themselves near-white are never "far"; a far one is compared with every near one.
        apart = numpy.hypot(*(casts[far][:, None, :] - near[None, :, :]).transpose(2, 0, 1)).min(axis=1)
        far[far] = apart >= WHITE_CHROMA
    return far
