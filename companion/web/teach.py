"""The camera's host pages: teach mode, guided from the phone, and the toss decisions of the camera check.

Host only: every request but the page itself passes `control.require_host_but_pages`.
The daemon hands the camera's services to the app as `VisionServices`
(`install_vision`); without a camera the pages say so and change nothing.

- GET /teach: the page. It asks for each kind of piece in turn, shows the
  camera's view with the spot to lay it on, and takes the shot.
- GET /api/teach, POST /api/teach/start {"game", "edition", "options"},
  POST /api/teach/shot, /api/teach/skip, /api/teach/back,
  GET /api/teach/preview.jpg (the top-down plane, the spot outlined),
  GET /api/teach/live and /api/teach/live.jpg: what the companion reads on
  the live picture now, with the profile as taught so far (every item labelled).
- GET /api/camera, POST /api/camera/toss {"success": true|false}: the toss
  that beams and camera disagree on, and the host's verdict on it.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, make_response, render_template
from flask_babel import gettext as _

from companion.vision.base import Frame, VisionError, profile_path
from companion.web import control
from companion.web.common import bad_request, fail, json_object, reply_response

VISION_KEY = "companion.vision"

bp = Blueprint("teach", __name__)
bp.before_request(control.require_host_but_pages)


@dataclasses.dataclass
class VisionServices:
    grab: Callable[[], Frame | None] | None = None
    """The camera's latest frame (None: no camera)."""
    confirmer: Any = None
    """The toss check (companion.vision.tosscheck.TossConfirmer), if the camera watches the horn figure."""
    profiles_root: Path | None = None
    session: Any = None
    """The teach session in progress (companion.vision.teach.TeachSession)."""
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    watcher: Any = None
    """The play area's camera watcher (companion.vision.watcher.CameraWatcher): the setup page asks it
    to learn the empty table again."""
    toss_grab: Callable[[], Frame | None] | None = None
    """The toss camera's latest frame, where it has its own camera (None: the setup page uses `grab`)."""
    views: dict[str, Any] = dataclasses.field(default_factory=dict)
    """The setup and live-reading views kept across the phone's requests (markers tracked over frames)."""


def install_vision(app: Flask, services: VisionServices) -> None:
    app.extensions[VISION_KEY] = services


def services() -> VisionServices:
    """The camera's services of this app (none installed: an empty set, as without a camera)."""
    installed = current_app.extensions.get(VISION_KEY)
    if installed is None:
        installed = VisionServices()
        current_app.extensions[VISION_KEY] = installed
    assert isinstance(installed, VisionServices)
    return installed


def _session() -> Any:
    session = services().session
    if session is None:
        fail(409, _("no teach session: start one with the game and the edition to teach"))
    return session


def _vision_error(error: VisionError) -> Response:
    fail(409, str(error))


# ---------------------------------------------------------------- teach mode


@bp.get("/teach")
def teach_page() -> str:
    return render_template("teach.html")


@bp.get("/api/teach")
def teach_state() -> Response:
    from companion.vision.teach import PLANS

    vision = services()
    session = vision.session
    return jsonify(
        camera=vision.grab is not None,
        games=sorted(PLANS),
        session=session.to_json() if session is not None else None,
    )


@bp.post("/api/teach/start")
def teach_start() -> Response:
    from companion.vision.teach import TeachSession

    body = json_object({"game", "edition", "options"}, required={"game"})
    game, edition, options = body["game"], body.get("edition", "default"), body.get("options", {})
    if not isinstance(game, str) or not isinstance(edition, str):
        bad_request(_("game and edition must be names"))
    if not isinstance(options, dict):
        bad_request(_("options must be an object, not %(value)s", value=repr(options)))
    vision = services()
    if vision.grab is None:
        fail(409, _("no camera: start the companion with one (companion run --camera ...)"))
    try:
        profile_path(game, edition)  # checks both names
        session = TeachSession(
            game, options, edition, vision.grab, profiles_root=vision.profiles_root, empty_first=True
        )
    except (VisionError, KeyError) as error:
        bad_request(_("cannot teach %(game)s: %(error)s", game=repr(game), error=error))
    with vision.lock:
        vision.session = session
    return jsonify(session=session.to_json())


@bp.post("/api/teach/shot")
def teach_shot() -> Response:
    json_object(set())
    session = _session()
    try:
        state = session.shot()
    except VisionError as error:
        _vision_error(error)
    return jsonify(session=state)


@bp.post("/api/teach/skip")
def teach_skip() -> Response:
    json_object(set())
    return jsonify(session=_session().skip())


@bp.post("/api/teach/back")
def teach_back() -> Response:
    json_object(set())
    return jsonify(session=_session().back())


@bp.get("/api/teach/preview.jpg")
def teach_preview() -> Response:
    import cv2

    from companion.vision.base import PLANE_PX_PER_MM

    session = _session()
    try:
        plane = session.plane().copy()
    except VisionError as error:
        _vision_error(error)
    if not session.done:
        for item in session.steps[session.index].labels:
            region = session.layout.items.get(item)
            if region is not None:
                x0, y0, x1, y1 = region.box_px()
                width = max(2, round(PLANE_PX_PER_MM * 1.5))
                cv2.rectangle(plane, (x0, y0), (x1, y1), (0, 0, 255), width)
    ok, jpeg = cv2.imencode(".jpg", plane, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        fail(500, _("cannot encode the camera's view"))
    response = make_response(jpeg.tobytes())
    response.headers["Content-Type"] = "image/jpeg"
    response.headers["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------- what it will read now


def _live() -> tuple[Any, Any, Frame]:
    """The session, its live reader (kept across requests: it tracks the markers) and the present frame."""
    from companion.vision.liveread import LiveReader

    session = _session()
    vision = services()
    key = f"teach:{id(session)}"
    with vision.lock:
        reader = vision.views.get(key)
        if reader is None:
            for old in [k for k in vision.views if k.startswith("teach:")]:
                del vision.views[old]
            reader = vision.views[key] = LiveReader(session.game, session.options, session.recogniser)
    # The live view reads as the lessons are taught: against the empty table the session learned.
    reader.pipeline.adopt_reference(session.reader.reference)
    frame = session.grab()
    if frame is None:
        fail(409, _("the camera gives no picture: is it connected?"))
    return session, reader, frame


def _lesson_spot(session: Any) -> dict[str, str]:
    return {} if session.done else dict(session.steps[session.index].labels)


@bp.get("/api/teach/live")
def teach_live() -> Response:
    """What the companion reads on the table now, with the profile as taught so far."""
    session, reader, frame = _live()
    with reader.lock:
        try:
            live = reader.read(frame, session.profile)
        except VisionError as error:
            _vision_error(error)
    return jsonify(live=live.to_json(), spot=_lesson_spot(session), profile_shots=session.profile.shots)


@bp.get("/api/teach/live.jpg")
def teach_live_picture() -> Response:
    """The camera's picture with what the companion reads on each item (the lesson's spot green when
    read right, red when not)."""
    from companion.vision.overlay import encode_jpeg

    session, reader, frame = _live()
    with reader.lock:
        try:
            jpeg = encode_jpeg(reader.draw(frame, reader.read(frame, session.profile), _lesson_spot(session)))
        except VisionError as error:
            _vision_error(error)
    response = make_response(jpeg)
    response.headers["Content-Type"] = "image/jpeg"
    response.headers["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------- the toss check


@bp.get("/api/camera")
def camera_state() -> Response:
    vision = services()
    confirmer = vision.confirmer
    pending = confirmer.pending if confirmer is not None else None
    return jsonify(
        camera=vision.grab is not None,
        toss_check=confirmer is not None,
        pending_toss=pending.to_json() if pending is not None else None,
    )


@bp.post("/api/camera/toss")
def decide_toss() -> Response:
    """The host's verdict on the toss that beams and camera disagree on."""
    body = json_object({"success"}, required={"success"})
    if not isinstance(body["success"], bool):
        bad_request(_("success must be true or false, not %(value)s", value=repr(body["success"])))
    confirmer = services().confirmer
    if confirmer is None:
        fail(409, _("the camera does not check tosses at this table"))
    try:
        reply = confirmer.decide(body["success"], timeout=current_app.config["REPLY_TIMEOUT"])
    except TimeoutError:
        fail(503, _("the referee did not answer in time; the verdict may still apply: check the table"))
    except ValueError as error:
        fail(409, str(error))
    return reply_response(reply)
