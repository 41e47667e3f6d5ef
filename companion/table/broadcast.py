"""Publishing the table view to any number of readers without ever blocking the referee.

Each published view is whole (it carries the recent log too), so a reader
only ever needs the latest one: a slow phone skips views instead of queueing
them, and a reconnecting phone catches up with a single message.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

JsonDict = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Published:
    """One published view. `event_id` is unique across restarts, so a stale Last-Event-ID never matches."""

    number: int
    event_id: str
    payload: JsonDict
    data: str
    """`payload` as compact JSON on one line, encoded once for every reader."""


class Broadcaster:
    def __init__(self) -> None:
        self._boot = secrets.token_hex(4)
        self._changed = threading.Condition()
        self._latest: Published | None = None
        self._closed = False
        self._subscribers: list[Callable[[Published], None]] = []

    def publish(self, payload: JsonDict) -> Published:
        with self._changed:
            number = self._latest.number + 1 if self._latest else 1
            event_id = f"{self._boot}-{number}"
            payload = {"id": event_id, **payload}
            message = Published(number, event_id, payload, json.dumps(payload, separators=(",", ":")))
            self._latest = message
            self._changed.notify_all()
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            try:
                subscriber(message)
            except Exception:
                # A broken subscriber must not stop the referee or starve the others.
                log.exception("table subscriber %r failed", subscriber)
        return message

    def latest(self) -> Published:
        with self._changed:
            if self._latest is None:
                raise LookupError("nothing has been published yet")
            return self._latest

    def wait_for_change(self, seen: str | None, timeout: float) -> Published | None:
        """The latest view once its id differs from `seen`; None after `timeout` s or on close."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._closed or (self._latest is not None and self._latest.event_id != seen),
                timeout,
            )
            if self._closed or self._latest is None or self._latest.event_id == seen:
                return None
            return self._latest

    def subscribe(self, subscriber: Callable[[Published], None]) -> Callable[[], None]:
        """Call `subscriber` with every view, on the referee thread: keep it quick. Returns the undo."""
        with self._changed:
            self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self._changed:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)

        return unsubscribe

    def close(self) -> None:
        """Wake every waiting reader for good, so streams end and server threads come free."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed
