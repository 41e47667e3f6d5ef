"""Tanz der Hornochsen: the rule text's worked examples move by move, and its refusals.

Seats: Anja 0, Bernd 1, Conny 2, Dirk 3, as in the text's examples. The
board is the default of seeds/hornochsen.toml, which places the examples'
rows (see the comment there). A position the text shows in an illustration
is built with `position`, through the public JSON form of a state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pytest

from companion.games import CHANCE, RuleError, SetupError, get_game
from companion.games.hornochsen import (
    BOARD,
    Buy,
    Choose,
    HornochsenState,
    Keep,
    Place,
    Reveal,
    StartTile,
    move_piece,
    next_free_row,
)

GAME = get_game("hornochsen")  # registered by the import above
ANJA, BERND, CONNY, DIRK = 0, 1, 2, 3
DOUBLE_ROW, HAPPY_ROW = 7, 6


def started(*start_tiles: int, players: int = 4) -> HornochsenState:
    state = GAME.setup({"players": players})
    for tile in start_tiles:
        state = state.apply(StartTile(CHANCE, tile))
    return state


def position(
    rows: Mapping[int, list[int]],
    *,
    players: int = 4,
    positions: Sequence[int] | None = None,
    held: Sequence[int] | None = None,
    known: Mapping[int, list[int]] | None = None,
    box: Sequence[int] = (),
    supply: int | None = None,
) -> HornochsenState:
    """A position of an illustration, entered as the host would restore it, at the start of a round."""
    data = started(90, 91, 92, 93, players=players).to_json()
    data["rows"] = [list(rows.get(i, [])) for i in range(len(BOARD.rows))]
    data["positions"] = list(positions or [0] * players)
    data["held"] = list(held or [6] * players)
    data["known"] = [list((known or {}).get(s, [])) for s in range(players)]
    data["box"] = sorted(box)
    on_board = sum(len(r) for r in data["rows"])
    data["supply"] = BOARD.tiles - on_board - sum(data["held"]) - len(box) if supply is None else supply
    data["supply_at_round_start"] = data["supply"]
    data["round"] = 5
    state = GAME.state_from_json(data)
    if supply is None:
        assert state.component_counts() == {"tiles": BOARD.tiles}
    return state


def choose_all(state: HornochsenState, *seats: int) -> HornochsenState:
    for seat in seats:
        state = state.apply(Choose(seat))
    return state


def show(state: HornochsenState, played: Mapping[int, int | tuple[int, ...]]) -> HornochsenState:
    """The table shows what each seat played, in seat order."""
    for seat in sorted(played):
        tiles = played[seat]
        for tile in tiles if isinstance(tiles, tuple) else (tiles,):
            state = state.apply(Reveal(CHANCE, seat, tile))
    return state


def play(state: HornochsenState, played: Mapping[int, int | tuple[int, ...]]) -> HornochsenState:
    """A closed round up to the placement: everyone puts tiles down, then they are turned over."""
    return show(choose_all(state, *sorted(played)), played)


def place(state: HornochsenState, seat: int, tile: int, row: int) -> HornochsenState:
    return state.apply(Place(seat, tile, row))


def refused(state: HornochsenState, action: object, rule: str) -> RuleError:
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(RuleError) as error:
        state.apply(action)  # type: ignore[arg-type]
    assert error.value.rule == rule, error.value
    assert json.dumps(state.to_json(), sort_keys=True) == before, "a refused action changed the state"
    return error.value


# ---------------------------------------------------------------- preparation


def test_preparation_six_tiles_each_and_four_start_tiles_in_the_order_drawn() -> None:
    state = started(players=8)
    assert state.held == [6] * 8
    assert state.supply == 99 - 48 - 4
    state = started(18, 2, 8, 5)
    assert state.rows[:4] == [[18], [2], [8], [5]], "first square of the first four rows, in the order drawn"
    assert state.active_rows() == [0, 1, 2, 3]
    assert state.phase == "choose" and set(state.to_act().seats) == {0, 1, 2, 3}, "all choose at once"
    assert state.component_counts() == {"tiles": 99}


def test_setup_refuses_player_counts_outside_2_to_8() -> None:
    for players in (1, 9):
        with pytest.raises(SetupError, match="from 2 to 8"):
            GAME.setup({"players": players})


def test_a_start_tile_is_a_number_from_1_to_99_not_yet_on_the_board() -> None:
    state = started(18)
    refused(state, StartTile(CHANCE, 18), "Preparation")
    refused(state, StartTile(CHANCE, 100), "Contents")


# ---------------------------------------------------------------- rules 1-3


def rules_example() -> HornochsenState:
    """The first example: the active rows end with 2, 5, 8 and 18."""
    state = started(2, 5, 8, 18)
    return play(state, {ANJA: 15, BERND: 14, CONNY: 3, DIRK: 44})


def test_example_rules_1_and_2_lowest_tile_first_smallest_difference() -> None:
    state = rules_example()
    assert state.to_act().seats == (CONNY,), "3 is the lowest number: Conny goes first"
    state = place(state, CONNY, 3, 0)
    assert state.to_act().seats == (BERND,)
    state = place(state, BERND, 14, 2)
    state = place(state, ANJA, 15, 2)
    state = place(state, DIRK, 44, 3)
    assert state.rows[:4] == [[2, 3], [5], [8, 14, 15], [18, 44]]
    assert state.positions == [0, 0, 0, 0], "the first squares hold no cow-pats"
    assert [r[-1] for r in state.rows[:4]] == [3, 5, 15, 44], "the ends the next example starts from"
    assert state.round == 2 and state.phase == "choose"


def test_example_rules_wrong_rows_are_refused_naming_the_rule() -> None:
    state = rules_example()
    refused(state, Place(CONNY, 3, 1), "Rule No. 1: Ascending Order")
    state = place(state, CONNY, 3, 0)
    refused(state, Place(BERND, 14, 0), "Rule No. 2: Smallest Difference")  # next to the 3: a bigger gap
    refused(state, Place(BERND, 14, 1), "Rule No. 2: Smallest Difference")  # next to the 5
    refused(state, Place(BERND, 14, 3), "Rule No. 1: Ascending Order")  # 18 is higher
    refused(state, Place(BERND, 14, 5), "Which row is a tile added to?")  # not an active row
    refused(state, Place(BERND, 44, 3), "How are tiles played?")  # not the next tile
    refused(state, Place(ANJA, 15, 2), "turn order")  # Bernd's 14 comes first


def test_example_rule_3_lowest_number_goes_to_the_row_with_the_highest_last_number() -> None:
    state = rules_example()
    for seat, tile, row in ((CONNY, 3, 0), (BERND, 14, 2), (ANJA, 15, 2), (DIRK, 44, 3)):
        state = place(state, seat, tile, row)
    state = play(state, {ANJA: 1, BERND: 4, CONNY: 6, DIRK: 7})
    refused(state, Place(ANJA, 1, 0), "Rule No. 3: Lowest Number")
    refused(state, Place(ANJA, 1, 2), "Rule No. 3: Lowest Number")
    state = place(state, ANJA, 1, 3)
    assert state.rows[3] == [18, 44, 1], "Anja must put the 1 next to the 44"


# ---------------------------------------------------------------- bullheads


def bullhead_example() -> HornochsenState:
    """Row 0 holds 53 56 59 60 62 before its bullhead (8); the row below starts with the 81."""
    rows = {0: [53, 56, 59, 60, 62], 1: [81], 3: [30], 4: [40]}
    return play(position(rows), {ANJA: 85, BERND: 63, CONNY: 31, DIRK: 41})


def test_example_bullhead_63_minus_points_next_free_row_keep_one() -> None:
    state = bullhead_example()
    state = place(state, CONNY, 31, 3)
    state = place(state, DIRK, 41, 4)
    state = place(state, BERND, 63, 0)
    assert state.positions[BERND] == 8, "the bullhead square shows 8: eight minus points"
    assert state.rows[2] == [63], "the 63 goes directly below the 81, to the next free row"
    assert state.rows[0] == [], "the completed row is cleared"
    assert state.phase == "keep" and state.keeping == [53, 56, 59, 60, 62]
    held = state.held[BERND]
    state = state.apply(Keep(BERND, (56,)))
    assert state.held[BERND] == held + 1 and state.known[BERND] == [56]
    assert state.box == [53, 59, 60, 62], "the other tiles go into the box"
    state = place(state, ANJA, 85, 1)
    assert state.rows[1] == [81, 85]
    assert state.component_counts() == {"tiles": 99}


def test_keeping_refuses_three_tiles_or_tiles_not_in_the_row() -> None:
    state = bullhead_example()
    for seat, tile, row in ((CONNY, 31, 3), (DIRK, 41, 4), (BERND, 63, 0)):
        state = place(state, seat, tile, row)
    rule = "What do you get minus points for?"
    refused(state, Keep(BERND, (53, 56, 59)), rule)
    refused(state, Keep(BERND, ()), rule)
    refused(state, Keep(BERND, (56, 99)), rule)
    refused(state, Keep(BERND, (56, 56)), rule)
    state = state.apply(Keep(BERND, (53, 62)))
    assert state.known[BERND] == [53, 62]


def test_keeping_stops_at_nine_tiles_behind_the_screen() -> None:
    rows = {0: [53, 56, 59, 60, 62], 1: [81], 3: [30], 4: [40]}
    state = play(position(rows, held=[6, 9, 6, 6]), {ANJA: 85, BERND: 63, CONNY: 31, DIRK: 41})
    for seat, tile, row in ((CONNY, 31, 3), (DIRK, 41, 4), (BERND, 63, 0)):
        state = place(state, seat, tile, row)
    assert state.held[BERND] == 8
    assert all(len(a.tiles) == 1 for a in state.legal_actions() if isinstance(a, Keep))
    refused(state, Keep(BERND, (53, 56)), "What do you get minus points for?")
    assert state.apply(Keep(BERND, (53,))).held[BERND] == 9


def test_kept_tiles_are_known_to_be_behind_that_screen_and_nobody_else_can_play_them() -> None:
    state = bullhead_example()
    for seat, tile, row in ((CONNY, 31, 3), (DIRK, 41, 4), (BERND, 63, 0)):
        state = place(state, seat, tile, row)
    state = place(state.apply(Keep(BERND, (56,))), ANJA, 85, 1)
    state = choose_all(state, ANJA, BERND, CONNY, DIRK)
    error = refused(state, Reveal(CHANCE, ANJA, 56), "How are tiles played?")
    assert "behind seat 1's screen" in error.reason
    refused(state, Reveal(CHANCE, ANJA, 59), "How are tiles played?")  # in the box
    refused(state, Reveal(CHANCE, ANJA, 63), "How are tiles played?")  # on the board
    refused(state, Reveal(CHANCE, ANJA, 0), "Contents")
    refused(state, Reveal(CHANCE, BERND, 20), "How are tiles played?")  # Anja's tile is shown first
    state = state.apply(Reveal(CHANCE, ANJA, 57))
    refused(state, Reveal(CHANCE, BERND, 57), "How are tiles played?")  # Anja just played it
    state = state.apply(Reveal(CHANCE, BERND, 56))
    assert state.known[BERND] == []


def test_a_player_whose_only_tiles_are_known_must_play_one_of_them() -> None:
    state = position({0: [10], 1: [20], 2: [30], 3: [40]}, held=[6, 2, 6, 6], known={BERND: [50, 60]})
    state = choose_all(state, ANJA, BERND, CONNY, DIRK).apply(Reveal(CHANCE, ANJA, 11))
    refused(state, Reveal(CHANCE, BERND, 55), "How are tiles played?")
    assert state.apply(Reveal(CHANCE, BERND, 60)).known[BERND] == [50]


def test_next_free_row_wraps_from_the_bottom_right_to_the_top_left() -> None:
    rows = len(BOARD.rows)
    assert next_free_row(3, [0, 1, 2, 3], rows) == 4
    assert next_free_row(0, [0, 1, 2, 3], rows) == 4, "the rows below the completed one are active"
    assert next_free_row(rows - 1, [rows - 1, 1, 2, 3], rows) == 0
    assert next_free_row(rows - 2, [rows - 2, rows - 1, 0, 1], rows) == 2
    assert next_free_row(4, [0, 2, 3, 4], rows) == 5
    assert next_free_row(0, [0, 2, 3, 4], rows) == 1, "a row active before may be the next free one"


# ---------------------------------------------------------------- happy cows


def happy_cow_example() -> HornochsenState:
    rows = {4: [20, 23, 28, 31, 34], 5: [17], 1: [74, 78, 80], 2: [68, 72, 76]}
    return position(rows, positions=[5, 2, 14, 17])


def test_example_happy_cows_round_one_plus_points_after_the_37_activates_them() -> None:
    state = play(happy_cow_example(), {ANJA: 55, BERND: 37, CONNY: 86, DIRK: 83})
    state = place(state, BERND, 37, 4)
    assert state.positions[BERND] == 2 + 9, "nine minus points: no happy cow showed yet"
    assert state.rows[HAPPY_ROW] == [37], "the 37 goes below the 17 and activates the happy cows"
    state = state.apply(Keep(BERND, (20, 23)))
    assert state.box == [28, 31, 34]
    assert state.happy_cow_time()
    state = place(state, ANJA, 55, HAPPY_ROW)
    assert state.happy_cow_time(), "one happy cow is covered, the second still shows"
    state = place(state, DIRK, 83, 1)
    assert state.positions[DIRK] == 17 - 4, "a cow-pat of 4: four plus points"
    state = place(state, CONNY, 86, 1)
    assert state.positions[CONNY] == 14 - 5, "the next cow-pat: five plus points"
    assert state.positions == [5, 11, 9, 13] and state.round == 6


def test_example_happy_cows_round_two_covering_the_second_cow_brings_minus_points_back() -> None:
    state = play(happy_cow_example(), {ANJA: 55, BERND: 37, CONNY: 86, DIRK: 83})
    state = place(state, BERND, 37, 4).apply(Keep(BERND, (20, 23)))
    for seat, tile, row in ((ANJA, 55, HAPPY_ROW), (DIRK, 83, 1), (CONNY, 86, 1)):
        state = place(state, seat, tile, row)
    state = play(state, {ANJA: 70, BERND: 56, CONNY: 87, DIRK: 99})
    state = place(state, BERND, 56, HAPPY_ROW)
    assert not state.happy_cow_time(), "the second happy cow is covered: minus points again"
    state = place(state, ANJA, 70, HAPPY_ROW)
    state = place(state, CONNY, 87, 1)
    assert state.positions[CONNY] == 9 + 7, "the bullhead showing 7: seven minus points"
    assert state.rows[3] == [87], "the 87 goes below the 68"
    assert state.keeping == [74, 78, 80, 83, 86]
    state = state.apply(Keep(CONNY, (78,)))
    assert state.box == [28, 31, 34, 74, 80, 83, 86]
    state = place(state, DIRK, 99, 3)
    assert state.rows[3] == [87, 99] and state.rows[HAPPY_ROW] == [37, 55, 56, 70]
    assert state.positions == [5, 11, 16, 13]


def test_buying_while_a_happy_cow_shows_costs_minus_points_unless_the_table_chose_plus() -> None:
    rows = {HAPPY_ROW: [10], 1: [20], 2: [30], 3: [40]}
    for option, expected in (("minus", 12), ("plus", 8)):
        data = position(rows, positions=[10, 0, 0, 0]).to_json()
        data["options"]["buying_in_happy_cow_time"] = option
        state = GAME.state_from_json(data).apply(Buy(ANJA, 2))
        state = choose_all(state, ANJA, BERND, CONNY, DIRK)
        assert state.positions[ANJA] == expected


# ---------------------------------------------------------------- the scorekeeping course


def test_example_course_minus_points_onto_an_occupied_square_go_on_to_the_next_free_one() -> None:
    red = 0
    positions = [10, 15, 16]  # Red, Green, Blue
    assert move_piece(positions, red, 5, forward=True) == 17, "Red lands in front of Blue"


def test_example_course_plus_points_onto_an_occupied_square_also_go_on_towards_the_dunghill() -> None:
    red = 0
    positions = [20, 13, 14]  # Red, Green, Yellow
    assert move_piece(positions, red, 7, forward=False) == 15, "Red lands in front of Yellow"


def test_course_start_square_holds_many_and_plus_points_past_it_are_lost() -> None:
    assert move_piece([3, 0, 0], 0, 5, forward=False) == 0
    assert move_piece([0, 1, 2], 0, 1, forward=True) == 3
    assert move_piece([5, 4, 0], 0, 1, forward=False) == 5, "the piece's own square is free again"


def test_course_bump_happens_in_play_on_a_cow_pat() -> None:
    rows = {0: [10, 11, 12], 1: [50], 2: [60], 3: [70]}  # square 3 of row 0 is a cow-pat of 2
    state = play(position(rows, positions=[1, 3, 4, 0]), {ANJA: 13, BERND: 51, CONNY: 61, DIRK: 71})
    state = place(state, ANJA, 13, 0)
    assert state.positions[ANJA] == 5, "1 + 2 = 3 is Bernd's, 4 is Conny's: Anja lands on 5"


# ---------------------------------------------------------------- buying


def test_buying_costs_a_minus_point_a_tile_and_goes_behind_the_screen() -> None:
    state = position({0: [10], 1: [20], 2: [30], 3: [40]})
    supply = state.supply
    state = state.apply(Buy(BERND, 3))
    assert state.announced[BERND] == 3 and state.public_view()["announced_purchases"][BERND] == 3
    state = choose_all(state, ANJA, BERND, CONNY, DIRK)
    assert state.positions[BERND] == 3 and state.held[BERND] == 6 + 3 - 1
    assert state.supply == supply - 3


def test_buying_refusals_over_the_limit_twice_or_over_nine() -> None:
    state = position({0: [10], 1: [20], 2: [30], 3: [40]}, held=[6, 8, 6, 6])
    refused(state, Buy(ANJA, 4), "Buy additional tiles")
    refused(state, Buy(ANJA, 0), "Buy additional tiles")
    refused(state, Buy(BERND, 2), "Buy additional tiles")  # 8 + 2 > 9
    refused(state, Buy(ANJA, 1, True), "Buy additional tiles")  # nobody announced before
    state = state.apply(Buy(BERND, 1))
    refused(state, Buy(BERND, 1), "Buy additional tiles")  # no buying in instalments
    state = state.apply(Choose(ANJA))
    refused(state, Buy(ANJA, 1), "turn order")  # Anja's tile is down: buying comes before
    state = choose_all(state, BERND, CONNY, DIRK)
    refused(state, Buy(CONNY, 1), "turn order")  # the tiles are being turned over: the table acts


def test_first_to_announce_buys_first_and_the_order_matters_on_the_course() -> None:
    rows = {0: [10], 1: [20], 2: [30], 3: [40]}
    state = position(rows, positions=[2, 1, 0, 0]).apply(Buy(BERND, 2)).apply(Buy(ANJA, 1))
    state = choose_all(state, ANJA, BERND, CONNY, DIRK)
    assert state.positions[BERND] == 3 and state.positions[ANJA] == 4, "Bernd first to 3, Anja then past him"
    state = position(rows, positions=[2, 1, 0, 0]).apply(Buy(ANJA, 1)).apply(Buy(BERND, 2))
    state = choose_all(state, ANJA, BERND, CONNY, DIRK)
    assert state.positions[ANJA] == 3 and state.positions[BERND] == 4


def test_announcing_at_the_same_time_the_most_minus_points_buys_first() -> None:
    rows = {0: [10], 1: [20], 2: [30], 3: [40]}
    state = position(rows, positions=[1, 2, 0, 0]).apply(Buy(ANJA, 2)).apply(Buy(BERND, 1, same_time=True))
    state = choose_all(state, ANJA, BERND, CONNY, DIRK)
    assert state.positions[BERND] == 3, "Bernd has more minus points: he buys first"
    assert state.positions[ANJA] == 4, "Anja's 1 + 2 = 3 is taken: she goes on to 4"


def test_when_the_supply_runs_out_during_buying_the_rest_comes_from_the_box_and_then_no_buying() -> None:
    rows = {0: [10], 1: [20], 2: [30], 3: [40]}
    unseen = set(range(50, 76))  # the 24 tiles behind the screens and the 2 left in the supply
    box = [t for t in range(1, 100) if t not in unseen and t not in (10, 20, 30, 40)]
    state = position(rows, box=box, supply=2)
    assert state.component_counts() == {"tiles": 99}
    state = state.apply(Buy(ANJA, 2)).apply(Buy(BERND, 3)).apply(Buy(CONNY, 2))
    state = choose_all(state, ANJA, BERND, CONNY, DIRK)
    assert state.supply == 0 and state.box_taken == [0, 3, 2, 0], "Anja took the supply's last two"
    assert state.box_count() == len(box) - 5
    state = show(state, {ANJA: 50, BERND: 3, CONNY: 51, DIRK: 52})
    assert state.box_taken[BERND] == 2 and 3 not in state.box, "Bernd played a tile from the box"
    for seat, tile, row in ((BERND, 3, 3), (ANJA, 50, 2), (CONNY, 51, 2), (DIRK, 52, 2)):
        state = place(state, seat, tile, row)
    assert state.round == 6 and state.supply_at_round_start == 0
    refused(state, Buy(DIRK, 1), "End of the Game")  # no tiles may be bought in the next round
    assert state.component_counts() == {"tiles": 99}


def test_buying_more_than_the_supply_and_the_box_hold_is_refused() -> None:
    state = position({0: [10], 1: [20], 2: [30], 3: [40]}, box=[1], supply=1).apply(Buy(ANJA, 1))
    refused(state, Buy(BERND, 2), "End of the Game")
    assert state.apply(Buy(BERND, 1)).announced == [1, 1, 0, 0]


# ---------------------------------------------------------------- double squares


def double_position(**kwargs: object) -> HornochsenState:
    rows = {DOUBLE_ROW: [50], 8: [60], 0: [70], 1: [80]}
    data = position(rows, **kwargs).to_json()  # type: ignore[arg-type]
    data["double"] = True  # the round starts while the double row shows double squares
    return GAME.state_from_json(data)


def test_double_squares_two_tiles_each_placed_lowest_first() -> None:
    state = double_position()
    assert state.double_time()
    state = play(state, {ANJA: (51, 90), BERND: (52, 61), CONNY: (71, 81), DIRK: (53, 82)})
    assert [t for t, _ in state.table] == [51, 52, 53, 61, 71, 81, 82, 90]
    for seat, tile in ((ANJA, 51), (BERND, 52), (DIRK, 53)):
        state = place(state, seat, tile, DOUBLE_ROW)
    assert state.rows[DOUBLE_ROW] == [50, 51, 52, 53] and not state.double_time(), "all but the bullhead"
    for seat, tile, row in ((BERND, 61, 8), (CONNY, 71, 0), (CONNY, 81, 1), (DIRK, 82, 1), (ANJA, 90, 1)):
        state = place(state, seat, tile, row)
    assert not state.double and state.round == 6, "back to one tile a round"
    assert state.held == [4, 4, 4, 4]


def test_double_round_with_one_tile_must_buy_first() -> None:
    state = double_position(held=[6, 1, 6, 6])
    error = refused(state, Choose(BERND), "The Double Squares")
    assert "buy" in error.reason
    assert Choose(BERND) not in state.legal_actions() and Buy(BERND, 1) in state.legal_actions()
    state = choose_all(state.apply(Buy(BERND, 1)), ANJA, BERND, CONNY, DIRK)
    assert state.face_down[BERND] == 2 and state.held[BERND] == 0


def test_double_round_after_the_supply_ran_out_one_tile_may_still_be_bought_from_the_box() -> None:
    state = double_position(held=[6, 1, 6, 6], box=[1, 2, 3], supply=0)
    refused(state, Buy(ANJA, 1), "End of the Game")
    refused(state, Buy(BERND, 2), "End of the Game")
    state = state.apply(Buy(BERND, 1))
    state = choose_all(state, ANJA, BERND, CONNY, DIRK)
    assert state.box_taken[BERND] == 1


# ---------------------------------------------------------------- Bull's Eye


def test_bulls_eye_leader_crossing_it_makes_the_next_round_open_in_order_of_fewest_minus_points() -> None:
    rows = {0: [10, 11, 12], 1: [50], 2: [60], 3: [70]}  # a cow-pat of 2 on square 3 of row 0
    state = play(position(rows, positions=[19, 5, 9, 3]), {ANJA: 13, BERND: 51, CONNY: 61, DIRK: 71})
    state = place(state, ANJA, 13, 0)
    assert state.positions[ANJA] == 21 and state.open_next
    for seat, tile, row in ((BERND, 51, 1), (CONNY, 61, 2), (DIRK, 71, 3)):
        state = place(state, seat, tile, row)
    assert state.open_round and state.stages == [[DIRK], [BERND], [CONNY], [ANJA]]
    assert state.to_act().seats == (DIRK,), "fewest minus points first"
    state = show(state.apply(Choose(DIRK)), {DIRK: 72})
    assert state.public_view()["tiles_shown"] == [{"tile": 72, "seat": DIRK}], "played openly"
    assert state.to_act().seats == (BERND,)
    state = show(state.apply(Choose(BERND)), {BERND: 52})
    state = state.apply(Buy(CONNY, 1))  # buying after others showed their tiles
    state = show(state.apply(Choose(CONNY)), {CONNY: 62})
    assert state.positions[CONNY] == 10
    assert state.to_act().seats == (ANJA,), "the leader, who crossed the Bull's Eye, plays last"
    state = show(state.apply(Choose(ANJA)), {ANJA: 14})
    assert state.phase == "place" and [t for t, _ in state.table] == [14, 52, 62, 72]


def test_bulls_eye_not_for_a_piece_that_is_not_the_leader_nor_when_moving_back() -> None:
    rows = {0: [10, 11, 12], 1: [50], 2: [60], 3: [70]}
    state = play(position(rows, positions=[19, 30, 9, 3]), {ANJA: 13, BERND: 51, CONNY: 61, DIRK: 71})
    state = place(state, ANJA, 13, 0)
    assert state.positions[ANJA] == 21 and not state.open_next, "Bernd leads: Anja is not the first piece"
    rows = {HAPPY_ROW: [10], 1: [20, 21, 22], 2: [60], 3: [70]}  # happy cows show; row 1 square 3: 4
    state = play(position(rows, positions=[0, 23, 9, 3]), {ANJA: 61, BERND: 23, CONNY: 62, DIRK: 71})
    state = place(state, BERND, 23, 1)
    assert state.positions[BERND] == 19 and not state.open_next, "backwards across: no open round"


def test_bulls_eye_reached_by_buying_and_several_pieces_on_the_start_play_face_down_together() -> None:
    rows = {0: [10], 1: [20], 2: [30], 3: [40]}
    state = position(rows, positions=[0, 18, 0, 0]).apply(Buy(BERND, 3))
    state = choose_all(state, ANJA, BERND, CONNY, DIRK)
    assert state.positions[BERND] == 21 and state.open_next
    state = show(state, {ANJA: 11, BERND: 21, CONNY: 31, DIRK: 41})
    for seat, tile, row in ((ANJA, 11, 0), (BERND, 21, 1), (CONNY, 31, 2), (DIRK, 41, 3)):
        state = place(state, seat, tile, row)
    assert state.open_round and state.stages == [[ANJA, CONNY, DIRK], [BERND]]
    assert set(state.to_act().seats) == {ANJA, CONNY, DIRK}, "on the start square: no order among them"
    state = choose_all(state, ANJA, CONNY)
    assert state.phase == "choose", "their tiles are turned over together, when all three are down"
    state = show(state.apply(Choose(DIRK)), {ANJA: 12, CONNY: 32, DIRK: 42})
    assert state.to_act().seats == (BERND,)


def test_open_round_with_double_squares_plays_both_tiles_openly() -> None:
    data = double_position(positions=[1, 25, 2, 3]).to_json()
    data["open_round"], data["stages"] = True, [[ANJA], [CONNY], [DIRK], [BERND]]
    state = GAME.state_from_json(data)
    state = show(state.apply(Choose(ANJA)), {ANJA: (51, 52)})
    assert [t for t, _ in state.table] == [51, 52] and state.to_act().seats == (CONNY,)


# ---------------------------------------------------------------- six free tiles and the end


def test_a_player_without_tiles_gets_six_new_ones_free() -> None:
    state = play(
        position({0: [10], 1: [20], 2: [30], 3: [40]}, held=[1, 6, 6, 6]), {0: 11, 1: 21, 2: 31, 3: 41}
    )
    supply = state.supply
    for seat, tile, row in ((ANJA, 11, 0), (BERND, 21, 1), (CONNY, 31, 2), (DIRK, 41, 3)):
        state = place(state, seat, tile, row)
    assert state.held == [6, 5, 5, 5] and state.supply == supply - 6 and state.positions[ANJA] == 0


def test_the_game_ends_at_the_end_of_the_round_a_piece_reaches_the_dunghill() -> None:
    rows = {0: [10, 11, 12], 1: [50], 2: [60], 3: [70]}
    state = play(position(rows, positions=[58, 5, 9, 3]), {ANJA: 13, BERND: 51, CONNY: 61, DIRK: 71})
    state = place(state, ANJA, 13, 0)
    assert state.positions[ANJA] == 60 and not state.is_over(), "the round is played to its end"
    for seat, tile, row in ((BERND, 51, 1), (CONNY, 61, 2), (DIRK, 71, 3)):
        state = place(state, seat, tile, row)
    assert state.is_over() and state.legal_actions() == []
    assert state.ranking() == [[DIRK], [BERND], [CONNY], [ANJA]]
    view = state.public_view()
    assert view["winner"] == [DIRK] and view["loser"] == [ANJA]


def test_several_pieces_across_the_dunghill_the_furthest_loses() -> None:
    rows = {0: [10, 11, 12], 1: [50, 51, 52], 2: [60], 3: [70]}  # cow-pats: row 0 square 3: 2, row 1: 4
    state = play(position(rows, positions=[58, 57, 9, 3]), {ANJA: 13, BERND: 53, CONNY: 61, DIRK: 71})
    state = place(place(state, ANJA, 13, 0), BERND, 53, 1)
    assert state.positions[:2] == [60, 61]
    for seat, tile, row in ((CONNY, 61, 2), (DIRK, 71, 3)):
        state = place(state, seat, tile, row)
    assert state.is_over() and state.public_view()["loser"] == [BERND]


def test_the_game_ends_when_the_supply_is_empty_and_a_player_has_no_tile() -> None:
    state = position({0: [10], 1: [20], 2: [30], 3: [40]}, held=[1, 2, 2, 2], supply=0)
    data = state.to_json()
    data["box"] = [t for t in range(1, 100) if t not in (10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32)]
    state = GAME.state_from_json(data)
    assert state.component_counts() == {"tiles": 99}
    state = play(state, {ANJA: 11, BERND: 21, CONNY: 31, DIRK: 41})
    for seat, tile, row in ((ANJA, 11, 0), (BERND, 21, 1), (CONNY, 31, 2), (DIRK, 41, 3)):
        state = place(state, seat, tile, row)
    assert state.is_over()
    assert state.ranking() == [[ANJA, BERND, CONNY, DIRK]], "all on the start square share first place"


# ---------------------------------------------------------------- hidden information


def test_public_view_shows_counts_never_the_tiles_behind_screens() -> None:
    state = bullhead_example()
    for seat, tile, row in ((CONNY, 31, 3), (DIRK, 41, 4), (BERND, 63, 0)):
        state = place(state, seat, tile, row)
    state = state.apply(Keep(BERND, (56,)))
    view = state.public_view()
    assert "known" not in view and "box" not in view
    assert 56 not in json.loads(json.dumps(view))["rows"][0]
    assert "56" not in json.dumps({k: v for k, v in view.items() if k != "board"})
    assert view["tiles_behind_screen"] == state.held and isinstance(view["supply_count"], int)
