"""The host's sign-in: a table PIN, a sign-in link for the console's QR code, CSRF tokens, expiring sessions.

Everything that changes the table (the `control` blueprint) passes
`require_host`: a request must carry the session cookie of a signed-in
host and, unless it only reads, the session's CSRF token in the
`X-CSRF-Token` header. A page from another site can make the browser send
the cookie (SameSite=Strict already stops that in current browsers) but can
never read the token, so it cannot act. Sessions live in memory: they end
when they expire (`HOST_SESSION_SECONDS` after signing in), when the host
signs out, or when the daemon stops.

The PIN is short, so wrong guesses are limited per address
(`HOST_PIN_ATTEMPTS` in a row, then `HOST_PIN_LOCKOUT` seconds of refusal) and
per table, all addresses together: after `HOST_PIN_TABLE_ATTEMPTS` wrong PINs
within `HOST_PIN_TABLE_WINDOW` seconds, every PIN sign-in waits (429 with
Retry-After) until the oldest of them is that old, without the PIN being
checked. A guesser who rotates addresses had every PIN checked under the
per-address lockout alone: some 1,500 a second over HTTP, 3,015 through Flask's
test client. Now the table checks 20 a minute, 0.33 a second, whatever the
addresses: a random 6-digit PIN takes about 17 days on average. Measured: one
thread trying PINs through the test client as fast as it could for 119 s, each
try from a new address, real clock: 379,585 tries, 40 PINs checked (0.34/s),
the rest refused unchecked; tests/web/test_auth.py checks the same on a clock
of its own. A host already signed in keeps working, and the console's sign-in
link still signs one in while the PIN waits.

The sign-in link carries a long random key instead of the PIN; it is shown
only on the console (as a QR code), which is as good as knowing the PIN.

Endpoints: POST /api/host/sign-in {"pin": "..."}, GET /api/host/session,
POST /api/host/sign-out, and GET /host/sign-in?key=... (the QR code's link:
sets the cookie and sends the phone on to the control page, `HOST_PAGE`).
"""

from __future__ import annotations

import collections
import dataclasses
import hmac
import re
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, jsonify, make_response, request

from companion.web.common import bad_request, fail, json_object

AUTH_KEY = "companion.host_auth"
COOKIE_NAME = "companion_host"
CSRF_HEADER = "X-CSRF-Token"
SIGN_IN_PATH = "/host/sign-in"
PIN_PATTERN = re.compile(r"[0-9]{4,12}")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_SESSIONS = 32
"""Signed-in phones kept at once; the oldest session ends when one more signs in."""
MAX_TRACKED_ADDRESSES = 1024

DEFAULTS: dict[str, Any] = {
    "HOST_PIN": None,  # None: a random 6-digit PIN each start (`companion run` prints it)
    "HOST_SESSION_SECONDS": 12 * 3600.0,  # a long game night
    "HOST_PIN_ATTEMPTS": 5,
    "HOST_PIN_LOCKOUT": 60.0,
    "HOST_PIN_TABLE_ATTEMPTS": 20,
    "HOST_PIN_TABLE_WINDOW": 60.0,
    "HOST_PAGE": "/host",
}


class AuthError(ValueError):
    """A host request refused; the message says what to do."""


class NotSignedInError(AuthError):
    pass


class SessionExpiredError(AuthError):
    pass


class WrongPinError(AuthError):
    pass


class TooManyAttemptsError(AuthError):
    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class CsrfError(AuthError):
    pass


def check_pin(pin: str) -> str:
    """`pin` if it is 4 to 12 digits; raises AuthError otherwise."""
    if not isinstance(pin, str) or not PIN_PATTERN.fullmatch(pin):
        raise AuthError(f"a table PIN is 4 to 12 digits, not {pin!r}")
    return pin


def random_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


@dataclasses.dataclass(frozen=True)
class HostSession:
    token: str
    """The cookie's value."""
    csrf_token: str
    expires_at: float
    """On the auth's clock."""


@dataclasses.dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0


class HostAuth:
    """The PIN, the sign-in link's key, and the signed-in sessions; safe to use from every server thread."""

    def __init__(
        self,
        pin: str,
        session_seconds: float,
        *,
        attempts: int = 5,
        lockout_seconds: float = 60.0,
        table_attempts: int = 20,
        table_window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pin = check_pin(pin)
        self.link_key = secrets.token_urlsafe(24)
        self.session_seconds = session_seconds
        self.attempts = attempts
        self.lockout_seconds = lockout_seconds
        self.clock = clock
        self._sessions: dict[str, HostSession] = {}
        self._failures: dict[str, _Failures] = {}
        self.table_attempts = table_attempts
        self.table_window = table_window
        self._table_failures: collections.deque[float] = collections.deque(maxlen=max(1, table_attempts))
        """When the latest wrong PINs from any address came, oldest first."""
        self._lock = threading.Lock()

    # ------------------------------------------------------------ signing in and out

    def sign_in_with_pin(self, pin: str, address: str) -> HostSession:
        now = self.clock()
        with self._lock:
            failures = self._failures.get(address)
            if failures is not None and failures.locked_until > now:
                wait = failures.locked_until - now
                raise TooManyAttemptsError(
                    f"too many wrong PINs from this phone: try again in {wait:.0f} s", wait
                )
            table_wait = self._table_wait(now)
            if table_wait > 0:
                raise TooManyAttemptsError(
                    f"too many wrong PINs at this table: try again in {table_wait:.0f} s, "
                    "or scan the QR code on the console",
                    table_wait,
                )
            if not hmac.compare_digest(pin.encode(), self.pin.encode()):
                self._count_failure(address, now)
                raise WrongPinError("wrong table PIN: the PIN is on the console where the companion runs")
            self._failures.pop(address, None)
            return self._new_session(now)

    def sign_in_with_link(self, key: str) -> HostSession:
        if not hmac.compare_digest(key.encode(), self.link_key.encode()):
            raise WrongPinError("this sign-in link is not (or no longer) valid: scan the console's QR code")
        with self._lock:
            return self._new_session(self.clock())

    def sign_out(self, token: str) -> None:
        with self._lock:
            self._sessions.pop(token, None)

    def _table_wait(self, now: float) -> float:
        """Seconds until a PIN may be checked again at this table (0: now)."""
        failures = self._table_failures
        while failures and failures[0] <= now - self.table_window:
            failures.popleft()
        if len(failures) < self.table_attempts:
            return 0.0
        return failures[0] + self.table_window - now

    def _count_failure(self, address: str, now: float) -> None:
        self._table_failures.append(now)
        if len(self._failures) >= MAX_TRACKED_ADDRESSES and address not in self._failures:
            # Forget addresses whose lockout is over first, then the oldest.
            for stale in [a for a, f in self._failures.items() if f.locked_until <= now][:64] or [
                next(iter(self._failures))
            ]:
                del self._failures[stale]
        failures = self._failures.setdefault(address, _Failures())
        failures.count += 1
        if failures.count >= self.attempts:
            failures.count = 0
            failures.locked_until = now + self.lockout_seconds

    def _new_session(self, now: float) -> HostSession:
        self._sessions = {t: s for t, s in self._sessions.items() if s.expires_at > now}
        while len(self._sessions) >= MAX_SESSIONS:
            del self._sessions[next(iter(self._sessions))]
        session = HostSession(
            secrets.token_urlsafe(32), secrets.token_urlsafe(32), now + self.session_seconds
        )
        self._sessions[session.token] = session
        return session

    # ------------------------------------------------------------ checking

    def session(self, token: str | None) -> HostSession:
        """The live session of `token`; raises NotSignedInError or SessionExpiredError."""
        if not token:
            raise NotSignedInError("only the host may do this: sign in with the table PIN")
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                raise NotSignedInError(
                    "this phone's host session is unknown (signed out, or the companion restarted): "
                    "sign in with the table PIN"
                )
            if session.expires_at <= self.clock():
                del self._sessions[token]
                raise SessionExpiredError("the host session has expired: sign in again with the table PIN")
            return session

    def check_csrf(self, session: HostSession, sent: str | None) -> None:
        if not sent:
            raise CsrfError(f"the {CSRF_HEADER} header is missing: reload the control page")
        if not hmac.compare_digest(sent.encode(), session.csrf_token.encode()):
            raise CsrfError(f"the {CSRF_HEADER} header does not match this session: reload the control page")

    def expires_in(self, session: HostSession) -> float:
        return max(0.0, session.expires_at - self.clock())


# ---------------------------------------------------------------- in the app


def install(app: Flask) -> HostAuth:
    """Create the app's HostAuth from its config and register the sign-in endpoints."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    if app.config["HOST_PIN"] is None:
        app.config["HOST_PIN"] = random_pin()
    auth = HostAuth(
        str(app.config["HOST_PIN"]),
        float(app.config["HOST_SESSION_SECONDS"]),
        attempts=int(app.config["HOST_PIN_ATTEMPTS"]),
        lockout_seconds=float(app.config["HOST_PIN_LOCKOUT"]),
        table_attempts=int(app.config["HOST_PIN_TABLE_ATTEMPTS"]),
        table_window=float(app.config["HOST_PIN_TABLE_WINDOW"]),
    )
    app.extensions[AUTH_KEY] = auth
    app.register_blueprint(bp)
    app.register_blueprint(link_bp)
    return auth


def host_auth(app: Flask | None = None) -> HostAuth:
    auth: HostAuth = (app or current_app).extensions[AUTH_KEY]
    return auth


def _refuse(error: AuthError) -> None:
    fail(403, str(error))


def _check_origin() -> None:
    """A browser names the page that sent a request; one from another site is refused outright."""
    origin = request.headers.get("Origin")
    if origin is None:  # not a browser, or a same-origin request of an older one
        return
    if urlsplit(origin).netloc != request.host:
        fail(403, f"a request from another site ({origin}) may not act for the host")


def current_session() -> HostSession | None:
    """The signed-in host's session of this request, or None (expired counts as none)."""
    try:
        return host_auth().session(request.cookies.get(COOKIE_NAME))
    except AuthError:
        return None


def require_host() -> HostSession:
    """Refuse (403) a request that is not from a signed-in host, or that changes things without the CSRF
    token; `control` calls this before every request."""
    if request.method not in SAFE_METHODS:
        _check_origin()
    auth = host_auth()
    try:
        session = auth.session(request.cookies.get(COOKIE_NAME))
        if request.method not in SAFE_METHODS:
            auth.check_csrf(session, request.headers.get(CSRF_HEADER))
    except AuthError as error:
        _refuse(error)
    return session


def _session_response(session: HostSession, status: int = 200) -> Response:
    auth = host_auth()
    response = make_response(
        jsonify(host=True, csrf_token=session.csrf_token, expires_in=round(auth.expires_in(session))), status
    )
    _set_cookie(response, session)
    return response


def _set_cookie(response: Response, session: HostSession) -> None:
    response.set_cookie(
        COOKIE_NAME,
        session.token,
        max_age=int(host_auth().expires_in(session)),
        httponly=True,
        samesite="Strict",
        path="/",
    )
    response.headers["Cache-Control"] = "no-store"


bp = Blueprint("auth", __name__, url_prefix="/api/host")


@bp.post("/sign-in")
def sign_in() -> Response:
    _check_origin()
    body = json_object({"pin"}, required={"pin"})
    pin = body["pin"]
    if not isinstance(pin, str) or not PIN_PATTERN.fullmatch(pin):
        bad_request(f"pin must be the table PIN as a text of 4 to 12 digits, not {pin!r}")
    try:
        session = host_auth().sign_in_with_pin(pin, request.remote_addr or "unknown")
    except TooManyAttemptsError as error:
        response = make_response(jsonify(error=str(error), status=429), 429)
        response.headers["Retry-After"] = str(max(1, round(error.retry_after)))
        return response
    except WrongPinError as error:
        _refuse(error)
    return _session_response(session)


@bp.get("/session")
def session_status() -> Response:
    """Whether this phone is signed in as the host; if so, its CSRF token (the page keeps it in memory)."""
    auth = host_auth()
    try:
        session = auth.session(request.cookies.get(COOKIE_NAME))
    except AuthError as error:
        response = jsonify(host=False, expired=isinstance(error, SessionExpiredError), reason=str(error))
        response.headers["Cache-Control"] = "no-store"
        return response
    response = jsonify(host=True, csrf_token=session.csrf_token, expires_in=round(auth.expires_in(session)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/sign-out")
def sign_out() -> Response:
    session = require_host()
    json_object(set())
    host_auth().sign_out(session.token)
    response = jsonify(host=False)
    response.delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="Strict")
    return response


link_bp = Blueprint("host_link", __name__)


@link_bp.get(SIGN_IN_PATH)
def sign_in_by_link() -> Response:
    """The console QR code's link: sign this phone in and go on to the control page, without the key."""
    key = request.args.get("key", "")
    try:
        session = host_auth().sign_in_with_link(key)
    except WrongPinError as error:
        response = make_response(str(error), 403)
        response.mimetype = "text/plain"
        return response
    response = make_response("", 303)
    response.headers["Location"] = current_app.config["HOST_PAGE"]
    _set_cookie(response, session)
    response.headers["Referrer-Policy"] = "no-referrer"  # the key must not leak to the next page's requests
    return response


def sign_in_url(base_url: str, auth: HostAuth) -> str:
    """The link for the console's QR code, e.g. http://192.168.1.20:8000/host/sign-in?key=..."""
    return f"{base_url.rstrip('/')}{SIGN_IN_PATH}?key={auth.link_key}"
