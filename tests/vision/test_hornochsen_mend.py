"""Tanz der Hornochsen: a number read twice (each number is on one tile) mended from the less sure
reading's next likeliest number."""

from __future__ import annotations

from companion.vision.recognisers import _hornochsen_mend


def test_a_number_read_twice_takes_the_less_sure_readings_next_likeliest_number() -> None:
    # Burnt 20261152 felt session 06 frame 14: a played 75, its 7 read as a 9 (the classifier 0.53 for 9,
    # 0.30 for 7), beside the 95 played by another seat; 75 scored 0.22 less than 95 there.
    items = {"played:seat2": "95", "played:seat4": "95", "row:0:square:0": "40"}
    confidence = {"played:seat2": 0.6, "played:seat4": 0.9, "row:0:square:0": 1.0}
    others = {"played:seat2": [(40, 0.05), (75, 0.22), (25, 0.59)], "played:seat4": [], "row:0:square:0": []}
    _hornochsen_mend.one_of_each(items, confidence, others)
    assert items == {"played:seat2": "75", "played:seat4": "95", "row:0:square:0": "40"}
    assert confidence["played:seat2"] == 0.0 and confidence["played:seat4"] == 0.9


def test_a_much_less_likely_number_is_not_taken_for_one_of_each() -> None:
    items = {"played:seat2": "95", "played:seat4": "95"}
    confidence = {"played:seat2": 0.6, "played:seat4": 0.9}
    others = {"played:seat2": [(75, _hornochsen_mend.SWAP_SHORTFALL + 0.01)], "played:seat4": []}
    _hornochsen_mend.one_of_each(items, confidence, others)
    assert items == {"played:seat2": "95", "played:seat4": "95"}
