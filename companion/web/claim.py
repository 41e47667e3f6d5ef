"""Claiming a new table from a phone: a headless Pi's first start needs neither ssh nor a screen.

With no PIN configured (HOST_PIN) and none claimed before, the table may be claimed for CLAIM_SECONDS
after the daemon starts: the first phone that opens /host is sent to /claim, chooses the table PIN there
(a random one is suggested) and is signed in. The PIN is kept in STATE_DIR/host-pin, so it stays the
table's PIN after every restart. Once claimed, or once the window has closed, claiming is refused; a
table left unclaimed opens a new window at its next start (restart the service to claim it).

A configured PIN is used as-is: nothing is claimed or stored. Without a STATE_DIR (tests, the demo)
the PIN cannot be kept, so nothing can be claimed either: the PIN is a new random one each start.

`install` runs before the host's sign-in is set up (auth.install), so that a stored PIN is the one it
takes; the claim then changes the sign-in's PIN and hands the phone the console's sign-in link.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, make_response, redirect, render_template, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response as Redirect

from companion.web.auth import PIN_PATTERN, current_session, host_auth, random_pin, sign_in_url

CLAIM_KEY = "companion.table_claim"
CLAIM_PATH = "/claim"
PIN_FILE = "host-pin"
DEFAULTS = {
    "STATE_DIR": None,  # where a claimed PIN is kept; None: nothing can be claimed
    "CLAIM_SECONDS": 600.0,
}


class ClaimError(ValueError):
    """A claim refused, or a stored PIN that cannot be read."""


class AlreadyClaimedError(ClaimError):
    pass


class ClaimClosedError(ClaimError):
    pass


def read_claimed_pin(pin_file: Path) -> str | None:
    """The PIN a phone chose before (None if none was); ClaimError if the file holds no PIN."""
    try:
        text = pin_file.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    except OSError as error:
        reason = error.strerror or error
        raise ClaimError(f"cannot read the claimed table PIN in {pin_file}: {reason}") from None
    if not PIN_PATTERN.fullmatch(text):
        raise ClaimError(
            f"{pin_file} holds no table PIN of 4 to 12 digits: delete it to claim the table again"
        )
    return text


def store_pin(pin_file: Path, pin: str) -> None:
    """Write `pin` for the next starts: whole or not at all, readable by the daemon's user only."""
    pin_file.parent.mkdir(parents=True, exist_ok=True)
    partial = pin_file.with_name(f".{pin_file.name}.{secrets.token_hex(4)}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(pin + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, pin_file)
    finally:
        partial.unlink(missing_ok=True)


class TableClaim:
    """Whether the table may still be claimed, and the claim itself (once, from any server thread)."""

    def __init__(
        self,
        pin_file: Path | None,
        seconds: float,
        *,
        claimed: bool,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pin_file = pin_file
        self.clock = clock
        self.closes_at = clock() + seconds
        self.claimed = claimed
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        return self.pin_file is not None and not self.claimed and self.clock() < self.closes_at

    def minutes_left(self) -> int:
        return max(0, round((self.closes_at - self.clock()) / 60))

    def claim(self, pin: str, on_claimed: Callable[[str], None]) -> None:
        """Keep `pin` as the table's and call `on_claimed(pin)`; refused once claimed or closed."""
        with self._lock:
            if self.claimed:
                raise AlreadyClaimedError("this table has been claimed already")
            if self.pin_file is None or self.clock() >= self.closes_at:
                raise ClaimClosedError("the time to claim this table is over")
            store_pin(self.pin_file, pin)
            on_claimed(pin)
            self.claimed = True


def install(app: Flask) -> TableClaim:
    """Take a claimed PIN as the table's (unless one is configured) and open the claim window if none is."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    state_dir = app.config["STATE_DIR"]
    pin_file = Path(state_dir) / PIN_FILE if state_dir is not None else None
    claimed = app.config.get("HOST_PIN") is not None or pin_file is None
    if not claimed and pin_file is not None:
        stored = read_claimed_pin(pin_file)
        if stored is not None:
            app.config["HOST_PIN"] = stored
            claimed = True
    claim = TableClaim(pin_file, float(app.config["CLAIM_SECONDS"]), claimed=claimed)
    app.extensions[CLAIM_KEY] = claim
    app.register_blueprint(bp)
    app.before_request(_send_host_page_to_claim)
    return claim


def table_claim(app: Flask | None = None) -> TableClaim:
    claim: TableClaim = (app or current_app).extensions[CLAIM_KEY]
    return claim


def claim_url(base_url: str) -> str:
    """The claim page's address for the console's QR code, e.g. http://192.168.1.20:8000/claim."""
    return f"{base_url.rstrip('/')}{CLAIM_PATH}"


def _send_host_page_to_claim() -> Redirect | None:
    """The first phone that opens the control page of an unclaimed table is asked to claim it."""
    asked = request.endpoint == "pages.host_page" and request.method == "GET"
    # A phone signed in from the console already goes on to the control page.
    if asked and table_claim().is_open and current_session() is None:
        return redirect(CLAIM_PATH, 303)
    return None


bp = Blueprint("claim", __name__)


@bp.get(CLAIM_PATH)
def claim_page() -> Response:
    return _page(200)


@bp.post(CLAIM_PATH)
def claim_table() -> Response | Redirect:
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        return _page(403, _("A page from another site may not claim this table."))
    claim = table_claim()
    if not claim.is_open:  # before the PIN is looked at: a table with a host refuses any claim alike
        return _refused(AlreadyClaimedError() if claim.claimed else ClaimClosedError())
    pin = request.form.get("pin", "").strip()
    if not PIN_PATTERN.fullmatch(pin):
        return _page(400, _("The table PIN is 4 to 12 digits."), pin=pin)
    auth = host_auth()

    def take_pin(chosen: str) -> None:
        auth.pin = chosen

    try:
        claim.claim(pin, take_pin)
    except ClaimError as error:  # another phone was quicker, or the window closed meanwhile
        return _refused(error)
    except OSError as error:
        message = _("The PIN could not be stored (%(reason)s); nothing was changed.", reason=error.strerror)
        return _page(500, message, pin=pin)
    # The console's sign-in link signs this phone in and goes on to the control page.
    response = redirect(sign_in_url("", auth), 303)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _refused(error: ClaimError) -> Response:
    if isinstance(error, AlreadyClaimedError):
        return _page(403, _("This table has been claimed already: sign in with its PIN."))
    return _page(403, _("The time to claim this table is over: sign in with the PIN on the console."))


def _page(status: int, error: str = "", *, pin: str | None = None) -> Response:
    claim = table_claim()
    suggested = pin if pin is not None else random_pin()
    html = render_template(
        "claim.html", open=claim.is_open, minutes=claim.minutes_left(), pin=suggested, error=error
    )
    response = make_response(html, status)
    response.headers["Cache-Control"] = "no-store"  # the suggested PIN is for this phone only
    return response
