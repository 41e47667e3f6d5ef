"""Minotaurus's setup options in words: what the host reads when starting a game.

Every label and explanation is an English literal marked with N_ for translation at the web layer.
"""

from __future__ import annotations

from companion.games.base import N_, OptionSpec, first_player_option, players_option


def minotaurus_options(min_players: int, max_players: int) -> tuple[OptionSpec, ...]:
    return (
        players_option(4, min_players, max_players),
        first_player_option(max_players, N_("The player who takes the first turn; play goes on clockwise.")),
        OptionSpec(
            "variant",
            N_(
                "The simplified variant of the rules: a challenger may contest only a value he holds "
                "himself, and the challenged player may take back only such a value."
            ),
            "standard",
            choices=("standard", "simplified"),
            label=N_("Challenges"),
            choice_labels=(
                N_("Standard: either piece of the pair may be contested"),
                N_("Simplified: only a value the player holds himself"),
            ),
        ),
        OptionSpec(
            "layout",
            N_(
                "The rules allow spreading the pieces at random instead of laying them out in rows. "
                "Play is the same; the positions are still numbered."
            ),
            "matrix",
            choices=("matrix", "random"),
            label=N_("Laying out the pieces"),
            choice_labels=(N_("In rows and columns"), N_("Spread at random")),
        ),
        OptionSpec(
            "tie_break",
            N_(
                "Players level for first place toss three rings each. The rule text says tosses go on "
                "'like penalty kicks' until there is a winner, but also that there may be more than one "
                "winner (docs/rulings.md, Minotaurus, The end and ties)."
            ),
            "sudden_death",
            choices=("sudden_death", "shared_after_three", "shared"),
            label=N_("A tie for first place"),
            choice_labels=(
                N_("Three tosses each, then one more each until one leads"),
                N_("Three tosses each, then the leaders share the win"),
                N_("No toss-off: the tied players share the win"),
            ),
            house_rule=True,
        ),
    )
