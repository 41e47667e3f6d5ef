"""Read-only views: the table as every phone may see it, and the games it can referee."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.games import all_games
from companion.web.common import current_referee

bp = Blueprint("state", __name__, url_prefix="/api")


@bp.get("/state")
def table_state() -> Response:
    """The latest public view: game, whose turn, public view, scores, legal actions, recent log."""
    response = Response(current_referee().latest().data, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games")
def game_descriptions() -> Response:
    """Every game the table referees, with its options: the host's new-game form is built from these."""
    return jsonify(games=[game.describe() for game in all_games()])
