"""Setting up the camera from the phone: the live picture with where the companion will look.

Host only (every request but the page itself passes `control.require_host_but_pages`). The camera
comes from the `VisionServices` the daemon installs (companion/web/teach.py); the checks and the drawing are
companion/vision/setupcheck.py's.

- GET /setup: the page.
- GET /api/setup?game=G&options={...}: the markers found or missing, the light, and the messages
  (the game defaults to the table's present game).
- GET /api/setup/view.jpg?game=G&options={...}: the camera's picture with every item outlined where
  the companion will look and every marker found (green) or missing (red). The page asks for it a
  few times a second: a plain JPEG, which every phone shows.
- POST /api/setup/empty {"game", "options"}: take the empty table now (the watcher's reference, and
  the setup view's own picture to tell a moved horn figure by).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, make_response, render_template, request
from flask_babel import gettext as _

from companion.vision.base import Frame, VisionError
from companion.web import control
from companion.web.common import bad_request, current_referee, fail, json_object
from companion.web.teach import VisionServices, services

bp = Blueprint("setup", __name__)
bp.before_request(control.require_host_but_pages)

DEFAULT_GAME = "minotaurus"
"""The play area shown before any game is on the table."""
TOSS = "toss"
"""The horn figure's game: watched by its own camera when the table has one."""


def _grab_for(vision: VisionServices, game: str) -> Callable[[], Frame | None] | None:
    if game == TOSS and vision.toss_grab is not None:
        return vision.toss_grab
    return vision.grab


def _game_and_options(game: Any, options: Any) -> tuple[str, dict[str, Any]]:
    """The asked game and options, else the table's present game with its options."""
    if game in (None, ""):
        snapshot = current_referee().snapshot()
        if snapshot.game is not None:
            game = snapshot.game
            if options in (None, ""):
                options = (snapshot.published.payload.get("game") or {}).get("options") or {}
        else:  # the camera is set up before the first game: the main game's play area
            game = DEFAULT_GAME
    if isinstance(options, str):
        try:
            options = json.loads(options) if options.strip() else {}
        except ValueError as error:
            bad_request(_("options must be a JSON object: %(error)s", error=error))
    if options is None:
        options = {}
    if not isinstance(game, str):
        bad_request(_("game must be a game's name, not %(value)s", value=repr(game)))
    if not isinstance(options, dict):
        bad_request(_("options must be an object, not %(value)s", value=repr(options)))
    return game, options


def _view(vision: VisionServices, game: str, options: dict[str, Any]) -> Any:
    """The setup view of this game and options, kept across requests (it tracks the markers)."""
    from companion.vision.setupcheck import SetupView

    key = "setup:" + json.dumps([game, options], sort_keys=True)
    with vision.lock:
        view = vision.views.get(key)
        if view is None:
            try:
                view = SetupView(game, options)
            except (VisionError, KeyError, TypeError, ValueError) as error:
                bad_request(
                    _("cannot set the camera up for %(game)s: %(error)s", game=repr(game), error=error)
                )
            # One play area is set up at a time: forget the others' views.
            for old in [k for k in vision.views if k.startswith("setup:")]:
                del vision.views[old]
            vision.views[key] = view
    return view


def _frame(vision: VisionServices, game: str) -> Frame:
    grab = _grab_for(vision, game)
    if grab is None:
        fail(409, _("no camera: start the companion with one (companion run --camera ...)"))
    frame = grab()
    if frame is None:
        fail(409, _("the camera has given no picture yet: is it connected and pointing at the table?"))
    return frame


def _query() -> tuple[str, dict[str, Any]]:
    return _game_and_options(request.args.get("game"), request.args.get("options"))


@bp.get("/setup")
def setup_page() -> str:
    return render_template("setup.html")


@bp.get("/api/setup")
def setup_state() -> Response:
    from companion.vision.base import registered_games

    vision = services()
    game, options = _query()
    view = _view(vision, game, options)
    grab = _grab_for(vision, game)
    report = None
    if grab is not None and (frame := grab()) is not None:
        with view.lock:
            try:
                report = view.look(frame).to_json()
            except VisionError as error:
                fail(409, str(error))
    watcher = vision.watcher
    return jsonify(
        camera=grab is not None,
        games=registered_games(),
        game=game,
        options=options,
        report=report,
        can_take_empty=watcher is not None and hasattr(watcher, "relearn_reference"),
    )


@bp.get("/api/setup/view.jpg")
def setup_view() -> Response:
    from companion.vision.overlay import encode_jpeg

    vision = services()
    game, options = _query()
    view = _view(vision, game, options)
    frame = _frame(vision, game)
    with view.lock:
        try:
            jpeg = encode_jpeg(view.draw(frame, view.look(frame)))
        except VisionError as error:
            fail(409, str(error))
    response = make_response(jpeg)
    response.headers["Content-Type"] = "image/jpeg"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/setup/empty")
def take_empty_table() -> Response:
    """Take the empty table now: the watcher learns it as its reference, the view keeps its picture."""
    body = json_object({"game", "options"})
    vision = services()
    game, options = _game_and_options(body.get("game"), body.get("options"))
    view = _view(vision, game, options)
    frame = _frame(vision, game)
    with view.lock:
        try:
            view.remember_empty(frame)
        except VisionError as error:
            fail(409, str(error))
    relearn = getattr(vision.watcher, "relearn_reference", None)
    if relearn is None:
        why = "no camera watcher runs" if vision.watcher is None else "this camera watcher cannot learn it"
        fail(
            409,
            _("the setup view took the empty table, but the companion's reading did not: %(why)s", why=why),
        )
    try:
        relearn()
    except VisionError as error:
        fail(409, _("the camera could not learn the empty table: %(error)s", error=error))
    return jsonify(taken=True, game=game)
