"""Minos (Jean Vanaise): the companion as bank, dice judge and value track.

Six symbol dice choose a turn's actions (income, battle rings, movement,
building); ships and guards found and defend settlements; conflicts are dice
duels. The board map and all prices are data in seeds/minos.toml; readings of
unclear passages are in docs/rulings.md (## Minos).

Modules: `data` (seed and map), `dice` (combat values, combinations),
`actions`, `state` (position, views), `turn` (rolling, combinations, rings,
the end of a turn), `building` (buildings, guards and ships for sale),
`conflict` (movement, duels, conquest), `stalemate` (can the game still
end?), `handlers` (which rule takes which action), `game` (options, setup).
"""

from __future__ import annotations

from companion.games.minos.game import Minos
from companion.games.minos.state import MinosState

__all__ = ["Minos", "MinosState"]
