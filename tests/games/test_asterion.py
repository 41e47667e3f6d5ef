"""Asterion: the rule text's examples move by move, its refusals, and the escape scoring.

The labyrinth grid has the Minotaur tile at (0, 0), x growing eastwards and y
southwards; rotations are quarter turns clockwise from the printed tile (see
seeds/asterion.toml for the designs).
"""

from __future__ import annotations

import json

import pytest

from companion.games import CHANCE, Action, RuleError, SetupError, get_game
from companion.games.asterion import AsterionState
from companion.games.asterion.actions import (
    LiftTile,
    PlaceTile,
    PlayTile,
    PutTile,
    RotateTile,
    ShowTile,
    SwapTiles,
)
from companion.games.asterion.game import MOVING, PLACING, ROTATING, SWAPPING, TILES, TRAPPING

GAME = get_game("asterion")
YELLOW, BLUE, RED, GREEN = 0, 1, 2, 3


def new_game(players: int = 4, **options: object) -> AsterionState:
    state = GAME.setup({"players": players, **options})
    assert isinstance(state, AsterionState)
    return state


def place(state: AsterionState, design: str, x: int, y: int, rotation: int) -> AsterionState:
    """The player in turn shows the tile in hand and places it."""
    me = state.current
    state = state.apply(PlayTile(me)).apply(ShowTile(CHANCE, me, design))
    return state.apply(PlaceTile(me, x, y, rotation))


def build(state: AsterionState, *placements: tuple[str, int, int, int]) -> AsterionState:
    for design, x, y, rotation in placements:
        state = place(state, design, x, y, rotation)
    return state


def refused(state: AsterionState, action: Action, rule: str) -> RuleError:
    before = state.to_json()
    with pytest.raises(RuleError) as error:
        state.apply(action)
    assert error.value.rule == rule, error.value
    assert state.to_json() == before, "a refused action changed the game"
    return error.value


def dead(state: AsterionState, x: int, y: int) -> bool:
    tile = state.board[(x, y)]
    return not tile.has_living_prisoner()


# ---------------------------------------------------------------- setup and turn order


def test_setup_options_outside_their_ranges_are_refused() -> None:
    for options in (
        {"players": 1},
        {"players": 5},
        {"players": 2, "first_player": 2},
        {"impaling_scores": "yes"},
        {"tie_break": "coins"},
    ):
        with pytest.raises(SetupError):
            GAME.setup(options)


def test_each_player_holds_one_hidden_tile_and_a_deck_of_the_rest() -> None:
    state = new_game(3)
    assert state.in_hand == [1, 1, 1] and state.deck == [15, 15, 15]
    assert list(state.board) == [(0, 0)], "only the Minotaur tile is on the table"
    view = state.public_view()
    assert view["shown"] is None and view["tiles_in_hand"] == [1, 1, 1]
    assert state.component_counts() == {
        "minotaur tile": 1,
        "yellow tiles": 16,
        "blue tiles": 16,
        "red tiles": 16,
    }


def test_play_goes_anticlockwise_from_the_starting_player() -> None:
    # Seats count clockwise, so anticlockwise is the seat before.
    state = new_game(4, first_player=RED)
    order = []
    for x in range(1, 6):
        order.append(state.current)
        state = place(state, "corridor" if x <= 2 else "cell", x, 0, 1)
    assert order == [RED, BLUE, YELLOW, GREEN, RED]


def test_the_table_shows_a_tile_when_it_is_placed_and_designs_weigh_by_count() -> None:
    state = new_game(2)
    state = state.apply(PlayTile(YELLOW))
    assert state.to_act().chance
    odds = {action.design: p for action, p in state.chance_outcomes()}  # type: ignore[attr-defined]
    assert odds["cell"] == pytest.approx(2 / 16) and odds["crossroads"] == pytest.approx(1 / 16)
    state = state.apply(ShowTile(CHANCE, YELLOW, "cell")).apply(PlaceTile(YELLOW, 0, -1, 0))
    state = place(state, "cell", 0, 1, 2)  # blue's own cells do not change yellow's odds
    state = state.apply(PlayTile(YELLOW))
    odds = {action.design: p for action, p in state.chance_outcomes()}  # type: ignore[attr-defined]
    assert odds["cell"] == pytest.approx(1 / 15)


def test_a_design_the_table_has_shown_all_of_is_refused() -> None:
    state = new_game(2)
    state = build(state, ("cell", 0, -1, 0), ("corridor", 0, 1, 1), ("cell", -1, 0, 3), ("corridor", 0, 2, 1))
    state = state.apply(PlayTile(YELLOW))
    error = refused(state, ShowTile(CHANCE, YELLOW, "cell"), TILES)
    assert "all 2 yellow cell tiles" in error.reason
    refused(state, ShowTile(CHANCE, YELLOW, "dragon"), TILES)
    refused(state, ShowTile(CHANCE, BLUE, "bend"), "turn sequence")
    assert ShowTile(CHANCE, YELLOW, "cell") not in state.legal_actions()


def test_actions_out_of_sequence_are_refused() -> None:
    state = new_game(2)
    refused(state, PlaceTile(YELLOW, 1, 0, 0), "turn sequence")
    refused(state, PlayTile(BLUE), "turn order")
    refused(state.apply(PlayTile(YELLOW)), PlayTile(YELLOW), "turn order")
    shown = state.apply(PlayTile(YELLOW)).apply(ShowTile(CHANCE, YELLOW, "bend"))
    refused(shown, RotateTile(YELLOW, 0, 0, 1), "turn sequence")


# ---------------------------------------------------------------- placement


def test_a_tile_goes_orthogonally_next_to_a_placed_tile_in_any_rotation() -> None:
    state = new_game(2).apply(PlayTile(YELLOW)).apply(ShowTile(CHANCE, YELLOW, "bend"))
    targets = {(a.x, a.y) for a in state.legal_actions() if isinstance(a, PlaceTile)}
    assert targets == {(0, -1), (1, 0), (0, 1), (-1, 0)}
    assert {a.rotation for a in state.legal_actions() if isinstance(a, PlaceTile)} == {0, 1, 2, 3}
    refused(state, PlaceTile(YELLOW, 1, 1, 0), PLACING)  # diagonal only
    refused(state, PlaceTile(YELLOW, 5, 5, 0), PLACING)
    refused(state, PlaceTile(YELLOW, 0, 0, 0), PLACING)
    refused(state, PlaceTile(YELLOW, 1, 0, 4), PLACING)
    # Paths need not meet: a wall may face a path.
    state = state.apply(PlaceTile(YELLOW, 1, 0, 0))
    assert state.board[(1, 0)].rotation == 0 and not dead(state, 1, 0)


def test_trapping_the_minotaur_is_refused_and_a_correct_placement_accepted() -> None:
    """The text's 'correct placement / incorrect placement' figure: Asterion keeps a way out."""
    state = new_game(2)
    # Walls close three of Asterion's four sides; only the east stays open.
    state = build(state, ("cell", 0, -1, 0), ("cell", -1, 0, 3), ("cell", 0, 1, 2))
    assert state.public_view()["asterion_reaches_outside_at"] == [[1, 0]]
    shown = state.apply(PlayTile(BLUE)).apply(ShowTile(CHANCE, BLUE, "cell"))
    refused(shown, PlaceTile(BLUE, 1, 0, 1), TRAPPING)  # a wall against his last path
    refused(shown, PlaceTile(BLUE, 1, 0, 3), TRAPPING)  # a dead end: no way out either
    assert not any((a.x, a.y) == (1, 0) for a in shown.legal_actions() if isinstance(a, PlaceTile))
    state = shown.apply(PlaceTile(BLUE, 1, -1, 0))
    # Correct: a corridor carries his path on to the outside (and impales its own prisoner).
    state = place(state, "corridor", 1, 0, 1)
    assert state.public_view()["asterion_reaches_outside_at"] == [[2, 0]]
    assert dead(state, 1, 0) and state.impaling_points == [-1, 0]


# ---------------------------------------------------------------- impaling


def impaling_example(**options: object) -> AsterionState:
    """Green's corridor and blue's dead end form one path, open towards yellow's coming tile."""
    state = new_game(4, **options)
    return build(
        state,
        ("cell", 0, -1, 0),  # yellow: a wall against Asterion's north
        ("corridor", 1, -1, 0),  # green
        ("cell", -1, 0, 3),  # red
        ("cell", 1, -2, 2),  # blue, joined to green's corridor
    )


def test_example_yellows_tile_impales_a_blue_and_a_green_prisoner() -> None:
    state = impaling_example()
    assert state.current == YELLOW and state.killed() == [0, 0, 0, 0]
    # The coin bend joins Asterion to green's corridor; the prisoner bend leads outside.
    state = place(state, "chest bends", 1, 0, 1)
    assert state.killed() == [0, 1, 0, 1], "blue and green are killed at once"
    assert dead(state, 1, -1) and dead(state, 1, -2) and not dead(state, 1, 0)
    assert state.impaling_points == [2, 0, 0, 0], "two opponents impaled"
    view = state.public_view()
    green_tile = next(t for t in view["board"] if (t["x"], t["y"]) == (1, -1))
    assert green_tile["paths"][0]["dead"] is True


def test_own_prisoners_impaled_count_against_the_player() -> None:
    state = place(impaling_example(), "bend", 1, 0, 3)  # the prisoner's own bend joins Asterion
    assert state.killed() == [1, 1, 0, 1]
    assert state.impaling_points == [1, 0, 0, 0], "two opponents minus one own"


def test_less_confrontational_game_impales_without_scoring() -> None:
    state = place(impaling_example(impaling_scores=False), "chest bends", 1, 0, 1)
    assert state.killed() == [0, 1, 0, 1]
    assert state.impaling_points == [0, 0, 0, 0] and state.scores() == [0, 0, 0, 0]


# ---------------------------------------------------------------- optional actions


def rotation_position() -> AsterionState:
    """Yellow's coin bend touches Asterion; blue's dead end joins yellow's prisoner bend."""
    state = new_game(2)
    return build(state, ("chest bends", 1, 0, 0), ("cell", 1, -1, 2))


def test_rotating_an_own_tile_costs_the_tile_in_hand_and_impales_as_usual() -> None:
    state = rotation_position()
    assert state.killed() == [0, 0]
    state = state.apply(RotateTile(YELLOW, 1, 0, 1))
    assert state.board[(1, 0)].rotation == 1
    assert state.killed() == [0, 1] and state.impaling_points == [1, 0]
    assert state.discarded == [1, 0] and state.in_hand == [1, 1] and state.deck == [13, 14]
    assert state.current == BLUE
    # Killed prisoners remain dead, even when the tile turns away again.
    state = place(state, "cell", -1, 0, 3)
    state = state.apply(RotateTile(YELLOW, 1, 0, 0))
    assert state.killed() == [0, 1] and dead(state, 1, -1)
    refused(state, LiftTile(BLUE, 1, -1), MOVING)  # its prisoner is dead


def test_rotating_is_refused_for_others_tiles_same_looks_and_trapping() -> None:
    state = rotation_position()
    refused(state, RotateTile(YELLOW, 1, -1, 0), ROTATING)  # blue's tile
    refused(state, RotateTile(YELLOW, 0, 0, 1), ROTATING)  # the Minotaur tile
    refused(state, RotateTile(YELLOW, 2, 0, 1), ROTATING)  # no tile there
    refused(state, RotateTile(YELLOW, 1, 0, 0), ROTATING)  # its present orientation
    refused(state, RotateTile(YELLOW, 1, 0, 7), ROTATING)
    # Walls on three sides; Asterion leaves through the coin bend to the south-east.
    state = build(state, ("cell", 0, -1, 0), ("cell", -1, 0, 3), ("cell", 0, 1, 2), ("corridor", -2, 0, 1))
    assert state.current == YELLOW and state.public_view()["asterion_reaches_outside_at"] == [[1, 1]]
    for trapping in (1, 3):  # his path would end in blue's dead end
        assert RotateTile(YELLOW, 1, 0, trapping) not in state.legal_actions()
        refused(state, RotateTile(YELLOW, 1, 0, trapping), TRAPPING)
    assert RotateTile(YELLOW, 1, 0, 2) in state.legal_actions()


def test_a_rotation_must_change_how_the_tile_looks() -> None:
    state = swap_position()
    error = refused(state, RotateTile(YELLOW, 0, -1, 3), ROTATING)  # a corridor turned half round
    assert "look the same" in error.reason


def swap_position() -> AsterionState:
    state = new_game(2)
    # Walls against Asterion's north (yellow's corridor), west and south (yellow's dead end).
    return build(state, ("corridor", 0, -1, 1), ("cell", -1, 0, 3), ("cell", 0, 1, 2), ("cell", -2, 0, 3))


def test_swapping_two_own_tiles_keeps_their_orientations() -> None:
    state = swap_position()
    state = state.apply(SwapTiles(YELLOW, 0, -1, 0, 1))
    cell, corridor = state.board[(0, -1)], state.board[(0, 1)]
    assert (cell.rotation, corridor.rotation) == (2, 1)
    # The dead end now points south into Asterion's path: yellow impales her own prisoner.
    assert dead(state, 0, -1) and not dead(state, 0, 1)
    assert state.impaling_points == [-1, 0] and state.discarded == [1, 0]


def test_swapping_is_refused_unless_both_tiles_qualify() -> None:
    state = swap_position()
    refused(state, SwapTiles(YELLOW, 0, -1, 0, -1), SWAPPING)
    refused(state, SwapTiles(YELLOW, 0, -1, -1, 0), SWAPPING)  # blue's tile
    refused(state, SwapTiles(YELLOW, 0, -1, 0, 0), SWAPPING)  # the Minotaur tile
    # Surround yellow's corridor on all four sides: it has no free side left.
    state = build(state, ("junction", -1, -1, 0), ("bend", 1, -1, 0), ("corridor", 0, -2, 1))
    assert state.current == BLUE
    state = place(state, "junction", -3, 0, 0)
    error = refused(state, SwapTiles(YELLOW, 0, -1, 0, 1), SWAPPING)
    assert "free side" in error.reason


def test_moving_an_own_tile_lifts_it_and_puts_it_down_elsewhere_in_any_rotation() -> None:
    state = swap_position()
    state = state.apply(LiftTile(YELLOW, 0, 1))
    assert (0, 1) not in state.board and state.to_act().seats == (YELLOW,)
    refused(state, PutTile(YELLOW, 0, 1, 0), MOVING)  # somewhere else
    refused(state, PutTile(YELLOW, 4, 4, 0), MOVING)  # next to a placed tile
    refused(state, PutTile(YELLOW, -1, 0, 0), MOVING)  # occupied
    state = state.apply(PutTile(YELLOW, 1, -1, 3))
    assert state.board[(1, -1)].rotation == 3 and (0, 1) not in state.board
    assert state.discarded == [1, 0] and state.current == BLUE
    assert state.component_counts()["yellow tiles"] == 16


def test_a_move_may_not_trap_the_minotaur() -> None:
    state = swap_position()
    state = build(state, ("corridor", 1, 1, 0), ("bend", -1, 1, 0))
    assert state.public_view()["asterion_reaches_outside_at"] == [[1, 0]], "his only way out: east"
    state = state.apply(LiftTile(YELLOW, 1, 1))
    refused(state, PutTile(YELLOW, 1, 0, 0), TRAPPING)  # the corridor's wall across his path
    assert PutTile(YELLOW, 1, 0, 0) not in state.legal_actions()
    state = state.apply(PutTile(YELLOW, 1, 0, 1))  # along his path: it leads on to the outside
    assert state.public_view()["asterion_reaches_outside_at"] == [[2, 0]]
    assert dead(state, 1, 0) and state.impaling_points == [-1, 0]


# ---------------------------------------------------------------- escape scoring


def test_prisoners_escape_with_every_coin_their_path_joins_when_it_leads_outside() -> None:
    state = new_game(2, impaling_scores=False)
    state = place(state, "treasure corridor", -1, 0, 0)  # yellow: prisoner and chest, open both ends
    assert state.escapes() == ([1, 0], [1, 0], [1, 0])
    state = place(state, "cell", -1, -1, 2)  # blue's prisoner joins the same path and chest
    assert state.escapes() == ([1, 1], [1, 1], [1, 1])
    state = place(state, "cell", -1, 1, 0)  # yellow closes the south end: no way out, no wings
    assert state.escapes() == ([0, 0], [0, 0], [0, 0])
    state = place(state, "corridor", 1, 0, 0)  # blue: outside, but no coin
    assert state.escapes() == ([0, 0], [0, 0], [0, 1]), "escaping without coins scores nothing"


# ---------------------------------------------------------------- the endgame example

# A whole 4-player game, tile by tile (seat, design, x, y, rotation), found by a search
# so that its end is the text's endgame example.
ENDGAME = [
    # round 1
    (YELLOW, "treasure bend", 0, 1, 3),
    (GREEN, "wing corridor", 1, 1, 0),
    (RED, "junction", -1, 0, 2),
    (BLUE, "treasure junction", 0, -1, 2),
    # round 2
    (YELLOW, "treasure junction", -1, 1, 0),
    (GREEN, "cell", 0, -2, 3),
    (RED, "corridor", 1, -2, 1),
    (BLUE, "cell", 0, 2, 2),
    # round 3
    (YELLOW, "treasure corridor", -2, 0, 1),
    (GREEN, "corridor", 1, -1, 0),
    (RED, "treasury", 2, -2, 1),
    (BLUE, "treasure bend", 1, 0, 3),
    # round 4
    (YELLOW, "treasury", 2, -3, 1),
    (GREEN, "bend", 2, -1, 2),
    (RED, "cell", -2, 1, 3),
    (BLUE, "treasure corridor", -3, 0, 0),
    # round 5
    (YELLOW, "wing corridor", 3, -2, 1),
    (GREEN, "wing bends", 4, -2, 1),
    (RED, "treasure junction", -1, 2, 3),
    (BLUE, "wing bends", -1, 3, 1),
    # round 6
    (YELLOW, "corridor", -3, -1, 0),
    (GREEN, "chest bends", 4, -3, 0),
    (RED, "chest bends", -2, 3, 0),
    (BLUE, "wing corridor", -3, 3, 1),
    # round 7
    (YELLOW, "cell", -3, 1, 0),
    (GREEN, "horned junction", -1, -1, 1),
    (RED, "hidden chest", -3, 4, 0),
    (BLUE, "treasury", -4, 3, 1),
    # round 8
    (YELLOW, "junction", 2, 0, 3),
    (GREEN, "treasure bend", -2, 2, 0),
    (RED, "cell", -4, -1, 2),
    (BLUE, "corridor", 1, -3, 0),
    # round 9
    (YELLOW, "crossroads", 3, -1, 0),
    (GREEN, "crossroads", 5, -2, 0),
    (RED, "crossroads", -1, 4, 0),
    (BLUE, "cell", 0, 4, 0),
    # round 10
    (YELLOW, "wing bends", -5, 3, 1),
    (GREEN, "cell", -5, 4, 2),
    (RED, "treasure corridor", 3, -3, 1),
    (BLUE, "corridor", -3, -2, 0),
    # round 11
    (YELLOW, "corridor", 1, 2, 1),
    (GREEN, "junction", -1, 5, 2),
    (RED, "wing bends", -2, 4, 1),
    (BLUE, "hidden chest", 0, -3, 2),
    # round 12
    (YELLOW, "hidden chest", 1, 3, 0),
    (GREEN, "treasure corridor", 2, 3, 1),
    (RED, "wing corridor", 4, -1, 1),
    (BLUE, "crossroads", 0, -4, 0),
    # round 13
    (YELLOW, "bend", 0, -5, 2),
    (GREEN, "treasure junction", 3, 3, 1),
    (RED, "bend", -2, -1, 0),
    (BLUE, "chest bends", 4, 3, 1),
    # round 14
    (YELLOW, "horned junction", -2, -2, 0),
    (GREEN, "hidden chest", 3, 4, 3),
    (RED, "treasure bend", -1, -2, 3),
    (BLUE, "junction", -2, -3, 0),
    # round 15
    (YELLOW, "chest bends", 0, 5, 1),
    (GREEN, "treasury", -4, 4, 0),
    (RED, "corridor", -1, -3, 0),
    (BLUE, "horned junction", -2, -4, 2),
    # round 16
    (YELLOW, "cell", 0, -6, 1),
    (GREEN, "corridor", -1, -4, 0),
    (RED, "horned junction", -1, -5, 0),
    (BLUE, "bend", -3, -4, 1),
]


def play_endgame(**options: object) -> AsterionState:
    state = new_game(4, **options)
    for seat, design, x, y, rotation in ENDGAME:
        assert state.current == seat, "turns go yellow, green, red, blue (anticlockwise)"
        state = place(state, design, x, y, rotation)
    return state


def test_endgame_example_four_players() -> None:
    state = play_endgame(impaling_scores=False)
    assert state.is_over(), "the game ends when the last tile has been played"
    assert state.in_hand == [0, 0, 0, 0] and state.deck == [0, 0, 0, 0] and state.legal_actions() == []
    assert sum(state.killed()) == 22, "Asterion has captured 22 prisoners"
    scoring = [n for n in state.networks() if n.coins and not n.asterion and any(n.living.values())]
    scoring = [n for n in scoring if n.escapes()]
    assert sorted((n.outside, n.coins, n.wings >= 2) for n in scoring) == [
        (False, 3, True),
        (False, 4, True),
        (True, 1, False),
        (True, 5, False),
    ], "two chest groups lead outside, two others only to two wings"
    groups = {n.coins: sorted({cell for cell, _ in n.nodes}) for n in scoring}
    # Yellow and red fly off with 4 chests: a ring of six tiles closed on itself.
    assert groups[4] == [(2, -3), (2, -2), (3, -3), (3, -2), (4, -3), (4, -2)]
    # Blue flies off with 3 chests: five tiles closed on themselves.
    assert groups[3] == [(-4, 3), (-3, 3), (-3, 4), (-2, 3), (-2, 4)]
    # Yellow and blue walk out northwards at (-3, -3) with one chest.
    assert groups[1] == [(-3, -2), (-3, -1), (-3, 0), (-3, 1)]
    # Green walks out northwards at (4, 2) with five chests.
    assert groups[5] == [(1, 3), (2, 3), (3, 3), (3, 4), (4, 3)]
    assert {seat: n for net in scoring for seat, n in net.living.items() if net.coins == 4} == {
        YELLOW: 2,
        RED: 2,
    }
    points, with_coins, _ = state.escapes()
    assert points == [1 + 1 + 4 + 4, 1 + 1 + 3 + 3, 4 + 4, 5 + 5]
    assert state.scores() == [10, 8, 8, 10]
    assert with_coins == [4, 4, 2, 2]
    # Ties: yellow escapes with more prisoners than green, blue than red.
    assert state.ranking() == [[YELLOW], [GREEN], [BLUE], [RED]]
    with pytest.raises(RuleError) as error:
        state.apply(PlayTile(YELLOW))
    assert error.value.rule == "game end"


def test_endgame_tie_break_reading_only_escaping_with_coins() -> None:
    at_all = play_endgame(impaling_scores=False)
    with_coins = play_endgame(impaling_scores=False, tie_break="escaping_with_coins")
    assert at_all.escapes()[2] == [10, 9, 7, 9], "counting prisoners escaping without coins too"
    assert with_coins.ranking() == at_all.ranking() == [[YELLOW], [GREEN], [BLUE], [RED]]


def test_endgame_scores_add_the_killings_made_during_the_game() -> None:
    state = new_game(4)
    expected = [0, 0, 0, 0]
    for seat, design, x, y, rotation in ENDGAME:
        before = state.killed()
        state = place(state, design, x, y, rotation)
        newly = [after - was for after, was in zip(state.killed(), before, strict=True)]
        expected[seat] += sum(newly) - newly[seat] - newly[seat]  # opponents' minus her own
    assert state.impaling_points == expected and expected != [0, 0, 0, 0]
    escape_points = state.escapes()[0]
    assert state.scores() == [e + k for e, k in zip(escape_points, expected, strict=True)]


def test_a_tie_in_points_and_escapes_is_shared() -> None:
    assert new_game(3).ranking() == [[0, 1, 2]], "the text says: play again"


def test_state_and_view_survive_json() -> None:
    state = rotation_position().apply(LiftTile(YELLOW, 1, 0))
    data = json.loads(json.dumps(state.to_json()))
    assert GAME.state_from_json(data).to_json() == data
    assert json.loads(json.dumps(state.public_view()))["lifted"]["design"] == "chest bends"
