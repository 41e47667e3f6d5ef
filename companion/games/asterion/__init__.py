"""Asterion (Néstor Romeral Andrés): the tile-laying labyrinth around the Minotaur.

The package registers the game on import: `tiles` reads the designs from
seeds/asterion.toml, `labyrinth` computes what the placed paths join,
`actions` and `game` hold the rules.
"""

from __future__ import annotations

from companion.games import register
from companion.games.asterion.game import Asterion, AsterionState

AsterionState.game = register(Asterion())

__all__ = ["Asterion", "AsterionState"]
