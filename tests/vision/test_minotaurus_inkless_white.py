"""The Minotaurus recogniser reads a white, face-sized patch without ink as no white face: a gingham's
white check the reference left (burnt 20261140 gingham travel session 11, frames 7 and 11: read white-5 and
white-3 where no piece lay), whose texture's likeness to the horn (0.33-0.37) passed HORN_SEEN. A white
face's horn is dark ink on white (WHITE_HORN_INK); showing no back's emblem either, such a patch is empty
(frame 11's was read down). A real white face beside it still reads as itself.

The patches are those planes' cells (32 mm about the cell's centre, as the reference left them), pasted
on a plane otherwise NEUTRAL_BGR.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vision.test_minotaurus_left_table import read_recorded_cell

DATA = Path(__file__).parent / "data" / "minotaurus_inkless_white"


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.png")))
def test_a_white_check_without_ink_is_no_white_face(name: str) -> None:
    assert read_recorded_cell(DATA / name, "white-4-left") == ("empty", "white-4-left")
