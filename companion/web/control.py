"""The host's controls: new game, actions (table answers too), undo, autoplay, resume.

Every request that changes the table passes `require_host` first: the host
PIN (a later issue) belongs there and nowhere else.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from companion.games import GameError, get_game
from companion.table.inputs import NewGame, ResumeGame, SetAutoplay, SubmitAction, Undo
from companion.web.common import bad_request, json_object, optional_int, reply_response, submit

bp = Blueprint("control", __name__, url_prefix="/api")

HOST_SOURCE = "host"


@bp.before_request
def require_host() -> None:
    """Every control request passes here; for now everyone at the table is the host."""


@bp.post("/games")
def new_game() -> Response:
    body = json_object({"game", "options", "names"}, required={"game"})
    game, options, names = body["game"], body.get("options", {}), body.get("names")
    if not isinstance(game, str):
        bad_request(f"game must be a game's name, not {game!r}")
    if not isinstance(options, dict):
        bad_request(f"options must be an object, not {options!r}")
    if names is None:
        names = default_names(game, options)
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        bad_request(f"names must be a list of texts, not {names!r}")
    return reply_response(submit(NewGame(game, options, names), HOST_SOURCE), created=True)


def default_names(game: str, options: dict[str, Any]) -> list[str]:
    try:
        seats = get_game(game).setup(options).num_players
    except GameError as error:
        bad_request(str(error))
    return [f"Seat {seat}" for seat in range(seats)]


@bp.post("/actions")
def submit_action() -> Response:
    body = json_object({"action", "after", "game_id"}, required={"action"})
    if not isinstance(body["action"], dict):
        bad_request(f"action must be an object such as {{'kind': ..., 'by': ...}}, not {body['action']!r}")
    command = SubmitAction(
        body["action"], game_id=optional_int(body, "game_id"), after=optional_int(body, "after")
    )
    return reply_response(submit(command, HOST_SOURCE))


@bp.post("/undo")
def undo() -> Response:
    body = json_object({"after", "game_id"})
    return reply_response(
        submit(Undo(game_id=optional_int(body, "game_id"), after=optional_int(body, "after")), HOST_SOURCE)
    )


@bp.post("/autoplay")
def autoplay() -> Response:
    body = json_object({"on"}, required={"on"})
    if not isinstance(body["on"], bool):
        bad_request(f"on must be true or false, not {body['on']!r}")
    return reply_response(submit(SetAutoplay(body["on"]), HOST_SOURCE))


@bp.post("/games/<int:game_id>/resume")
def resume(game_id: int) -> Response:
    json_object(set())
    return reply_response(submit(ResumeGame(game_id), HOST_SOURCE))
