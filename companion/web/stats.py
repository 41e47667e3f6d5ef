"""Per-player statistics from the record: games, wins, scores, toss success over time and per horn.

Each finished game is replayed once by the record's own replay and summed
up (`GameSummary`, cached by game id and event count). Players are the names
the host typed, compared without case or surrounding spaces. Only finished
games count: an abandoned game says nothing about who would have won.

A toss is the effective `toss` action of a game (undone ones are gone, an
overturned verdict counts as corrected). Its horn comes from the sensors'
evidence (`horn`: which horn's beams judged the ring at rest) or from the
host's overturn; a toss entered by hand has no horn ("by hand").

Endpoints: GET /api/stats[?game=], and plots as SVG drawn here:
/api/stats/plots/tosses.svg, horns.svg, wins.svg, scores.svg?game=
(each takes ?game= and repeated ?player=).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from flask_babel import gettext as _

from companion.games import UnknownGameError, get_game
from companion.record.replay import RecordHeader, replay
from companion.record.store import Event, GameInfo, RecordStore
from companion.web.common import bad_request, current_referee, fail
from companion.web.svgplot import Series, bar_chart, line_chart

CACHE_KEY = "companion.game_summaries"
MAX_PLAYERS_PLOTTED = 8
MAX_NAME_LENGTH = 64
BY_HAND = "by hand"


@dataclasses.dataclass(frozen=True)
class TossOutcome:
    seq: int
    seat: int
    success: bool
    horn: str | None
    source: str


@dataclasses.dataclass(frozen=True)
class GameSummary:
    """A game of the record as the statistics see it; `error` if its record no longer replays."""

    info: GameInfo
    title: str
    over: bool = False
    scores: list[int] | None = None
    ranking: list[list[int]] | None = None
    tosses: tuple[TossOutcome, ...] = ()
    last_at: str | None = None
    error: str | None = None

    @property
    def winners(self) -> list[int]:
        return list(self.ranking[0]) if self.ranking else []

    def to_json(self) -> dict[str, Any]:
        info = self.info
        return {
            "id": info.game_id,
            "game": info.game,
            "title": self.title,
            "names": info.names,
            "created": info.created,
            "last_event_at": self.last_at,
            "finished": info.finished,
            "events": info.events,
            "scores": self.scores,
            "ranking": self.ranking,
            "winners": self.winners,
            "error": self.error,
        }


def effective_events(events: Iterable[Event]) -> list[Event]:
    """The action events still standing, oldest first: an undo takes back the latest one, as in replay."""
    standing: list[Event] = []
    for event in events:
        if event.kind == "undo":
            if standing:
                standing.pop()
        else:
            standing.append(event)
    return standing


def toss_of(event: Event) -> TossOutcome | None:
    action = event.action or {}
    seat, success = action.get("player"), action.get("success")
    if action.get("kind") != "toss" or not isinstance(seat, int) or not isinstance(success, bool):
        return None
    horn = (event.evidence or {}).get("horn") if success else None
    return TossOutcome(event.seq, seat, success, horn if isinstance(horn, str) else None, event.source)


def summarize(info: GameInfo, events: Sequence[Event]) -> GameSummary:
    try:
        title = get_game(info.game).title
    except UnknownGameError:
        title = info.game
    header = RecordHeader(info.game, info.options, info.names, info.created, info.finished)
    try:
        state = replay(header, events).state
    except ValueError as error:
        return GameSummary(info, title, error=f"the record does not replay: {error}")
    over = state.is_over()
    tosses = tuple(t for t in map(toss_of, effective_events(events)) if t is not None)
    return GameSummary(
        info,
        title,
        over=over,
        scores=list(state.scores()),
        ranking=[list(group) for group in state.ranking()] if over else None,
        tosses=tosses,
        last_at=events[-1].at if events else None,
    )


class SummaryCache:
    """Summaries by (game id, events, finished): a game is replayed again only when its record grew."""

    def __init__(self) -> None:
        self._summaries: dict[tuple[int, int, bool], GameSummary] = {}
        self._lock = threading.Lock()

    def get(self, store: RecordStore, info: GameInfo) -> GameSummary:
        key = (info.game_id, info.events, info.finished)
        with self._lock:
            cached = self._summaries.get(key)
        if cached is not None:
            return cached
        summary = summarize(info, store.events(info.game_id))
        with self._lock:
            self._summaries = {k: v for k, v in self._summaries.items() if k[0] != info.game_id}
            self._summaries[key] = summary
        return summary


def summary_cache(app: Flask | None = None) -> SummaryCache:
    cache: SummaryCache = (app or current_app).extensions.setdefault(CACHE_KEY, SummaryCache())
    return cache


def finished_summaries(store: RecordStore, game: str | None = None) -> list[GameSummary]:
    cache = summary_cache()
    infos = [i for i in store.list_games() if i.finished and (game is None or i.game == game)]
    return [s for s in (cache.get(store, info) for info in infos) if s.error is None and s.over]


# ---------------------------------------------------------------- per player


def player_key(name: str) -> str:
    return name.strip().casefold()


@dataclasses.dataclass
class _Player:
    name: str
    games: int = 0
    wins: int = 0
    by_game: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    tosses: int = 0
    successes: int = 0
    horns: dict[str, int] = dataclasses.field(default_factory=dict)
    over_time: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "by_game": self.by_game,
            "tosses": {
                "count": self.tosses,
                "successes": self.successes,
                "rate": round(self.successes / self.tosses, 4) if self.tosses else None,
                "by_horn": dict(sorted(self.horns.items())),
                "rate_by_horn": {h: round(n / self.tosses, 4) for h, n in sorted(self.horns.items())},
            },
            "over_time": self.over_time,
        }


def player_stats(summaries: Sequence[GameSummary]) -> dict[str, _Player]:
    """Per player (by `player_key`), in order of first appearance; summaries oldest first."""
    players: dict[str, _Player] = {}
    for order, summary in enumerate(summaries, start=1):
        scores = summary.scores or []
        for seat, name in enumerate(summary.info.names):
            player = players.setdefault(player_key(name), _Player(name.strip()))
            won = seat in summary.winners
            player.games += 1
            player.wins += won
            per_game = player.by_game.setdefault(
                summary.info.game, {"title": summary.title, "games": 0, "wins": 0, "scores": []}
            )
            per_game["games"] += 1
            per_game["wins"] += won
            if seat < len(scores):
                per_game["scores"].append(scores[seat])
                per_game["best"] = max(per_game["scores"])
                per_game["mean"] = round(sum(per_game["scores"]) / len(per_game["scores"]), 2)
            mine = [t for t in summary.tosses if t.seat == seat]
            for toss in mine:
                player.tosses += 1
                player.successes += toss.success
                if toss.success:
                    horn = toss.horn or BY_HAND
                    player.horns[horn] = player.horns.get(horn, 0) + 1
            if mine:
                player.over_time.append(
                    {
                        "order": order,
                        "game_id": summary.info.game_id,
                        "created": summary.info.created,
                        "tosses": len(mine),
                        "successes": sum(t.success for t in mine),
                        "cumulative_rate": round(player.successes / player.tosses, 4),
                    }
                )
    return players


# ---------------------------------------------------------------- endpoints

bp = Blueprint("stats", __name__, url_prefix="/api/stats")


def game_filter() -> str | None:
    game = request.args.get("game") or None
    if game is not None:
        try:
            get_game(game)
        except UnknownGameError as error:
            bad_request(str(error))
    return game


def chosen_players(players: dict[str, _Player]) -> list[_Player]:
    """The ?player= names asked for (404 if one never played), else the busiest players."""
    asked = request.args.getlist("player")
    if len(asked) > MAX_PLAYERS_PLOTTED:
        bad_request(
            _(
                "at most %(most)s players in one plot, not %(asked)s",
                most=MAX_PLAYERS_PLOTTED,
                asked=len(asked),
            )
        )
    if any(len(name) > MAX_NAME_LENGTH for name in asked):
        bad_request(_("a player's name has at most %(most)s characters", most=MAX_NAME_LENGTH))
    if not asked:
        return sorted(players.values(), key=lambda p: (-p.games, -p.tosses))[:MAX_PLAYERS_PLOTTED]
    chosen = []
    for name in asked:
        player = players.get(player_key(name))
        if player is None:
            fail(404, _("no finished game of a player called %(name)s", name=repr(name)))
        chosen.append(player)
    return chosen


def _players() -> tuple[str | None, list[GameSummary], dict[str, _Player]]:
    game = game_filter()
    summaries = finished_summaries(current_referee().store, game)
    return game, summaries, player_stats(summaries)


def _svg(text: str) -> Response:
    response = Response(text, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("")
def statistics() -> Response:
    game, summaries, players = _players()
    ranked = sorted(players.values(), key=lambda p: (-p.wins, -p.games, p.name.casefold()))
    return jsonify(game=game, games=len(summaries), players=[p.to_json() for p in ranked])


@bp.get("/plots/tosses.svg")
def tosses_plot() -> Response:
    _, _, players = _players()
    series = [
        Series(p.name, [(point["order"], 100 * point["cumulative_rate"]) for point in p.over_time])
        for p in chosen_players(players)
    ]
    return _svg(
        line_chart(
            "Toss success rate so far (%)",
            series,
            y_max=100,
            unit="%",
            x_label="game",
            empty="no tosses in finished games yet",
        )
    )


@bp.get("/plots/horns.svg")
def horns_plot() -> Response:
    _, _, players = _players()
    chosen = chosen_players(players)
    horns = sorted({h for p in chosen for h in p.horns}, key=lambda h: (h == BY_HAND, h))
    groups = [
        Series(p.name, [(i, 100 * p.horns.get(h, 0) / p.tosses) for i, h in enumerate(horns)])
        for p in chosen
        if p.tosses
    ]
    return _svg(
        bar_chart(
            "Tosses landing on each horn (%)",
            horns,
            groups,
            y_max=100,
            unit="%",
            empty="no successful toss yet",
        )
    )


@bp.get("/plots/wins.svg")
def wins_plot() -> Response:
    _, _, players = _players()
    chosen = chosen_players(players)
    names = [p.name for p in chosen]
    groups = [
        Series("games", [(i, p.games) for i, p in enumerate(chosen)]),
        Series("wins", [(i, p.wins) for i, p in enumerate(chosen)]),
    ]
    return _svg(bar_chart("Games and wins", names, groups, empty="no finished game yet"))


@bp.get("/plots/scores.svg")
def scores_plot() -> Response:
    game, summaries, players = _players()
    if game is None:
        bad_request(_("scores are in each game's own terms: choose one with ?game="))
    chosen = {player_key(p.name): p.name for p in chosen_players(players)}
    points: dict[str, list[tuple[float, float]]] = {name: [] for name in chosen.values()}
    for order, summary in enumerate(summaries, start=1):
        for seat, name in enumerate(summary.info.names):
            if player_key(name) in chosen and summary.scores and seat < len(summary.scores):
                points[chosen[player_key(name)]].append((order, summary.scores[seat]))
    return _svg(
        line_chart(
            f"Final scores: {get_game(game).title}",
            [Series(name, line) for name, line in points.items()],
            x_label="game",
            empty="no finished game yet",
        )
    )
