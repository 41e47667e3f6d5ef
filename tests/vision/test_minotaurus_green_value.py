"""The Minotaurus recogniser reads a green face's value in its green channel too (VALUE_CHANNEL): a green
face's blue pips are nearly its grey, while in green they are dark on a light face. Burnt 20261140 laminate
travel session 02 frame 6, cell 29: a green 1 lying turned about 10 degrees, its single pip faint in grey,
read green-3 (value likenesses 0.56-0.58 for 1, 2, 3).

The patch is that plane's cell (32 mm about the cell's centre, as the reference left it), pasted on a plane
otherwise NEUTRAL_BGR.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vision.test_minotaurus_left_table import read_recorded_cell

DATA = Path(__file__).parent / "data" / "minotaurus_green_value"


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.png")))
def test_a_green_face_whose_pips_are_faint_in_grey_reads_its_value(name: str) -> None:
    assert read_recorded_cell(DATA / name, "green-4-left") == (name.removesuffix(".png"), "green-4-left")
