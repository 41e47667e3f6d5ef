"""The reasons of the games' rule refusals as templates, so that a German page shows them in German.

A game refuses an action with RuleError(rule, reason), the reason an English f-string ("line 12 already
holds a black stick, which stays put"); the host page shows it in the frame "{reason} (rule: {rule})" and
passes the reason through Companion.gameText, which matches it against these templates like game_texts'
sentences (after "seat N" is replaced by the player's name, hence `{who}`). A reason may quote what the
table waits for ("... waiting for Ann to act"), so game_texts.TEMPLATES puts these first.
tests/web/test_game_refusals.py reads every RuleError in companion/games and fails when one has no template.
"""

from __future__ import annotations

from companion.games.base import N_

WRITTEN_IN_PLACE: tuple[str, ...] = (
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
"""The reasons a raise writes itself."""

PROBLEMS: tuple[str, ...] = (
    # Minotaurus: a pair claimed, a challenge issued
    N_("a pair is one colour, but these are {colour} and {other_colour}"),
    N_("a pair is one left and one right horn, but both are {horn} horns"),
    N_("{who} already holds a {colour} pair (at most one pair per colour)"),
    N_("{who} cannot be challenged by {challenger}"),
    N_("both players must hold a {colour} pair"),
    N_("a resolved {colour} pair cannot be changed"),
    N_("the {colour} pairs {mine} and {theirs} share no value"),
    N_("{who}'s {colour} pair holds {theirs}, not {value}"),
    N_("in the simplified variant only a value the challenger holds may be contested ({values})"),
    # Tanz der Hornochsen: buying, a double square, the row a tile must join
    N_("a player announces once per round how many tiles he buys: no buying in instalments"),
    N_("a player may buy 1 to {most} tiles, not {count}"),
    N_("nobody has announced a purchase this round to announce at the same time with"),
    N_("at most {most} tiles behind a screen: {who} has {held}, so may buy at most {count}"),
    N_(
        "the supply ran out before this round: no more buying, except one tile for a player who has "
        "to play two tiles and holds only one"
    ),
    N_("only {count} tile(s) are left in the supply and the box"),
    N_("two tiles are played while a double square shows, and {who} holds one: buy first"),
    N_("row {row} is not active; the active rows are {rows}"),
    N_(
        "{tile} is lower than the last tile of every active row: it goes to row {row}, "
        "the row with the highest last number ({other})"
    ),
    N_("{tile} is lower than {other}, the last tile of row {row}"),
    N_("{tile} goes to row {row}: {tile} - {other} is the smallest difference, not {tile} - {last}"),
    # Asterion: the tile to rotate, swap or move
    N_("there is no tile at {cell}"),
    N_("the Minotaur tile: only a tile with a living {colour} prisoner may be used"),
    N_("the tile at {cell} is {owner}'s: only a tile with a living {colour} prisoner may be used"),
    N_("the {colour} prisoners on the tile at {cell} are dead"),
    N_("the tile at {cell} is surrounded by four tiles: it needs a free side"),
    # Minos: building, buying guards and ships, moving, embarking, rolling
    N_("{building} is not a building; buildings are {buildings}"),
    N_("{field} is not a settlement field in play"),
    N_("{who} has no guard or ship on {field}"),
    N_("{field} is a city: nothing more is built in a city"),
    N_("the first building on a settlement field may not be a city wall"),
    N_("{field} has its city wall already"),
    N_("the {count}th building makes {field} a city, and a city must have a city wall"),
    N_("this building needs {count} build rights; {who} has {rights} this turn"),
    N_("this building costs {price} talents; {who} has {cash}"),
    N_("no {building} is left in the supply"),
    N_("{who} does not hold a settlement {field}"),
    N_("{field} has had its purchase this turn (one per settlement and turn)"),
    N_("a guard is bought only in a settlement with {count} houses (Wohngebäude)"),
    N_("a guard costs {price} talents; {who} has {cash}"),
    N_("{who} has no guard left in the supply"),
    N_("a ship is bought only in a settlement with {count} harbour buildings"),
    N_("a ship lies in the harbour of {field} already"),
    N_("a ship costs {price} talents; {who} has {cash}"),
    N_("{who} has no ship left in the supply"),
    N_("{field} holds a gold coin and is out of play"),
    N_("a ship carrying a guard needs a free sea route: no conflict on the way (Zusatzregel)"),
    N_("a ship carrying a guard is its owner's only ship on {field} (Zusatzregel)"),
    N_("no conflicts in the first round: move so that no conflict arises"),
    N_("only one ship fits on {field}"),
    N_("only one guard stands on {field} (any number only on a settlement field)"),
    N_("a piece is a ship or a guard, not {piece}"),
    N_(
        "a {piece} moves one field at a time between sea fields sharing a border, or a harbour; "
        "{origin}-{target} is not such a step"
    ),
    N_(
        "a {piece} moves one field at a time between land fields joined by a line; "
        "{origin}-{target} is not such a step"
    ),
    N_("{who} has no ship on {field}"),
    N_("{who} has no guard on {field}"),
    N_("no movement points are left this turn (a Möwe gives five)"),
    N_("guards travel by ship only with the optional rule (Zusatzregel)"),
    N_("{who} has no ship in the harbour of {field}"),
    N_("a ship never carries more than one guard"),
    N_("every roll after the first costs a battle ring; {who} has none"),
    N_("die {die} is set aside already, shows the Waage, or does not exist"),
    N_("no die is left to roll again (dice showing the Waage stay)"),
    N_("the actions have started: no more rolling this turn"),
    N_("a player rolls at most three times"),
)
"""The reasons the games word in a helper (`problem = ...`) before raising them."""

MALFORMED: tuple[str, ...] = (
    # SetupError: the new-game form's options
    N_("option {option}={given} is invalid: must be one of {choices}"),
    N_("option {option}={given} is invalid: must be a whole number from {lowest} to {highest}"),
    N_(
        "option first_player={given} is invalid: must be a whole number from 0 to {highest} "
        "with {count} players"
    ),
    N_(
        "option shortened={given} is invalid: must be a whole number from 0 to {highest} "
        "with {count} players on a board of {fields} settlements"
    ),
    N_("unknown option(s) {options} for {name}; valid options: {valid}"),
    # ActionFormatError: a move written as JSON
    N_("{kind}.{field} must be a list, not {given}"),
    N_("{kind}.{field} must be a whole number, not {given}"),
    N_("{kind}.{field} must be true or false, not {given}"),
    N_("{kind}.{field} must be text, not {given}"),
    N_("an action must be an object, not {given}"),
    N_("unknown action kind {kind}; expected one of {kinds}"),
    N_("{kind} has no field(s) {fields}"),
    N_("{kind} is missing field(s) {fields}"),
)
"""A game's refusals of options (SetupError) and of a move that is not well formed (ActionFormatError)."""

REFUSALS: tuple[str, ...] = WRITTEN_IN_PLACE + PROBLEMS + MALFORMED
"""Every refusal's reason, for game_texts.TEMPLATES."""
