"""Minos data from seeds/minos.toml: prices, supplies, dice and the board map.

The map is data because the board is only in the missing illustration; the
format is documented in docs/minos-board.md. `Board.from_seed` checks a map
so that a mistyped board fails at import with the field named.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping
from typing import Any

from companion.seeddata import SeedError, load_seed

_SEED = load_seed("minos")

DICE_COUNT: int = _SEED["dice"]["count"]
FACES: tuple[str, ...] = tuple(_SEED["dice"]["faces"])
WAAGE, PFEIL, MOEWE, GEBAEUDE, JOKER, STERN = "Waage", "Pfeil", "Moewe", "Gebaeude", "Joker", "Stern"
ACTION_SYMBOLS: tuple[str, ...] = (WAAGE, PFEIL, MOEWE, GEBAEUDE)
SYMBOL_NAMES: dict[str, str] = {MOEWE: "Möwe", GEBAEUDE: "Gebäude"}
"""How a symbol is written for people: the record's names are ASCII (Moewe), players read the rules' Möwe."""


def symbol_name(symbol: str) -> str:
    return SYMBOL_NAMES.get(symbol, symbol)


"""The symbols that are actions; Joker stands for one of them, Stern adds one to one of them."""

COMBAT_VALUES: dict[str, int] = dict(_SEED["combat"]["values"])
SPECIAL_COMBINATION: tuple[str, ...] = tuple(_SEED["combat"]["special"])
SPECIAL_VALUE: int = _SEED["combat"]["special_value"]

_ACT = _SEED["actions"]
INCOME_PER_DIE: int = _ACT["income_per_waage"]
MOVEMENT_PER_DIE: int = _ACT["movement_per_moewe"]
STAR_BONUS: int = _ACT["star_bonus"]
RINGS_PER_DIE: int = _ACT["rings_per_pfeil"]
BUILD_RIGHTS_PER_DIE: int = _ACT["build_rights_per_gebaeude"]
RING_PRICE: int = _ACT["ring_price"]

START_CASH: int = _SEED["start"]["cash"]
START_SHIPS: int = _SEED["start"]["ships"]
SHIPS_PER_COLOUR: int = _SEED["supply"]["ships_per_colour"]
GUARDS_PER_COLOUR: int = _SEED["supply"]["guards_per_colour"]
RING_SUPPLY: int = _SEED["supply"]["rings"]
GUARD_PRICE: int = _SEED["purchase"]["guard_price"]
SHIP_PRICE: int = _SEED["purchase"]["ship_price"]
HOUSES_FOR_A_GUARD: int = _SEED["purchase"]["houses_for_a_guard"]
HARBOURS_FOR_A_SHIP: int = _SEED["purchase"]["harbours_for_a_ship"]

BUILD_RIGHTS: tuple[int, ...] = tuple(_SEED["building_costs"]["build_rights"])
BUILD_TALENTS: tuple[int, ...] = tuple(_SEED["building_costs"]["talents"])
WALL_BUILD_RIGHTS: int = _SEED["building_costs"]["wall_build_rights"]
BUILDING_VALUES: dict[str, int] = {b["name"]: b["value"] for b in _SEED["buildings"]}
BUILDING_SUPPLY: dict[str, int] = {b["name"]: b["supply"] for b in _SEED["buildings"]}
BUILDING_GERMAN: dict[str, str] = {b["name"]: b["german"] for b in _SEED["buildings"]}
BUILDINGS: tuple[str, ...] = tuple(BUILDING_VALUES)
WALL: str = next(b["name"] for b in _SEED["buildings"] if b.get("doubles"))
HARBOUR, HOUSE = "harbour", "house"
CITY_SIZE: int = _SEED["city"]["buildings"]
TRACK_LENGTH: int = _SEED["track"]["length"]
LAP_GOLD_COINS: int = _SEED["track"]["lap_gold_coins"]
CITIES_TO_END: int = _SEED["end"]["cities"]

REMOVED_BY_PLAYERS: dict[int, int] = {int(k): v for k, v in _SEED["removed_fields"]["by_players"].items()}
SHORTENED_MAX: int = _SEED["removed_fields"]["shortened_max"]
COLOURS_PER_PLAYER: dict[int, int] = {int(k): v for k, v in _SEED["colours"]["per_player"].items()}


@dataclasses.dataclass(frozen=True)
class Board:
    """The board as graphs: ships move on sea fields and harbours, guards on land.

    A settlement field and its harbour are one playing field ("Siedlung und
    Hafen bilden zusammen ein Spielfeld"), so a settlement's name is a node of
    both graphs: on land it is where guards stand, at sea it is the harbour.
    """

    start: str
    settlements: tuple[str, ...]
    sea: tuple[str, ...]
    land_points: tuple[str, ...]
    ship_neighbours: Mapping[str, tuple[str, ...]]
    guard_neighbours: Mapping[str, tuple[str, ...]]
    layout: Mapping[str, tuple[float, float]] = dataclasses.field(default_factory=dict)
    """Where the scoreboard draws each field (x right, y down); no rule depends on it."""

    @staticmethod
    def from_seed(data: Mapping[str, Any]) -> Board:
        settlements = tuple(str(s["name"]) for s in data["settlements"])
        sea = tuple(str(s) for s in data["sea"])
        land = tuple(str(p) for p in data["land_points"])
        names = [*settlements, *sea, *land]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise SeedError(f"minos map: names used twice: {', '.join(duplicates)}")
        if data["start"] not in sea:
            raise SeedError(f"minos map: start {data['start']!r} is not a sea field")
        ship: dict[str, list[str]] = {n: [] for n in (*sea, *settlements)}
        guard: dict[str, list[str]] = {n: [] for n in (*settlements, *land)}

        def join(graph: dict[str, list[str]], a: str, b: str, what: str) -> None:
            for end in (a, b):
                if end not in graph:
                    raise SeedError(f"minos map: {what} {a}-{b}: {end!r} is not a field of that kind")
            if a == b or b in graph[a]:
                raise SeedError(f"minos map: {what} {a}-{b} is given twice or joins a field to itself")
            graph[a].append(b)
            graph[b].append(a)

        for a, b in data["sea_borders"]:
            if a in settlements or b in settlements:
                raise SeedError(f"minos map: sea border {a}-{b} names a settlement; list harbours instead")
            join(ship, a, b, "sea border")
        for settlement in data["settlements"]:
            for field in settlement["harbour"]:
                if field not in sea:
                    raise SeedError(
                        f"minos map: harbour of {settlement['name']} borders {field!r}, no sea field"
                    )
                join(ship, settlement["name"], field, "harbour")
        for a, b in data["land_paths"]:
            join(guard, a, b, "land path")
        return Board(
            layout=_layout(data.get("layout"), names),
            start=str(data["start"]),
            settlements=settlements,
            sea=sea,
            land_points=land,
            ship_neighbours={n: tuple(v) for n, v in ship.items()},
            guard_neighbours={n: tuple(v) for n, v in guard.items()},
        )

    def to_json(self) -> dict[str, Any]:
        """The map as the scoreboard draws it: fields, the lines between them, and where each lies."""
        harbours = [[s, f] for s in self.settlements for f in self.ship_neighbours[s]]
        return {
            "start": self.start,
            "settlements": list(self.settlements),
            "sea": list(self.sea),
            "land_points": list(self.land_points),
            "sea_borders": _pairs(self.ship_neighbours, set(self.sea)),
            "harbours": harbours,
            "land_paths": _pairs(self.guard_neighbours, set(self.guard_neighbours)),
            "layout": {name: list(point) for name, point in self.layout.items()},
        }

    def is_settlement(self, name: str) -> bool:
        return name in self.settlement_set

    @functools.cached_property
    def settlement_set(self) -> frozenset[str]:
        return frozenset(self.settlements)


def _pairs(graph: Mapping[str, tuple[str, ...]], among: set[str]) -> list[list[str]]:
    """Each edge of `graph` between two fields of `among`, once."""
    return [[a, b] for a in graph if a in among for b in graph[a] if b in among and a < b]


def _layout(data: Mapping[str, Any] | None, names: list[str]) -> dict[str, tuple[float, float]]:
    """Each field's drawing place from [map.layout]; without one, the fields on a circle in seed order."""
    if data is None:
        step = 2 * math.pi / len(names)
        return {n: (50 + 45 * math.cos(i * step), 50 + 45 * math.sin(i * step)) for i, n in enumerate(names)}
    places = {k: v for k, v in data.items() if k != "source"}
    unknown = sorted(set(places) - set(names))
    missing = [n for n in names if n not in places]
    if unknown or missing:
        raise SeedError(f"minos map: layout names unknown fields {unknown} or misses {missing}")
    for name, point in places.items():
        numbers = isinstance(point, list) and all(isinstance(c, int | float) for c in point)
        if not (numbers and len(point) == 2):
            raise SeedError(f"minos map: layout of {name!r} is {point!r}, not [x, y]")
    return {name: (float(x), float(y)) for name, (x, y) in places.items()}


BOARD = Board.from_seed(_SEED["map"])
