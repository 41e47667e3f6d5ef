"""Minoa: the board's geometry, the rule text's examples move by move, and its refusals.

The rule text's figures are missing, so each example is rebuilt on the board as its caption
describes it. Lattice points are (x, y) in the doubled coordinates of companion/games/minoa/board.py:
rows y = 0 to 8 from the top, x in half steps from the centre line; the centre of the board is (0, 4).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from companion.games import RuleError, SetupError
from companion.games.minoa import (
    BOARD,
    EMPTY,
    STICK,
    MinoaState,
    Pass,
    PlacePiece,
    PlaceStick,
    find_areas,
)
from companion.games.minoa.board import Vertex, line_diagram, triangle_diagram

GAME = MinoaState.game
RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
DOCS = Path(__file__).resolve().parents[2] / "docs"


def line(a: Vertex, b: Vertex) -> int:
    return BOARD.line_between(a, b)


def path(*points: Vertex) -> list[int]:
    """The lines along a walk through neighbouring lattice points."""
    return [line(a, b) for a, b in itertools.pairwise(points)]


def side(number: int) -> list[int]:
    """The edge lines of one side of the hexagon, clockwise; side 0 is the top one."""
    return list(BOARD.edges_clockwise[4 * number : 4 * number + 4])


def play(state: MinoaState, *moves: tuple[str, int, int]) -> MinoaState:
    for what, seat, number in moves:
        action = PlaceStick(seat, number) if what == "stick" else PlacePiece(seat, number)
        assert state.current == seat, f"{action.label()}: it is seat {state.current}'s turn"
        state = state.apply(action)
    return state


def sticks_in_turn(state: MinoaState, lines: list[int]) -> MinoaState:
    for number in lines:
        state = state.apply(PlaceStick(state.current, number))
    return state


def refused(state: MinoaState, action: PlaceStick | PlacePiece | Pass, rule: str) -> RuleError:
    before = state.to_json()
    with pytest.raises(RuleError) as error:
        state.apply(action)
    assert error.value.rule == rule
    assert state.to_json() == before, "a refused action changes nothing"
    return error.value


MIDDLE_ROW = path(*[(x, 4) for x in range(-8, 9, 2)])
"""The straight line through the centre from the left corner to the right corner: 8 interior lines."""
SPARE_STICKS = [n for n in BOARD.interior_lines if BOARD.lines[n][0][1] == BOARD.lines[n][1][1]]
"""Interior horizontal lines: sticks on these alone never close an area off (each row reaches the edge)."""


# ---------------------------------------------------------------- the board


def test_the_board_is_a_hexagon_of_side_4_with_96_triangles_and_156_lines() -> None:
    assert len(BOARD.triangles) == 96
    assert len(BOARD.lines) == 156
    assert len(BOARD.edge_lines) == 24 == 12 + 12 == 3 * 8 == 4 * 6
    assert len(BOARD.interior_lines) == 132
    assert len(BOARD.edges_clockwise) == 24 and set(BOARD.edges_clockwise) == set(BOARD.edge_lines)
    assert all(len(BOARD.line_triangles[n]) == 1 for n in BOARD.edge_lines)
    assert all(len(BOARD.line_triangles[n]) == 2 for n in BOARD.interior_lines)
    with_an_edge = [t for t, sides in enumerate(BOARD.triangle_lines) if any(BOARD.is_edge[n] for n in sides)]
    assert len(with_an_edge) == 24, "every edge line belongs to its own triangle"
    vertices = {v for ends in BOARD.lines for v in ends}
    assert len(vertices) - len(BOARD.lines) + len(BOARD.triangles) == 1, "Euler: a disc"


def test_the_numbering_reads_top_to_bottom_left_to_right() -> None:
    assert side(0) == [0, 1, 2, 3], "the top side, left to right"
    assert BOARD.lines[0] == ((-4, 0), (-2, 0))
    assert BOARD.triangles[0] == ((-4, 0), (-5, 1), (-3, 1)), "triangle 0 is the top left one"
    assert BOARD.triangles[95] == ((3, 7), (5, 7), (4, 8)), "triangle 95 is the bottom right one"
    midpoints = [(a[1] + b[1], a[0] + b[0]) for a, b in BOARD.lines]
    assert midpoints == sorted(midpoints), "lines in reading order of their midpoints"
    centres = [(min(y for _, y in c), sum(x for x, _ in c)) for c in BOARD.triangles]
    assert centres == sorted(centres), "triangles row by row, left to right"
    rows = [sum(1 for row, _ in centres if row == y) for y in range(8)]
    assert rows == [9, 11, 13, 15, 15, 13, 11, 9]
    horizontal = [sum(1 for a, b in BOARD.lines if a[1] == b[1] == y) for y in range(9)]
    assert horizontal == [4, 5, 6, 7, 8, 7, 6, 5, 4]
    assert side(3) == [155, 154, 153, 152], "the bottom side, right to left going clockwise"
    assert BOARD.edge_place(13) == "upper right side, 1 of 4 clockwise"
    assert PlacePiece(RED, 13).label() == "red piece on edge line 13 (upper right side, 1 of 4 clockwise)"


def test_the_documented_pictures_are_the_computed_numbering() -> None:
    text = (DOCS / "minoa-board.md").read_text()
    assert line_diagram(BOARD) in text
    assert triangle_diagram(BOARD) in text


def test_sixty_sticks_are_exactly_enough_to_leave_24_areas_of_one_edge_line_each() -> None:
    """Every stick must leave each area an edge, so 60 sticks = 132 - (96 - 24) end in 24 trees."""
    state = GAME.setup({"players": 2})
    while state.sticks_left:
        state = state.apply(PlaceStick(state.current, state.legal_sticks()[0]))
    areas = state.areas()
    assert len(areas) == 24 and all(a.vacant_edge_lines == 1 for a in areas)
    assert not state.is_over(), "the pieces are still to be placed"
    assert all(isinstance(a, PlacePiece) for a in state.legal_actions())
    vacant_inside = next(n for n in BOARD.interior_lines if state.lines[n] == EMPTY)
    refused(state, PlaceStick(state.current, vacant_inside), "material: 60 black sticks")


# ---------------------------------------------------------------- preparation and play


@pytest.mark.parametrize(("players", "each"), [(2, 12), (3, 8), (4, 6)])
def test_preparation_pieces_per_player_and_red_begins(players: int, each: int) -> None:
    state = GAME.setup({"players": players})
    assert state.hands == [each] * players
    assert state.sticks_left == 60
    assert state.current == RED
    assert list(state.public_view()["pieces_in_hand"]) == ["red", "blue", "yellow", "green"][:players]
    assert state.component_counts()["black sticks"] == 60


def test_a_turn_is_one_stick_or_one_piece_and_turns_go_clockwise() -> None:
    state = GAME.setup({"players": 3})
    state = play(state, ("stick", RED, MIDDLE_ROW[0]), ("piece", BLUE, 0), ("stick", YELLOW, MIDDLE_ROW[1]))
    assert state.current == RED
    assert state.lines[MIDDLE_ROW[0]] == STICK and state.lines[0] == BLUE
    assert (state.sticks_left, state.hands) == (58, [8, 7, 8])
    legal = state.legal_actions()
    assert {type(a) for a in legal} == {PlaceStick, PlacePiece} and all(a.by == RED for a in legal)


def test_figure_2_sticks_only_inside_pieces_only_on_the_edge() -> None:
    state = GAME.setup({"players": 2})
    inside, edge = line((0, 4), (2, 4)), side(0)[1]
    state = play(state, ("stick", RED, inside), ("piece", BLUE, edge))
    error = refused(state, PlaceStick(RED, side(1)[0]), "play: black sticks only inside")
    assert "upper right side" in error.reason
    refused(state, PlacePiece(RED, line((-2, 4), (0, 4))), "play: own pieces only on the edge")
    legal = state.legal_actions()
    assert all(BOARD.is_edge[a.line] for a in legal if isinstance(a, PlacePiece))
    assert all(not BOARD.is_edge[a.line] for a in legal if isinstance(a, PlaceStick))


def test_one_stick_or_piece_per_line_and_nothing_moves() -> None:
    state = play(GAME.setup({"players": 2}), ("stick", RED, MIDDLE_ROW[0]), ("piece", BLUE, 0))
    refused(state, PlaceStick(RED, MIDDLE_ROW[0]), "play: one stick or piece per line")
    refused(state, PlacePiece(RED, 0), "play: one stick or piece per line")
    refused(state, PlaceStick(RED, 156), "the board")
    refused(state, PlacePiece(RED, -1), "the board")
    assert GAME.action_types == (PlaceStick, PlacePiece, Pass), "there is no action that moves or removes"


def test_figure_3_no_area_may_be_closed_off_without_an_edge() -> None:
    """Closing the six triangles round the centre would make an interior territory: refused."""
    ring = path((-1, 3), (1, 3), (2, 4), (1, 5), (-1, 5), (-2, 4), (-1, 3))
    state = sticks_in_turn(GAME.setup({"players": 2}), ring[:5])
    error = refused(state, PlaceStick(BLUE, ring[5]), "play: every area must trace to an edge")
    centre = [t for t, corners in enumerate(BOARD.triangles) if (0, 4) in corners]
    assert error.reason.endswith(f"close off triangles {', '.join(map(str, centre))} without an edge")
    assert ring[5] not in state.legal_sticks()
    # A single triangle inside is just as forbidden; one at the edge may be closed off.
    single = path((-1, 3), (1, 3), (0, 4), (-1, 3))
    state = sticks_in_turn(GAME.setup({"players": 2}), single[:2])
    refused(state, PlaceStick(RED, single[2]), "play: every area must trace to an edge")
    assert state.current == RED
    corner = sticks_in_turn(GAME.setup({"players": 2}), path((-4, 0), (-3, 1), (-5, 1)))
    assert [0] in [list(a.triangles) for a in corner.areas()], "triangle 0 keeps its edge line: allowed"


def test_closing_with_a_coloured_edge_when_set() -> None:
    """Option closing=coloured_edge: each part must already show a piece on its edge."""
    cut = path((-4, 0), (-3, 1), (-5, 1))
    state = sticks_in_turn(GAME.setup({"players": 2, "closing": "coloured_edge"}), cut[:1])
    error = refused(state, PlaceStick(BLUE, cut[1]), "play: every area must trace to an edge")
    assert "without an edge line holding a piece" in error.reason
    state = play(state, ("piece", BLUE, BOARD.edges_clockwise[23]), ("piece", RED, 0))
    assert BOARD.line_triangles[BOARD.edges_clockwise[23]] == (0,)
    state = state.apply(PlaceStick(BLUE, cut[1]))
    assert [0] in [list(a.triangles) for a in state.areas()]


def test_pass_only_with_no_piece_left_and_no_stick_possible() -> None:
    state = GAME.setup({"players": 3})
    refused(state, Pass(RED), "play: one stick or one piece each turn")
    while state.sticks_left or state.current != BLUE:  # blue places its pieces; the others use up the sticks
        seat = state.current
        if (seat == BLUE or not state.sticks_left) and state.hands[seat]:
            state = state.apply(PlacePiece(seat, state.vacant_edge_lines()[0]))
        else:
            state = state.apply(PlaceStick(seat, state.legal_sticks()[0]))
    assert state.hands[BLUE] == 0 and not state.is_over()
    assert state.legal_actions() == [Pass(BLUE)]
    after = state.apply(Pass(BLUE))
    assert after.current == YELLOW and after.lines == state.lines and after.hands == state.hands
    refused(after, Pass(YELLOW), "play: one stick or one piece each turn")


# ---------------------------------------------------------------- figure 4: the last pieces


def test_figure_4_last_piece_with_one_other_player_holding_pieces_fills_the_edge_at_once() -> None:
    state = GAME.setup({"players": 3})
    spare = iter(SPARE_STICKS)
    blue_edges = iter(side(2) + side(3))
    red_edges = iter(side(0) + side(1))
    yellow_edges = iter(side(4) + side(5))
    for _round in range(8):  # blue places all eight pieces first
        state = play(state, ("stick", RED, next(spare)), ("piece", BLUE, next(blue_edges)))
        state = play(state, ("stick", YELLOW, next(spare)))
    assert state.hands == [8, 0, 8]
    refused(state.apply(PlaceStick(RED, next(spare))), PlacePiece(BLUE, 0), "preparation: own pieces")
    for turn in range(7):
        state = play(state, ("piece", RED, next(red_edges)), ("stick", BLUE, next(spare)))
        yellow_move = ("piece", YELLOW, next(yellow_edges)) if turn < 3 else ("stick", YELLOW, next(spare))
        state = play(state, yellow_move)
        assert state.auto_filled == []
    assert state.hands == [1, 0, 5]
    last = next(red_edges)
    rest = [n for n in state.vacant_edge_lines() if n != last]
    assert len(rest) == 5
    state = play(state, ("piece", RED, last))  # red's last piece: only yellow holds pieces
    assert state.hands == [0, 0, 0]
    assert state.auto_filled == rest and all(state.lines[n] == YELLOW for n in rest)
    assert state.public_view()["auto_filled"] == rest
    assert state.current == BLUE, "the filling is instant and out of turn: play goes on clockwise"
    assert not state.is_over(), "areas still show several colours: sticks go on"


def test_no_filling_while_two_other_players_hold_pieces() -> None:
    state = GAME.setup({"players": 3})
    red_edges = iter(side(0) + side(1))
    for number in range(8):
        state = play(
            state,
            ("piece", RED, next(red_edges)),
            ("stick", BLUE, SPARE_STICKS[2 * number]),
            ("stick", YELLOW, SPARE_STICKS[2 * number + 1]),
        )
    assert state.hands == [0, 8, 8] and state.auto_filled == []
    assert len(state.vacant_edge_lines()) == 16


# ---------------------------------------------------------------- the end and figure 5


FIGURE_5_CUT = path(
    (-8, 4), (-6, 4), (-5, 5), (-3, 5), (-1, 5), (1, 5), (3, 5), (5, 5), (4, 4), (6, 4), (8, 4)
)
"""From the left corner to the right corner, dipping one row down: red's side holds 48 + 10 triangles."""


def test_figure_5_red_scores_58_and_wins() -> None:
    state = GAME.setup({"players": 2})
    red_edges = side(5) + side(0) + side(1)  # upper left, top, upper right
    blue_edges = side(2) + side(3) + side(4)
    for turn in range(11):
        state = play(state, ("piece", RED, red_edges[turn]), ("piece", BLUE, blue_edges[turn]))
    state = play(state, ("piece", RED, red_edges[11]))
    assert state.auto_filled == [blue_edges[11]], "blue's twelfth piece follows red's last at once"
    assert state.current == BLUE and not state.is_over(), "one area shows two colours"
    for number in FIGURE_5_CUT[:-1]:
        state = state.apply(PlaceStick(state.current, number))
        assert not state.is_over()
    state = state.apply(PlaceStick(state.current, FIGURE_5_CUT[-1]))
    assert state.is_over() and state.end == "every area is assigned"
    assert state.scores() == [58, 38] and sum(state.scores()) == 96
    assert state.ranking() == [[RED], [BLUE]]
    assert state.legal_actions() == []
    refused(state, PlaceStick(state.current, MIDDLE_ROW[3]), "game end")
    view = state.public_view()
    assert sorted((a["size"], a["claimed_by"]) for a in view["areas"]) == [(38, ["blue"]), (58, ["red"])]
    assert view["territory"] == {"red": 58, "blue": 38} and view["ranking"] == [[RED], [BLUE]]


def halves() -> MinoaState:
    """Red places on the upper half's twelve edge lines, blue on the lower half's; no sticks yet."""
    state = GAME.setup({"players": 2})
    for turn in range(12):
        state = play(state, ("piece", RED, (side(5) + side(0) + side(1))[turn]))
        if state.hands[BLUE]:
            state = play(state, ("piece", BLUE, (side(2) + side(3) + side(4))[turn]))
    return state


def test_a_draw_48_to_48() -> None:
    state = sticks_in_turn(halves(), MIDDLE_ROW)
    assert state.is_over() and state.scores() == [48, 48]
    assert state.ranking() == [[RED, BLUE]], "96 triangles: a draw shares first place"


def test_the_game_goes_on_until_every_area_shows_one_colour() -> None:
    state = sticks_in_turn(halves(), MIDDLE_ROW[:7])
    assert state.hands == [0, 0] and not state.is_over()
    assert state.scores() == [0, 0], "the one area shows two colours: nobody's yet"
    assert MIDDLE_ROW[7] in state.legal_sticks()


def test_an_area_is_not_settled_while_an_edge_line_is_vacant() -> None:
    """Red closes off the upper half before blue has placed: blue could still place a piece there."""
    state = GAME.setup({"players": 2})
    for number in range(8):
        state = play(state, ("piece", RED, (side(5) + side(0))[number]), ("stick", BLUE, MIDDLE_ROW[number]))
    assert state.scores() == [48, 0], "provisional: the upper half shows only red so far"
    assert not state.is_over()
    state = play(state, ("piece", RED, side(1)[0]), ("piece", BLUE, side(1)[1]))
    assert state.scores() == [0, 0], "blue's piece on the upper right side spoils red's area"


# ---------------------------------------------------------------- four players


SPOKES = path((0, 0), (-1, 1), (0, 2), (-1, 3), (0, 4)) + path((0, 4), (1, 5), (0, 6), (1, 7), (0, 8))
"""A zigzag from the top side's middle through the centre to the bottom side's middle."""
UPPER_LEFT, UPPER_RIGHT = side(5) + side(0)[:2], side(0)[2:] + side(1)
LOWER_RIGHT, LOWER_LEFT = side(2) + side(3)[:2], side(3)[2:] + side(4)


def four_players(edges: dict[int, list[int]], **options: str) -> MinoaState:
    """Each seat places its six pieces on the six edge lines given, in turn."""
    state = GAME.setup({"players": 4, **options})
    for turn in range(6):
        for seat in (RED, BLUE, YELLOW, GREEN):
            if state.hands[seat] and state.current == seat:
                state = play(state, ("piece", seat, edges[seat][turn]))
    assert state.hands == [0, 0, 0, 0]
    assert state.auto_filled == [edges[GREEN][5]], "yellow's last piece: green's last follows at once"
    assert state.current == GREEN
    return state


QUARTERS = {RED: UPPER_LEFT, BLUE: UPPER_RIGHT, YELLOW: LOWER_RIGHT, GREEN: LOWER_LEFT}


def test_four_players_partners_facing_each_other_add_their_scores() -> None:
    state = sticks_in_turn(four_players(QUARTERS), MIDDLE_ROW + SPOKES)
    assert state.is_over()
    # The zigzag leans left above the centre and right below it.
    assert state.individual_territory() == [22, 26, 22, 26]
    assert state.scores() == [44, 52, 44, 52], "red with yellow, blue with green"
    assert state.ranking() == [[BLUE, GREEN], [RED, YELLOW]]
    assert state.public_view()["teams"] == [["red", "yellow"], ["blue", "green"]]


def test_four_players_alone_when_set() -> None:
    state = four_players(QUARTERS, four_player_scoring="individual")
    state = sticks_in_turn(state, MIDDLE_ROW + SPOKES)
    assert state.is_over() and state.scores() == [22, 26, 22, 26]
    assert state.ranking() == [[BLUE, GREEN], [RED, YELLOW]]
    assert state.public_view()["teams"] is None


PARTNERS_ABOVE = {RED: UPPER_LEFT, YELLOW: UPPER_RIGHT, BLUE: LOWER_RIGHT, GREEN: LOWER_LEFT}
LOWER_SPOKE = path((1, 5), (0, 6), (1, 7), (0, 8))
UPPER_SPOKE = path((0, 0), (-1, 1), (0, 2), (-1, 3), (0, 4), (1, 5))


def test_an_area_of_both_partners_must_be_split() -> None:
    state = sticks_in_turn(four_players(PARTNERS_ABOVE), FIGURE_5_CUT + LOWER_SPOKE)
    assert not state.is_over(), "the upper area shows red and yellow: no single player"
    state = sticks_in_turn(state, UPPER_SPOKE)
    assert state.is_over()
    assert state.scores()[RED] == state.scores()[YELLOW] == 58


def test_an_area_of_both_partners_counts_for_the_team_when_set() -> None:
    state = four_players(PARTNERS_ABOVE, partner_areas="shared")
    state = sticks_in_turn(state, FIGURE_5_CUT)
    assert state.is_over(), "red/yellow above, blue/green below: each area shows one team"
    assert state.scores() == [58, 38, 58, 38] and state.ranking() == [[RED, YELLOW], [BLUE, GREEN]]
    assert state.individual_territory()[RED] == 0, "the shared area is the team's, not one player's"
    claimed = {a["size"]: a["claimed_by"] for a in state.public_view()["areas"]}
    assert claimed[58] == ["red", "yellow"]


# ---------------------------------------------------------------- setup and views


def test_setup_refuses_options_out_of_range_naming_the_range() -> None:
    with pytest.raises(SetupError, match="from 2 to 4"):
        GAME.setup({"players": 5})
    with pytest.raises(SetupError, match="one of 'edge_line', 'coloured_edge'"):
        GAME.setup({"closing": "never"})
    with pytest.raises(SetupError, match="unknown option"):
        GAME.setup({"sticks": 50})


def test_state_and_actions_survive_json() -> None:
    state = sticks_in_turn(halves(), MIDDLE_ROW[:3])
    assert GAME.state_from_json(state.to_json()).to_json() == state.to_json()
    for action in state.legal_actions():
        assert GAME.action_from_json(action.to_json()) == action


@pytest.mark.parametrize("closing", ["edge_line", "coloured_edge"])
def test_legal_sticks_agree_with_trying_each_line(closing: str) -> None:
    """The bridge search must find exactly the sticks that, placed, leave every area an edge."""
    coloured_only = closing == "coloured_edge"
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.setup({"players": 2 + seed % 3, "closing": closing})
        for _ in range(rng.randrange(10, 80)):
            if state.is_over():
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.sticks_left == 0:
            continue
        expected = []
        for number in BOARD.interior_lines:
            if state.lines[number] != EMPTY:
                continue
            trial = list(state.lines)
            trial[number] = STICK
            if all(
                any(
                    BOARD.is_edge[n] and (not coloured_only or trial[n] >= 0)
                    for t in area.triangles
                    for n in BOARD.triangle_lines[t]
                )
                for area in find_areas(trial)
            ):
                expected.append(number)
        assert state.legal_sticks() == expected
