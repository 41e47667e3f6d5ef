"""What a stable observation of the table means for the game: the actions the camera may enter.

The camera answers only what the game asks and only what it sees beyond
doubt: among the legal actions of the present position, it takes the one
its observation confirms, and nothing when none or several are confirmed
(the host enters it then). Each kind of action says which items show it:

- Minotaurus `reveal`: the flipped cell shows that piece ("blue-3-left");
- Minos `die`: the die shows that symbol, in an observation made after the
  roll was asked for (a die that shows the same symbol as before must have
  been rolled again, not merely left lying). The camera reads the tray's dice
  left to right; dice are alike, so when the tray holds just the dice of this
  roll, the first it shows is the lowest-numbered of them, and so on; when it
  holds all six, each place is its own die. (The game takes the roll die by
  die, so "this roll" is the dice still rolling when the roll was asked for.)
- Tanz der Hornochsen `reveal`: one of the seat's played-tile slots shows that
  number (in a double round a seat shows two tiles, "played:seatN" and
  "played:seatN:2"; the game takes them one `reveal` at a time, so when both
  are shown, the lower number is confirmed first and the other next time;
  outside a double round the second slot is not looked at);
  `place`: the tile lies in that row;
- Asterion `place`: the cell shows a tile at that rotation;
- Minoa `stick` / `piece`: the line shows a stick / the player's colour.

Positions the game holds as empty are the only ones legal actions place on,
so an item seen filled there is news; nothing else needs the old observation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games import Action, State

Items = Mapping[str, str]
Confirms = Callable[[dict[str, Any], Items], bool]

FRESH_KINDS = {("minos", "die")}
"""Answers that only an observation made after the question may give."""


def _minotaurus_reveal(action: dict[str, Any], seen: Items) -> bool:
    label = f"{action['colour']}-{action['value']}-{action['horn']}"
    return seen.get(f"cell:{action['position']}") == label


def _minos_die(action: dict[str, Any], seen: Items) -> bool:
    return seen.get(f"die:{action['die']}") == str(action["symbol"])


def _hornochsen_reveal(action: dict[str, Any], seen: Items) -> bool:
    seat, tile = action["seat"], str(action["tile"])
    return tile in (seen.get(f"played:seat{seat}"), seen.get(f"played:seat{seat}:2"))


def _hornochsen_place(action: dict[str, Any], seen: Items) -> bool:
    prefix, tile = f"row:{action['row']}:square:", str(action["tile"])
    return any(item.startswith(prefix) and label == tile for item, label in seen.items())


def _asterion_place(action: dict[str, Any], seen: Items) -> bool:
    label = seen.get(f"cell:{action['x']},{action['y']}", "empty")
    return label != "empty" and label.rsplit("@", 1)[-1] == str(action["rotation"])


def _minoa_stick(action: dict[str, Any], seen: Items) -> bool:
    return seen.get(f"line:{action['line']}") == "stick"


def _minoa_piece(action: dict[str, Any], seen: Items) -> bool:
    from companion.games.minoa import colour_of

    return seen.get(f"line:{action['line']}") == colour_of(int(action["by"]))


CONFIRMS: dict[tuple[str, str], Confirms] = {
    ("minotaurus", "reveal"): _minotaurus_reveal,
    ("minos", "die"): _minos_die,
    ("hornochsen", "reveal"): _hornochsen_reveal,
    ("hornochsen", "place"): _hornochsen_place,
    ("asterion", "place"): _asterion_place,
    ("minoa", "stick"): _minoa_stick,
    ("minoa", "piece"): _minoa_piece,
}


def _minos_tray(asked: State, seen: Items) -> Items:
    """The tray's dice, left to right, as the game numbers them (see the module's notes)."""
    from companion.games.minos.data import FACES

    shown = [seen.get(f"die:{n}", "unseen") for n in range(6)]
    visible = [label for label in shown if label in FACES]  # not "unseen" (or "empty"): no die there
    conflict: Any = getattr(asked, "conflict", None)
    rolling: Any = conflict if getattr(asked, "phase", None) == "conflict" and conflict is not None else asked
    roll: tuple[int, ...] = tuple(getattr(rolling, "pending", ()))
    if len(visible) == 6:
        return {f"die:{n}": label for n, label in enumerate(shown)}
    if roll and len(visible) == len(roll):
        return {f"die:{die}": label for die, label in zip(roll, visible, strict=True)}
    return {}  # some dice still out of the tray, or one too many: the host enters the roll


ONE_AT_A_TIME: dict[tuple[str, str], Callable[[dict[str, Any]], Any]] = {
    ("hornochsen", "reveal"): lambda action: (action["seat"], action["tile"]),
}
"""Kinds of which the table may show several at once (a seat's two tiles in a double round) while the game
takes them one by one, in any order: when every confirmed action is of such a kind, the first by this key
is the answer (the rest are confirmed by the next observations), not an ambiguity for the host."""


def _hornochsen_slots(asked: State, seen: Items) -> Items:
    """A seat's second slot counts only in a double round: otherwise whatever it shows (a tile left
    lying, a misreading) cannot be the seat's one tile."""
    if getattr(asked, "double", False):
        return seen
    return {item: label for item, label in seen.items() if not _second_slot(item)}


def _second_slot(item: str) -> bool:
    return item.startswith("played:seat") and item.endswith(":2")


SEEN_AS: dict[str, Callable[[State, Items], Items]] = {"minos": _minos_tray, "hornochsen": _hornochsen_slots}
"""Per game: the observation's items as the game's actions name them, when they differ (given the
position at which the question was first asked)."""


def asks_camera(game: str, state: State) -> set[str]:
    """The kinds of the legal actions the camera could answer in this position."""
    if state.is_over():
        return set()
    return {a.kind for a in state.legal_actions() if (game, a.kind) in CONFIRMS}


def camera_answer(
    game: str, state: State, seen: Items, *, fresh: bool, asked: State | None = None
) -> Action | None:
    """The one legal action the observation confirms, or None (none, or more than one: ambiguous).

    `fresh`: the observation was made after the question was asked (see FRESH_KINDS); `asked`: the
    position at which the camera's question was first asked (default: this one).
    """
    if state.is_over():
        return None
    if game in SEEN_AS:
        seen = SEEN_AS[game](asked if asked is not None else state, seen)
    confirmed: list[Action] = []
    for action in state.legal_actions():
        confirms = CONFIRMS.get((game, action.kind))
        if confirms is None or ((game, action.kind) in FRESH_KINDS and not fresh):
            continue
        try:
            if confirms(action.to_json(), seen):
                confirmed.append(action)
        except (KeyError, TypeError, ValueError):
            continue  # an action of another shape than the camera knows: the host enters it
    if len(confirmed) > 1:
        kinds = {(game, action.kind) for action in confirmed}
        if len(kinds) == 1 and (key := ONE_AT_A_TIME.get(kinds.pop())) is not None:
            return min(confirmed, key=lambda action: key(action.to_json()))
    return confirmed[0] if len(confirmed) == 1 else None
