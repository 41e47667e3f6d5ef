"""Asterion's setup options in words: what the host reads when starting a game.

Every label and explanation is an English literal marked with N_ for translation at the web layer.
"""

from __future__ import annotations

from companion.games.base import N_, OptionSpec, first_player_option, players_option


def asterion_options(min_players: int, max_players: int) -> tuple[OptionSpec, ...]:
    return (
        players_option(4, min_players, max_players),
        first_player_option(
            max_players,
            N_(
                "The player with horns begins; if several players or none have horns, choose by any "
                "peaceful means. Play goes on anticlockwise."
            ),
        ),
        OptionSpec(
            "impaling_scores",
            N_(
                "Prisoners joined to the Minotaur are always killed. In the less confrontational game "
                "nobody scores for it; otherwise the player scores one point per opponent's prisoner and "
                "loses one per own."
            ),
            True,
            choices=(True, False),
            label=N_("Points for impaled prisoners"),
            choice_labels=(N_("Scored"), N_("Not scored (the less confrontational game)")),
        ),
        OptionSpec(
            "tie_break",
            N_(
                "A tie goes to the player with more prisoners escaping the labyrinth '(without coins)'. "
                "Players read the brackets differently: every prisoner that gets out counts, coins or not, "
                "or only those that score with coins (docs/rulings.md, Asterion, The end and scoring)."
            ),
            "escaping_at_all",
            choices=("escaping_at_all", "escaping_with_coins"),
            label=N_("A tie at the end"),
            choice_labels=(
                N_("More prisoners escaping, with or without coins"),
                N_("More prisoners escaping with coins"),
            ),
            house_rule=True,
        ),
        OptionSpec(
            "same_look_rotation",
            N_(
                "The optional action 'rotate' pays a tile to turn a tile of one's colour. The rules do not "
                "say whether a turn that leaves it looking the same (a straight corridor turned half "
                "round) counts; allowed, it lets a player give up a tile and change nothing "
                "(docs/rulings.md, Asterion, Optional actions)."
            ),
            "refused",
            choices=("refused", "allowed"),
            label=N_("Rotating a tile so it looks the same"),
            choice_labels=(
                N_("Refused: a rotation must change how the tile lies"),
                N_("Allowed: any new orientation, even one that looks the same"),
            ),
            house_rule=True,
        ),
    )
