"""The games' English sentences as templates, so that a German page shows them in German.

Game modules are pure and speak English: what the table waits for is an f-string such as
f"seat {seat} to add {tile} to a row". Their templates are msgids here, with `{name}` where a value
goes. A page gets the translated ones (i18n.game_templates); Companion.gameText (i18n.js) matches a
sentence against each template (a `{name}` matches any text, one in NUMBERS a whole number), and
shows the translation with the same values, each translated too when the catalog knows it (colours,
tiles, "ship").

The sentences are matched after the page has put the players' names in ("seat 2" -> "Ann"), so the
templates name the one who acts `{who}`. tests/web/test_game_texts.py plays every game and checks
that every sentence and label it makes matches one template: a game that changes its words fails there.
"""

from __future__ import annotations

from companion.games.base import N_
from companion.web.game_refusals import REFUSALS

WAITING: tuple[str, ...] = (
    N_("nothing: the game is over"),
    # Minotaurus
    N_("{who} to turn over a piece or challenge"),
    N_("{who} to turn over a second piece"),
    N_("{who} to claim the pair or return it"),
    N_("{who} to take a piece or decline"),
    N_("the table to show the piece at position {position}"),
    N_("the toss of {who}"),
    N_("the tie-break toss of {who}"),
    # Tanz der Hornochsen
    N_("the table to show the tile drawn for the first square of row {row}"),
    N_("{who} to buy tiles or play {tiles} face down"),  # two values side by side would not split
    N_("{who} to buy tiles or play {tiles} openly"),
    N_("the table to show the tile played by {who}"),
    N_("{who} to add {tile} to a row"),
    N_("{who} to keep one or two tiles of the completed row"),
    # Asterion
    N_("the table to show {who}'s tile"),
    N_("{who} to place the tile in hand or discard it for an optional action"),
    N_("{who} to place the {design} tile"),
    N_("{who} to put the lifted tile down somewhere else"),
    # Minos
    N_("the table to put gold coins on {count} more settlement fields"),
    N_("{who}'s roll: die {die} next"),
    N_("{who}'s combat roll: die {die} next"),
    N_("{who} to keep the combat roll or pay a ring to roll again"),
    N_("{who} to act"),
    # Minoa
    N_("{who} to place a black stick or a {colour} piece"),
)
"""What the table waits for (ToAct.waiting_for), every game."""

LABELS: tuple[str, ...] = (
    # Minotaurus
    N_("turn over position {position}"),
    N_("position {position} shows {colour} {value} {horn}"),
    N_("claim the pair"),
    N_("return both face down"),
    N_("challenge {who} for {colour} {value}"),
    N_("{who}'s toss lands on a horn"),
    N_("{who}'s toss misses"),
    N_("take the challenger's {value} in exchange"),
    N_("decline the exchange"),
    N_("pass (nothing left to do)"),
    # Tanz der Hornochsen
    N_("the next tile drawn for the board is {tile}"),
    N_("buy {count} tile for {points} minus point(s)"),
    N_("buy {count} tiles for {points} minus point(s)"),
    N_("buy {count} tile for {points} minus point(s) (announced at the same time as the last buyer)"),
    N_("buy {count} tiles for {points} minus point(s) (announced at the same time as the last buyer)"),
    N_("put my tile down (face down; in an open round it is shown at once)"),
    N_("{who} played {tile}"),
    N_("add {tile} to row {row}"),
    N_("keep {tile} (the rest goes into the box)"),
    N_("keep {tile} and {other} (the rest goes into the box)"),
    # Asterion
    N_("place the tile in hand"),
    N_("{who}'s tile is a {design}"),
    N_("place it at ({x}, {y}), unturned"),
    N_("place it at ({x}, {y}), turned {degrees}° clockwise"),
    N_("discard the tile in hand to turn the tile at ({x}, {y}) to unturned"),
    N_("discard the tile in hand to turn the tile at ({x}, {y}) to turned {degrees}° clockwise"),
    N_("discard the tile in hand to swap the tiles at ({x}, {y}) and ({other_x}, {other_y})"),
    N_("discard the tile in hand to move the tile at ({x}, {y})"),
    N_("put the lifted tile at ({x}, {y}), unturned"),
    N_("put the lifted tile at ({x}, {y}), turned {degrees}° clockwise"),
    # Minos
    N_("gold coin on {field}: out of play"),
    N_("die {die} shows {symbol}"),
    N_("set die {die} aside"),
    N_("roll the other dice again"),
    N_("use {dice}"),
    N_("buy a battle ring ({price} talents)"),
    N_("move {piece} from {origin} to {target}"),
    N_("take a guard from {field} aboard the ship"),
    N_("build a {building} in {field}"),
    N_("buy a guard in {field} ({price} talents)"),
    N_("buy a ship in the harbour of {field} ({price} talents)"),
    N_("end the turn"),
    N_("keep this result"),
    # Minoa
    N_("black stick on line {line}"),
    N_("{colour} piece on line {line}"),
    N_("{colour} piece on edge line {line} ({side} side, {place} of {count} clockwise)"),
    N_("pass (no piece left and no stick can be placed)"),
)
"""What an action is called on the host's buttons and in the log (Action.label), every game."""

TABLE: tuple[str, ...] = (
    N_("there is no game at the table: start a new game first"),
    N_("the input was decided at event {after}, but game {game} is at event {events} now"),
    N_("the input was meant for game {game}, but the table plays game {current}"),
    N_("a new game was to replace game {game}, but the table has moved on to game {current}"),
    N_("nothing to undo in game {game}: every action is undone already"),
    N_("nothing to undo in game {game}: no action has been taken yet"),
    N_("game {game} is finished: only an unfinished game can be resumed"),
    N_("autoplay exists only in simulation: start with `companion run --simulate`"),
)
"""The table's refusals a host meets (companion/table/referee.py, record/session.py)."""

NUMBERS: tuple[str, ...] = (
    *("position", "value", "tile", "other", "row", "count", "points", "degrees"),
    *("x", "y", "other_x", "other_y", "die", "price", "line", "place"),
    *("after", "game", "events", "current", "lowest", "highest"),
)
"""Placeholders that match a whole number only, so two side by side ("{colour} {value} {horn}") split."""

WORDS: tuple[str, ...] = (
    # Values that go into the sentences, and that the boards' scripts translate by name.
    N_("a tile"),
    N_("two tiles"),
    N_("left"),
    N_("right"),
    N_("ship"),
    N_("guard"),
    # Who told the referee what (an event's source, companion/table/inputs.py)
    N_("host"),
    N_("sensor"),
    N_("camera"),
    N_("simulator"),
    N_("autoplay"),
    N_("import"),
    # Values inside the refusals' reasons (REFUSALS)
    N_("the table"),
    N_("in the box"),
    N_("on the table from a completed row"),
    N_("an edge"),
    N_("an edge line holding a piece"),
    N_("battle ring"),
    # Minotaurus: a position on the table, and the rules' variant
    N_("empty"),
    N_("turning"),
    N_("down"),
    N_("standard"),
    N_("simplified"),
    # Tanz der Hornochsen: the phases of a round
    N_("setup"),
    N_("choose"),
    N_("reveal"),
    N_("place"),
    N_("keep"),
    N_("over"),
    # Asterion's phases (place and over as above)
    N_("turn"),
    N_("put"),
    N_("show"),
    # Minos: a die, and the buildings (seeds/minos.toml; "trading_house" is shown with a space)
    N_("used"),
    N_("set aside"),
    N_("house"),
    N_("harbour"),
    N_("trading house"),
    N_("wall"),
    # Minoa's sides of the hexagon
    N_("top"),
    N_("upper right"),
    N_("lower right"),
    N_("bottom"),
    N_("lower left"),
    N_("upper left"),
    N_("red"),
    N_("blue"),
    N_("yellow"),
    N_("green"),
    N_("black"),
    N_("white"),
    # Asterion's tiles (seeds/asterion.toml)
    N_("cell"),
    N_("corridor"),
    N_("bend"),
    N_("junction"),
    N_("crossroads"),
    N_("treasury"),
    N_("treasure corridor"),
    N_("treasure bend"),
    N_("treasure junction"),
    N_("hidden chest"),
    N_("chest bends"),
    N_("wing corridor"),
    N_("wing bends"),
    N_("horned junction"),
)

TEMPLATES: tuple[str, ...] = REFUSALS + WAITING + LABELS + TABLE
"""The sentences a page matches, in this order (the words are only looked up): a refusal first, since
one quotes what the table waits for ("... waiting for Ann to act" also reads as "{who} to act")."""
