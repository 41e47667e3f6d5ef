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


def N_(text: str) -> str:
    """Mark `text` for extraction (Babel's N_ keyword); the page translates it."""
    return text


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

REFUSALS: tuple[str, ...] = (
    # Every game (companion/games/base.py)
    N_("the game is over; no more actions are taken"),
    N_("it is not {who}'s turn: waiting for {waiting}"),
    N_("{kind} is not possible now: waiting for {waiting}"),
    # Minotaurus
    N_("there is no position {position}; positions are 0 to {count}"),
    N_("position {position} is empty: its piece has been taken"),
    N_("position {position} is already face up: reveal two different pieces"),
    N_("the piece turned over is at position {position}, not {other}"),
    N_(
        "{piece} is not in play with {count} players (colours {colours}; values {values}; left or right horn)"
    ),
    N_("position {position} was returned face down as {piece}, not {other_piece}"),
    N_("{colour} {value} {horn} is already held by a player"),
    N_("{colour} {value} {horn} is already face down at position {position}"),
    N_("{colour} {value} {horn} is already face up at position {position}"),
    N_("{who} tosses now (the challenger tosses first)"),
    N_("the challenged player may take one of {values}, not {value}"),
    N_("a player may pass only when there is nothing to turn over or challenge"),
    N_("{who} tosses now (turns alternate)"),
    # Tanz der Hornochsen
    N_("there is no tile {tile}: the tiles are numbered 1 to {count}"),
    N_("tile {tile} cannot come from the supply: it is {where}"),
    N_("{who}'s tiles on the table can only be {tiles}, taken from a row"),
    N_("tile {tile} is not behind {who}'s screen: it is {where}"),
    N_("{who}'s unknown tiles came from the box; {tile} is not in the box"),
    N_("the next tile to show is {who}'s, not {other_who}'s"),
    N_("the lowest played tile goes first: {tile}, not {other}"),
    N_("keep one of the row's other tiles ({tiles}), at most {count} behind a screen"),
    N_("keep one or two of the row's other tiles ({tiles}), at most {count} behind a screen"),
    # Asterion
    N_("the tile to show is {colour}'s"),
    N_("no tile design is named {design}; designs: {designs}"),
    N_("all {count} {colour} {design} tiles are on the table already"),
    N_("a tile is turned 0 to 3 quarter turns, not {rotation}"),
    N_("{cell} already holds a tile"),
    N_("{cell} is not orthogonally adjacent to a placed tile"),
    N_("Asterion would have no path left to the outside of the labyrinth"),
    N_("the tile at {cell} lies that way already: rotate it to a new orientation"),
    N_(
        "the tile at {cell} would look the same: rotate it to a new orientation "
        "(house rule: rotations that look the same are refused)"
    ),
    N_("a swap needs two different tiles"),
    N_("the tile must move somewhere else than {cell}"),
    # Minos
    N_("{field} is not a settlement field"),
    N_("{field} already holds a gold coin"),
    N_("die {die} is not being rolled now"),
    N_("dice are read in order: die {die} first"),
    N_("a symbol die shows one of {symbols}, not {symbol}"),
    N_("die {die} is not among the dice to roll again"),
    N_("every die is set aside: there is nothing to roll"),
    N_("a combination is one of {symbols} (the Joker as one of them)"),
    N_("a combination needs a die showing its symbol or the Joker: Stern alone is worthless"),
    N_("only {count} unused dice show {symbol}, not {wanted}"),
    N_("no unused die shows the {face}"),
    N_("the income (Waage) must be the first action of the turn"),
    N_(
        "each {symbol} die used this turn has its {face} already: Joker and Stern count once in a combination"
    ),
    N_("the {symbol} combination has its {face} already: Joker and Stern count once in a combination"),
    N_("battle rings may be bought only in a turn in which a Pfeil was used"),
    N_("a battle ring costs {price} talents; {who} has {cash}"),
    N_("no battle ring is left in the supply"),
    N_("no battle rings may be bought during a conflict"),
    # Minoa
    N_(
        "{colour} must place a stick or a piece; passing is only for a player with no piece left "
        "when no stick can be placed"
    ),
    N_("{kind} is not a Minoa action"),
    N_("there is no line {line}; lines are 0 to {count}"),
    N_("line {line} already holds a black stick, which stays put"),
    N_("line {line} already holds a {colour} piece, which stays put"),
    N_(
        "edge line {line} ({side} side, {place} of {count} clockwise) is on the edge: "
        "black sticks go only on interior lines"
    ),
    N_("all black sticks have been placed"),
    N_("a stick on line {line} would close off triangles {triangles} without {needs}"),
    N_("line {line} is inside the board: {colour} pieces go only on edge lines"),
    N_("{colour} has no piece left to place"),
)
"""The reasons of the games' rule refusals (RuleError) whose text the raise itself writes; the page
shows them in the frame "{reason} (rule: {rule})". tests/web/test_game_refusals.py reads every raise."""

NUMBERS: tuple[str, ...] = (
    *("position", "value", "tile", "other", "row", "count", "points", "degrees"),
    *("x", "y", "other_x", "other_y", "die", "price", "line", "place"),
    *("after", "game", "events", "current"),
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
