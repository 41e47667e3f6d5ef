"""Minos's setup options in words: what the host reads when starting a game.

Every label and explanation is an English literal marked with N_ for translation at the web layer.
"""

from __future__ import annotations

from companion.games.base import N_, OptionSpec, first_player_option, players_option

PER_SYMBOL_AND_TURN = "per_symbol_and_turn"
PER_DIE = "per_die"


def minos_options(min_players: int, max_players: int, shortened_max: int) -> tuple[OptionSpec, ...]:
    return (
        players_option(4, min_players, max_players),
        first_player_option(max_players, N_("The oldest player begins; play goes on clockwise.")),
        OptionSpec(
            "shortened",
            N_(
                "For a shorter game, this many more settlement fields get a gold coin and stay out of "
                "play, on top of those taken out for two or three players."
            ),
            0,
            minimum=0,
            maximum=shortened_max,
            label=N_("Fields out of play for a shorter game"),
        ),
        OptionSpec(
            "guards_by_ship",
            N_(
                "The optional rule (Zusatzregel): a ship in a harbour of its owner's settlement may take "
                "one guard aboard and put it ashore at another settlement in the same turn."
            ),
            False,
            choices=(False, True),
            label=N_("Guards travel by ship"),
            choice_labels=(N_("Without the optional rule"), N_("With the optional rule")),
        ),
        OptionSpec(
            "cash",
            N_(
                "The rules let players keep their cash secret. The companion, as the bank, always knows it; "
                "this says whether the scoreboard shows it before the end."
            ),
            "hidden",
            choices=("hidden", "open"),
            label=N_("Cash on the scoreboard"),
            choice_labels=(N_("Secret until the end"), N_("Shown to everyone")),
        ),
        OptionSpec(
            "joker_and_stern",
            N_(
                "The rules say a Joker and a Stern may be used only once in a combination ('nur einmal'). "
                "Players read a combination as all the dice of one symbol in a turn, or as one die of that "
                "symbol, so that two Gebäude dice may each take a Joker (docs/rulings.md, Minos, The turn "
                "and the dice)."
            ),
            PER_SYMBOL_AND_TURN,
            choices=(PER_SYMBOL_AND_TURN, PER_DIE),
            label=N_("Joker and Stern"),
            choice_labels=(
                N_("One Joker and one Stern per symbol per turn"),
                N_("Each Pfeil, Möwe, Gebäude or Waage die its own Joker and Stern"),
            ),
            house_rule=True,
        ),
    )
