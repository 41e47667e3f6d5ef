"""One position of Tanz der Hornochsen, as far as the table shows it.

The companion never knows the tiles behind a screen or in the supply: it
counts them. A tile's number becomes known when the table shows it (a
`Reveal` or `StartTile` from the camera or the host), and the tiles a player
takes from a completed row are known to be behind that player's screen.
Readings of unclear passages are in docs/rulings.md.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from companion.games.base import CHANCE, NOBODY, Action, Game, JsonDict, PhasedState, RuleError, ToAct
from companion.games.hornochsen.actions import Buy, Choose, Keep, Place, Reveal, StartTile
from companion.games.hornochsen.board import (
    BOARD,
    BULLHEAD,
    BUYING,
    CONTENTS,
    DOUBLE,
    END,
    HOW_PLAYED,
    PREPARATION,
    move_piece,
    next_free_row,
    required_row,
    wrong_row_reason,
)

ALL_TILES = range(1, BOARD.tiles + 1)
DOUBLE_ROW = next((r.index for r in BOARD.rows if r.double_squares), None)


class HornochsenState(PhasedState):
    sequence_rule = HOW_PLAYED

    game: ClassVar[Game]

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)
        n = self.num_players = int(options["players"])
        self.rows: list[list[int]] = [[] for _ in BOARD.rows]
        self.positions = [0] * n
        self.held = [BOARD.per_player] * n  # tiles behind each screen, known or not
        self.known: list[list[int]] = [[] for _ in range(n)]  # of those, the ones taken openly from a row
        self.box_taken = [0] * n  # of those, tiles drawn from the box (which ones nobody knows)
        self.supply = BOARD.tiles - BOARD.active_rows - BOARD.per_player * n
        self.box: list[int] = []
        self.phase = "setup"
        self.round = 0
        self.double = False
        self.open_round = False
        self.open_next = False
        self.stages: list[list[int]] = []
        self.stage = 0
        self.announced = [0] * n  # tiles announced this round
        self.purchase_groups: list[list[int]] = []  # announced, not yet bought; a group at the same time
        self.supply_at_round_start = 0
        self.chosen = [0] * n  # tiles each player has said to play this round
        self.face_down = [0] * n  # of those, still face down on the table
        self.table: list[list[int]] = []  # [tile, seat]: shown, not yet added to a row
        self.keeping: list[int] = []  # a completed row's other tiles, while its player chooses
        self.keeper = -1

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.rows = [list(r) for r in self.rows]
        new.positions = list(self.positions)
        new.held = list(self.held)
        new.known = [list(k) for k in self.known]
        new.box_taken = list(self.box_taken)
        new.box = list(self.box)
        new.announced = list(self.announced)
        new.purchase_groups = [list(g) for g in self.purchase_groups]
        new.chosen = list(self.chosen)
        new.face_down = list(self.face_down)
        new.table = [list(t) for t in self.table]
        new.keeping = list(self.keeping)
        return new

    # ------------------------------------------------------------ what the table shows

    def active_rows(self) -> list[int]:
        return [i for i, tiles in enumerate(self.rows) if tiles]

    def last_numbers(self) -> dict[int, int]:
        return {i: tiles[-1] for i, tiles in enumerate(self.rows) if tiles}

    def happy_cow_time(self) -> bool:
        """An active row shows a happy cow: points are plus points."""
        return any(
            tiles and any(square >= len(tiles) for square in BOARD.rows[i].happy_cows)
            for i, tiles in enumerate(self.rows)
        )

    def double_time(self) -> bool:
        """The double row is active and shows a double square: two tiles each."""
        if DOUBLE_ROW is None or not self.rows[DOUBLE_ROW]:
            return False
        shown = len(self.rows[DOUBLE_ROW])
        return any(square >= shown for square in BOARD.rows[DOUBLE_ROW].double_squares)

    def box_count(self) -> int:
        return len(self.box) - sum(self.box_taken)

    def where_seen(self) -> dict[int, str]:
        """Every tile whose place the table has shown, with that place in words."""
        seen: dict[int, str] = {}
        for i, tiles in enumerate(self.rows):
            seen.update((t, f"on row {i}") for t in tiles)
        seen.update((t, "in the box") for t in self.box)
        seen.update((t, f"played by seat {s} this round") for t, s in self.table)
        seen.update((t, "on the table from a completed row") for t in self.keeping)
        for seat, tiles in enumerate(self.known):
            seen.update((t, f"behind seat {seat}'s screen (taken from a row)") for t in tiles)
        return seen

    def seen_tiles(self) -> set[int]:
        """The numbers of `where_seen`, without the words (random playouts ask for it at every step)."""
        seen = set(self.box).union(self.keeping, *self.rows, *self.known)
        seen.update(t for t, _ in self.table)
        return seen

    def possible_tiles(self, seat: int) -> list[int]:
        """The numbers `seat`'s next face-down tile can show, as far as the table tells."""
        known = self.known[seat]
        unknown = self.held[seat] + self.face_down[seat] - len(known)
        options = set(known)
        if unknown - self.box_taken[seat] > 0:
            seen = self.seen_tiles()
            options.update(t for t in ALL_TILES if t not in seen)
        if self.box_taken[seat] > 0:
            options.update(self.box)
        return sorted(options)

    # ------------------------------------------------------------ whose turn

    def _choosers(self) -> list[int]:
        return [s for s in self.stages[self.stage] if not self.chosen[s]]

    def _next_reveal_seat(self) -> int:
        return next(s for s in self.stages[self.stage] if self.face_down[s])

    def to_act(self) -> ToAct:
        if self.phase == "over":
            return NOBODY
        if self.phase == "setup":
            row = len(self.active_rows())
            return ToAct((CHANCE,), f"the table to show the tile drawn for the first square of row {row}")
        if self.phase == "choose":
            seats = tuple(self._choosers())
            how = "openly" if self.open_round and len(self.stages[self.stage]) == 1 else "face down"
            tiles = "two tiles" if self.double else "a tile"
            who = ", ".join(f"seat {s}" for s in seats)
            return ToAct(seats, f"{who} to buy tiles or play {tiles} {how}")
        if self.phase == "reveal":
            return ToAct((CHANCE,), f"the table to show the tile played by seat {self._next_reveal_seat()}")
        if self.phase == "place":
            tile, seat = self.table[0]
            return ToAct((seat,), f"seat {seat} to add {tile} to a row")
        return ToAct((self.keeper,), f"seat {self.keeper} to keep one or two tiles of the completed row")

    def legal_actions(self) -> list[Action]:
        if self.phase == "setup":
            seen = self.seen_tiles()
            return [StartTile(CHANCE, t) for t in ALL_TILES if t not in seen]
        if self.phase == "choose":
            actions: list[Action] = []
            for seat in self._choosers():
                for count in range(1, BOARD.max_bought + 1):
                    for same_time in (False, True) if self.purchase_groups else (False,):
                        if self._buy_refusal(seat, count, same_time) is None:
                            actions.append(Buy(seat, count, same_time))
                if self._choose_refusal(seat) is None:
                    actions.append(Choose(seat))
            return actions
        if self.phase == "reveal":
            seat = self._next_reveal_seat()
            return [Reveal(CHANCE, seat, t) for t in self.possible_tiles(seat)]
        if self.phase == "place":
            tile, seat = self.table[0]
            return [Place(seat, tile, required_row(tile, self.last_numbers())[0])]
        if self.phase == "keep":
            most = self._keep_limit()
            return [
                Keep(self.keeper, combo)
                for k in range(1, most + 1)
                for combo in itertools.combinations(self.keeping, k)
            ]
        return []

    def random_chance_action(self, rng: random.Random) -> Action:
        # Uniform over the same actions as legal_actions, without building ninety of them per step.
        if self.phase == "setup":
            seen = self.seen_tiles()
            return StartTile(CHANCE, rng.choice([t for t in ALL_TILES if t not in seen]))
        seat = self._next_reveal_seat()
        return Reveal(CHANCE, seat, rng.choice(self.possible_tiles(seat)))

    # ------------------------------------------------------------ preparation

    def _start_tile(self, action: StartTile) -> None:
        self._check_shown_tile(action.tile, None)
        row = len(self.active_rows())
        self.rows[row].append(action.tile)
        if row + 1 == BOARD.active_rows:
            self._start_round()

    def _check_shown_tile(self, tile: int, seat: int | None) -> None:
        if tile not in ALL_TILES:
            raise RuleError(CONTENTS, f"there is no tile {tile}: the tiles are numbered 1 to {BOARD.tiles}")
        where = self.where_seen().get(tile) if tile in self.seen_tiles() else None
        rule = PREPARATION if seat is None else HOW_PLAYED
        if seat is None:
            if where is not None:
                raise RuleError(rule, f"tile {tile} cannot come from the supply: it is {where}")
            return
        if tile in self.known[seat]:
            return
        unknown = self.held[seat] + self.face_down[seat] - len(self.known[seat])
        mine = ", ".join(map(str, self.known[seat]))
        if unknown <= 0:
            raise RuleError(rule, f"seat {seat}'s tiles on the table can only be {mine}, taken from a row")
        if tile in self.box and self.box_taken[seat] > 0:
            return
        if where is not None:
            raise RuleError(rule, f"tile {tile} is not behind seat {seat}'s screen: it is {where}")
        if unknown - self.box_taken[seat] <= 0:
            raise RuleError(rule, f"seat {seat}'s unknown tiles came from the box; {tile} is not in the box")

    # ------------------------------------------------------------ a round: buying and playing

    def _start_round(self) -> None:
        n = self.num_players
        self.round += 1
        self.double = self.double_time()
        self.open_round, self.open_next = self.open_next, False
        if self.open_round:
            at_start = [s for s in range(n) if self.positions[s] == 0]
            others = sorted((s for s in range(n) if self.positions[s] > 0), key=lambda s: self.positions[s])
            # Pieces on the start square have no order: those players play face down together, first.
            self.stages = [at_start] if len(at_start) > 1 else [[s] for s in at_start]
            self.stages += [[s] for s in others]
        else:
            self.stages = [list(range(n))]
        self.stage = 0
        self.announced = [0] * n
        self.purchase_groups = []
        self.supply_at_round_start = self.supply
        self.chosen = [0] * n
        self.face_down = [0] * n
        self.table = []
        self.phase = "choose"

    def _pending_purchases(self) -> int:
        return sum(self.announced[s] for group in self.purchase_groups for s in group)

    def _buy_refusal(self, seat: int, count: int, same_time: bool) -> str | None:
        """Why `seat` may not announce buying `count` tiles now (words), or None."""
        if self.announced[seat]:
            return "a player announces once per round how many tiles he buys: no buying in instalments"
        if not 1 <= count <= BOARD.max_bought:
            return f"a player may buy 1 to {BOARD.max_bought} tiles, not {count}"
        if same_time and not self.purchase_groups:
            return "nobody has announced a purchase this round to announce at the same time with"
        if self.held[seat] + count > BOARD.max_behind_screen:
            return (
                f"at most {BOARD.max_behind_screen} tiles behind a screen: seat {seat} has "
                f"{self.held[seat]}, so may buy at most {BOARD.max_behind_screen - self.held[seat]}"
            )
        if self.supply_at_round_start == 0 and not (self._must_buy(seat) and count == 1):
            return (
                "the supply ran out before this round: no more buying, except one tile for a player "
                "who has to play two tiles and holds only one"
            )
        available = self.supply + self.box_count() - self._pending_purchases()
        if count > available:
            return f"only {available} tile(s) are left in the supply and the box"
        return None

    def _must_buy(self, seat: int) -> bool:
        return self.double and self.held[seat] + self.announced[seat] < 2

    def _choose_refusal(self, seat: int) -> str | None:
        if self._must_buy(seat) and self._buy_refusal(seat, 1, False) is None:
            return f"two tiles are played while a double square shows, and seat {seat} holds one: buy first"
        return None

    def _buy(self, action: Buy) -> None:
        refusal = self._buy_refusal(action.by, action.count, action.same_time)
        if refusal is not None:
            rule = END if "ran out" in refusal or "left in the supply" in refusal else BUYING
            raise RuleError(rule, refusal)
        self.announced[action.by] = action.count
        if action.same_time:
            self.purchase_groups[-1].append(action.by)
        else:
            self.purchase_groups.append([action.by])

    def _choose(self, action: Choose) -> None:
        refusal = self._choose_refusal(action.by)
        if refusal is not None:
            raise RuleError(DOUBLE, refusal)
        seat = action.by
        self.chosen[seat] = min(2 if self.double else 1, self.held[seat] + self.announced[seat])
        if self._choosers():
            return
        self._carry_out_purchases()
        for s in self.stages[self.stage]:
            self.held[s] -= self.chosen[s]
            self.face_down[s] = self.chosen[s]
        self.phase = "reveal"

    def _carry_out_purchases(self) -> None:
        """Announced purchases in the order announced; buyers announcing together, most minus points first."""
        for group in self.purchase_groups:
            for seat in sorted(group, key=lambda s: (-self.positions[s], group.index(s))):
                count = self.announced[seat]
                from_supply = min(count, self.supply)
                self.supply -= from_supply
                self.box_taken[seat] += count - from_supply  # the supply ran out: the rest from the box
                self.held[seat] += count
                self._score(seat, count, buying=True)
        self.purchase_groups = []

    def _reveal(self, action: Reveal) -> None:
        seat = self._next_reveal_seat()
        if action.seat != seat:
            raise RuleError(HOW_PLAYED, f"the next tile to show is seat {seat}'s, not seat {action.seat}'s")
        self._check_shown_tile(action.tile, seat)
        if action.tile in self.known[seat]:
            self.known[seat].remove(action.tile)
        elif action.tile in self.box:
            self.box.remove(action.tile)
            self.box_taken[seat] -= 1
        self.face_down[seat] -= 1
        self.table.append([action.tile, seat])
        if any(self.face_down[s] for s in self.stages[self.stage]):
            return
        self.stage += 1
        if self.stage < len(self.stages):
            self.phase = "choose"
            return
        self.table.sort()
        self.phase = "place"

    # ------------------------------------------------------------ adding tiles to rows

    def _place(self, action: Place) -> None:
        tile, seat = self.table[0]
        if action.tile != tile:
            raise RuleError(HOW_PLAYED, f"the lowest played tile goes first: {tile}, not {action.tile}")
        wrong = wrong_row_reason(tile, action.row, self.last_numbers())
        if wrong is not None:
            raise RuleError(*wrong)
        self.table.pop(0)
        row = BOARD.rows[action.row]
        square = len(self.rows[action.row])
        self.rows[action.row].append(tile)
        if square != row.bullhead_square:
            if row.points_at(square):
                self._score(seat, row.points_at(square))
            self._after_placement()
            return
        self._score(seat, row.bullhead)
        new_row = next_free_row(action.row, self.active_rows(), len(self.rows))
        self.rows[new_row] = [tile]
        self.keeping = self.rows[action.row][:-1]
        self.rows[action.row] = []
        self.keeper = seat
        if self._keep_limit() == 0:
            self.box = sorted(self.box + self.keeping)
            self.keeping = []
            self._after_placement()
            return
        self.phase = "keep"

    def _keep_limit(self) -> int:
        return min(2, len(self.keeping), BOARD.max_behind_screen - self.held[self.keeper])

    def _keep(self, action: Keep) -> None:
        most = self._keep_limit()
        tiles = list(action.tiles)
        if (
            not 1 <= len(tiles) <= most
            or len(set(tiles)) != len(tiles)
            or not set(tiles) <= set(self.keeping)
        ):
            raise RuleError(
                BULLHEAD,
                f"keep {'one' if most == 1 else 'one or two'} of the row's other tiles "
                f"({', '.join(map(str, self.keeping))}), at most {BOARD.max_behind_screen} behind a screen",
            )
        self.held[self.keeper] += len(tiles)
        self.known[self.keeper] = sorted(self.known[self.keeper] + tiles)
        self.box = sorted(self.box + [t for t in self.keeping if t not in tiles])
        self.keeping = []
        self._after_placement()

    def _after_placement(self) -> None:
        if self.table:
            self.phase = "place"
            return
        self._end_round()

    # ------------------------------------------------------------ points

    def _score(self, seat: int, points: int, *, buying: bool = False) -> None:
        plus = self.happy_cow_time() and not (buying and self.options["buying_in_happy_cow_time"] == "minus")
        before = self.positions[seat]
        after = move_piece(self.positions, seat, points, forward=not plus)
        self.positions[seat] = after
        leading = all(after > p for s, p in enumerate(self.positions) if s != seat)
        if not plus and leading and any(before < eye <= after for eye in BOARD.bulls_eyes):
            self.open_next = True

    # ------------------------------------------------------------ end of a round, end of the game

    def _end_round(self) -> None:
        for seat in range(self.num_players):
            if self.held[seat] == 0:
                drawn = min(BOARD.free_refill, self.supply)
                self.supply -= drawn
                self.held[seat] += drawn
        dunghill = any(p >= BOARD.dunghill for p in self.positions)
        out_of_tiles = self.supply == 0 and 0 in self.held
        if dunghill or out_of_tiles:
            self.phase = "over"
            return
        self._start_round()

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        """Minus points: each piece's square on the scorekeeping course (fewer is better)."""
        return list(self.positions)

    def ranking(self) -> list[list[int]]:
        # Only pieces on the start square share a square; past the dunghill, further is worse.
        return [
            [s for s in range(self.num_players) if self.positions[s] == p]
            for p in sorted(set(self.positions))
        ]

    def component_counts(self) -> dict[str, int]:
        return {
            "tiles": self.supply
            + self.box_count()
            + sum(len(r) for r in self.rows)
            + sum(self.held)
            + sum(self.face_down)
            + len(self.table)
            + len(self.keeping)
            + self._start_tiles_to_show()
        }

    def _start_tiles_to_show(self) -> int:
        """The four start tiles are drawn before any is shown: count them from the beginning."""
        return BOARD.active_rows - len(self.active_rows()) if self.phase == "setup" else 0

    # ------------------------------------------------------------ views

    def public_view(self) -> JsonDict:
        over = self.is_over()
        ranking = self.ranking()
        return {
            "game": "hornochsen",
            "players": self.num_players,
            "phase": self.phase,
            "round": self.round,
            "waiting_for": self.to_act().waiting_for,
            "board": BOARD.to_json(),
            "rows": [list(r) for r in self.rows],
            "active_rows": self.active_rows(),
            "happy_cow_time": self.happy_cow_time(),
            "double_round": self.double,
            "open_round": self.open_round,
            "next_round_open": self.open_next,
            "play_order": self.stages if self.open_round else None,
            "positions": list(self.positions),
            "tiles_behind_screen": list(self.held),
            "supply_count": self.supply,
            "box_count": self.box_count(),
            "announced_purchases": list(self.announced),
            "tiles_chosen": list(self.chosen),
            "tiles_shown": [{"tile": t, "seat": s} for t, s in sorted(self.table)],
            "completed_row_tiles": list(self.keeping),
            "scores": self.scores(),
            "over": over,
            "ranking": ranking if over else None,
            "winner": ranking[0] if over else None,
            "loser": ranking[-1] if over and len(ranking) > 1 else None,
        }

    def to_json(self) -> JsonDict:
        return {"options": dict(self.options), "phase": self.phase} | {
            name: getattr(self, name)
            for name in (*_INT_FIELDS, *_FLAG_FIELDS, *_LIST_FIELDS, *_NESTED_FIELDS)
        }

    def load_fields(self, data: JsonDict) -> None:
        """Set the fields of `to_json` (used by `Game.state_from_json`)."""
        for name in _INT_FIELDS:
            setattr(self, name, int(data[name]))
        for name in _FLAG_FIELDS:
            setattr(self, name, bool(data[name]))
        for name in _LIST_FIELDS:
            setattr(self, name, [int(v) for v in data[name]])
        for name in _NESTED_FIELDS:
            setattr(self, name, [[int(v) for v in inner] for inner in data[name]])
        self.phase = str(data["phase"])


_INT_FIELDS = ("supply", "stage", "round", "supply_at_round_start", "keeper")
_FLAG_FIELDS = ("double", "open_round", "open_next")
_LIST_FIELDS = ("positions", "held", "box_taken", "box", "announced", "chosen", "face_down", "keeping")
_NESTED_FIELDS = ("rows", "known", "stages", "purchase_groups", "table")

HornochsenState.handlers = {
    ("setup", StartTile): HornochsenState._start_tile,
    ("choose", Buy): HornochsenState._buy,
    ("choose", Choose): HornochsenState._choose,
    ("reveal", Reveal): HornochsenState._reveal,
    ("place", Place): HornochsenState._place,
    ("keep", Keep): HornochsenState._keep,
}
