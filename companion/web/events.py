"""Live updates by Server-Sent Events: every phone gets each new view as it happens.

Views are whole, so a stream sends only the latest one: a slow phone skips
views rather than queueing them, and a reconnecting phone (its browser sends
Last-Event-ID; `?since=` does the same by hand) gets the current view at once
unless it has it already. Each stream holds a server thread while it lives,
so their number is capped below the server's thread pool.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify, make_response, request
from flask_babel import gettext as _

from companion.table.broadcast import Broadcaster, Published
from companion.web.common import current_referee

bp = Blueprint("events", __name__, url_prefix="/api")

_SLOTS_KEY = "companion.stream_slots"


def format_message(message: Published) -> str:
    return f"id: {message.event_id}\ndata: {message.data}\n\n"


class _Slot:
    """One of the capped stream places, given back exactly once however the stream ends."""

    def __init__(self, slots: threading.BoundedSemaphore) -> None:
        self._slots = slots
        self._held = True
        self._lock = threading.Lock()

    def release(self) -> None:
        with self._lock:
            if self._held:
                self._held = False
                self._slots.release()


def _stream(
    broadcaster: Broadcaster, since: str | None, keepalive: float, retry_ms: int, slot: _Slot
) -> Iterator[str]:
    try:
        # Sent at once, so the response headers leave the server before the first change.
        yield f"retry: {retry_ms}\n\n"
        seen = since
        while True:
            message = broadcaster.wait_for_change(seen, keepalive)
            if broadcaster.closed:
                return
            if message is None:
                # A comment keeps proxies from timing out, and finds phones that left.
                yield ": keep-alive\n\n"
                continue
            yield format_message(message)
            seen = message.event_id
    finally:
        slot.release()


@bp.get("/events")
def stream_events() -> Response:
    config = current_app.config
    slots: threading.BoundedSemaphore = current_app.extensions.setdefault(
        _SLOTS_KEY, threading.BoundedSemaphore(config["SSE_MAX_STREAMS"])
    )
    if not slots.acquire(blocking=False):
        response = make_response(
            jsonify(error=_("too many live pages are open; close one or try again soon"), status=503), 503
        )
        response.headers["Retry-After"] = "10"
        return response
    slot = _Slot(slots)
    since = request.headers.get("Last-Event-ID") or request.args.get("since") or None
    response = Response(
        _stream(current_referee().broadcaster, since, config["SSE_KEEPALIVE"], config["SSE_RETRY_MS"], slot),
        mimetype="text/event-stream",
    )
    response.call_on_close(slot.release)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # should a proxy ever sit in front: do not buffer
    return response
