"""Minos: the rule text's worked examples move by move, its refusals, and the readings in docs/rulings.md.

Positions are arranged directly on the state (as a host would set up a table
mid-game), then played with actions; dice always come from `DieShows` readings.
"""

from __future__ import annotations

import pytest

from companion.games import CHANCE, RuleError, SetupError
from companion.games.minos import MinosState
from companion.games.minos.actions import (
    Build,
    BuyGuard,
    BuyRing,
    BuyShip,
    DieShows,
    Embark,
    EndTurn,
    Move,
    RemoveField,
    RollAgain,
    SetAside,
    StandDice,
    UseCombination,
)
from companion.games.minos.dice import combat_value

GAME = MinosState.game
A, B, C, D = 0, 1, 2, 3
W, P, M, G, J, S = "Waage", "Pfeil", "Moewe", "Gebaeude", "Joker", "Stern"


def roll(state: MinosState, *symbols: str) -> MinosState:
    """The table reads the dice being rolled, in order of their numbers."""
    for symbol in symbols:
        pending = state.conflict.pending if state.phase == "conflict" and state.conflict else state.pending
        state = state.apply(DieShows(CHANCE, pending[0], symbol))
    return state


def table(players: int = 4, second_round: bool = True, **options: object) -> MinosState:
    """A game past setup, seat A to act; ships taken off so that each test places its own."""
    state = GAME.setup({"players": players, **options})
    state.removals_left, state.phase = 0, "roll"
    state.ships = {}
    state.ship_supply = [s + 1 for s in state.ship_supply]
    if second_round:
        state.turns_taken = players
    return state


def place_ship(state: MinosState, seat: int, field: str) -> None:
    state.ships[field] = (*state.ships.get(field, ()), seat)
    state.ship_supply[seat] -= 1


def place_guards(state: MinosState, seat: int, field: str, count: int = 1) -> None:
    state.guards[field] = (seat, state.guards.get(field, (seat, 0))[1] + count)
    state.guard_supply[seat] -= count


def build_up(state: MinosState, settlement: str, *buildings: str) -> None:
    state.buildings[settlement] = tuple(buildings)
    for b in buildings:
        state.building_supply[b] -= 1


def use(state: MinosState, symbol: str, naturals: int, joker: bool = False, star: bool = False) -> MinosState:
    return state.apply(UseCombination(state.current, symbol, naturals, joker, star))


# ---------------------------------------------------------------- combat values


def test_combat_values_of_the_worked_examples() -> None:
    assert combat_value([P, J, J, G, G, M]) == 7
    assert combat_value([J, S, S, M, W, W]) == 4
    assert combat_value([P, J, S, S, M, W]) == 11
    assert combat_value([P, J, S]) == 10, "the special combination, 4 more than its dice singly"
    assert combat_value([P, J, S, P, J, S]) == 20, "the most a roll can be worth"


def sea_duel(defender_rings: int = 0, attacker_rings: int = 0) -> MinosState:
    """A's ship on NW runs into B's ship on N (movement from a Möwe)."""
    state = table()
    place_ship(state, A, "NW")
    place_ship(state, B, "N")
    state.rings[A], state.rings[B] = attacker_rings, defender_rings
    state.ring_supply -= attacker_rings + defender_rings
    state = use(roll(state, M, W, W, W, W, W), M, 1)
    return state.apply(Move(A, "ship", "NW", "N"))


def test_duel_7_against_4_the_attacker_wins_stays_and_moves_on() -> None:
    state = sea_duel()
    assert state.phase == "conflict" and state.to_act().chance
    state = roll(state, P, J, J, G, G, M)  # 7 points; no ring, so the result stands at once
    assert state.conflict is not None and state.conflict.attacker_total == 7
    state = roll(state, J, S, S, M, W, W)  # 4 points
    assert state.phase == "act" and state.conflict is None
    assert "N" not in state.ships and state.ships["NW"] == (A,), (
        "the loser leaves the board, the winner stays"
    )
    assert state.ship_supply[B] == 7 and state.move_points == 4
    state = state.apply(Move(A, "ship", "NW", "N"))
    assert state.ships["N"] == (A,), "with points left the attacker continues"


def test_duel_the_special_combination_11_beats_7() -> None:
    state = roll(roll(sea_duel(), P, J, J, G, G, M), P, J, S, S, M, W)
    assert state.ships == {"N": (B,)}, "the attacking ship is taken off"


def test_duel_a_tie_goes_to_the_defender() -> None:
    state = roll(roll(sea_duel(), P, J, J, G, G, M), P, P, J, W, W, W)  # 7 against 7
    assert state.ships == {"N": (B,)}


def test_battle_rings_buy_rerolls_but_never_of_a_waage_die() -> None:
    state = roll(sea_duel(attacker_rings=2), W, W, M, M, G, G)  # 0 points: A may pay for more
    assert state.to_act().seats == (A,)
    with pytest.raises(RuleError) as refused:
        state.apply(SetAside(A, 0))
    assert refused.value.rule == "Funktion der Kampfringe"
    with pytest.raises(RuleError, match="during a conflict"):
        state.apply(BuyRing(A))
    state = state.apply(SetAside(A, 2)).apply(RollAgain(A))
    assert state.conflict is not None and state.conflict.pending == (3, 4, 5), "Waage and set-aside dice stay"
    assert state.rings[A] == 1 and state.ring_supply == 49
    state = roll(state, P, J, S)  # W W M P J S = 10
    state = state.apply(RollAgain(A))  # a set-aside die may be rolled again next time: all but Waage
    assert state.conflict is not None and state.conflict.pending == (2, 3, 4, 5)
    state = roll(state, P, J, S, J)  # W W P J S J = 12; no ring left, so it stands
    assert state.conflict is not None and state.conflict.attacker_total == 12 and state.rings[A] == 0
    state = roll(state, P, J, S, M, M, M)  # defender: 10
    assert state.ships == {"NW": (A,)}


def test_the_defender_rolls_after_the_attacker_and_may_stand() -> None:
    state = roll(sea_duel(defender_rings=1), P, M, M, M, M, M)  # 3
    state = roll(state, P, J, M, M, M, M)  # 5: B may stand or pay
    assert state.to_act().seats == (B,)
    state = state.apply(StandDice(B))
    assert state.ships == {"N": (B,)} and state.rings[B] == 1


# ---------------------------------------------------------------- dice and actions


def with_value(settlement: str = "Athen", *buildings: str) -> MinosState:
    """Seat A holds Athen (a harbour and a house: value 2) with a guard."""
    state = table()
    build_up(state, settlement, *(buildings or ("harbour", "house")))
    place_guards(state, A, settlement)
    return state


THE_PICTURED_ROLL = (W, J, J, S, M, G)


def test_combinations_first_example_triple_income_ten_points_one_build_right() -> None:
    state = roll(with_value(), *THE_PICTURED_ROLL)
    state = use(state, W, 1, joker=True, star=True)
    assert state.cash[A] == 25 + 3 * 2
    state = use(state, M, 1, joker=True)
    state = use(state, G, 1)
    assert (state.move_points, state.build_rights) == (10, 1)


def test_combinations_second_example_income_eleven_points_two_build_rights() -> None:
    state = roll(with_value(), *THE_PICTURED_ROLL)
    state = use(use(use(state, W, 1), M, 1, joker=True, star=True), G, 1, joker=True)
    assert (state.cash[A], state.move_points, state.build_rights) == (27, 11, 2)


def test_combinations_third_example_double_income_and_two_rings() -> None:
    state = roll(with_value(), *THE_PICTURED_ROLL)
    state = use(use(use(use(state, W, 1, joker=True), M, 1), G, 1), P, 0, joker=True, star=True)
    assert (state.cash[A], state.move_points, state.build_rights, state.rings[A]) == (29, 5, 1, 2)
    assert all(state.used)


@pytest.mark.parametrize(
    ("dice", "first", "second"),
    [
        ((W, W, S, S, M, M), (W, 1, False, True), (W, 1, False, True)),  # Waage + Stern + Stern
        ((G, J, J, M, M, M), (G, 1, True, False), (G, 0, True, False)),  # Gebäude + Joker + Joker
        ((P, J, J, M, M, M), (P, 1, True, False), (P, 0, True, False)),  # Pfeil + Joker + Joker
        ((M, M, S, S, W, W), (M, 1, False, True), (M, 1, False, True)),  # Möwe + Stern + Stern
    ],
)
def test_forbidden_combinations_are_refused(
    dice: tuple[str, ...], first: tuple[str, int, bool, bool], second: tuple[str, int, bool, bool]
) -> None:
    state = use(roll(with_value(), *dice), *first)
    before = state.to_json()
    with pytest.raises(RuleError) as refused:
        use(state, *second)
    assert refused.value.rule == "Symbol-Würfel und Spielaktionen"
    assert "once" in refused.value.reason, "refused for the second Joker or Stern, not for something else"
    assert state.to_json() == before
    assert UseCombination(A, *second) not in state.legal_actions()


def test_the_star_alone_is_worthless_and_dice_are_used_once() -> None:
    state = roll(with_value(), S, M, M, W, W, W)
    with pytest.raises(RuleError, match="worthless"):
        use(state, M, 0, star=True)
    with pytest.raises(RuleError, match="only 2 unused dice show Möwe"):
        use(state, M, 3)
    with pytest.raises(RuleError, match="no unused die shows the Joker"):
        use(state, M, 1, joker=True)


def test_the_income_must_come_first() -> None:
    state = use(roll(with_value(), W, M, M, G, G, G), M, 1)
    with pytest.raises(RuleError) as refused:
        use(state, W, 1)
    assert refused.value.rule == "Waage"
    assert not any(isinstance(a, UseCombination) and a.symbol == W for a in state.legal_actions())


def test_income_is_the_value_on_the_track() -> None:
    state = with_value("Athen", "harbour", "trading_house", "wall")  # (1 + 2) x 2 = 6
    state = use(roll(state, W, W, M, M, M, M), W, 2)
    assert state.cash[A] == 25 + 2 * 6


def test_up_to_three_rolls_with_dice_set_aside() -> None:
    state = roll(table(), W, P, M, G, J, S)
    state = state.apply(SetAside(A, 0)).apply(SetAside(A, 4)).apply(RollAgain(A))
    assert state.pending == (1, 2, 3, 5) and state.dice[0] == W and state.dice[4] == J
    state = roll(state, M, M, M, M)
    state = state.apply(RollAgain(A))  # the third roll may take every die, set aside before or not
    assert state.pending == (0, 1, 2, 3, 4, 5)
    state = roll(state, G, G, G, G, G, G)
    assert state.rolls == 3
    for refused_action in (RollAgain(A), SetAside(A, 1)):
        with pytest.raises(RuleError, match="at most three times"):
            state.apply(refused_action)


def test_no_more_rolling_once_the_actions_have_started() -> None:
    state = use(roll(table(), M, P, P, P, P, P), M, 1)
    with pytest.raises(RuleError, match="actions have started"):
        state.apply(RollAgain(A))


def test_dice_are_read_in_order_and_only_while_rolling() -> None:
    state = table()
    with pytest.raises(RuleError, match="in order"):
        state.apply(DieShows(CHANCE, 3, W))
    with pytest.raises(RuleError, match="one of"):
        state.apply(DieShows(CHANCE, 0, "Hammer"))


def test_arrows_give_free_rings_and_the_right_to_buy_more() -> None:
    state = roll(table(), P, P, S, M, M, M)
    assert BuyRing(A) not in state.legal_actions()
    with pytest.raises(RuleError, match="Pfeil was used"):
        state.apply(BuyRing(A))
    state = use(state, P, 2, star=True)
    state = state.apply(BuyRing(A)).apply(BuyRing(A))
    assert (state.rings[A], state.cash[A], state.ring_supply) == (5, 5, 45)
    with pytest.raises(RuleError, match="costs 10"):
        state.apply(BuyRing(A))


# ---------------------------------------------------------------- building and the value track


def founding(settlement: str = "Athen", cash: int = 100) -> MinosState:
    """Seat A's guard stands on an empty settlement field; A rolls six Gebäude."""
    state = table()
    place_guards(state, A, settlement)
    state.cash[A] = cash
    return roll(state, G, G, G, G, J, S)


def test_building_costs_by_position_and_the_city_with_its_wall() -> None:
    state = use(founding(), G, 4, joker=True, star=True)  # 6 build rights
    assert state.build_rights == 6
    with pytest.raises(RuleError, match=r"first building .* may not be a city wall"):
        state.apply(Build(A, "Athen", "wall"))
    before, state = state, state.apply(Build(A, "Athen", "harbour"))
    assert before.buildings["Athen"] == () and before.building_supply["harbour"] == 16, "states are values"
    assert (state.build_rights, state.cash[A]) == (5, 95)
    assert state.guards["Athen"] == (A, 2), "the first building brings a free guard"
    state = state.apply(Build(A, "Athen", "house"))
    assert (state.build_rights, state.cash[A], state.value(A)) == (3, 83, 2), "harbour + house: 2"
    state = state.apply(Build(A, "Athen", "trading_house"))
    assert (state.build_rights, state.cash[A], state.value(A)) == (0, 65, 4)
    state.build_rights = 4  # the next turn's Gebäude, arranged
    with pytest.raises(RuleError, match="must have a city wall"):
        state.apply(Build(A, "Athen", "house"))
    state = state.apply(Build(A, "Athen", "wall"))
    assert (state.cash[A], state.value(A)) == (40, 8)
    state.build_rights = 4
    with pytest.raises(RuleError, match="is a city"):
        state.apply(Build(A, "Athen", "house"))


def test_a_wall_always_needs_four_build_rights() -> None:
    state = use(founding(), G, 3)
    state = state.apply(Build(A, "Athen", "harbour"))
    with pytest.raises(RuleError, match="needs 4 build rights"):
        state.apply(Build(A, "Athen", "wall"))
    state.build_rights = 4
    state = state.apply(Build(A, "Athen", "wall"))
    assert state.cash[A] == 100 - 5 - 12, "its money price is that of its position (2nd: 12)"


@pytest.mark.parametrize(
    ("buildings", "value"),
    [
        (("harbour", "house"), 2),
        (("harbour", "house", "wall"), 4),
        (("harbour", "trading_house"), 3),
        (("harbour", "trading_house", "wall"), 6),
        (("harbour", "trading_house", "wall", "harbour"), 8),
    ],
)
def test_value_examples_of_the_value_track(buildings: tuple[str, ...], value: int) -> None:
    assert with_value("Athen", *buildings).value(A) == value


def test_a_harbour_added_behind_a_wall_adds_two() -> None:
    state = with_value("Athen", "harbour", "trading_house", "wall")
    state.cash[A] = 100
    state = use(roll(state, G, G, G, G, M, M), G, 4)
    state = state.apply(Build(A, "Athen", "harbour"))
    assert state.value(A) == 8 and state.cash[A] == 75, "the 4th building costs 25"


def test_building_needs_a_piece_on_the_field_rights_and_cash() -> None:
    state = use(founding(cash=4), G, 1)
    with pytest.raises(RuleError, match="costs 5 talents"):
        state.apply(Build(A, "Athen", "house"))
    with pytest.raises(RuleError) as refused:
        state.apply(Build(A, "Sparta", "house"))
    assert refused.value.rule == "Häuserbau und Stadtgründung"


def test_building_is_limited_by_the_supply() -> None:
    state = use(founding(), G, 1)
    state.building_supply["house"] = 0
    with pytest.raises(RuleError, match="no house is left"):
        state.apply(Build(A, "Athen", "house"))


def test_no_free_guard_once_the_supply_is_empty() -> None:
    state = use(founding(), G, 1)
    state.guard_supply[A] = 0
    state = state.apply(Build(A, "Athen", "house"))
    assert state.guards["Athen"] == (A, 1)


def test_the_value_track_shows_laps_of_fifty_with_two_gold_coins() -> None:
    state = table()
    for name in ("Athen", "Mykene", "Sparta", "Argos"):
        build_up(state, name, "trading_house", "trading_house", "trading_house", "wall")  # 12 each
        place_guards(state, A, name)
    seat = state.public_view()["players"][A]
    assert (seat["value"], seat["track"], seat["gold_under_marker"]) == (48, 48, 0)
    build_up(state, "Troia", "trading_house")
    place_guards(state, A, "Troia")
    seat = state.public_view()["players"][A]
    assert (seat["value"], seat["track"], seat["gold_under_marker"]) == (50, 0, 2)


# ---------------------------------------------------------------- ownership and purchases


def test_a_settlement_belongs_only_to_who_stands_there() -> None:
    state = with_value()
    state = use(roll(state, M, W, W, W, W, W), M, 1)
    state = state.apply(Move(A, "guard", "Athen", "t1"))
    assert state.owner("Athen") is None and state.value(A) == 0, "the value goes with the last guard"
    state = state.apply(EndTurn(A))
    place_guards(state, B, "t2")
    state = use(roll(state, M, W, W, W, W, W), M, 1)
    state = state.apply(Move(B, "guard", "t2", "Athen"))
    assert state.owner("Athen") == B and state.value(B) == 2 and state.phase == "act", "taken without a fight"


def test_guards_are_bought_where_two_houses_stand_once_per_turn() -> None:
    state = with_value("Athen", "house", "harbour")
    state = roll(state, M, M, M, M, M, M)
    with pytest.raises(RuleError, match="2 houses"):
        state.apply(BuyGuard(A, "Athen"))
    state = with_value("Athen", "house", "house")
    state = roll(state, M, M, M, M, M, M)
    state = state.apply(BuyGuard(A, "Athen"))
    assert state.guards["Athen"] == (A, 2) and state.cash[A] == 20
    with pytest.raises(RuleError) as refused:
        state.apply(BuyGuard(A, "Athen"))
    assert refused.value.rule == "Kauf von Wächtern und Schiffen"
    state = state.apply(EndTurn(A))
    assert BuyGuard(B, "Athen") not in state.legal_actions()


def test_ships_are_bought_where_two_harbours_stand_and_the_harbour_is_free() -> None:
    state = with_value("Athen", "harbour", "harbour")
    place_ship(state, A, "Athen")
    state = roll(state, M, M, M, M, M, M)
    with pytest.raises(RuleError, match="lies in the harbour"):
        state.apply(BuyShip(A, "Athen"))
    state = use(state, M, 1).apply(Move(A, "ship", "Athen", "N"))
    state = state.apply(BuyShip(A, "Athen"))
    assert state.ships["Athen"] == (A,) and state.cash[A] == 20
    with pytest.raises(RuleError, match="one per settlement"):
        state.apply(BuyGuard(A, "Athen"))
    state.build_rights = 3
    assert Build(A, "Athen", "house") in state.legal_actions(), "a purchase does not stop building there"


def test_purchases_are_limited_by_the_supply_and_cash() -> None:
    state = roll(with_value("Athen", "house", "house"), M, M, M, M, M, M)
    state.guard_supply[A] = 0
    with pytest.raises(RuleError, match="no guard left"):
        state.apply(BuyGuard(A, "Athen"))
    state.guard_supply[A], state.cash[A] = 3, 4
    with pytest.raises(RuleError, match="costs 5"):
        state.apply(BuyGuard(A, "Athen"))


# ---------------------------------------------------------------- movement


def test_movement_points_step_by_step_and_blocking() -> None:
    state = table()
    place_ship(state, A, "NW")
    place_guards(state, A, "Troia")
    place_guards(state, A, "t1")
    state = use(roll(state, M, S, W, W, W, W), M, 1, star=True)
    assert state.move_points == 6
    with pytest.raises(RuleError, match="one field at a time"):
        state.apply(Move(A, "ship", "NW", "O"))
    with pytest.raises(RuleError, match="only one guard"):
        state.apply(Move(A, "guard", "Troia", "t1"))
    with pytest.raises(RuleError, match="one field at a time"):
        state.apply(Move(A, "guard", "Troia", "NW"))
    state = state.apply(Move(A, "ship", "NW", "Troia"))  # into the harbour: one point
    state = state.apply(Move(A, "ship", "Troia", "NW"))  # and out again: one point
    state = state.apply(Move(A, "guard", "t1", "Athen"))
    assert state.move_points == 3
    state = state.apply(Move(A, "guard", "Troia", "t1")).apply(Move(A, "guard", "t1", "Athen"))
    assert state.guards["Athen"] == (A, 2), "any number of one colour's guards on a settlement field"
    state = state.apply(Move(A, "ship", "NW", "N"))
    with pytest.raises(RuleError, match="no movement points"):
        state.apply(Move(A, "ship", "N", "NO"))


def test_the_first_round_has_no_conflicts() -> None:
    state = table(second_round=False)
    place_ship(state, A, "NW")
    place_ship(state, B, "N")
    state = use(roll(state, M, W, W, W, W, W), M, 1)
    with pytest.raises(RuleError) as refused:
        state.apply(Move(A, "ship", "NW", "N"))
    assert refused.value.rule == "Konflikte"
    assert Move(A, "ship", "NW", "N") not in state.legal_actions()


def test_the_start_field_holds_every_ship() -> None:
    state = GAME.setup({"players": 4})
    assert state.ships == {"Fisch": (A, B, C, D)}
    state = use(roll(state, M, W, W, W, W, W), M, 1)
    state = state.apply(Move(A, "ship", "Fisch", "N")).apply(Move(A, "ship", "N", "Fisch"))
    assert state.ships == {"Fisch": (B, C, D, A)} and state.phase == "act"


# ---------------------------------------------------------------- conquest


def siege(attacker_piece: str) -> MinosState:
    """B holds Athen (harbour + house) with a ship in the harbour and two guards; A attacks."""
    state = table()
    build_up(state, "Athen", "harbour", "house")
    place_ship(state, B, "Athen")
    place_guards(state, B, "Athen", 2)
    place_ship(state, A, "N")
    place_guards(state, A, "t1")
    state = use(roll(state, M, W, W, W, W, W), M, 1)
    origin = "N" if attacker_piece == "ship" else "t1"
    return state.apply(Move(A, attacker_piece, origin, "Athen"))


WIN, LOSE = (P, J, S, P, J, S), (M, M, M, M, M, M)


def test_a_guard_must_beat_the_ship_first_then_every_guard() -> None:
    state = siege("guard")
    assert state.conflict is not None and state.conflict.defending == "ship"
    state = roll(roll(state, *WIN), *LOSE)
    assert "Athen" not in state.ships and state.conflict is not None and state.conflict.defending == "guard"
    state = roll(roll(state, *WIN), *LOSE)
    assert state.guards["Athen"] == (B, 1) and state.phase == "conflict", "not over while B has a piece there"
    state = roll(roll(state, *WIN), *LOSE)
    assert state.phase == "act" and state.guards["Athen"] == (A, 1) and "t1" not in state.guards
    assert (state.value(A), state.value(B)) == (2, 0), "the value moves to the new owner at once"


def test_a_failed_siege_costs_the_attacker_his_piece() -> None:
    state = roll(roll(siege("guard"), *WIN), *LOSE)
    state = roll(roll(state, *LOSE), *LOSE)  # a tie: the defender wins
    assert state.phase == "act" and state.guards["Athen"] == (B, 2) and "t1" not in state.guards
    assert state.owner("Athen") == B


def test_conquest_by_ship_brings_a_free_guard() -> None:
    state = siege("ship")
    for _ in range(3):
        state = roll(roll(state, *WIN), *LOSE)
    assert state.ships["Athen"] == (A,) and state.guards["Athen"] == (A, 1) and state.value(A) == 2
    assert state.ship_supply[B] == 7 and state.guard_supply[B] == 12


def test_a_player_without_pieces_is_out_and_play_skips_him() -> None:
    state = table(players=3)
    place_ship(state, A, "NW")
    place_ship(state, B, "N")
    place_ship(state, C, "S")
    state = use(roll(state, M, W, W, W, W, W), M, 1).apply(Move(A, "ship", "NW", "N"))
    state = roll(roll(state, *WIN), *LOSE)
    assert state.eliminated == [False, True, False]
    state = state.apply(EndTurn(A))
    assert state.current == C


def test_the_game_ends_when_one_player_is_left() -> None:
    state = table(players=2, second_round=True)
    state.removed = ("Troia", "Athen", "Mykene", "Sparta", "Argos", "Naxos")
    place_ship(state, A, "NW")
    place_ship(state, B, "N")
    state = use(roll(state, M, W, W, W, W, W), M, 1).apply(Move(A, "ship", "NW", "N"))
    state = roll(roll(state, *WIN), *LOSE)
    assert state.is_over() and state.ranking() == [[A], [B]]


# ---------------------------------------------------------------- the end


def nearly_done(cash_a: int = 10, cash_b: int = 10) -> MinosState:
    """Four players; every field built; one city; Argos one wall short of the second."""
    state = table()
    for name in ("Athen", "Mykene", "Sparta", "Naxos", "Thera", "Knossos", "Phaistos", "Malia"):
        build_up(state, name, "house")
    build_up(state, "Troia", "house", "house", "house", "wall")
    build_up(state, "Argos", "trading_house", "trading_house", "house")
    place_guards(state, A, "Argos")
    place_guards(state, B, "Troia")
    state.cash[A], state.cash[B] = cash_a + 25, cash_b
    return state


def test_two_cities_and_every_field_built_end_the_game_at_once() -> None:
    state = nearly_done(cash_a=5)
    state = use(roll(state, G, G, G, G, M, M), G, 4).apply(Build(A, "Argos", "wall"))
    assert state.is_over() and state.legal_actions() == []
    assert state.scores()[A] == 10 and state.scores()[B] == 6
    assert state.ranking()[0] == [A]


def test_equal_value_is_decided_by_cash_and_equal_cash_shares_the_win() -> None:
    state = nearly_done(cash_a=5, cash_b=5)
    state.buildings["Troia"] = ("trading_house", "trading_house", "house", "wall")  # 10, like Argos will be
    state = use(roll(state, G, G, G, G, M, M), G, 4).apply(Build(A, "Argos", "wall"))
    assert state.scores()[:2] == [10, 10] and state.ranking()[0] == [A, B]
    state = nearly_done(cash_a=5, cash_b=6)
    state.buildings["Troia"] = ("trading_house", "trading_house", "house", "wall")
    state = use(roll(state, G, G, G, G, M, M), G, 4).apply(Build(A, "Argos", "wall"))
    assert state.ranking()[0] == [B]


def test_a_game_that_can_no_longer_reach_its_end_is_ended() -> None:
    state = table()
    build_up(state, "Naxos", "house", "house", "house", "wall")
    build_up(state, "Thera", "house", "house", "house", "wall")
    place_guards(state, A, "Naxos")  # on an island, no ship anywhere, no way to buy one
    state = state.apply(DieShows(CHANCE, 0, M))
    state = roll(state, M, M, M, M, M).apply(EndTurn(A))
    assert state.is_over(), "Troia and the others can never be built"


# ---------------------------------------------------------------- setup


def test_three_players_take_five_fields_out_two_players_six() -> None:
    state = GAME.setup({"players": 3})
    assert state.to_act().chance and state.removals_left == 5
    for name in ("Troia", "Argos", "Naxos", "Knossos", "Malia"):
        state = state.apply(RemoveField(CHANCE, name))
    assert state.phase == "roll" and state.active_settlements() == [
        "Athen",
        "Mykene",
        "Sparta",
        "Thera",
        "Phaistos",
    ]
    assert GAME.setup({"players": 2}).removals_left == 6
    assert GAME.setup({"players": 4}).phase == "roll"
    assert GAME.setup({"players": 4, "shortened": 8}).removals_left == 8


def test_a_field_out_of_play_cannot_be_entered_or_removed_twice() -> None:
    state = GAME.setup({"players": 3}).apply(RemoveField(CHANCE, "Troia"))
    with pytest.raises(RuleError, match="already holds a gold coin"):
        state.apply(RemoveField(CHANCE, "Troia"))
    state = table()
    state.removed = ("Troia",)
    place_ship(state, A, "NW")
    state = use(roll(state, M, W, W, W, W, W), M, 1)
    with pytest.raises(RuleError, match="out of play"):
        state.apply(Move(A, "ship", "NW", "Troia"))


def test_two_players_have_double_material() -> None:
    state = GAME.setup({"players": 2})
    assert state.ship_supply == [13, 13] and state.guard_supply == [24, 24]
    assert state.cash == [25, 25] and state.ships == {"Fisch": (A, B)}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5}, "from 2 to 4"),
        ({"players": 3, "first_player": 3}, "from 0 to 2"),
        ({"players": 2, "shortened": 3}, "from 0 to 2"),
        ({"shortened": 9}, "from 0 to 8"),
        ({"guards_by_ship": "yes"}, "one of False, True"),
    ],
)
def test_setup_options_out_of_range_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        GAME.setup(options)


def test_cash_is_hidden_unless_the_table_plays_it_open() -> None:
    assert GAME.setup({"players": 4}).public_view()["players"][A]["cash"] is None
    assert GAME.setup({"players": 4, "cash": "open"}).public_view()["players"][A]["cash"] == 25


# ---------------------------------------------------------------- optional rule: guards by ship


def carrying(target_owner: int | None) -> MinosState:
    state = table(guards_by_ship=True)
    build_up(state, "Athen", "house")
    place_guards(state, A, "Athen", 2)
    place_ship(state, A, "Athen")
    if target_owner is not None:
        build_up(state, "Mykene", "house")
        place_guards(state, target_owner, "Mykene")
    state = use(roll(state, M, W, W, W, W, W), M, 1)
    state = state.apply(Embark(A, "Athen"))
    return state.apply(Move(A, "ship", "Athen", "N"))


def test_a_ship_carries_one_guard_to_the_next_settlement() -> None:
    state = carrying(None)
    assert state.aboard == {"N": "Athen"} and state.guards["Athen"] == (A, 1)
    state = state.apply(Move(A, "ship", "N", "Mykene"))
    assert state.guards["Mykene"] == (A, 1) and state.aboard == {}


def test_a_carried_guard_that_misses_its_goal_goes_back() -> None:
    state = carrying(None).apply(EndTurn(A))
    assert state.guards["Athen"] == (A, 2) and state.aboard == {}


def test_without_the_optional_rule_guards_stay_ashore() -> None:
    state = table()
    place_guards(state, A, "Athen")
    place_ship(state, A, "Athen")
    state = roll(state, M, W, W, W, W, W)
    with pytest.raises(RuleError) as refused:
        state.apply(Embark(A, "Athen"))
    assert refused.value.rule == "Zusatzregel"


def test_the_ship_fights_first_then_its_guard() -> None:
    state = carrying(B).apply(Move(A, "ship", "N", "Mykene"))
    assert state.conflict is not None and state.conflict.piece == "ship"
    state = roll(roll(state, *LOSE), *LOSE)  # the ship loses
    assert state.conflict is not None and state.conflict.piece == "carried_guard"
    state = roll(roll(state, *WIN), *LOSE)  # the guard wins
    assert state.guards["Mykene"] == (A, 1) and "N" not in state.ships and state.owner("Mykene") == A


def test_a_carrying_ship_needs_a_free_sea_route() -> None:
    state = table(guards_by_ship=True)
    place_guards(state, A, "Athen")
    place_ship(state, A, "Athen")
    place_ship(state, B, "N")
    state = use(roll(state, M, W, W, W, W, W), M, 1).apply(Embark(A, "Athen"))
    with pytest.raises(RuleError) as refused:
        state.apply(Move(A, "ship", "Athen", "N"))
    assert refused.value.rule == "Zusatzregel"


def test_a_ship_never_carries_two_guards() -> None:
    state = table(guards_by_ship=True)
    place_guards(state, A, "Athen", 3)
    place_ship(state, A, "Athen")
    state = roll(state, M, W, W, W, W, W).apply(Embark(A, "Athen"))
    with pytest.raises(RuleError, match="more than one guard"):
        state.apply(Embark(A, "Athen"))


# ---------------------------------------------------------------- the interface


def test_refused_actions_change_nothing_and_views_hide_nothing_needed() -> None:
    state = roll(with_value(), M, W, W, W, W, W)
    before = state.to_json()
    for action in (Build(A, "Athen", "wall"), BuyShip(A, "Athen"), Move(A, "guard", "Athen", "NW")):
        with pytest.raises(RuleError):
            state.apply(action)
        assert state.to_json() == before
    view = state.public_view()
    assert view["turn"]["dice"] == [M, W, W, W, W, W] and view["players"][A]["value"] == 2
    assert GAME.state_from_json(state.to_json()).to_json() == before


def test_guards_meeting_on_a_path_fight_and_the_winner_stays() -> None:
    state = table()
    place_guards(state, A, "Troia")
    place_guards(state, B, "t1")
    state = use(roll(state, M, W, W, W, W, W), M, 1).apply(Move(A, "guard", "Troia", "t1"))
    assert state.conflict is not None and (state.conflict.defending, state.conflict.siege) == ("guard", False)
    state = roll(roll(state, *WIN), *LOSE)
    assert state.guards == {"Troia": (A, 1)} and state.move_points == 4
    assert state.eliminated[B], "B had no other piece on the board"


def test_a_settlement_held_by_a_ship_alone_falls_to_a_guard() -> None:
    state = table()
    build_up(state, "Athen", "house")
    place_ship(state, B, "Athen")
    place_guards(state, A, "t1")
    state = use(roll(state, M, W, W, W, W, W), M, 1).apply(Move(A, "guard", "t1", "Athen"))
    assert state.conflict is not None and state.conflict.defending == "ship"
    state = roll(roll(state, *WIN), *LOSE)
    assert state.owner("Athen") == A and "Athen" not in state.ships and state.value(A) == 1


def test_a_carrying_ship_that_wins_lands_its_guard_and_gets_the_free_one() -> None:
    state = carrying(B).apply(Move(A, "ship", "N", "Mykene"))
    state = roll(roll(state, *WIN), *LOSE)
    assert state.ships["Mykene"] == (A,) and state.guards["Mykene"] == (A, 2) and state.aboard == {}


def crete_without_money(phaistos_built: bool) -> MinosState:
    """A, penniless, stands on unbuilt Knossos; B, rich, is stuck on Naxos; no ship anywhere."""
    state = table()
    state.removed = ("Malia",)
    for name in ("Troia", "Athen", "Mykene", "Sparta", "Argos"):
        build_up(state, name, "house")
    build_up(state, "Naxos", "house", "house", "house", "wall")
    build_up(state, "Thera", "house", "house", "house", "wall")
    if phaistos_built:
        build_up(state, "Phaistos", "house")
    place_guards(state, A, "Knossos")
    place_guards(state, B, "Naxos")
    state.cash[A], state.cash[B] = 0, 500
    return roll(state, M, M, M, M, M, M).apply(EndTurn(A))


def test_a_penniless_player_who_can_take_a_built_settlement_keeps_the_game_going() -> None:
    state = crete_without_money(phaistos_built=True)
    assert not state.is_over(), "A can walk to Phaistos, draw its income and build on Knossos"
    assert crete_without_money(phaistos_built=False).is_over(), "Knossos and Phaistos can never be built"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"sea_borders": [["Fisch", "Atlantis"]]}, "'Atlantis' is not a field of that kind"),
        ({"sea_borders": [["Fisch", "N"], ["N", "Fisch"]]}, "given twice"),
        ({"start": "Troia"}, "not a sea field"),
        ({"land_points": ["t1", "t2", "t3", "t4", "k1", "Troia"]}, "names used twice: Troia"),
        ({"layout": {"Atlantis": [1, 2]}}, r"layout names unknown fields \['Atlantis'\] or misses \['Troia'"),
    ],
)
def test_a_mistyped_board_is_refused_with_the_mistake_named(change: dict[str, object], message: str) -> None:
    from companion.games.minos.data import Board
    from companion.seeddata import SeedError, load_seed

    with pytest.raises(SeedError, match=message):
        Board.from_seed({**load_seed("minos")["map"], **change})
