"""Minoa (Dieter Stein): black sticks inside, coloured pieces on the edge, territory in triangles.

The board is computed in `board.py`; the material and setup table are in seeds/minoa.toml; readings
of unclear passages are in docs/rulings.md and the numbering of lines and triangles is drawn in
docs/minoa-board.md. Nothing is hidden in Minoa, so the table (CHANCE) never acts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from companion.games import register
from companion.games.base import (
    N_,
    NOBODY,
    Action,
    Game,
    JsonDict,
    OptionSpec,
    RuleError,
    State,
    ToAct,
)
from companion.games.minoa.board import Board, build_board
from companion.games.minoa.options import minoa_options
from companion.seeddata import SeedError, load_seed

_SEED = load_seed("minoa")
BOARD: Board = build_board(int(_SEED["board"]["side"]))
if (len(BOARD.triangles), len(BOARD.edge_lines)) != (
    _SEED["board"]["triangles"],
    _SEED["board"]["edge_lines"],
):
    raise SeedError("seeds/minoa.toml: the board's side does not give its stated triangles and edge lines")
COLOURS: tuple[str, ...] = tuple(c["name"] for c in _SEED["colours"])
"""Colour names by seat: seat 0 is red, and seats count clockwise."""
STICKS: int = _SEED["material"]["sticks"]
SETUPS: dict[int, JsonDict] = {s["players"]: s for s in _SEED["setup"]}
TEAMS: tuple[tuple[int, ...], ...] = tuple(
    tuple(COLOURS.index(c) for c in team) for team in _SEED["partners"]["teams"]
)

EMPTY = -2
STICK = -1
"""What lies on a line: EMPTY, STICK, or the seat whose piece it is."""

_TRIANGLE_EDGE: tuple[int, ...] = tuple(
    next((line for line in sides if BOARD.is_edge[line]), -1) for sides in BOARD.triangle_lines
)


def colour_of(seat: int) -> str:
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


# ---------------------------------------------------------------- actions


@dataclasses.dataclass(frozen=True)
class PlaceStick(Action):
    kind: ClassVar[str] = "stick"
    line: int

    def label(self) -> str:
        return f"black stick on line {self.line}"


@dataclasses.dataclass(frozen=True)
class PlacePiece(Action):
    kind: ClassVar[str] = "piece"
    line: int

    def label(self) -> str:
        where = BOARD.line_place(self.line) if 0 <= self.line < len(BOARD.lines) else f"line {self.line}"
        return f"{colour_of(self.by)} piece on {where}"


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"

    def label(self) -> str:
        return "pass (no piece left and no stick can be placed)"


# ---------------------------------------------------------------- areas


@dataclasses.dataclass(frozen=True)
class Area:
    """Triangles joined across interior lines without a stick."""

    triangles: tuple[int, ...]
    colours: frozenset[int]
    """The seats with a piece on the area's edge lines."""
    vacant_edge_lines: int

    def to_json(self) -> JsonDict:
        return {
            "triangles": list(self.triangles),
            "size": len(self.triangles),
            "colours": [colour_of(s) for s in sorted(self.colours)],
            "vacant_edge_lines": self.vacant_edge_lines,
        }


def find_areas(lines: list[int]) -> list[Area]:
    label = [-1] * len(BOARD.triangles)
    areas = []
    for start in range(len(BOARD.triangles)):
        if label[start] >= 0:
            continue
        label[start] = start
        stack, members = [start], []
        colours: set[int] = set()
        vacant = 0
        while stack:
            here = stack.pop()
            members.append(here)
            edge = _TRIANGLE_EDGE[here]
            if edge >= 0:
                if lines[edge] == EMPTY:
                    vacant += 1
                else:
                    colours.add(lines[edge])
            for line, there in BOARD.neighbours[here]:
                if lines[line] == EMPTY and label[there] < 0:
                    label[there] = start
                    stack.append(there)
        areas.append(Area(tuple(sorted(members)), frozenset(colours), vacant))
    return areas


def forbidden_sticks(lines: list[int], coloured_only: bool) -> set[int]:
    """Vacant interior lines whose stick would close off an area that traces to no edge.

    Such a stick is a bridge of the area's triangles (Tarjan's low links): it cuts the area in two,
    and one part has no edge line (or, with `coloured_only`, no edge line holding a piece).
    """
    count = len(BOARD.triangles)
    edge_weight = [int(edge >= 0 and (not coloured_only or lines[edge] >= 0)) for edge in _TRIANGLE_EDGE]
    order, low, below = [-1] * count, [0] * count, [0] * count
    forbidden: set[int] = set()
    bridges: list[tuple[int, int]] = []  # (line, triangle below it in the search tree), per area
    clock = 0

    def visit(here: int, via: int) -> None:
        nonlocal clock
        order[here] = low[here] = clock
        clock += 1
        below[here] = edge_weight[here]
        for line, there in BOARD.neighbours[here]:
            if line == via or lines[line] != EMPTY:
                continue
            if order[there] < 0:
                visit(there, line)
                below[here] += below[there]
                low[here] = min(low[here], low[there])
                if low[there] > order[here]:
                    bridges.append((line, there))
            else:
                low[here] = min(low[here], order[there])

    for root in range(count):
        if order[root] >= 0:
            continue
        bridges.clear()
        visit(root, -1)
        total = below[root]
        forbidden.update(line for line, cut in bridges if below[cut] == 0 or below[cut] == total)
    return forbidden


# ---------------------------------------------------------------- state


class MinoaState(State):
    game: ClassVar[Game]

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)
        self.num_players: int = options["players"]
        self.lines: list[int] = [EMPTY] * len(BOARD.lines)
        self.hands: list[int] = [SETUPS[self.num_players]["pieces_each"]] * self.num_players
        self.sticks_left: int = STICKS
        self.current = 0  # red begins
        self.end: str | None = None
        self.auto_filled: list[int] = []
        self._areas: list[Area] | None = None
        self._legal_sticks: list[int] | None = None

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.lines = list(self.lines)
        new.hands = list(self.hands)
        new.auto_filled = list(self.auto_filled)
        return new

    # ------------------------------------------------------------ knowledge

    @property
    def partners(self) -> bool:
        return self.num_players == 4 and self.options["four_player_scoring"] == "partners"

    def areas(self) -> list[Area]:
        if self._areas is None:
            self._areas = find_areas(self.lines)
        return self._areas

    def legal_sticks(self) -> list[int]:
        if self._legal_sticks is None:
            if self.sticks_left == 0:
                self._legal_sticks = []
            else:
                forbidden = forbidden_sticks(self.lines, self.options["closing"] == "coloured_edge")
                self._legal_sticks = [
                    n for n in BOARD.interior_lines if self.lines[n] == EMPTY and n not in forbidden
                ]
        return self._legal_sticks

    def vacant_edge_lines(self) -> list[int]:
        return [n for n in BOARD.edge_lines if self.lines[n] == EMPTY]

    def claimant(self, area: Area) -> tuple[int, ...] | None:
        """Who the area can be assigned to: one seat, a team (shared partner areas), or nobody."""
        if len(area.colours) == 1:
            return tuple(area.colours)
        if self.partners and self.options["partner_areas"] == "shared" and area.colours:
            return next((team for team in TEAMS if area.colours <= set(team)), None)
        return None

    def territory(self) -> dict[tuple[int, ...], int]:
        """Triangles per claimant, as the areas stand now."""
        claimed: dict[tuple[int, ...], int] = {}
        for area in self.areas():
            who = self.claimant(area)
            if who is not None:
                claimed[who] = claimed.get(who, 0) + len(area.triangles)
        return claimed

    # ------------------------------------------------------------ the interface

    def to_act(self) -> ToAct:
        if self.end is not None:
            return NOBODY
        colour = colour_of(self.current)
        return ToAct((self.current,), f"{colour} to place a black stick or a {colour} piece")

    def legal_actions(self) -> list[Action]:
        if self.end is not None:
            return []
        me = self.current
        actions: list[Action] = [PlaceStick(me, n) for n in self.legal_sticks()]
        if self.hands[me] > 0:
            actions += [PlacePiece(me, n) for n in self.vacant_edge_lines()]
        return actions or [Pass(me)]

    def _apply(self, action: Action) -> None:
        if isinstance(action, PlaceStick):
            self._check_stick(action.line)
            self.lines[action.line] = STICK
            self.sticks_left -= 1
            self.auto_filled = []
        elif isinstance(action, PlacePiece):
            self._check_piece(action.by, action.line)
            self.lines[action.line] = action.by
            self.hands[action.by] -= 1
            self.auto_filled = self._fill_if_one_player_is_left(action.by)
        elif isinstance(action, Pass):
            if self.hands[action.by] > 0 or self.legal_sticks():
                raise RuleError(
                    "play: one stick or one piece each turn",
                    f"{colour_of(action.by)} must place a stick or a piece; passing is only for a player "
                    "with no piece left when no stick can be placed",
                )
            self.auto_filled = []
        else:
            raise RuleError("play", f"{action.kind} is not a Minoa action")
        self._areas = None
        self._legal_sticks = None
        self._check_end()
        self.current = (self.current + 1) % self.num_players

    def _check_line(self, line: int) -> None:
        if not 0 <= line < len(BOARD.lines):
            raise RuleError("the board", f"there is no line {line}; lines are 0 to {len(BOARD.lines) - 1}")
        if self.lines[line] != EMPTY:
            held = "a black stick" if self.lines[line] == STICK else f"a {colour_of(self.lines[line])} piece"
            raise RuleError(
                "play: one stick or piece per line", f"line {line} already holds {held}, which stays put"
            )

    def _check_stick(self, line: int) -> None:
        self._check_line(line)
        if BOARD.is_edge[line]:
            raise RuleError(
                "play: black sticks only inside",
                f"{BOARD.line_place(line)} is on the edge: black sticks go only on interior lines",
            )
        if self.sticks_left == 0:
            raise RuleError("material: 60 black sticks", "all black sticks have been placed")
        if line not in self.legal_sticks():
            enclosed = self._enclosed_by(line)
            needs = (
                "an edge line holding a piece" if self.options["closing"] == "coloured_edge" else "an edge"
            )
            raise RuleError(
                "play: every area must trace to an edge",
                f"a stick on line {line} would close off triangles {', '.join(map(str, enclosed))} "
                f"without {needs}",
            )

    def _enclosed_by(self, line: int) -> list[int]:
        """The part that a forbidden stick would cut off without an edge (for the refusal's words)."""
        trial = list(self.lines)
        trial[line] = STICK
        coloured_only = self.options["closing"] == "coloured_edge"
        for area in find_areas(trial):
            if set(area.triangles) & set(BOARD.line_triangles[line]):
                edges = [_TRIANGLE_EDGE[t] for t in area.triangles if _TRIANGLE_EDGE[t] >= 0]
                if not any(not coloured_only or trial[e] >= 0 for e in edges):
                    return list(area.triangles)
        raise AssertionError("a forbidden stick always encloses an area")  # pragma: no cover

    def _check_piece(self, seat: int, line: int) -> None:
        self._check_line(line)
        if not BOARD.is_edge[line]:
            raise RuleError(
                "play: own pieces only on the edge",
                f"line {line} is inside the board: {colour_of(seat)} pieces go only on edge lines",
            )
        if self.hands[seat] == 0:
            raise RuleError("preparation: own pieces", f"{colour_of(seat)} has no piece left to place")

    def _fill_if_one_player_is_left(self, seat: int) -> list[int]:
        """The last piece placed with one other player still holding pieces: those fill the edge at once."""
        holding = [s for s in range(self.num_players) if self.hands[s] > 0]
        if self.hands[seat] > 0 or len(holding) != 1:
            return []
        (other,) = holding
        vacant = self.vacant_edge_lines()
        assert len(vacant) == self.hands[other], "pieces in hand always match the vacant edge lines"
        for line in vacant:
            self.lines[line] = other
        self.hands[other] = 0
        return vacant

    # ------------------------------------------------------------ the end

    def _check_end(self) -> None:
        # Only once every edge line holds a piece is an area's colour settled: until then another
        # player could still place a piece on its vacant edge. No other end is needed: the 60
        # sticks always suffice to split every area down to one colour (docs/rulings.md).
        if sum(self.hands) == 0 and all(self.claimant(area) is not None for area in self.areas()):
            self.end = "every area is assigned"

    def is_over(self) -> bool:
        return self.end is not None

    def individual_territory(self) -> list[int]:
        claimed = self.territory()
        return [claimed.get((seat,), 0) for seat in range(self.num_players)]

    def scores(self) -> list[int]:
        claimed = self.territory()
        if not self.partners:
            return [claimed.get((seat,), 0) for seat in range(self.num_players)]
        team_of = {seat: team for team in TEAMS for seat in team}
        return [
            sum(claimed.get((member,), 0) for member in team_of[seat]) + claimed.get(team_of[seat], 0)
            for seat in range(self.num_players)
        ]

    def ranking(self) -> list[list[int]]:
        scores = self.scores()
        return [
            [s for s in range(self.num_players) if scores[s] == value]
            for value in sorted(set(scores), reverse=True)
        ]

    def component_counts(self) -> dict[str, int]:
        counts = {"black sticks": self.lines.count(STICK) + self.sticks_left}
        for seat in range(self.num_players):
            counts[f"{colour_of(seat)} pieces"] = self.lines.count(seat) + self.hands[seat]
        return counts

    # ------------------------------------------------------------ views

    def public_view(self) -> JsonDict:
        def holds(content: int) -> str | None:
            return None if content == EMPTY else "stick" if content == STICK else colour_of(content)

        over = self.is_over()
        return {
            "game": "minoa",
            "players": self.num_players,
            "colours": list(COLOURS[: self.num_players]),
            "current": None if over else self.current,
            "waiting_for": self.to_act().waiting_for,
            "lines": [holds(content) for content in self.lines],
            "edge_lines": list(BOARD.edge_lines),
            "pieces_in_hand": {colour_of(s): n for s, n in enumerate(self.hands)},
            "sticks_left": self.sticks_left,
            "auto_filled": list(self.auto_filled),
            "areas": [
                area.to_json()
                | {"claimed_by": [colour_of(s) for s in who] if (who := self.claimant(area)) else None}
                for area in self.areas()
            ],
            "territory": {colour_of(s): n for s, n in enumerate(self.individual_territory())},
            "teams": [[colour_of(s) for s in team] for team in TEAMS] if self.partners else None,
            "scores": self.scores(),
            "over": over,
            "end": self.end,
            "ranking": self.ranking() if over else None,
        }

    def to_json(self) -> JsonDict:
        return {
            "options": self.options,
            "lines": list(self.lines),
            "hands": list(self.hands),
            "sticks_left": self.sticks_left,
            "current": self.current,
            "end": self.end,
            "auto_filled": list(self.auto_filled),
        }


class Minoa(Game):
    name: ClassVar[str] = "minoa"
    title: ClassVar[str] = "Minoa"
    summary: ClassVar[str] = N_(
        "Place black sticks inside and coloured pieces on the edge of a hexagon; the largest territory wins."
    )
    colours: ClassVar[tuple[str, ...]] = COLOURS
    min_players: ClassVar[int] = min(SETUPS)
    max_players: ClassVar[int] = max(SETUPS)
    action_types: ClassVar[tuple[type[Action], ...]] = (PlaceStick, PlacePiece, Pass)

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return minoa_options(self.min_players, self.max_players)

    def _setup(self, options: Mapping[str, Any]) -> MinoaState:
        return MinoaState(options)

    def state_from_json(self, data: JsonDict) -> MinoaState:
        state = self._setup(self.validate_options(data["options"]))
        state.lines = [int(x) for x in data["lines"]]
        state.hands = [int(x) for x in data["hands"]]
        state.sticks_left = int(data["sticks_left"])
        state.current = int(data["current"])
        state.end = None if data["end"] is None else str(data["end"])
        state.auto_filled = [int(x) for x in data["auto_filled"]]
        return state


MinoaState.game = register(Minoa())
