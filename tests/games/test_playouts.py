"""One random-playout test that serves every registered game (as OpenSpiel does)."""

from __future__ import annotations

import json
import random

import pytest

from companion.games import CHANCE, Action, Game, RuleError, State, all_games

PLAYOUTS_PER_GAME = 1000
MAX_STEPS = 20_000


def _option_sets(game: Game) -> list[dict[str, object]]:
    """Every player count, each with a random pick of the other options."""
    rng = random.Random(game.name)
    sets = []
    for players in range(game.min_players, game.max_players + 1):
        options: dict[str, object] = {"players": players}
        for spec in game.option_specs():
            if spec.choices is not None and spec.name != "players":
                options[spec.name] = rng.choice(spec.choices)
        sets.append(options)
    return sets


def _random_action(state: State, rng: random.Random) -> Action:
    if state.to_act().chance:
        return state.random_chance_action(rng)
    return rng.choice(state.legal_actions())


def _check_state(game: Game, state: State, counts: dict[str, int]) -> None:
    assert state.component_counts() == counts, "components were created or lost"
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data).to_json() == data, "state does not survive serialisation"
    json.dumps(state.public_view())
    scores = state.scores()
    assert len(scores) == state.num_players and all(isinstance(s, int) for s in scores)
    assert sorted(s for group in state.ranking() for s in group) == list(range(state.num_players))
    acting = state.to_act()
    legal = state.legal_actions()
    assert state.is_over() == (not legal), "a running game must offer a legal action; a finished one none"
    assert all(a.by in acting.seats for a in legal), "legal actions of seats that may not act"
    for action in legal:
        assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_random_playouts_reach_the_end_with_invariants_kept(game: Game) -> None:
    for options in _option_sets(game):
        for playout in range(PLAYOUTS_PER_GAME // (game.max_players - game.min_players + 1)):
            rng = random.Random(f"{game.name}-{options}-{playout}")
            state = game.setup(options)
            counts = state.component_counts()
            thorough = playout < 3  # serialisation round trips are slow: check every state of a few games
            for _step in range(MAX_STEPS):
                if thorough:
                    _check_state(game, state, counts)
                if state.is_over():
                    break
                state = state.apply(_random_action(state, rng))
            else:
                pytest.fail(f"{game.name} {options} playout {playout} did not end in {MAX_STEPS} steps")
            _check_state(game, state, counts)
            assert state.ranking()[0], "a finished game ranks its players"


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_actions_of_a_seat_not_to_act_are_refused_and_change_nothing(game: Game) -> None:
    rng = random.Random(7)
    state = game.setup({"players": game.min_players})
    for _ in range(200):
        if state.is_over():
            break
        acting = state.to_act()
        before = state.to_json()
        for action in state.legal_actions():
            idle = next(s for s in [CHANCE, *range(state.num_players)] if s not in acting.seats)
            wrong_seat = type(action)(**{**action.__dict__, "by": idle})
            with pytest.raises(RuleError) as refused:
                state.apply(wrong_seat)
            assert refused.value.rule == "turn order"
            assert state.to_json() == before
        state = state.apply(_random_action(state, rng))
