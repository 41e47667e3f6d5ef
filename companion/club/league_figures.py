"""The league's figures, computed from finished records only: ratings, standings, each player's history.

Pure (no I/O): `league_from_records` takes the records' texts, so a test or the bench can replay every
table's record and compare with what the league service shows; `League.figures()` gives the same shape
from the records it keeps. Games count in one order - the game's created time, then table, then game_id -
so ingesting in any order, twice, or after a restart gives the same league.

Ratings are openskill's Plackett-Luce model (a maintained library; it rates games of any number of
players): each seat is a team of one, its rank is its place in `state.ranking()` (seats grouped by place,
ties share a rank). The overall table orders players by openskill's ordinal (mu - 3 sigma), which starts
at zero and grows with evidence of skill, so one lucky game does not top the league.

A name at a table is the same person as the club's member whose name matches it as the statistics page
matches names (`player_key`: trimmed, case-folded); any other name is a guest, listed and marked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from companion.club.messages import Member, RecordMessage
from companion.record.jsonl import parse_record
from companion.record.replay import replay
from companion.web.stats import player_key

DIGITS = 6
"""Figures are rounded so they compare equal however they travel (JSON, SQLite)."""
GUEST_PREFIX = "guest-"
"""A guest's player id: the prefix, then the name as matched (member ids are roster ids)."""


@dataclasses.dataclass(frozen=True)
class FinishedGame:
    """One table's replayed record; `places[seat]` counts from 1 (ties share), empty if not over."""

    table: str
    game_id: int
    game: str
    created: str
    names: tuple[str, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]
    events: int

    @property
    def over(self) -> bool:
        return bool(self.places)

    def order(self) -> tuple[datetime, str, int]:
        return (datetime.fromisoformat(self.created), self.table, self.game_id)


def replay_record(record: RecordMessage) -> FinishedGame:
    """Parse and replay a table's record; RecordFormatError (a ValueError) if it does not replay."""
    parsed = parse_record(record.lines)
    state = replay(parsed.header, parsed.events, lines=parsed.lines).state
    places: list[int] = [0] * state.num_players
    if state.is_over():
        for place, group in enumerate(state.ranking(), start=1):
            for seat in group:
                places[seat] = place
    return FinishedGame(
        table=record.table,
        game_id=record.game_id,
        game=parsed.header.game,
        created=parsed.header.created,
        names=tuple(parsed.header.names),
        scores=tuple(state.scores()),
        places=tuple(places) if state.is_over() else (),
        events=len(parsed.events),
    )


class Players:
    """Who a name at a table is: a member of the club's roster, or a guest."""

    def __init__(self, members: Sequence[Member] = (), aliases: Mapping[str, str] | None = None) -> None:
        self.members = {player_key(member.name): member for member in members}
        by_id = {member.id: member for member in members}
        for key, member_id in (aliases or {}).items():
            if member_id in by_id:  # a member's current name wins over another's former one
                self.members.setdefault(key, by_id[member_id])
        self.guest_names: dict[str, str] = {}

    def identify(self, name: str) -> tuple[str, str, bool]:
        """(player id, name shown, guest?)."""
        key = player_key(name)
        member = self.members.get(key)
        if member is not None:
            return member.id, member.name, False
        shown = self.guest_names.setdefault(key, name.strip())
        return GUEST_PREFIX + key, shown, True


@dataclasses.dataclass
class _Standing:
    player: str
    name: str
    guest: bool
    games: int = 0
    wins: int = 0
    points: int = 0

    def to_json(self) -> dict[str, Any]:
        mean = round(self.points / self.games, DIGITS) if self.games else None
        fields = {"player": self.player, "name": self.name, "guest": self.guest}
        return {**fields, "games": self.games, "wins": self.wins, "mean_score": mean}


def _rating_json(rating: PlackettLuceRating) -> dict[str, float]:
    return {
        "mu": round(rating.mu, DIGITS),
        "sigma": round(rating.sigma, DIGITS),
        "ordinal": round(rating.ordinal(), DIGITS),
    }


def figures_from_games(
    games: Iterable[FinishedGame], members: Sequence[Member] = (), aliases: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The league: games counted (in order), standings per game and overall, every player's history, and
    the finished games not counted because one name sat at two seats.
    `aliases`: a renamed member's former names (as player_key matches them), each with the member's id."""
    model = PlackettLuce()
    players = Players(members, aliases)
    ratings: dict[str, PlackettLuceRating] = {}
    overall: dict[str, _Standing] = {}
    per_game: dict[str, dict[str, _Standing]] = {}
    history: dict[str, list[dict[str, Any]]] = {}
    counted: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for game in sorted((g for g in games if g.over), key=FinishedGame.order):
        seats = [players.identify(name) for name in game.names]
        ids = [player for player, _name, _guest in seats]
        if len(set(ids)) != len(ids):
            # One person at two seats (two players wrote the same name): no rating can say who won.
            skipped.append({"table": game.table, "game_id": game.game_id, "names": list(game.names)})
            continue
        before = [ratings.get(player) or model.rating(name=player) for player in ids]
        after = [team[0] for team in model.rate([[r] for r in before], ranks=list(game.places))]
        for seat, (player, name, guest) in enumerate(seats):
            ratings[player] = after[seat]
            won = game.places[seat] == 1
            for standing in (
                overall.setdefault(player, _Standing(player, name, guest)),
                per_game.setdefault(game.game, {}).setdefault(player, _Standing(player, name, guest)),
            ):
                standing.games += 1
                standing.wins += int(won)
                standing.points += game.scores[seat]
            history.setdefault(player, []).append(
                {
                    "game": game.game,
                    "table": game.table,
                    "game_id": game.game_id,
                    "date": game.created,
                    "place": game.places[seat],
                    "score": game.scores[seat],
                    "players": len(game.names),
                    "rating": _rating_json(after[seat]),
                }
            )
        counted.append(
            {
                "table": game.table,
                "game_id": game.game_id,
                "game": game.game,
                "created": game.created,
                "players": ids,
                "names": list(game.names),
                "scores": list(game.scores),
                "places": list(game.places),
            }
        )
    ranked = sorted(
        overall.values(), key=lambda s: (-ratings[s.player].ordinal(), s.name.casefold(), s.player)
    )
    return {
        "games": counted,
        "overall": [{**standing.to_json(), **_rating_json(ratings[standing.player])} for standing in ranked],
        "standings": {
            name: [
                standing.to_json()
                for standing in sorted(
                    table.values(),
                    key=lambda s: (-s.wins, -(s.points / s.games), s.name.casefold(), s.player),
                )
            ]
            for name, table in sorted(per_game.items())
        },
        "history": {player: history[player] for player in sorted(history)},
        "skipped": skipped,
    }


def league_from_records(
    records: Iterable[RecordMessage], members: Sequence[Member] = (), aliases: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The league's figures from the tables' records (each must replay; the longest per game counts)."""
    longest: dict[tuple[str, int], FinishedGame] = {}
    for record in records:
        game = replay_record(record)
        known = longest.get((game.table, game.game_id))
        if known is None or game.events > known.events:
            longest[(game.table, game.game_id)] = game
    return figures_from_games(longest.values(), members, aliases)
