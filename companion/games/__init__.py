"""The registry of games: every game the companion referees, found by name."""

from __future__ import annotations

import importlib

from companion.games.base import (
    CHANCE,
    Action,
    ActionFormatError,
    Game,
    GameError,
    OptionSpec,
    RuleError,
    SetupError,
    State,
    ToAct,
)


class UnknownGameError(GameError):
    """A game name the registry does not know."""


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.name in _GAMES:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    _load_builtin_games()
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}") from None


def all_games() -> list[Game]:
    _load_builtin_games()
    return [_GAMES[name] for name in sorted(_GAMES)]


BUILTIN_GAMES = ("minotaurus", "minoa", "hornochsen", "asterion", "minos")
"""Modules of companion.games that hold a finished game; each registers itself on import."""


def _load_builtin_games() -> None:
    # Imported late so that base types are importable from game modules without a cycle.
    for module in BUILTIN_GAMES:
        importlib.import_module(f"companion.games.{module}")


__all__ = [
    "CHANCE",
    "Action",
    "ActionFormatError",
    "Game",
    "GameError",
    "OptionSpec",
    "RuleError",
    "SetupError",
    "State",
    "ToAct",
    "UnknownGameError",
    "all_games",
    "get_game",
    "register",
]
