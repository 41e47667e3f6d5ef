"""Tanz der Hornochsen's double rounds through the camera: a second played-tile slot per seat.

While a double square shows, each seat plays two tiles; the layout gives each seat a second slot
("played:seatN:2"), the generator shows tiles there in double rounds, the recogniser reads it, and the
camera confirms the game's Reveal actions from either slot, one at a time.
"""

from __future__ import annotations

import numpy

from companion.games import CHANCE, get_game
from companion.games.hornochsen import HornochsenState
from companion.games.hornochsen.actions import Choose, Reveal, StartTile
from companion.games.hornochsen.board import BOARD
from companion.vision import observe
from companion.vision.base import recogniser_for
from companion.vision.generate import generate_frame, renderer_for
from companion.vision.pipeline import PlaneReader
from companion.vision.recognisers._hornochsen_layout import played_slot

GAME = get_game("hornochsen")
DOUBLE_ROW = next(row.index for row in BOARD.rows if row.double_squares)


def test_each_seat_has_a_second_slot_beside_its_first() -> None:
    layout = recogniser_for("hornochsen").layout({"players": 8})
    width = layout.plane_mm[0]
    xs = [
        layout.items[played_slot(seat, second)].centre_mm[0] for seat in range(8) for second in (False, True)
    ]
    assert xs == sorted(xs), "seat by seat, the first tile left of the second"
    assert all(18 <= x <= width - 18 for x in xs), "every slot lies on the plane"
    assert played_slot(3, second=True) == "played:seat3:2"


def test_the_generator_shows_second_tiles_only_where_the_seat_played_a_first() -> None:
    layout = recogniser_for("hornochsen").layout({"players": 6})
    renderer = renderer_for("hornochsen")
    doubles = 0
    for seed in range(40):
        labels = renderer.sample_labels(layout, numpy.random.default_rng(seed), True)
        seconds = {seat: labels[played_slot(seat, second=True)] for seat in range(6)}
        for seat, label in seconds.items():
            assert label == "empty" or labels[played_slot(seat)] != "empty"
        doubles += any(label != "empty" for label in seconds.values())
        numbers = [label for label in labels.values() if label.isdigit()]
        assert len(numbers) == len(set(numbers)), "each number is on one tile"
    assert 5 <= doubles <= 25, "some tables show a double round, most do not"


def test_the_recogniser_reads_both_slots_of_a_seat_in_a_camera_frame() -> None:
    layout = recogniser_for("hornochsen").layout({"players": 6})
    labels = dict.fromkeys(layout.items, "empty")
    labels.update({"row:7:square:0": "50", played_slot(0): "38", played_slot(0, second=True): "83"})
    labels.update({played_slot(2): "down", played_slot(2, second=True): "7", played_slot(4): "61"})
    frame = generate_frame(
        "hornochsen", layout, numpy.random.default_rng(5), labels=labels, hand=False, motion=False
    )
    reader = PlaneReader("hornochsen", {"players": 6}, None)
    reading = reader.read(frame.image).reading
    assert reading is not None
    slots = [played_slot(seat, second) for seat in range(6) for second in (False, True)]
    assert {slot: reading.items[slot] for slot in slots} == {slot: labels[slot] for slot in slots}


def _double_round_reveals() -> HornochsenState:
    """A four-seat round while the double row shows a double square, everyone's two tiles face down."""
    state = GAME.setup({"players": 4})
    for tile in (90, 91, 92, 93):
        state = state.apply(StartTile(CHANCE, tile))
    data = state.to_json()
    data["rows"] = [{DOUBLE_ROW: [50], 8: [60], 0: [70], 1: [80]}.get(i, []) for i in range(len(BOARD.rows))]
    data["supply"] = data["supply_at_round_start"] = BOARD.tiles - 4 - sum(data["held"])
    data["double"] = True
    state = GAME.state_from_json(data)
    assert isinstance(state, HornochsenState) and state.double_time()
    for seat in range(4):
        state = state.apply(Choose(seat))
    assert state.phase == "reveal" and state.face_down == [2, 2, 2, 2]
    return state


def test_the_camera_confirms_a_seats_two_tiles_one_reveal_at_a_time() -> None:
    state = _double_round_reveals()
    seen = {played_slot(0): "90", played_slot(0, second=True): "51", played_slot(1): "down"}
    first = observe.camera_answer("hornochsen", state, seen, fresh=False)
    assert first == Reveal(CHANCE, 0, 51), "both shown: the lower number first, not an ambiguity"
    state = state.apply(first)
    assert observe.camera_answer("hornochsen", state, seen, fresh=False) == Reveal(CHANCE, 0, 90)
    state = state.apply(Reveal(CHANCE, 0, 90))
    assert observe.camera_answer("hornochsen", state, seen, fresh=False) is None, "seat 1's are still down"
    only_second = {played_slot(1): "down", played_slot(1, second=True): "52"}
    assert observe.camera_answer("hornochsen", state, only_second, fresh=False) == Reveal(CHANCE, 1, 52)


def test_outside_a_double_round_the_second_slot_is_not_looked_at() -> None:
    state = GAME.setup({"players": 4})
    for tile in (90, 91, 92, 93):
        state = state.apply(StartTile(CHANCE, tile))
    for seat in range(4):
        state = state.apply(Choose(seat))
    assert isinstance(state, HornochsenState) and state.phase == "reveal" and not state.double
    seen = {played_slot(0): "40", played_slot(0, second=True): "12"}
    assert observe.camera_answer("hornochsen", state, seen, fresh=False) == Reveal(CHANCE, 0, 40)
    only_second = {played_slot(0): "down", played_slot(0, second=True): "12"}
    assert observe.camera_answer("hornochsen", state, only_second, fresh=False) is None
