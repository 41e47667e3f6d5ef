"""House rules: readings of the rule texts where players differ, offered as setup options.

Each test plays one position under both choices and shows that they differ in play; the
default is the reading the companion always had, so records made before still replay.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games import BUILTIN_GAMES, CHANCE, OptionSpec, RuleError, get_game
from companion.games.asterion import AsterionState
from companion.games.asterion.actions import PlaceTile, PlayTile, RotateTile, ShowTile
from companion.games.asterion.game import ROTATING
from companion.games.minos import MinosState
from companion.games.minos.actions import DieShows, UseCombination
from companion.record.jsonl import load_record

DICE_RULE = "Symbol-Würfel und Spielaktionen"
W, P, M, G, J, S = "Waage", "Pfeil", "Moewe", "Gebaeude", "Joker", "Stern"
A = 0


def test_every_house_rule_defaults_to_the_reading_the_companion_always_had() -> None:
    defaults = {
        spec.name: spec.default
        for game in ("minos", "asterion")
        for spec in get_game(game).option_specs()
        if spec.house_rule
    }
    assert defaults["joker_and_stern"] == "per_symbol_and_turn"
    assert defaults["same_look_rotation"] == "refused"


# ---------------------------------------------------------------- options in words


def test_option_json_carries_the_words_the_host_reads() -> None:
    options = {o["name"]: o for o in get_game("minos").describe()["options"]}
    joker = options["joker_and_stern"]
    assert joker["label"] == "Joker and Stern" and joker["house_rule"] is True
    assert joker["choices"] == ["per_symbol_and_turn", "per_die"], "the values records store"
    assert joker["choice_labels"] == [
        "One Joker and one Stern per symbol per turn",
        "Each Pfeil, Möwe, Gebäude or Waage die its own Joker and Stern",
    ]
    assert "nur einmal" in joker["description"] and "docs/rulings.md" in joker["description"]
    assert options["first_player"]["seat"] is True and options["first_player"]["label"] == "Who begins"
    assert options["cash"]["house_rule"] is False


def test_every_option_of_every_game_is_explained_in_words() -> None:
    for name in BUILTIN_GAMES:  # not the toy games other tests register
        game = get_game(name)
        described = game.describe()
        assert described["summary"], f"{game.name} has no one-line description"
        for option in described["options"]:
            where = f"{game.name}.{option['name']}"
            assert option["label"] and option["label"] != option["name"], where
            assert len(option["description"]) > 40, where
            if option["choices"] is not None:
                assert len(option["choice_labels"]) == len(option["choices"]), where
                assert not set(option["choice_labels"]) & {str(c) for c in option["choices"]}, where


def test_an_option_with_a_label_per_choice_needs_as_many_labels_as_choices() -> None:
    with pytest.raises(ValueError, match="one label per choice"):
        OptionSpec("x", "y", 1, choices=(1, 2), choice_labels=("one",))


# ---------------------------------------------------------------- Minos: Joker and Stern


def minos_roll(reading: str, *dice: str) -> MinosState:
    """Seat A has rolled `dice` in the second round, holding Athen (value 2) with a guard."""
    state = get_game("minos").setup({"players": 4, "joker_and_stern": reading})
    assert isinstance(state, MinosState)
    state.removals_left, state.phase, state.turns_taken = 0, "roll", 4
    state.buildings["Athen"] = ("harbour", "house")
    state.guards["Athen"] = (A, 1)
    for symbol in dice:
        state = state.apply(DieShows(CHANCE, state.pending[0], symbol))
    return state


def use(state: MinosState, symbol: str, naturals: int, joker: bool = False, star: bool = False) -> MinosState:
    return state.apply(UseCombination(A, symbol, naturals, joker, star))


def refused_once(state: MinosState, action: UseCombination) -> None:
    before = state.to_json()
    with pytest.raises(RuleError) as error:
        state.apply(action)
    assert error.value.rule == DICE_RULE and "once" in error.value.reason, error.value
    assert state.to_json() == before
    assert action not in state.legal_actions()


def test_two_gebaeude_dice_each_take_a_joker_only_when_read_per_die() -> None:
    second_joker = UseCombination(A, G, 1, True, False)
    per_turn = use(minos_roll("per_symbol_and_turn", G, G, J, J, M, M), G, 1, joker=True)
    refused_once(per_turn, second_joker)
    per_die = use(minos_roll("per_die", G, G, J, J, M, M), G, 1, joker=True)
    assert second_joker in per_die.legal_actions()
    assert per_die.apply(second_joker).build_rights == 4


def test_two_waage_dice_each_take_a_stern_only_when_read_per_die() -> None:
    second_star = UseCombination(A, W, 1, False, True)
    refused_once(use(minos_roll("per_symbol_and_turn", W, W, S, S, M, M), W, 1, star=True), second_star)
    per_die = use(minos_roll("per_die", W, W, S, S, M, M), W, 1, star=True).apply(second_star)
    assert per_die.cash[A] == 25 + 4 * 2  # (1 + 1) + (1 + 1) times the value 2


@pytest.mark.parametrize("reading", ["per_symbol_and_turn", "per_die"])
@pytest.mark.parametrize(
    ("dice", "first", "second"),
    [
        ((G, J, J, M, M, M), (G, 1, True, False), (G, 0, True, False)),  # Gebäude + Joker + Joker, split
        ((P, J, J, M, M, M), (P, 0, True, False), (P, 0, True, False)),  # a Joker as Pfeil, then another
        ((M, J, S, S, W, W), (M, 1, False, True), (M, 0, True, True)),  # Möwe + Stern + Stern, split
    ],
)
def test_the_texts_forbidden_combinations_stay_refused_in_either_reading(
    reading: str,
    dice: tuple[str, ...],
    first: tuple[str, int, bool, bool],
    second: tuple[str, int, bool, bool],
) -> None:
    refused_once(use(minos_roll(reading, *dice), *first), UseCombination(A, *second))


def test_read_per_die_two_gebaeude_dice_take_two_jokers_not_three() -> None:
    state = use(use(minos_roll("per_die", G, G, J, J, J, M), G, 1, joker=True), G, 1, joker=True)
    assert state.build_rights == 4
    refused_once(state, UseCombination(A, G, 0, True, False))


# ---------------------------------------------------------------- Asterion: rotations that look the same


def corridor_position(reading: str) -> AsterionState:
    """Yellow's corridor north of Asterion, walls west and south: yellow to act."""
    state = get_game("asterion").setup({"players": 2, "same_look_rotation": reading})
    assert isinstance(state, AsterionState)
    for design, x, y, rotation in (
        ("corridor", 0, -1, 1),
        ("cell", -1, 0, 3),
        ("cell", 0, 1, 2),
        ("cell", -2, 0, 3),
    ):
        me = state.current
        state = state.apply(PlayTile(me)).apply(ShowTile(CHANCE, me, design))
        state = state.apply(PlaceTile(me, x, y, rotation))
    return state


def test_a_corridor_turned_half_round_is_refused_or_allowed_by_the_house_rule() -> None:
    half_round = RotateTile(0, 0, -1, 3)
    refusing = corridor_position("refused")
    before = refusing.to_json()
    with pytest.raises(RuleError, match="look the same") as error:
        refusing.apply(half_round)
    assert error.value.rule == ROTATING and refusing.to_json() == before
    assert half_round not in refusing.legal_actions()

    allowing = corridor_position("allowed")
    assert half_round in allowing.legal_actions()
    turned = allowing.apply(half_round)
    assert turned.board[(0, -1)].rotation == 3
    assert turned.board[(0, -1)].paths() == allowing.board[(0, -1)].paths(), "it looks the same"
    assert turned.discarded == [1, 0] and turned.current == 1, "the tile in hand paid for it"


def test_a_rotation_to_the_present_orientation_is_refused_in_either_reading() -> None:
    for reading in ("refused", "allowed"):
        state = corridor_position(reading)
        with pytest.raises(RuleError, match="lies that way already"):
            state.apply(RotateTile(0, 0, -1, 1))
        assert RotateTile(0, 0, -1, 1) not in state.legal_actions()


# ---------------------------------------------------------------- records made before the house rules

# Two random games recorded by the code before these options existed (commit 4956b2d): their headers
# carry no joker_and_stern or same_look_rotation, and their outcomes are the ones that code gave.
OLD_RECORDS = Path(__file__).with_name("data")


@pytest.mark.parametrize(
    ("record", "new_option", "scores", "ranking"),
    [
        ("minos-before-house-rules.jsonl", "joker_and_stern", [0, 1], [[1], [0]]),
        ("asterion-before-house-rules.jsonl", "same_look_rotation", [0, -1], [[0], [1]]),
    ],
)
def test_a_record_made_before_the_house_rules_replays_to_its_outcome(
    record: str, new_option: str, scores: list[int], ranking: list[list[int]]
) -> None:
    read, replayed = load_record(OLD_RECORDS / record)
    assert new_option not in read.header.options
    assert (
        replayed.options[new_option] == {s.name: s.default for s in replayed.game.option_specs()}[new_option]
    )
    assert replayed.state.is_over()
    assert (replayed.state.scores(), replayed.state.ranking()) == (scores, ranking)


# ---------------------------------------------------------------- whole games under the other readings


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("minos", {"players": 2, "joker_and_stern": "per_die"}),
        ("minos", {"players": 4, "joker_and_stern": "per_die"}),
        ("asterion", {"players": 2, "same_look_rotation": "allowed"}),
        ("asterion", {"players": 3, "same_look_rotation": "allowed"}),
    ],
)
def test_random_games_under_the_other_reading_end_with_their_components_kept(
    game: str, options: dict[str, object]
) -> None:
    played = get_game(game)
    for playout in range(30):
        rng = random.Random(f"{game}-{options}-{playout}")
        state = played.setup(options)
        counts = state.component_counts()
        for _step in range(20_000):
            if state.is_over():
                break
            if state.to_act().chance:
                state = state.apply(state.random_chance_action(rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
        assert state.is_over(), f"{game} {options} playout {playout} did not end"
        assert state.component_counts() == counts
        assert played.state_from_json(state.to_json()).to_json() == state.to_json()
