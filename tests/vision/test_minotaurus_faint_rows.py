"""The Minotaurus value match reads rows of pips that stand hardly above the face's noise: travel-edition
blue faces, navy ring pips a few grey levels darker than the face, and a red 1. Each window is a face's
grey glyph window as read_glyphs matched it (GLYPH_PX_PER_MM, the horn's match `at`), from the pipeline's
normalised planes of generated hard sets (burnt 20261140 gingham travel; dev 13, 34 and 40 printed and
laminate travel). Blurred as widely as before (BLUR_SIGMA_PX 1.0) each read a row one pip or more off
(blue-1 as 4, blue-2 as 3, blue-3 as 4, red-1 as 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.recognisers._minotaurus_pips import value_match as _value_match
from companion.vision.recognisers.minotaurus import SETUPS, _templates, parse_piece

DATA = Path(__file__).parent / "data" / "minotaurus_faint_rows"
WINDOWS: dict[str, dict[str, object]] = json.loads((DATA / "windows.json").read_text())


@pytest.mark.parametrize("name", sorted(WINDOWS))
def test_a_faint_row_of_pips_reads_its_value(name: str) -> None:
    window = numpy.asarray(cv2.imread(str(DATA / name), cv2.IMREAD_GRAYSCALE), numpy.uint8)
    truth, at = WINDOWS[name]["truth"], WINDOWS[name]["at"]
    assert isinstance(truth, str) and isinstance(at, list)
    values = SETUPS[max(SETUPS)]["values"]
    value = _value_match(window, (float(at[0]), float(at[1])), _templates(None), values)[0]
    assert int(value) == parse_piece(truth)[1]
