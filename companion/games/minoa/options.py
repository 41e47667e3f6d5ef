"""Minoa's setup options in words: what the host reads when starting a game.

Every label and explanation is an English literal marked with N_ for translation at the web layer.
"""

from __future__ import annotations

from companion.games.base import N_, OptionSpec, players_option


def minoa_options(min_players: int, max_players: int) -> tuple[OptionSpec, ...]:
    return (
        players_option(2, min_players, max_players),
        OptionSpec(
            "closing",
            N_(
                "A stick may not close off a part of the board without an edge. Players read figure 3 "
                "differently: a part with edge lines is enough, or its edge must already hold a piece "
                "(docs/rulings.md, Minoa, Closing off areas)."
            ),
            "edge_line",
            choices=("edge_line", "coloured_edge"),
            label=N_("Closing off an area"),
            choice_labels=(
                N_("Each part must keep an edge line"),
                N_("Each part must keep an edge line that holds a piece"),
            ),
            house_rule=True,
        ),
        OptionSpec(
            "four_player_scoring",
            N_(
                "With four players the rules suggest a partner game: red with yellow and blue with green, "
                "each team adding its territory. Without four players this changes nothing."
            ),
            "partners",
            choices=("partners", "individual"),
            label=N_("Four players"),
            choice_labels=(N_("Partners facing each other"), N_("Each plays alone")),
        ),
        OptionSpec(
            "partner_areas",
            N_(
                "In the partner game, an area showing both partners' colours: the end rule asks for one "
                "player per area, but players may count such an area for the team "
                "(docs/rulings.md, Minoa, Four players)."
            ),
            "split",
            choices=("split", "shared"),
            label=N_("An area with both partners' colours"),
            choice_labels=(
                N_("Counts for nobody: the game goes on"),
                N_("Counts for the team"),
            ),
            house_rule=True,
        ),
    )
