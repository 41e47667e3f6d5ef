"""Finished games in BG Stats' play-file format (the JSON a .bgsplay file holds), for import into the app.

docs/bgstats.md describes the mapping. Identifiers are stable UUIDs (version 5,
from the game's creation time and id, a player's name, a game's name), so
importing the same export twice does not count a play twice, and the same
name maps to the same BG Stats player in every export.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from companion.web.stats import GameSummary, player_key

NAMESPACE = uuid.UUID("6f1d0a4e-5b7c-4c1e-9a52-3b0d8e7f2a10")
"""Fixed, so the UUIDs of one game or player are the same in every export."""
ABOUT = (
    "This is a Play file that can be read by Board Game Stats. If you see this text, try to use a share, "
    "export or open-in function to open it with Board Game Stats. Written by Minotaur Companion."
)
LOCATION = "Minotaur Companion table"


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{key}"))


def local_time(utc_iso: str) -> str:
    """BG Stats keeps play dates as local wall-clock time, 'YYYY-MM-DD HH:MM:SS'."""
    return datetime.fromisoformat(utc_iso).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def duration_minutes(summary: GameSummary) -> int:
    if summary.last_at is None:
        return 0
    seconds = (
        datetime.fromisoformat(summary.last_at) - datetime.fromisoformat(summary.info.created)
    ).total_seconds()
    return max(1, math.ceil(seconds / 60))


def bgstats_export(summaries: Sequence[GameSummary], *, exported_at: str) -> dict[str, Any]:
    """The play file for `summaries` (finished games, oldest first); `exported_at` is a UTC ISO time."""
    modified = local_time(exported_at)
    games: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    plays = []
    for summary in summaries:
        if summary.ranking is None:
            continue
        game = games.setdefault(
            summary.info.game,
            {
                "id": len(games) + 1,
                "uuid": _uuid("game", summary.info.game),
                "name": summary.title,
                "modificationDate": modified,
                "cooperative": False,
                "highestWins": True,
                "noPoints": False,
                "usesTeams": False,
                "bggId": 0,
                "bggName": "",
                "bggYear": 0,
                "isBaseGame": 1,
                "isExpansion": 0,
            },
        )
        rank_of = {seat: place for place, group in enumerate(summary.ranking, start=1) for seat in group}
        scores = summary.scores or []
        player_scores = []
        for seat, name in enumerate(summary.info.names):
            player = players.setdefault(
                player_key(name),
                {
                    "id": len(players) + 1,
                    "uuid": _uuid("player", player_key(name)),
                    "name": name.strip(),
                    "isAnonymous": False,
                    "modificationDate": modified,
                    "bggUsername": "",
                },
            )
            player_scores.append(
                {
                    "playerRefId": player["id"],
                    "score": str(scores[seat]) if seat < len(scores) else "",
                    "winner": seat in summary.winners,
                    "rank": rank_of.get(seat, 0),
                    "seatOrder": seat + 1,
                    "startPlayer": seat == 0,
                    "newPlayer": False,
                    "role": "",
                    "team": "",
                }
            )
        plays.append(
            {
                "uuid": _uuid("play", f"{summary.info.created}/{summary.info.game_id}"),
                "gameRefId": game["id"],
                "locationRefId": 1,
                "playDate": local_time(summary.info.created),
                "entryDate": modified,
                "modificationDate": modified,
                "durationMin": duration_minutes(summary),
                "ignored": False,
                "manualWinner": True,
                "usesTeams": False,
                "rounds": 0,
                "board": "",
                "comments": f"Minotaur Companion game {summary.info.game_id}",
                "playerScores": player_scores,
                "expansionPlays": [],
                "bggId": 0,
            }
        )
    return {
        "about": ABOUT,
        "games": list(games.values()),
        "players": list(players.values()),
        "locations": [
            {"id": 1, "uuid": _uuid("location", LOCATION), "name": LOCATION, "modificationDate": modified}
        ],
        "plays": plays,
    }
