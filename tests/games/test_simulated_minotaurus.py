from __future__ import annotations

import pytest

from companion.games import CHANCE, get_game
from companion.games.minotaurus import Challenge, Claim, Flip, MinotaurusState, ReturnFaceDown, Reveal, Toss
from companion.sim import make_simulator
from companion.sim.minotaurus import MinotaurusTable


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulated_players_finish_a_game(players: int) -> None:
    state = get_game("minotaurus").setup({"players": players})
    table = make_simulator("minotaurus", seed=players)
    assert isinstance(table, MinotaurusTable)
    for _ in range(5000):
        if state.is_over():
            break
        acting = state.to_act()
        state = state.apply(table.observe(state) if acting.chance else table.choose(state, acting.seats[0]))
    assert state.is_over()
    assert sum(state.scores()) == sum(state.values) * 5, "every pair resolved and counted once"


def _challenge_pending(challenger: int, opponent: int) -> MinotaurusState:
    state = get_game("minotaurus").setup({"players": 3, "first_player": challenger})
    for seat, (left, right) in ((challenger, (1, 3)), (opponent, (3, 5))):
        while state.current != seat:
            state = state.apply(Flip(state.current, 28)).apply(Reveal(CHANCE, 28, "red", 1, "left"))
            state = state.apply(Flip(state.current, 29)).apply(Reveal(CHANCE, 29, "red", 1, "right"))
            state = state.apply(ReturnFaceDown(state.current))
        position = 2 * seat
        state = state.apply(Flip(seat, position)).apply(Reveal(CHANCE, position, "blue", left, "left"))
        state = state.apply(Flip(seat, position + 1)).apply(
            Reveal(CHANCE, position + 1, "blue", right, "right")
        )
        state = state.apply(Claim(seat))
    while state.current != challenger:
        state = state.apply(Flip(state.current, 28)).apply(Reveal(CHANCE, 28, "red", 1, "left"))
        state = state.apply(Flip(state.current, 29)).apply(Reveal(CHANCE, 29, "red", 1, "right"))
        state = state.apply(ReturnFaceDown(state.current))
    return state.apply(Challenge(challenger, opponent, "blue", 5))


def test_toss_outcomes_follow_each_seats_skill() -> None:
    table = MinotaurusTable(seed=1, skills=[0.9, 0.1, 0.5])
    for seat, opponent, low, high in ((0, 1, 320, 400), (1, 2, 0, 80)):
        state = _challenge_pending(seat, opponent)
        verdicts = [table.observe(state) for _ in range(400)]
        assert all(isinstance(v, Toss) and v.player == seat for v in verdicts)
        assert low <= sum(isinstance(v, Toss) and v.success for v in verdicts) <= high


def test_an_undone_reveal_shows_the_same_piece_again() -> None:
    table = MinotaurusTable(seed=3)
    flipped = get_game("minotaurus").setup({"players": 4}).apply(Flip(0, 17))
    first = table.observe(flipped)
    assert all(table.observe(flipped) == first for _ in range(20))
