"""Minotaurus: the rule text's worked examples move by move, and its refusals."""

from __future__ import annotations

import pytest

from companion.games import CHANCE, RuleError, SetupError, get_game
from companion.games.minotaurus import (
    Challenge,
    Claim,
    Decline,
    Flip,
    MinotaurusState,
    Pass,
    ReturnFaceDown,
    Reveal,
    TakePiece,
    Toss,
)

GAME = get_game("minotaurus")
A, B, C, D, E = 0, 1, 2, 3, 4


def turn_over(state: MinotaurusState, seat: int, *pieces: tuple[int, str, int, str]) -> MinotaurusState:
    for position, colour, value, horn in pieces:
        state = state.apply(Flip(seat, position))
        state = state.apply(Reveal(CHANCE, position, colour, value, horn))
    return state


def take_pair(
    state: MinotaurusState, seat: int, first: tuple[int, str, int, str], second: tuple[int, str, int, str]
):
    return turn_over(state, seat, first, second).apply(Claim(seat))


def look_and_return(state: MinotaurusState, seat: int, first, second) -> MinotaurusState:
    return turn_over(state, seat, first, second).apply(ReturnFaceDown(seat))


def pair(state: MinotaurusState, seat: int, colour: str = "blue") -> list[int] | None:
    return state.pair_values(seat, colour)


def blue_pairs(with_c: bool) -> MinotaurusState:
    """The examples' start: A holds blue 1/2, B blue 2/3 (and C blue 5/1), with 5 players (values 1-5)."""
    state = GAME.setup({"players": 5})
    state = take_pair(state, A, (0, "blue", 1, "left"), (1, "blue", 2, "right"))
    state = take_pair(state, B, (2, "blue", 2, "left"), (3, "blue", 3, "right"))
    if with_c:
        state = take_pair(state, C, (4, "blue", 5, "left"), (5, "blue", 1, "right"))
    else:
        state = look_and_return(state, C, (4, "red", 1, "left"), (5, "red", 2, "left"))
    state = look_and_return(state, D, (6, "red", 3, "left"), (7, "green", 2, "left"))
    state = look_and_return(state, E, (8, "red", 4, "left"), (9, "green", 4, "left"))
    assert state.current == A
    return state


def toss(state: MinotaurusState, seat: int, lands: bool) -> MinotaurusState:
    return state.apply(Toss(CHANCE, seat, lands))


def test_example_1_challenger_alone_succeeds_swaps_like_for_like() -> None:
    state = blue_pairs(with_c=False)
    state = state.apply(Challenge(A, B, "blue", 3))
    state = toss(toss(state, A, True), B, False)
    assert pair(state, A) == [1, 3], "A takes B's 3 and holds 1/3, unresolved"
    assert pair(state, B) == [2, 2], "B gets A's 2: a resolved 2/2"
    assert state.current == B, "the challenge was A's whole turn"
    assert state.scores()[B] == 2 and state.scores()[A] == 0
    assert not any(isinstance(a, Challenge) and a.opponent == B for a in state.legal_actions()), (
        "2/2 is frozen"
    )


def test_example_1_challenged_alone_succeeds_and_takes_the_1() -> None:
    state = blue_pairs(with_c=False)
    state = state.apply(Challenge(A, B, "blue", 3))
    state = toss(toss(state, A, False), B, True)
    assert state.to_act().seats == (B,)
    assert {a.value for a in state.legal_actions() if isinstance(a, TakePiece)} == {1, 2}
    state = state.apply(TakePiece(B, 1))
    assert pair(state, B) == [1, 3], "B would hold the 1/3 combination"
    assert pair(state, A) == [2, 2], "and A the lower-valued resolved 2/2"


def test_example_1_challenged_may_decline() -> None:
    state = blue_pairs(with_c=False)
    state = toss(toss(state.apply(Challenge(A, B, "blue", 3)), A, False), B, True).apply(Decline(B))
    assert (pair(state, A), pair(state, B)) == ([1, 2], [2, 3])


@pytest.mark.parametrize("lands", [True, False])
def test_both_or_neither_succeeding_changes_nothing(lands: bool) -> None:
    state = blue_pairs(with_c=False)
    state = toss(toss(state.apply(Challenge(A, B, "blue", 3)), A, lands), B, lands)
    assert (pair(state, A), pair(state, B), state.current) == ([1, 2], [2, 3], B)


def test_example_2_b_challenges_a_for_1_to_challenge_c_for_5_later() -> None:
    state = blue_pairs(with_c=True)
    state = look_and_return(state, A, (10, "red", 5, "right"), (11, "green", 5, "right"))
    assert state.current == B
    state = state.apply(Challenge(B, A, "blue", 1))
    state = toss(toss(state, B, True), A, False)
    assert pair(state, B) == [1, 3], "B gives A his 2 and takes A's 1"
    assert pair(state, A) == [2, 2]
    assert state.current == C, "B could challenge C only in his next turn"
    with pytest.raises(RuleError):
        state.apply(Challenge(B, C, "blue", 5))
    for seat, first, second in ((C, 12, 13), (D, 14, 15), (E, 16, 17), (A, 18, 19)):
        state = look_and_return(
            state, seat, (first, "yellow", seat + 1, "left"), (second, "white", seat + 1, "left")
        )
    assert pair(state, C) == [5, 1]
    assert Challenge(B, C, "blue", 5) in state.legal_actions(), "B's next turn: C's 1/5 shares the 1"


def test_simplified_variant_contests_only_a_matching_value() -> None:
    state = GAME.setup({"players": 4, "variant": "simplified"})  # values 1-4
    state = take_pair(state, A, (0, "blue", 1, "left"), (1, "blue", 2, "right"))
    state = take_pair(state, B, (2, "blue", 2, "left"), (3, "blue", 3, "right"))
    state = look_and_return(state, C, (4, "red", 1, "left"), (5, "red", 2, "left"))
    state = look_and_return(state, D, (6, "red", 3, "left"), (7, "green", 2, "left"))
    assert [a for a in state.legal_actions() if isinstance(a, Challenge)] == [Challenge(A, B, "blue", 2)]
    with pytest.raises(RuleError, match="simplified"):
        state.apply(Challenge(A, B, "blue", 3))
    state = toss(toss(state.apply(Challenge(A, B, "blue", 2)), A, True), B, False)
    assert pair(state, A) == [2, 2] and pair(state, B) == [1, 3]


def test_claims_follow_the_pairing_rules() -> None:
    state = GAME.setup({"players": 3})
    two_lefts = turn_over(state, A, (0, "blue", 1, "left"), (1, "blue", 3, "left"))
    with pytest.raises(RuleError, match="one left and one right"):
        two_lefts.apply(Claim(A))
    mixed = turn_over(state, A, (0, "blue", 1, "left"), (1, "red", 3, "right"))
    with pytest.raises(RuleError, match="one colour"):
        mixed.apply(Claim(A))
    state = take_pair(state, A, (0, "blue", 1, "left"), (1, "blue", 5, "right"))
    state = look_and_return(state, B, (2, "red", 1, "left"), (3, "red", 3, "left"))
    state = look_and_return(state, C, (4, "red", 5, "left"), (5, "green", 1, "left"))
    second_blue = turn_over(state, A, (6, "blue", 3, "left"), (7, "blue", 3, "right"))
    with pytest.raises(RuleError, match="at most one pair per colour"):
        second_blue.apply(Claim(A))


def test_reveals_must_agree_with_what_the_table_has_shown() -> None:
    state = GAME.setup({"players": 3})
    state = look_and_return(state, A, (0, "blue", 1, "left"), (1, "blue", 3, "left"))
    flipped = state.apply(Flip(B, 5))
    with pytest.raises(RuleError, match="each piece exists once") as refused:
        flipped.apply(Reveal(CHANCE, 5, "blue", 1, "left"))
    assert "face down at position 0" in str(refused.value)
    with pytest.raises(RuleError, match="not in play"):
        flipped.apply(Reveal(CHANCE, 5, "blue", 2, "left"))
    again = state.apply(Flip(B, 0))
    with pytest.raises(RuleError, match="returned face down as blue 1 left"):
        again.apply(Reveal(CHANCE, 0, "red", 5, "right"))
    assert again.legal_actions() == [Reveal(CHANCE, 0, "blue", 1, "left")]


def test_refused_actions_change_nothing() -> None:
    state = blue_pairs(with_c=False)
    before = state.to_json()
    for action in (
        Flip(A, 0),
        Flip(A, 999),
        Challenge(A, B, "blue", 4),
        Challenge(A, A, "blue", 1),
        Claim(A),
    ):
        with pytest.raises(RuleError):
            state.apply(action)
        assert state.to_json() == before


def test_public_view_hides_remembered_face_down_pieces() -> None:
    state = look_and_return(GAME.setup({"players": 3}), A, (0, "green", 5, "right"), (1, "red", 3, "left"))
    assert state.seen, "the referee remembers what was shown"
    view = str(state.public_view())
    assert "green" not in view.replace("'green'", "") and "'value': 5" not in view
    assert state.public_view()["table"]["cells"][:2] == ["down", "down"]
    shown = state.apply(Flip(B, 0)).apply(Reveal(CHANCE, 0, "green", 5, "right"))
    assert shown.public_view()["table"]["cells"][0] == {"colour": "green", "value": 5, "horn": "right"}


def full_table(tie_break: str = "sudden_death") -> MinotaurusState:
    """Every seat takes resolved pairs until the table is empty; seat values chosen to tie A and B."""
    state = GAME.setup({"players": 3, "tie_break": tie_break})
    colours = ["blue", "red", "yellow", "green", "white"]
    wanted = {A: [5, 3, 1, 5, 3], B: [3, 1, 5, 3, 5], C: [1, 5, 3, 1, 1]}  # 17, 17, 11
    assert all(sorted(wanted[s][i] for s in wanted) == [1, 3, 5] for i in range(5))
    position = 0
    for index, colour in enumerate(colours):
        for seat in (A, B, C):
            value = wanted[seat][index]
            state = take_pair(
                state, seat, (position, colour, value, "left"), (position + 1, colour, value, "right")
            )
            position += 2
    return state


def test_a_tie_for_first_goes_to_a_toss_off_of_three_each_then_sudden_death() -> None:
    state = full_table()
    assert state.scores() == [17, 17, 11]
    assert state.phase == "tiebreak" and not state.is_over()
    order = state.tie_break.order
    assert sorted(order) == [A, B]
    for _round in range(3):
        for seat in order:
            state = toss(state, seat, True)
    assert not state.is_over(), "3 hits each: still tied"
    state = toss(toss(state, order[0], False), order[1], True)
    assert state.is_over()
    assert state.ranking() == [[order[1]], [order[0]], [C]]


def test_a_shared_win_after_three_tosses_each_when_set() -> None:
    state = full_table(tie_break="shared_after_three")
    for _round in range(3):
        for seat in state.tie_break.order:
            state = toss(state, seat, False)
    assert state.is_over() and state.ranking() == [[A, B], [C]]


def test_a_shared_win_at_once_when_set() -> None:
    state = full_table(tie_break="shared")
    assert state.is_over() and state.ranking() == [[A, B], [C]]
    assert state.public_view()["ranking"] == [[A, B], [C]]


def test_pass_only_when_nothing_is_left_to_do() -> None:
    state = GAME.setup({"players": 3})
    with pytest.raises(RuleError, match="pass only"):
        state.apply(Pass(A))


def test_setup_refuses_options_out_of_range_naming_the_range() -> None:
    with pytest.raises(SetupError, match="from 3 to 5"):
        GAME.setup({"players": 6})
    with pytest.raises(SetupError, match="first_player=3 is invalid: must be a whole number from 0 to 2"):
        GAME.setup({"players": 3, "first_player": 3})
    with pytest.raises(SetupError, match="one of 'standard', 'simplified'"):
        GAME.setup({"variant": "hard"})
    with pytest.raises(SetupError, match="unknown option"):
        GAME.setup({"colour": "blue"})


@pytest.mark.parametrize(("players", "pieces", "cells"), [(3, 30, 6 * 5), (4, 40, 8 * 5), (5, 50, 10 * 5)])
def test_setup_table(players: int, pieces: int, cells: int) -> None:
    state = GAME.setup({"players": players})
    assert len(state.pieces_in_play()) == pieces
    table = state.public_view()["table"]
    assert table["rows"] * table["columns"] == cells == len(table["cells"])
