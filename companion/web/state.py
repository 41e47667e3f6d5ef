"""Read-only views: the table as every phone may see it, and the games it can referee."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify
from flask_babel import gettext

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
    """Every game the table referees, with its options: the host's new-game form is built from these,
    in the phone's language (the games keep their words in English, marked N_ for the catalogs)."""
    response = jsonify(games=[_in_words(game.describe()) for game in all_games()])
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


def _in_words(description: dict[str, Any]) -> dict[str, Any]:
    translated = {**description, "summary": _translated(description.get("summary"))}
    translated["options"] = [
        {
            **option,
            "label": _translated(option.get("label")),
            "description": _translated(option.get("description")),
            "choice_labels": (
                None
                if option.get("choice_labels") is None
                else [_translated(label) for label in option["choice_labels"]]
            ),
        }
        for option in description["options"]
    ]
    return translated


def _translated(text: Any) -> Any:
    return gettext(text) if isinstance(text, str) and text else text
