"""Asterion: two looks are never told apart on the template's rim, where the table beside a tile lies."""

from __future__ import annotations

import numpy

from companion.games.asterion.tiles import COLOURS, DESIGN_INDEX
from companion.vision.recognisers._asterion_pairs import TABLE_RIM_PX
from companion.vision.recognisers._asterion_window import TEMPLATE_PX
from companion.vision.recognisers.asterion import AsterionRecogniser


def _rim() -> numpy.typing.NDArray[numpy.bool_]:
    rim = numpy.ones((TEMPLATE_PX, TEMPLATE_PX), bool)
    rim[TABLE_RIM_PX:-TABLE_RIM_PX, TABLE_RIM_PX:-TABLE_RIM_PX] = False
    return rim


def test_a_hidden_chest_is_told_from_a_corridor_whatever_its_rim_shows() -> None:
    # The drawings show felt on the rim; planes show the neutral grey there, the table the reference
    # kept, or the tile's own frame (seen larger, or laid off its place). Grown onto it, the pair
    # window of a hidden chest and a corridor fitted the light to the frame's edge against that, and
    # travel editions' hidden chests (frame brighter than path, chest dark) read as corridors (16 of
    # 228 on dev and burnt planes). The same cell with its rim painted otherwise is told apart alike.
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    rim = _rim()
    hidden, corridor = DESIGN_INDEX["hidden chest"], DESIGN_INDEX["corridor"]
    rng = numpy.random.default_rng(5)
    for colour in COLOURS:
        pictures, looks = templates.by_colour[colour][1], templates.by_colour[colour][2]
        for rotation in range(4):
            mine, theirs = looks.index((hidden, rotation)), looks.index((corridor, rotation % 2))
            _, test, _, sign = templates._pair_test(colour, mine, theirs)
            seen = numpy.array(pictures[mine], numpy.float32)
            shares = []
            for painted in ((137.0, 128.0, 128.0), (230.0, 120.0, 200.0), None):
                cell = seen.copy()
                cell[rim] = rng.uniform(40, 220, (int(rim.sum()), 3)) if painted is None else painted
                shares.append(sign * float(cell.ravel() @ test))
            assert numpy.allclose(shares, shares[0], atol=1e-4), (colour, rotation, shares)
