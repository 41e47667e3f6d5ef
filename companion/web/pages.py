"""The pages: the public scoreboard, the host's table control, and the history.

Plain HTML, a little JavaScript and CSS, all served from here (no CDN, no web
fonts). Each game draws its own part of the scoreboard from its public view in
static/games/<name>.js; every such file is loaded, so adding a game needs only
that file (a game without one gets the generic rendering).

The table's possible answers (reveals, toss verdicts) are not in the public
view, since a game narrows them by what it remembers of hidden things; the
host's page asks for them at /api/answers, which only a signed-in host may read.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, jsonify, render_template

from companion.table.view import table_answers
from companion.web.auth import require_host
from companion.web.common import current_referee

bp = Blueprint("pages", __name__)

GAME_SCRIPTS = Path(__file__).parent / "static" / "games"


def game_scripts() -> list[str]:
    """The per-game renderers, as paths under static/."""
    return [f"games/{path.name}" for path in sorted(GAME_SCRIPTS.glob("*.js"))]


@bp.get("/")
def table_page() -> str:
    return render_template("index.html", game_scripts=game_scripts())


@bp.get("/host")
def host_page() -> str:
    return render_template("host.html", game_scripts=game_scripts())


@bp.get("/history")
def history_page() -> str:
    return render_template("history.html", game_scripts=game_scripts())


@bp.get("/api/answers")
def host_table_answers() -> Response:
    """What the table may show now, for the host to enter by hand (403 for everyone else)."""
    require_host()
    snapshot = current_referee().snapshot()
    answers = table_answers(snapshot.state) if snapshot.state is not None else []
    response = jsonify(game_id=snapshot.game_id, seq=snapshot.seq, answers=answers)
    response.headers["Cache-Control"] = "no-store"
    return response
