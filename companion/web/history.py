"""Past games: the list, each game's full record, a step-through replay, and exports.

GET /api/history[?game=&limit=&offset=]       games, newest first
GET /api/history/<id>                          the full record: every event, labelled, with its evidence
GET /api/history/<id>/replay?step=N            the public view after the first N events
GET /api/history/<id>/record.jsonl             the record as JSON lines (`companion import` reads it)
GET /api/history/<id>/bgstats.json             one finished game in BG Stats' play-file format
GET /api/history/bgstats.json[?game=]          every finished game, the same way

The record of an unfinished game is the host's alone: it names every piece
the table ever revealed, including those turned face down again, which the
players must remember for themselves. Viewers get a 403 for it until the game
ends; the list shows every game.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext as _

from companion.games import Game, get_game
from companion.record.jsonl import export_record
from companion.record.replay import RecordFormatError, RecordHeader, replay
from companion.record.store import Event, GameInfo, RecordStore, utc_now
from companion.table.view import GameLog, game_view
from companion.web.auth import current_session
from companion.web.bgstats import bgstats_export
from companion.web.common import bad_request, current_referee, fail
from companion.web.stats import finished_summaries, game_filter, summary_cache

bp = Blueprint("history", __name__, url_prefix="/api/history")

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


def _whole_number(name: str, default: int, maximum: int) -> int:
    text = request.args.get(name)
    if text is None:
        return default
    if not text.isdigit() or len(text) > 9:
        bad_request(
            _(
                "%(name)s must be a whole number from 0 to %(maximum)s, not %(value)s",
                name=name,
                maximum=maximum,
                value=repr(text),
            )
        )
    value = int(text)
    if value > maximum:
        bad_request(
            _(
                "%(name)s must be a whole number from 0 to %(maximum)s, not %(value)s",
                name=name,
                maximum=maximum,
                value=value,
            )
        )
    return value


def _store() -> RecordStore:
    return current_referee().store


def _readable_game(game_id: int) -> GameInfo:
    """The game's info, if this request may read its record (404 unknown, 403 unfinished to a viewer)."""
    try:
        info = _store().info(game_id)
    except ValueError as error:  # GameNotFoundError
        fail(404, str(error))
    if not info.finished and current_session() is None:
        fail(
            403,
            _(
                "game %(game)s is still being played: its record shows pieces the players must remember, "
                "so only the host may read it before it ends",
                game=game_id,
            ),
        )
    return info


def _event_json(game: Game | None, event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"seq": event.seq, "at": event.at, "kind": event.kind, "source": event.source}
    if event.action is not None:
        data["action"] = event.action
        try:
            data["by"] = event.action.get("by")
            data["label"] = game.action_from_json(event.action).label() if game else None
        except ValueError:
            data["label"] = None
    else:
        data["label"] = "undo"
    if event.evidence is not None:
        data["evidence"] = event.evidence
    return data


@bp.get("")
def list_games() -> Response:
    game = game_filter()
    limit = _whole_number("limit", PAGE_SIZE, MAX_PAGE_SIZE)
    offset = _whole_number("offset", 0, 10**9)
    store = _store()
    infos = [info for info in reversed(store.list_games()) if game is None or info.game == game]
    page = infos[offset : offset + limit]
    cache = summary_cache()
    games = []
    for info in page:
        if info.finished:
            games.append(cache.get(store, info).to_json())
        else:  # a running game is on the scoreboard; here only what the list needs
            games.append({**_info_json(info), "scores": None, "ranking": None, "winners": [], "error": None})
    return jsonify(total=len(infos), offset=offset, limit=limit, games=games)


def _info_json(info: GameInfo) -> dict[str, Any]:
    return {
        "id": info.game_id,
        "game": info.game,
        "names": info.names,
        "options": info.options,
        "created": info.created,
        "finished": info.finished,
        "events": info.events,
    }


@bp.get("/<int:game_id>")
def game_record(game_id: int) -> Response:
    info = _readable_game(game_id)
    store = _store()
    events = store.events(game_id)
    summary = summary_cache().get(store, info)
    game = get_game(info.game) if summary.error is None else None
    return jsonify(
        game={**_info_json(info), "title": summary.title},
        summary=summary.to_json(),
        events=[_event_json(game, event) for event in events],
    )


@bp.get("/<int:game_id>/replay")
def replay_step(game_id: int) -> Response:
    """The table as it stood after `step` events, in the live scoreboard's own view format."""
    info = _readable_game(game_id)
    events = _store().events(game_id)
    step = _whole_number("step", 0, len(events))
    header = RecordHeader(info.game, info.options, info.names, info.created, info.finished)
    shown = events[:step]
    try:
        replayed = replay(header, shown)
    except RecordFormatError as error:
        fail(409, _("game %(game)s cannot be replayed: %(error)s", game=game_id, error=error))
    at_step = dataclasses.replace(info, events=step, finished=replayed.state.is_over())
    view = game_view(
        replayed.game, at_step, replayed.state, GameLog.from_record(replayed.game, at_step, shown)
    )
    del view["legal"]  # a replay shows the game; nobody acts in it
    return jsonify(
        step=step,
        steps=len(events),
        event=_event_json(replayed.game, shown[-1]) if shown else None,
        view=view,
    )


def _download(text: str, mimetype: str, filename: str) -> Response:
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get("/<int:game_id>/record.jsonl")
def export_jsonl(game_id: int) -> Response:
    info = _readable_game(game_id)
    return _download(export_record(_store(), game_id), "application/x-ndjson", f"{info.game}-{game_id}.jsonl")


@bp.get("/<int:game_id>/bgstats.json")
def export_bgstats_game(game_id: int) -> Response:
    info = _readable_game(game_id)
    summary = summary_cache().get(_store(), info)
    if summary.error is not None or summary.ranking is None:
        fail(
            409,
            _(
                "game %(game)s has no final ranking to export: %(why)s",
                game=game_id,
                why=summary.error or _("it is not over"),
            ),
        )
    data = bgstats_export([summary], exported_at=utc_now())
    return _download(
        json.dumps(data, ensure_ascii=False), "application/json", f"{info.game}-{game_id}.bgsplay"
    )


@bp.get("/bgstats.json")
def export_bgstats_all() -> Response:
    game = game_filter()
    data = bgstats_export(finished_summaries(_store(), game), exported_at=utc_now())
    name = f"{game or 'all-games'}.bgsplay"
    return _download(json.dumps(data, ensure_ascii=False), "application/json", name)
