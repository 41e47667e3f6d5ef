"""The league's pages (`companion club serve`): public and read-only, the organiser's behind a PIN.

/ is the league for phones and the big screen: every table live (game, players, scores, whose turn),
the overall ratings and the standings per game; its live part (/live, the same template's fragment) is
fetched again every 2 seconds, so the page is drawn in one place, in the phone's language. /player/<id>
is one player's history across tables and evenings. /organiser edits the club's roster and re-reads the
broker's retained records; it is signed in to with the organiser's PIN exactly as the table's host page
is with the table PIN (companion/web/auth.py: sessions, CSRF token, limited wrong PINs).

The pages, scripts and styles live with the table's (companion/web/templates, static) so that one set of
catalogs translates both.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template
from flask_babel import gettext as _

from companion.club.league import League, LeagueError
from companion.club.service import BrokerLike, rebuild_from_broker
from companion.games import UnknownGameError, get_game
from companion.web import auth, i18n
from companion.web.common import bad_request, fail, json_object, register_error_handlers
from companion.web.svgplot import Series, line_chart

LEAGUE_KEY = "companion.league"
BROKER_KEY = "companion.league_broker"
WEB = Path(__file__).resolve().parent.parent / "web"

bp = Blueprint("league", __name__)
organiser = Blueprint("organiser", __name__, url_prefix="/api/organiser")


def current_league() -> League:
    league: League = current_app.extensions[LEAGUE_KEY]
    return league


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def _live_context() -> dict[str, Any]:
    league = current_league()
    figures = league.figures()
    return {
        "club": league.club or "",
        "tables": league.tables(),
        "overall": figures["overall"],
        "standings": figures["standings"],
        "games_counted": len(figures["games"]),
        "skipped": len(figures["skipped"]),
    }


@bp.get("/")
def league_page() -> str:
    return render_template("league.html", **_live_context())


@bp.get("/live")
def live_part() -> Response:
    """The live part of the league page, for its 2-second refresh."""
    return _no_store(Response(render_template("league_live.html", **_live_context()), mimetype="text/html"))


@bp.get("/api/league")
def league_json() -> Response:
    """The league's figures without the histories (per player at /api/player/<id>), and the tables."""
    league = current_league()
    figures = league.figures()
    body = {key: value for key, value in figures.items() if key != "history"}
    return _no_store(jsonify(club=league.club, tables=league.tables(), **body))


def _player_or_404(player_id: str) -> dict[str, Any]:
    player = current_league().player(player_id)
    if player is None:
        abort(404, _("no player %(player)s has finished a game in this league", player=repr(player_id)))
    return player


@bp.get("/api/player/<player_id>")
def player_json(player_id: str) -> Response:
    return _no_store(jsonify(_player_or_404(player_id)))


@bp.get("/player/<player_id>")
def player_page(player_id: str) -> str:
    player = _player_or_404(player_id)
    points = [(float(n), float(h["rating"]["mu"])) for n, h in enumerate(player["history"], start=1)]
    chart = line_chart(
        _("Rating (mu) after each game"),
        [Series(player["name"], points)],
        x_label=_("games"),
    )
    return render_template("league_player.html", player=player, chart=chart, club=current_league().club or "")


@bp.get("/organiser")
def organiser_page() -> str:
    """The page itself is public: it asks for the PIN, and every change it makes is checked."""
    league = current_league()
    members = league.roster().members if league.club else ()
    return render_template(
        "league_organiser.html",
        club=league.club or "",
        members=members,
        can_rebuild=BROKER_KEY in current_app.extensions,
        signed_in=auth.current_session() is not None,
    )


@organiser.before_request
def _organiser_only() -> None:
    auth.require_host()


@organiser.get("/roster")
def roster_json() -> Response:
    members = current_league().roster().members
    return _no_store(jsonify(members=[{"id": m.id, "name": m.name} for m in members]))


def _name_from_body() -> str:
    name = json_object({"name"}, required={"name"})["name"]
    if not isinstance(name, str):
        bad_request(_("name must be text"))
    return name


@organiser.post("/members")
def add_member() -> Response:
    try:
        member = current_league().add_member(_name_from_body())
    except LeagueError as error:
        bad_request(_(error.msgid, **error.params))
    return jsonify(id=member.id, name=member.name)


@organiser.post("/members/<member_id>")
def rename_member(member_id: str) -> Response:
    try:
        member = current_league().rename_member(member_id, _name_from_body())
    except LeagueError as error:
        bad_request(_(error.msgid, **error.params))
    return jsonify(id=member.id, name=member.name)


_rebuilding = threading.Lock()


@organiser.post("/rebuild")
def rebuild() -> Response:
    """Read the broker's retained records again (anything missed is added; the rest changes nothing)."""
    json_object(set())
    settings: BrokerLike | None = current_app.extensions.get(BROKER_KEY)
    if settings is None:
        fail(409, _("this league has no broker to rebuild from: start it with --broker"))
    if not _rebuilding.acquire(blocking=False):
        fail(409, _("a rebuild is running already"))
    try:
        kept = rebuild_from_broker(current_league(), settings)
    except (OSError, TimeoutError) as error:
        fail(502, _("the broker did not answer: %(error)s", error=str(error)))
    finally:
        _rebuilding.release()
    return jsonify(records_added=kept, games=len(current_league().figures()["games"]))


def game_title(name: str) -> str:
    """A game's title ("Tanz der Hornochsen!") from its name in the records; an unknown name as it is."""
    try:
        return get_game(name).title
    except UnknownGameError:
        return name


def _home_for_the_language_switch(error: Exception, endpoint: str, values: Mapping[str, Any]) -> str:
    """i18n's switch sends a phone with an unusable `next` to the table's scoreboard: here, the league."""
    if endpoint == "pages.table_page":
        return "/"
    raise error


def create_league_app(
    league: League, *, pin: str, broker: BrokerLike | None = None, config: Mapping[str, Any] | None = None
) -> Flask:
    """The league's app over `league`; `pin` is the organiser's (4 to 12 digits)."""
    app = Flask(__name__, template_folder=str(WEB / "templates"), static_folder=str(WEB / "static"))
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=16 * 1024,
        HOST_PIN=auth.check_pin(pin),
        HOST_PAGE="/organiser",
    )
    app.config.from_mapping(config or {})
    app.extensions[LEAGUE_KEY] = league
    if broker is not None:
        app.extensions[BROKER_KEY] = broker
    register_error_handlers(app)
    i18n.install(app)
    auth.install(app)
    app.register_blueprint(bp)
    app.register_blueprint(organiser)
    app.url_build_error_handlers.append(_home_for_the_language_switch)
    app.add_template_filter(game_title)
    return app
