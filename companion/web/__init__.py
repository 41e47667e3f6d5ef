"""The live scoreboard and the host's controls: a small Flask app over the referee.

One blueprint per feature, as in Flask's tutorial: the page, the read-only
state, the live event stream, and the host's controls (kept apart so the
host PIN of a later issue guards exactly them).
"""

from __future__ import annotations

import atexit
from collections.abc import Mapping
from typing import Any

from flask import Flask

from companion.record.store import default_db_path
from companion.table.referee import Referee
from companion.web import (
    auth,
    club,
    control,
    events,
    history,
    i18n,
    joining,
    pages,
    setup,
    state,
    stats,
    teach,
    webapp,
)
from companion.web.claim import install as install_claim
from companion.web.common import REFEREE_KEY, register_error_handlers


def create_app(test_config: Mapping[str, Any] | None = None, *, referee: Referee | None = None) -> Flask:
    """The app over `referee`; without one it starts its own on `DATABASE` (`flask --app companion.web`)."""
    app = Flask(__name__)
    app.config.from_mapping(
        DATABASE=str(default_db_path()),
        MAX_CONTENT_LENGTH=16 * 1024,  # the largest action or new game is far below this
        REPLY_TIMEOUT=10.0,
        SSE_KEEPALIVE=15.0,
        SSE_MAX_STREAMS=64,
        SSE_RETRY_MS=2000,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    if referee is None:
        referee = Referee(app.config["DATABASE"])
        referee.start()
        atexit.register(referee.stop)
    app.extensions[REFEREE_KEY] = referee
    register_error_handlers(app)
    i18n.install(app)  # German or English by the phone's choice, before any page is drawn
    app.register_blueprint(pages.bp)
    app.register_blueprint(state.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(control.bp)
    install_claim(app)  # a PIN claimed from a phone before, or the first minutes' claim of a new table
    auth.install(app)  # the host PIN and sessions that `control` checks
    app.register_blueprint(joining.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(teach.bp)  # the camera's host pages: teach mode, toss decisions
    app.register_blueprint(setup.bp)  # the camera's host page: setting it up over the table
    app.register_blueprint(webapp.bp)  # the manifest and icon that make the scoreboard installable
    app.register_blueprint(club.bp)  # club night: players sign in by their club name (companion run --club)
    return app


__all__ = ["create_app"]
