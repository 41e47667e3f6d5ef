"""Asterion (Néstor Romeral Andrés): lay labyrinth tiles, let Asterion impale the others' prisoners.

Readings of unclear passages are in docs/rulings.md; the tile designs are data
in seeds/asterion.toml. A tile in hand is hidden, so the companion learns its
design only when the player shows it to place it (a CHANCE action); tiles
discarded as payment stay unseen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from companion.games.asterion.actions import (
    ACTION_TYPES,
    LiftTile,
    PlaceTile,
    PlayTile,
    PutTile,
    RotateTile,
    ShowTile,
    SwapTiles,
    colour_name,
)
from companion.games.asterion.labyrinth import (
    ASTERION_CELL,
    Network,
    Tile,
    asterion_escapes,
    asterion_network,
    empty_neighbours,
    free_sides,
    minotaur_tile,
    networks,
)
from companion.games.asterion.options import asterion_options
from companion.games.asterion.tiles import (
    COLOURS,
    DESIGN_INDEX,
    DESIGNS,
    SIDE_LETTERS,
    TILES_PER_COLOUR,
    Cell,
    design,
    distinct_rotations,
    turned_paths,
)
from companion.games.base import (
    CHANCE,
    N_,
    NOBODY,
    Action,
    Game,
    JsonDict,
    OptionSpec,
    PhasedState,
    RuleError,
    SetupError,
    ToAct,
)

PLACING = "play (a): placing a tile"
TRAPPING = "play (b): never trap the Minotaur"
OPTIONAL = "optional actions"
ROTATING = "optional action (a): rotate"
SWAPPING = "optional action (b): swap"
MOVING = "optional action (c): move"
TILES = "setup: each colour's tiles"


class AsterionState(PhasedState):
    game: ClassVar[Game]

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)
        self.num_players: int = options["players"]
        self.board: dict[Cell, Tile] = {ASTERION_CELL: minotaur_tile()}
        # Each player drew her first tile at setup; the rest of her set is her deck.
        self.in_hand: list[int] = [1] * self.num_players
        self.deck: list[int] = [TILES_PER_COLOUR - 1] * self.num_players
        self.discarded: list[int] = [0] * self.num_players
        self.current: int = options["first_player"]
        self.phase = "turn"
        self.shown: int | None = None
        self.lifted: tuple[Cell, Tile] | None = None
        self.impaling_points: list[int] = [0] * self.num_players
        self._asterion: tuple[frozenset[Cell], frozenset[Cell]] | None = None

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.board = dict(self.board)
        new.in_hand = list(self.in_hand)
        new.deck = list(self.deck)
        new.discarded = list(self.discarded)
        new.impaling_points = list(self.impaling_points)
        return new

    # ------------------------------------------------------------ knowledge

    def asterion_reach(self) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """The cells Asterion's paths cross, and the empty cells where they lead outside."""
        if self._asterion is None:
            nodes, ways_out = asterion_network(self.board)
            self._asterion = frozenset(cell for cell, _ in nodes), frozenset(ways_out)
        return self._asterion

    def _board_changed(self) -> None:
        self._asterion = None

    def designs_left(self, seat: int) -> dict[int, int]:
        """How many tiles of each design of the seat's set the table has not shown yet."""
        left = {number: d.copies for number, d in enumerate(DESIGNS)}
        tiles = list(self.board.values()) + ([self.lifted[1]] if self.lifted else [])
        for tile in tiles:
            if tile.seat == seat:
                left[tile.design] -= 1
        return {number: n for number, n in left.items() if n > 0}

    def movable(self, seat: int, cell: Cell) -> str | None:
        """Why the seat may not rotate, swap or move the tile at `cell`, or None if it may."""
        tile = self.board.get(cell)
        if tile is None:
            return f"there is no tile at {cell}"
        if tile.seat != seat:
            whose = (
                "the Minotaur tile" if tile.seat < 0 else f"the tile at {cell} is {colour_name(tile.seat)}'s"
            )
            return f"{whose}: only a tile with a living {colour_name(seat)} prisoner may be used"
        if not tile.has_living_prisoner():
            return f"the {colour_name(seat)} prisoners on the tile at {cell} are dead"
        if not free_sides(self.board, cell):
            return f"the tile at {cell} is surrounded by four tiles: it needs a free side"
        return None

    def _movable_cells(self, seat: int) -> list[Cell]:
        return sorted(cell for cell in self.board if self.movable(seat, cell) is None)

    def _escapes_after(self, changes: Mapping[Cell, Tile | None]) -> bool:
        """Whether Asterion still reaches the outside after `changes` (None removes a tile)."""
        cells_reached, _ = self.asterion_reach()
        if not any(cell in cells_reached for cell in changes if self.board.get(cell) is not None):
            # Changing tiles his paths do not cross only adds paths to his network, and
            # every other cell it leads out to stays empty: only the target cell may close.
            _, ways_out = self.asterion_reach()
            filled = {cell for cell, tile in changes.items() if tile is not None}
            if ways_out - filled:
                return True
        board = dict(self.board)
        for cell, tile in changes.items():
            if tile is None:
                del board[cell]
            else:
                board[cell] = tile
        return asterion_escapes(board)

    # ------------------------------------------------------------ the interface

    def to_act(self) -> ToAct:
        me = colour_name(self.current)
        if self.phase == "over":
            return NOBODY
        if self.phase == "show":
            return ToAct((CHANCE,), f"the table to show {me}'s tile")
        words = {
            "turn": "to place the tile in hand or discard it for an optional action",
            "place": f"to place the {design(self.shown).name if self.shown is not None else ''} tile",
            "put": "to put the lifted tile down somewhere else",
        }
        return ToAct((self.current,), f"{me} {words[self.phase]}")

    def legal_actions(self) -> list[Action]:
        me = self.current
        if self.phase == "turn":
            return self._turn_actions(me)
        if self.phase == "show":
            return [ShowTile(CHANCE, me, DESIGNS[number].name) for number in self.designs_left(me)]
        if self.phase == "place":
            assert self.shown is not None
            return [
                PlaceTile(me, x, y, r) for (x, y), r in self._placements(self.shown, origin=None, seat=me)
            ]
        if self.phase == "put":
            assert self.lifted is not None
            origin, tile = self.lifted
            return [PutTile(me, x, y, r) for (x, y), r in self._placements(tile.design, origin, me)]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        # The tile shown is any unseen tile of the set with equal chance, so designs weigh by count.
        left = self.designs_left(self.current)
        total = sum(left.values())
        return [(ShowTile(CHANCE, self.current, DESIGNS[n].name), k / total) for n, k in left.items()]

    def _turn_actions(self, me: int) -> list[Action]:
        actions: list[Action] = [PlayTile(me)]
        movable = self._movable_cells(me)
        for cell in movable:
            tile = self.board[cell]
            for rotation in self._new_orientations(tile):
                if self._escapes_after({cell: tile._replace(rotation=rotation)}):
                    actions.append(RotateTile(me, cell[0], cell[1], rotation))
        for i, first in enumerate(movable):
            for second in movable[i + 1 :]:
                if self._escapes_after(self._swapped(first, second)):
                    actions.append(SwapTiles(me, first[0], first[1], second[0], second[1]))
        actions.extend(LiftTile(me, x, y) for x, y in movable)
        return actions

    def _new_orientations(self, tile: Tile) -> list[int]:
        """The rotations a rotate action may give `tile`: each new look once, or with the house rule
        `same_look_rotation` = allowed every other orientation, even one that looks the same."""
        if self.options["same_look_rotation"] == "allowed":
            return [rotation for rotation in range(4) if rotation != tile.rotation]
        looks = {frozenset(tile.paths())}
        rotations = []
        for rotation in range(4):
            look = frozenset(turned_paths(tile.design, rotation))
            if look not in looks:
                looks.add(look)
                rotations.append(rotation)
        return rotations

    def _placements(self, number: int, origin: Cell | None, seat: int) -> list[tuple[Cell, int]]:
        found = []
        for cell in sorted(empty_neighbours(self.board) - {origin}):
            for rotation in distinct_rotations(number):
                if self._escapes_after({cell: Tile(seat, number, rotation)}):
                    found.append((cell, rotation))
        return found

    def _swapped(self, first: Cell, second: Cell) -> dict[Cell, Tile]:
        return {first: self.board[second], second: self.board[first]}

    # ------------------------------------------------------------ placing the tile in hand

    def _play(self, _: PlayTile) -> None:
        self.phase = "show"

    def _show(self, action: ShowTile) -> None:
        if action.seat != self.current:
            raise RuleError("turn sequence", f"the tile to show is {colour_name(self.current)}'s")
        number = DESIGN_INDEX.get(action.design)
        if number is None:
            raise RuleError(
                TILES, f"no tile design is named {action.design!r}; designs: {', '.join(DESIGN_INDEX)}"
            )
        if number not in self.designs_left(self.current):
            raise RuleError(
                TILES,
                f"all {DESIGNS[number].copies} {colour_name(self.current)} {action.design} tiles "
                "are on the table already",
            )
        self.shown = number
        self.phase = "place"

    def _check_cell(self, rule: str, cell: Cell, rotation: int) -> None:
        if not 0 <= rotation <= 3:
            raise RuleError(rule, f"a tile is turned 0 to 3 quarter turns, not {rotation}")
        if cell in self.board:
            raise RuleError(rule, f"{cell} already holds a tile")
        if cell not in empty_neighbours(self.board):
            raise RuleError(rule, f"{cell} is not orthogonally adjacent to a placed tile")

    def _check_not_trapped(self, changes: Mapping[Cell, Tile | None]) -> None:
        if not self._escapes_after(changes):
            raise RuleError(TRAPPING, "Asterion would have no path left to the outside of the labyrinth")

    def _place(self, action: PlaceTile) -> None:
        assert self.shown is not None
        cell = (action.x, action.y)
        self._check_cell(PLACING, cell, action.rotation)
        tile = Tile(self.current, self.shown, action.rotation)
        self._check_not_trapped({cell: tile})
        self.board[cell] = tile
        self.shown = None
        self._impale_and_end_turn(paid=False)

    # ------------------------------------------------------------ optional actions

    def _check_movable(self, rule: str, cell: Cell) -> None:
        problem = self.movable(self.current, cell)
        if problem is not None:
            raise RuleError(rule, problem)

    def _rotate(self, action: RotateTile) -> None:
        cell = (action.x, action.y)
        self._check_movable(ROTATING, cell)
        tile = self.board[cell]
        if not 0 <= action.rotation <= 3:
            raise RuleError(ROTATING, f"a tile is turned 0 to 3 quarter turns, not {action.rotation}")
        if action.rotation == tile.rotation:
            raise RuleError(
                ROTATING, f"the tile at {cell} lies that way already: rotate it to a new orientation"
            )
        same_look = frozenset(turned_paths(tile.design, action.rotation)) == frozenset(tile.paths())
        if same_look and self.options["same_look_rotation"] == "refused":
            raise RuleError(
                ROTATING,
                f"the tile at {cell} would look the same: rotate it to a new orientation "
                "(house rule: rotations that look the same are refused)",
            )
        turned = tile._replace(rotation=action.rotation)
        self._check_not_trapped({cell: turned})
        self.board[cell] = turned
        self._impale_and_end_turn(paid=True)

    def _swap(self, action: SwapTiles) -> None:
        first, second = (action.x, action.y), (action.other_x, action.other_y)
        if first == second:
            raise RuleError(SWAPPING, "a swap needs two different tiles")
        self._check_movable(SWAPPING, first)
        self._check_movable(SWAPPING, second)
        changes = self._swapped(first, second)
        self._check_not_trapped(changes)
        self.board.update(changes)
        self._impale_and_end_turn(paid=True)

    def _lift(self, action: LiftTile) -> None:
        cell = (action.x, action.y)
        self._check_movable(MOVING, cell)
        self.lifted = (cell, self.board.pop(cell))
        self._board_changed()
        self.phase = "put"

    def _put(self, action: PutTile) -> None:
        assert self.lifted is not None
        origin, tile = self.lifted
        cell = (action.x, action.y)
        if cell == origin:
            raise RuleError(MOVING, f"the tile must move somewhere else than {origin}")
        self._check_cell(MOVING, cell, action.rotation)
        moved = tile._replace(rotation=action.rotation)
        self._check_not_trapped({cell: moved})
        self.board[cell] = moved
        self.lifted = None
        self._impale_and_end_turn(paid=True)

    # ------------------------------------------------------------ impaling and the turn's end

    def _impale_and_end_turn(self, paid: bool) -> None:
        nodes, ways_out = asterion_network(self.board)
        self._asterion = frozenset(cell for cell, _ in nodes), frozenset(ways_out)
        killed = [0] * self.num_players
        for cell, index in nodes:
            tile = self.board[cell]
            if tile.paths()[index].prisoners and not tile.dead >> index & 1:
                self.board[cell] = tile._replace(dead=tile.dead | 1 << index)
                killed[tile.seat] += tile.paths()[index].prisoners
        if self.options["impaling_scores"]:
            me = self.current
            self.impaling_points[me] += sum(killed) - 2 * killed[me]
        if paid:
            self.discarded[self.current] += 1
        self._end_turn()

    def _end_turn(self) -> None:
        me = self.current
        self.in_hand[me] = 0
        if self.deck[me]:
            self.deck[me] -= 1
            self.in_hand[me] = 1
        self.phase = "turn"
        for step in range(1, self.num_players + 1):
            # Seats count clockwise, so anticlockwise play goes to the previous seat.
            seat = (me - step) % self.num_players
            if self.in_hand[seat]:
                self.current = seat
                return
        self.phase = "over"

    # ------------------------------------------------------------ scores

    def escapes(self) -> tuple[list[int], list[int], list[int]]:
        """Per seat if the game ended now: escape points, prisoners escaping with coins, escaping at all."""
        points = [0] * self.num_players
        with_coins = [0] * self.num_players
        at_all = [0] * self.num_players
        for network in networks(self.board):
            if network.asterion or not network.escapes():
                continue
            for seat, count in network.living.items():
                at_all[seat] += count
                if network.coins:
                    with_coins[seat] += count
                    points[seat] += count * network.coins
        return points, with_coins, at_all

    def killed(self) -> list[int]:
        """Impaled prisoners per colour."""
        counts = [0] * self.num_players
        tiles = list(self.board.values()) + ([self.lifted[1]] if self.lifted else [])
        for tile in tiles:
            for index, path in enumerate(tile.paths()):
                if tile.dead >> index & 1:
                    counts[tile.seat] += path.prisoners
        return counts

    def scores(self) -> list[int]:
        points, _, _ = self.escapes()
        return [kills + escape for kills, escape in zip(self.impaling_points, points, strict=True)]

    def _tie_counts(self) -> list[int]:
        _, with_coins, at_all = self.escapes()
        return at_all if self.options["tie_break"] == "escaping_at_all" else with_coins

    def ranking(self) -> list[list[int]]:
        keys = {s: key for s, key in enumerate(zip(self.scores(), self._tie_counts(), strict=True))}
        return [
            [s for s in range(self.num_players) if keys[s] == k]
            for k in sorted(set(keys.values()), reverse=True)
        ]

    def is_over(self) -> bool:
        return self.phase == "over"

    def component_counts(self) -> dict[str, int]:
        counts = {"minotaur tile": sum(t.seat < 0 for t in self.board.values())}
        for seat in range(self.num_players):
            on_table = sum(t.seat == seat for t in self.board.values())
            lifted = int(self.lifted is not None and self.lifted[1].seat == seat)
            counts[f"{COLOURS[seat]} tiles"] = (
                on_table + lifted + self.in_hand[seat] + self.deck[seat] + self.discarded[seat]
            )
        return counts

    # ------------------------------------------------------------ views

    def public_view(self) -> JsonDict:
        points, with_coins, at_all = self.escapes()
        return {
            "game": "asterion",
            "players": self.num_players,
            "colours": list(COLOURS[: self.num_players]),
            "phase": self.phase,
            "current": None if self.phase == "over" else self.current,
            "waiting_for": self.to_act().waiting_for,
            "board": [_tile_view(cell, tile) for cell, tile in sorted(self.board.items())],
            "asterion_reaches_outside_at": [list(cell) for cell in sorted(self.asterion_reach()[1])],
            "shown": design(self.shown).name if self.shown is not None else None,
            "lifted": _tile_view(*self.lifted) if self.lifted else None,
            "tiles_in_hand": self.in_hand,
            "tiles_in_deck": self.deck,
            "tiles_discarded": self.discarded,
            "killed": self.killed(),
            "impaling_points": self.impaling_points,
            "escape_points_if_ended_now": points,
            "escaping_with_coins": with_coins,
            "escaping_at_all": at_all,
            "scores": self.scores(),
            "over": self.is_over(),
            "ranking": self.ranking() if self.is_over() else None,
        }

    def to_json(self) -> JsonDict:
        return {
            "options": self.options,
            "board": [_tile_json(cell, tile) for cell, tile in sorted(self.board.items())],
            "in_hand": self.in_hand,
            "deck": self.deck,
            "discarded": self.discarded,
            "current": self.current,
            "phase": self.phase,
            "shown": self.shown,
            "lifted": _tile_json(*self.lifted) if self.lifted else None,
            "impaling_points": self.impaling_points,
        }

    def networks(self) -> list[Network]:
        return networks(self.board)


def _tile_json(cell: Cell, tile: Tile) -> list[int]:
    return [cell[0], cell[1], tile.seat, tile.design, tile.rotation, tile.dead]


def _tile_from_json(data: list[int]) -> tuple[Cell, Tile]:
    x, y, seat, number, rotation, dead = (int(v) for v in data)
    return (x, y), Tile(seat, number, rotation, dead)


def _tile_view(cell: Cell, tile: Tile) -> JsonDict:
    return {
        "x": cell[0],
        "y": cell[1],
        "colour": colour_name(tile.seat) if tile.seat >= 0 else None,
        "design": design(tile.design).name,
        "rotation": tile.rotation,
        "paths": [
            {
                "sides": "".join(
                    letter for side, letter in enumerate(SIDE_LETTERS) if path.sides >> side & 1
                ),
                "prisoners": path.prisoners,
                "dead": bool(tile.dead >> index & 1),
                "coins": path.coins,
                "wings": path.wings,
                "horns": path.horns,
                "asterion": path.asterion,
            }
            for index, path in enumerate(tile.paths())
        ],
    }


AsterionState.handlers = {
    ("turn", PlayTile): AsterionState._play,
    ("show", ShowTile): AsterionState._show,
    ("place", PlaceTile): AsterionState._place,
    ("turn", RotateTile): AsterionState._rotate,
    ("turn", SwapTiles): AsterionState._swap,
    ("turn", LiftTile): AsterionState._lift,
    ("put", PutTile): AsterionState._put,
}


class Asterion(Game):
    name: ClassVar[str] = "asterion"
    title: ClassVar[str] = "Asterion"
    summary: ClassVar[str] = N_(
        "Build a labyrinth round the Minotaur; lead your prisoners to treasure and out before he kills them."
    )
    colours: ClassVar[tuple[str, ...]] = COLOURS
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = len(COLOURS)
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return asterion_options(self.min_players, self.max_players)

    def _setup(self, options: Mapping[str, Any]) -> AsterionState:
        if options["first_player"] >= options["players"]:
            raise SetupError(
                f"option first_player={options['first_player']} is invalid: must be a whole number from 0 to "
                f"{options['players'] - 1} with {options['players']} players"
            )
        return AsterionState(options)

    def state_from_json(self, data: JsonDict) -> AsterionState:
        state = self._setup(self.validate_options(data["options"]))
        state.board = dict(_tile_from_json(t) for t in data["board"])
        state.in_hand = [int(n) for n in data["in_hand"]]
        state.deck = [int(n) for n in data["deck"]]
        state.discarded = [int(n) for n in data["discarded"]]
        state.current = int(data["current"])
        state.phase = str(data["phase"])
        state.shown = None if data["shown"] is None else int(data["shown"])
        state.lifted = _tile_from_json(data["lifted"]) if data["lifted"] else None
        state.impaling_points = [int(n) for n in data["impaling_points"]]
        return state
