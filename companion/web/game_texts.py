"""The games' English sentences as templates, so that a German page shows them in German.

Game modules are pure and speak English: what the table waits for is an f-string such as
f"seat {seat} to add {tile} to a row". Their templates are msgids here, with `{name}` where a value
goes. A page gets the translated ones (i18n.game_templates); Companion.gameText in app.js matches a
sentence against each template (a `{name}` matches any text), and shows the translation with the
same values, each translated too when the catalog knows it (colours, tiles, "face down").

The sentences are matched after the page has put the players' names in ("seat 2" -> "Ann"), so the
templates name the one who acts `{who}`. tests/web/test_game_texts.py plays every game and checks
that every sentence it makes matches a template: a game that changes its words fails there.
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

WORDS: tuple[str, ...] = (
    # Values that go into the sentences, and that the boards' scripts translate by name.
    N_("a tile"),
    N_("two tiles"),
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

TEMPLATES: tuple[str, ...] = WAITING
"""The sentences a page matches (the words are only looked up)."""
