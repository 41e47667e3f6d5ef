"""The host's controls: new game, actions (table answers too), undo, autoplay, resume, toss verdicts.

Every request here passes `require_host` first (companion/web/auth.py): a
signed-in host with the session's CSRF token, or a 403.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, Response, current_app, request
from flask_babel import gettext as _

from companion.games import GameError, get_game
from companion.record.store import Event
from companion.table.inputs import NewGame, ResumeGame, SetAutoplay, SetTableStatus, SubmitAction, Undo
from companion.web import auth
from companion.web.common import (
    MAX_NAME_LENGTH,
    bad_request,
    check_free_text,
    current_referee,
    fail,
    json_object,
    optional_int,
    reply_response,
    submit,
)
from companion.words import say, texts_of

bp = Blueprint("control", __name__, url_prefix="/api")

HOST_SOURCE = "host"


@bp.before_request
def require_host() -> None:
    """Every control request passes here: viewers without the PIN get a 403 and change nothing."""
    auth.require_host()


def require_host_but_pages() -> None:
    """The host's own pages (setup, teach) open for anyone: they hold nothing of the table and say "sign in
    with the table PIN first" in words, where a 403 would show a phone raw JSON. Everything they fetch or
    change is the host's only."""
    if request.method == "GET" and not request.path.startswith("/api/"):
        return
    auth.require_host()


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
    for seat, name in enumerate(names):
        check_free_text(_("the name of seat %(seat)d", seat=seat), name, MAX_NAME_LENGTH)
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


# ---------------------------------------------------------------- toss verdicts

VERDICT_CHANNEL = "verdict"
HORN_PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,15}")


def _latest_toss(seq: int, game_id: int | None) -> tuple[int, int, Event]:
    """(game id, events so far, the toss event) if event `seq` is the toss the game stands on; else 409."""
    referee = current_referee()
    current = referee.snapshot().game_id
    if current is None:
        fail(409, "there is no game at the table")
    if game_id is not None and game_id != current:
        fail(409, f"the verdict was meant for game {game_id}, but the table plays game {current}")
    events = referee.store.events(current)
    effective: list[Event] = []
    for event in events:  # the record's own rule: an undo takes back the latest action still standing
        if event.kind == "undo":
            effective.pop()
        else:
            effective.append(event)
    latest = effective[-1] if effective else None
    if latest is None or latest.seq != seq:
        standing = f"event {latest.seq}" if latest else "no action"
        fail(
            409,
            f"event {seq} is not the latest action of game {current} (that is {standing}): "
            "only the verdict the game stands on can be confirmed or overturned",
        )
    action = latest.action or {}
    if action.get("kind") != "toss" or not isinstance(action.get("success"), bool):
        fail(409, f"event {seq} of game {current} is not a toss verdict")
    return current, len(events), latest


def _toss_seat(event: Event) -> int:
    seat = (event.action or {}).get("player")
    return seat if isinstance(seat, int) else -1


@bp.post("/tosses/<int:seq>/overturn")
def overturn_toss(seq: int) -> Response:
    """Replace the verdict at event `seq` by its opposite: an undo and the corrected toss, both recorded
    (nothing is erased); `horn` says which horn the ring landed on when the host makes it a success."""
    body = json_object({"game_id", "horn"})
    horn = body.get("horn")
    if horn is not None and (not isinstance(horn, str) or not HORN_PATTERN.fullmatch(horn)):
        bad_request(f"horn must be a horn's name such as 'left', not {horn!r}")
    game_id, events, toss = _latest_toss(seq, optional_int(body, "game_id"))
    assert toss.action is not None
    was = bool(toss.action["success"])
    if horn is not None and was:
        bad_request("a horn is given only when the host makes a missed toss a success")
    corrected = {**toss.action, "success": not was}
    evidence = {
        "judge": "host",
        "overturns": {"seq": seq, "source": toss.source, "success": was},
        "horn": horn,
    }
    referee = current_referee()
    timeout = current_app.config["REPLY_TIMEOUT"]
    try:
        # Queued back to back, guarded by the event count, so nothing can slip in between unnoticed.
        taken_back = referee.submit(Undo(game_id=game_id, after=events), source=HOST_SOURCE)
        replaced = referee.submit(
            SubmitAction(corrected, evidence=evidence, game_id=game_id, after=events + 1), source=HOST_SOURCE
        )
        undo_reply, toss_reply = taken_back.result(timeout), replaced.result(timeout)
    except TimeoutError:
        fail(503, "the referee did not answer in time; the overturn may still apply: check the table")
    except ValueError as error:  # stopped or busy
        fail(503, str(error))
    if not undo_reply.ok:
        return reply_response(undo_reply)
    if not toss_reply.ok:
        response = reply_response(toss_reply)
        data = response.get_json()
        data["error"] = f"the verdict was taken back, but the corrected one was refused: {data['error']}"
        response.set_data(json.dumps(data))
        return response
    return reply_response(toss_reply)


@bp.post("/tosses/<int:seq>/confirm")
def confirm_toss(seq: int) -> Response:
    """The host looked and agrees: the verdict stands (the record already holds it); every phone is told."""
    body = json_object({"game_id"})
    game_id, _, toss = _latest_toss(seq, optional_int(body, "game_id"))
    assert toss.action is not None
    line = say("The host confirmed the verdict.")
    status = {
        "state": "confirmed",
        "game_id": game_id,
        "seq": seq,
        "seat": _toss_seat(toss),
        "success": toss.action["success"],
        "message": line,
        "say": texts_of(line),  # published once, read by phones in every language
    }
    return reply_response(submit(SetTableStatus(VERDICT_CHANNEL, status), HOST_SOURCE))
