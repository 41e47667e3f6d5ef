"""The Minos position: board, bank, value track, the turn's dice and a running conflict.

The rules that change it are in `turn.py` (dice), `building.py` (building,
purchases) and `conflict.py` (movement, duels, conquest); this module holds
what they share and the views.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, NoReturn, Self

from companion.games.base import CHANCE, NOBODY, Action, Game, JsonDict, PhasedState, RuleError, ToAct
from companion.games.minos.actions import BuyRing, DieShows
from companion.games.minos.data import (
    BOARD,
    BUILDING_SUPPLY,
    BUILDING_VALUES,
    CITIES_TO_END,
    CITY_SIZE,
    COLOURS_PER_PLAYER,
    DICE_COUNT,
    FACES,
    GUARDS_PER_COLOUR,
    LAP_GOLD_COINS,
    REMOVED_BY_PLAYERS,
    RING_SUPPLY,
    SHIPS_PER_COLOUR,
    START_CASH,
    START_SHIPS,
    TRACK_LENGTH,
    WALL,
)
from companion.games.minos.dice import combat_value

SHIP, GUARD = "ship", "guard"


@functools.cache
def _waiting(seat: int, words: str) -> ToAct:
    return ToAct((seat,), words)


@functools.cache
def die_readings(die: int) -> tuple[DieShows, ...]:
    return tuple(DieShows(CHANCE, die, face) for face in FACES)


ALL_DICE: tuple[int, ...] = tuple(range(DICE_COUNT))
NO_DICE: tuple[str | None, ...] = (None,) * DICE_COUNT
NOT_KEPT: tuple[bool, ...] = (False,) * DICE_COUNT


@dataclasses.dataclass(frozen=True)
class Conflict:
    """A duel, or a siege of duels, started by the player to act (the attacker).

    `piece` is the attacker's fighting piece: a ship or guard standing on
    `origin`, or (optional rule) "carried_guard", the guard of a ship that lost.
    `defending` is the defender's piece now fought; in a siege the ship first.
    """

    attacker: int
    defender: int
    piece: str
    origin: str
    target: str
    siege: bool
    carrying: bool
    defending: str
    roller: int
    dice: tuple[str | None, ...]
    pending: tuple[int, ...]
    kept: tuple[bool, ...] = NOT_KEPT
    attacker_total: int | None = None

    def to_json(self) -> JsonDict:
        data = dataclasses.asdict(self)
        data["dice"] = list(self.dice)
        data["pending"] = list(self.pending)
        data["kept"] = list(self.kept)
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Conflict:
        fields = dict(data)
        fields["dice"] = tuple(fields["dice"])
        fields["pending"] = tuple(fields["pending"])
        fields["kept"] = tuple(fields["kept"])
        return Conflict(**fields)


class MinosState(PhasedState):
    sequence_rule = "Spielablauf"

    game: ClassVar[Game]

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)
        self.num_players: int = options["players"]
        colours = COLOURS_PER_PLAYER[self.num_players]
        self.removals_left: int = REMOVED_BY_PLAYERS[self.num_players] + options["shortened"]
        self.removed: tuple[str, ...] = ()
        self.buildings: dict[str, tuple[str, ...]] = {s: () for s in BOARD.settlements}
        self.ships: dict[str, tuple[int, ...]] = {BOARD.start: tuple(range(self.num_players)) * START_SHIPS}
        self.guards: dict[str, tuple[int, int]] = {}  # field -> (owner, how many)
        self.aboard: dict[str, str] = {}  # ship's field -> settlement its guard came from (optional rule)
        self.cash: list[int] = [START_CASH] * self.num_players
        self.rings: list[int] = [0] * self.num_players
        self.ring_supply: int = RING_SUPPLY
        self.ship_supply: list[int] = [SHIPS_PER_COLOUR * colours - START_SHIPS] * self.num_players
        self.guard_supply: list[int] = [GUARDS_PER_COLOUR * colours] * self.num_players
        self.building_supply: dict[str, int] = dict(BUILDING_SUPPLY)
        self.eliminated: list[bool] = [False] * self.num_players
        self.current: int = options["first_player"]
        self.turns_taken: int = 0
        self.phase: str = "remove" if self.removals_left else "roll"
        # the turn
        self.dice: tuple[str | None, ...] = NO_DICE
        self.pending: tuple[int, ...] = ALL_DICE
        self.kept: tuple[bool, ...] = NOT_KEPT
        self.rolls: int = 1
        self.used: tuple[bool, ...] = (False,) * DICE_COUNT
        self.rolling_done: bool = False
        self.income_open: bool = True  # Waage only before every other dice action
        self.move_points: int = 0
        self.build_rights: int = 0
        self.may_buy_rings: bool = False
        self.jokered: tuple[str, ...] = ()  # action symbols whose combination has its Joker this turn
        self.starred: tuple[str, ...] = ()  # ... and its Stern
        self.purchased: tuple[str, ...] = ()
        self.conflict: Conflict | None = None

    def copy(self) -> Self:
        # Values in the dicts are immutable tuples, so shallow copies are enough (and fast). Buildings,
        # their supply and the list of players out change rarely: the rules replace those containers
        # (copy on write, see turn.build and conflict._check_elimination) instead of changing them.
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.ships = dict(self.ships)
        new.guards = dict(self.guards)
        new.aboard = dict(self.aboard)
        new.cash = list(self.cash)
        new.rings = list(self.rings)
        new.ship_supply = list(self.ship_supply)
        new.guard_supply = list(self.guard_supply)
        return new

    # ------------------------------------------------------------ reading the board

    def ship_owner(self, field: str) -> int | None:
        owners = self.ships.get(field)
        return owners[0] if owners and field != BOARD.start else None

    def guard_owner(self, field: str) -> int | None:
        guard = self.guards.get(field)
        return guard[0] if guard else None

    def owner(self, settlement: str) -> int | None:
        """A settlement belongs to whoever has a guard there or a ship in its harbour."""
        ship = self.ship_owner(settlement)
        return ship if ship is not None else self.guard_owner(settlement)

    def settlement_value(self, settlement: str) -> int:
        built = self.buildings[settlement]
        value = sum(BUILDING_VALUES[b] for b in built)
        return value * 2 if WALL in built else value

    def owned(self, seat: int) -> list[str]:
        held = {f for f, owners in self.ships.items() if owners[0] == seat}
        held |= {f for f, (owner, _n) in self.guards.items() if owner == seat}
        return [s for s in BOARD.settlements if s in held]

    def value(self, seat: int) -> int:
        return sum(self.settlement_value(s) for s in self.owned(seat))

    def pieces_on_board(self, seat: int) -> tuple[int, int]:
        ships = sum(owners.count(seat) for owners in self.ships.values())
        guards = sum(n for owner, n in self.guards.values() if owner == seat)
        if seat == self.current:
            guards += len(self.aboard)
        return ships, guards

    def in_first_round(self) -> bool:
        return self.turns_taken < self.num_players

    def unused_dice(self, symbol: str) -> list[int]:
        return [i for i, s in enumerate(self.dice) if s == symbol and not self.used[i]]

    def active_settlements(self) -> list[str]:
        return [s for s in BOARD.settlements if s not in self.removed]

    def end_reached(self) -> bool:
        active = self.active_settlements()
        cities = sum(len(self.buildings[s]) == CITY_SIZE for s in active)
        return all(self.buildings[s] for s in active) and cities >= CITIES_TO_END

    def players_in(self) -> list[int]:
        return [p for p in range(self.num_players) if not self.eliminated[p]]

    # ------------------------------------------------------------ the interface

    def to_act(self) -> ToAct:
        if self.phase == "over":
            return NOBODY
        if self.phase == "remove":
            return _waiting(
                CHANCE, f"the table to put gold coins on {self.removals_left} more settlement fields"
            )
        if self.phase == "roll":
            return _waiting(CHANCE, f"seat {self.current}'s roll: die {self.pending[0] + 1} next")
        if self.phase == "conflict":
            c = self.conflict
            assert c is not None
            if c.pending:
                return _waiting(CHANCE, f"seat {c.roller}'s combat roll: die {c.pending[0] + 1} next")
            return _waiting(c.roller, f"seat {c.roller} to keep the combat roll or pay a ring to roll again")
        return _waiting(self.current, f"seat {self.current} to act")

    # The rules fill these in (companion.games.minos.handlers), so that this module need not import them.
    actions_by_phase: ClassVar[Mapping[str, Callable[[MinosState], list[Action]]]] = {}

    def legal_actions(self) -> list[Action]:
        lister = self.actions_by_phase.get(self.phase)
        return lister(self) if lister is not None else []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The next die to read, each face equally likely (one chance action per die rolled)."""
        if self.phase in ("roll", "conflict"):
            pending = self.conflict.pending if self.phase == "conflict" and self.conflict else self.pending
            if pending:
                return [(a, 1.0 / len(FACES)) for a in die_readings(pending[0])]
        return super().chance_outcomes()

    def _out_of_sequence(self, action: Action) -> NoReturn:
        if self.phase == "conflict" and isinstance(action, BuyRing):
            raise RuleError("Funktion der Kampfringe", "no battle rings may be bought during a conflict")
        super()._out_of_sequence(action)

    # ------------------------------------------------------------ results

    def scores(self) -> list[int]:
        return [self.value(p) for p in range(self.num_players)]

    def ranking(self) -> list[list[int]]:
        # Value first, cash breaks ties ("Das Bargeld spielt nur dann eine Rolle ..."); a player
        # out of the game ranks behind every player still in it.
        values = self.scores()
        keys = {p: (not self.eliminated[p], values[p], self.cash[p]) for p in range(self.num_players)}
        return [
            [p for p in range(self.num_players) if keys[p] == k]
            for k in sorted(set(keys.values()), reverse=True)
        ]

    def is_over(self) -> bool:
        return self.phase == "over"

    def component_counts(self) -> dict[str, int]:
        ships = guards = 0
        for p in range(self.num_players):
            on_ships, on_guards = self.pieces_on_board(p)
            ships += on_ships + self.ship_supply[p]
            guards += on_guards + self.guard_supply[p]
        built = sum(len(b) for b in self.buildings.values())
        return {
            "ships": ships,
            "guards": guards,
            "buildings": built + sum(self.building_supply.values()),
            "rings": sum(self.rings) + self.ring_supply,
        }

    # ------------------------------------------------------------ views

    def combat_score(self) -> int | None:
        if self.conflict is None or self.conflict.pending:
            return None
        return combat_value(s for s in self.conflict.dice if s is not None)

    def public_view(self) -> JsonDict:
        show_cash = self.options["cash"] == "open" or self.is_over()
        values = self.scores()
        players = []
        for p in range(self.num_players):
            ships, guards = self.pieces_on_board(p)
            players.append(
                {
                    "seat": p,
                    "value": values[p],
                    "track": values[p] % TRACK_LENGTH,
                    "gold_under_marker": values[p] // TRACK_LENGTH * LAP_GOLD_COINS,
                    "cash": self.cash[p] if show_cash else None,
                    "rings": self.rings[p],
                    "ships_on_board": ships,
                    "guards_on_board": guards,
                    "ships_in_supply": self.ship_supply[p],
                    "guards_in_supply": self.guard_supply[p],
                    "out_of_the_game": self.eliminated[p],
                }
            )
        settlements = [
            {
                "name": s,
                "out_of_play": s in self.removed,
                "buildings": list(self.buildings[s]),
                "value": self.settlement_value(s),
                "owner": self.owner(s),
                "ship": self.ship_owner(s),
                "guards": self.guards[s][1] if s in self.guards else 0,
            }
            for s in BOARD.settlements
        ]
        turn = None
        if self.phase in ("roll", "act", "conflict"):
            turn = {
                "seat": self.current,
                "dice": list(self.dice),
                "used": list(self.used),
                "set_aside": list(self.kept),
                "rolls": self.rolls,
                "movement_points": self.move_points,
                "build_rights": self.build_rights,
                "may_buy_rings": self.may_buy_rings,
                "joker_used_for": list(self.jokered),
                "stern_used_for": list(self.starred),
                "first_round": self.in_first_round(),
            }
        conflict = None
        if self.conflict is not None:
            conflict = self.conflict.to_json() | {"score": self.combat_score()}
        return {
            "game": "minos",
            "players": players,
            "phase": self.phase,
            "current": None if self.is_over() else self.current,
            "waiting_for": self.to_act().waiting_for,
            "settlements": settlements,
            "map": BOARD.to_json(),
            "sea": {f: list(o) for f, o in self.ships.items() if f not in BOARD.settlements and o},
            "land": {
                f: {"owner": g[0], "guards": g[1]} for f, g in self.guards.items() if f in BOARD.land_points
            },
            "aboard": dict(self.aboard),
            "building_supply": dict(self.building_supply),
            "ring_supply": self.ring_supply,
            "turn": turn,
            "conflict": conflict,
            "scores": values,
            "over": self.is_over(),
            "ranking": self.ranking() if self.is_over() else None,
        }

    def to_json(self) -> JsonDict:
        return {
            "options": self.options,
            "removals_left": self.removals_left,
            "removed": list(self.removed),
            "buildings": {s: list(b) for s, b in self.buildings.items()},
            "ships": {f: list(o) for f, o in self.ships.items()},
            "guards": {f: list(g) for f, g in self.guards.items()},
            "aboard": dict(self.aboard),
            "cash": self.cash,
            "rings": self.rings,
            "ring_supply": self.ring_supply,
            "ship_supply": self.ship_supply,
            "guard_supply": self.guard_supply,
            "building_supply": self.building_supply,
            "eliminated": self.eliminated,
            "current": self.current,
            "turns_taken": self.turns_taken,
            "phase": self.phase,
            "dice": list(self.dice),
            "pending": list(self.pending),
            "kept": list(self.kept),
            "rolls": self.rolls,
            "used": list(self.used),
            "rolling_done": self.rolling_done,
            "income_open": self.income_open,
            "move_points": self.move_points,
            "build_rights": self.build_rights,
            "may_buy_rings": self.may_buy_rings,
            "jokered": list(self.jokered),
            "starred": list(self.starred),
            "purchased": list(self.purchased),
            "conflict": self.conflict.to_json() if self.conflict else None,
        }

    def load_json(self, data: JsonDict) -> None:
        self.removals_left = int(data["removals_left"])
        self.removed = tuple(data["removed"])
        self.buildings = {s: tuple(b) for s, b in data["buildings"].items()}
        self.ships = {f: tuple(o) for f, o in data["ships"].items()}
        self.guards = {f: (int(g[0]), int(g[1])) for f, g in data["guards"].items()}
        self.aboard = dict(data["aboard"])
        self.cash = list(data["cash"])
        self.rings = list(data["rings"])
        self.ring_supply = int(data["ring_supply"])
        self.ship_supply = list(data["ship_supply"])
        self.guard_supply = list(data["guard_supply"])
        self.building_supply = dict(data["building_supply"])
        self.eliminated = list(data["eliminated"])
        self.current = int(data["current"])
        self.turns_taken = int(data["turns_taken"])
        self.phase = str(data["phase"])
        self.dice = tuple(data["dice"])
        self.pending = tuple(data["pending"])
        self.kept = tuple(data["kept"])
        self.rolls = int(data["rolls"])
        self.used = tuple(data["used"])
        self.rolling_done = bool(data["rolling_done"])
        self.income_open = bool(data["income_open"])
        self.move_points = int(data["move_points"])
        self.build_rights = int(data["build_rights"])
        self.may_buy_rings = bool(data["may_buy_rings"])
        self.jokered = tuple(data["jokered"])
        self.starred = tuple(data["starred"])
        self.purchased = tuple(data["purchased"])
        self.conflict = Conflict.from_json(data["conflict"]) if data["conflict"] else None


def add_guards(state: MinosState, field: str, seat: int, count: int) -> None:
    held = state.guards.get(field, (seat, 0))[1]
    state.guards[field] = (seat, held + count)
