"""Club night at the table: players sign in by picking their name from the club's roster.

The scoreboard shows a QR code to /club ("Sign in for the club league"); a player taps their name
and is marked present at this table, which the host's new-game form offers as names, so the games
played here carry the names the league knows its members by. Presence is kept in the table app (in
memory: a sign-in lasts the evening, a restart asks again); the roster is the one the club's broker
holds, kept by the publisher (companion/club/publisher.py) so it is there while the broker is away.

Endpoints: GET /club (the page), GET /api/club, POST /api/club/present {"member": id, "present": bool},
GET /api/club/qr.svg (the page's address as a QR code). A table outside a club answers 404.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any, Protocol

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template
from flask_babel import gettext as _

from companion.club.messages import Member, Roster
from companion.web.auth import _check_origin as check_origin
from companion.web.common import fail, json_object
from companion.web.joining import public_url, qr_svg

CLUB_KEY = "companion.club"
PAGE_PATH = "/club"


class RosterSource(Protocol):
    """Where the table learns the club's roster: the publisher, subscribed to the roster's topic."""

    @property
    def roster(self) -> Roster | None: ...

    @property
    def connected(self) -> bool: ...


@dataclasses.dataclass
class ClubTable:
    """This table in its club: the roster's source and who signed in here."""

    club: str
    table: str
    source: RosterSource
    present: dict[str, str] = dataclasses.field(default_factory=dict)
    """Member id -> name, in the order they signed in."""
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    def members(self) -> tuple[Member, ...]:
        roster = self.source.roster
        return roster.members if roster is not None and roster.club == self.club else ()

    def mark(self, member_id: str, present: bool) -> None:
        member = next((known for known in self.members() if known.id == member_id), None)
        if member is None:
            fail(404, _("%(member)s is not in the club's roster", member=repr(member_id)))
        with self.lock:
            if present:
                self.present[member.id] = member.name
            else:
                self.present.pop(member.id, None)

    def to_json(self) -> dict[str, Any]:
        members = self.members()
        known = {member.id for member in members}
        with self.lock:
            present = [name for member_id, name in self.present.items() if member_id in known]
            here = set(self.present)
        return {
            "club": self.club,
            "table": self.table,
            "connected": self.source.connected,
            "roster_known": self.source.roster is not None,
            "members": [{"id": m.id, "name": m.name, "present": m.id in here} for m in members],
            "present": present,
        }


def install_club(app: Flask, table: ClubTable) -> None:
    """Make `table` the app's club (companion run --club does, once the publisher runs)."""
    app.extensions[CLUB_KEY] = table


def club_table() -> ClubTable | None:
    table: ClubTable | None = current_app.extensions.get(CLUB_KEY)
    return table


def _required() -> ClubTable:
    table = club_table()
    if table is None:
        fail(404, _("this table is not in a club: start it with companion run --club"))
    return table


bp = Blueprint("club", __name__)


@bp.app_context_processor
def club_of_the_table() -> dict[str, Any]:
    """The scoreboard shows the club's sign-in only at a table in a club."""
    return {"club_table": club_table()}


@bp.get(PAGE_PATH)
def club_page() -> str:
    table = club_table()
    return render_template("club.html", club=table.to_json() if table is not None else None)


@bp.get("/api/club")
def club_state() -> Response:
    table = club_table()
    response = jsonify(table.to_json() if table is not None else {"club": None, "members": [], "present": []})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/club/present")
def mark_present() -> Response:
    """A player taps their name (any phone at the table may: it is a sign-in, not a control)."""
    check_origin()
    # What was sent is judged before whether this table is in a club: a malformed request is a 400 anywhere.
    body = json_object(("member", "present"), required=("member",))
    member, present = body["member"], body.get("present", True)
    if not isinstance(member, str) or not isinstance(present, bool):
        fail(400, _("member is a member's id and present is true or false"))
    table = _required()
    table.mark(member, present)
    return jsonify(table.to_json())


@bp.get("/api/club/qr.svg")
def club_qr() -> Response:
    _required()
    response = Response(qr_svg(public_url().rstrip("/") + PAGE_PATH), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response
