"""What every blueprint shares: the referee, strict JSON bodies, and errors as JSON."""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Collection
from typing import Any, NoReturn

from flask import Flask, Response, abort, current_app, jsonify, make_response, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter, Map

from companion.table.inputs import Command, Reply
from companion.table.referee import Referee

REFEREE_KEY = "companion.referee"

JsonDict = dict[str, Any]

_STATUS_OF_REFUSAL = {
    "RuleError": 409,
    "StaleInputError": 409,
    "NoGameError": 409,
    "NothingToUndoError": 409,
    "TableError": 409,
    "GameNotFoundError": 404,
    "ActionFormatError": 400,
    "SetupError": 400,
    "UnknownGameError": 400,
    "RecordStoreError": 400,
}


def current_referee() -> Referee:
    referee: Referee = current_app.extensions[REFEREE_KEY]
    return referee


def fail(status: int, message: str) -> NoReturn:
    """End the request with `{"error": message, "status": status}`."""
    abort(make_response(jsonify(error=message, status=status), status))


def bad_request(message: str) -> NoReturn:
    fail(400, message)


def json_object(allowed: Collection[str], *, required: Collection[str] = ()) -> JsonDict:
    """The request body as a JSON object with only `allowed` keys; an empty body is an empty object.

    Every POST reads its body here, so whatever a phone sends is refused in one place (400, nothing
    written) unless it is UTF-8 JSON sent as such, nested at most MAX_JSON_DEPTH deep, with whole numbers
    a phone's JavaScript reads exactly, finite numbers, and valid Unicode text."""
    raw = request.get_data(cache=False)  # over MAX_CONTENT_LENGTH: 413 before anything is read
    body = parse_json_body(raw, request.mimetype) if raw.strip() else {}
    if not isinstance(body, dict):
        bad_request(_("the body must be a JSON object, not %(kind)s", kind=_json_kind(body)))
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        expected = (
            _("expected %(names)s", names=", ".join(sorted(allowed)))
            if allowed
            else _("this request takes no fields")
        )
        bad_request(
            _("unknown field(s) %(names)s; %(expected)s", names=", ".join(unknown), expected=expected)
        )
    missing = sorted(set(required) - set(body))
    if missing:
        bad_request(_("missing field(s) %(names)s", names=", ".join(missing)))
    return body


def parse_json_body(raw: bytes, mimetype: str) -> Any:
    """`raw` as JSON, or a 400 that says what is wrong with it."""
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        bad_request(
            _(
                "the body must be JSON sent as Content-Type: application/json, not %(type)s",
                type=mimetype or "none",
            )
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        bad_request(_("the body is not valid UTF-8 text: %(error)s", error=str(error)))
    try:
        body = json.loads(
            text, parse_constant=_refuse_constant, parse_int=_whole_number, parse_float=_finite_number
        )
    except RecursionError:
        bad_request(_too_deep())
    except _RefusedValue as error:
        bad_request(str(error))
    except ValueError as error:
        bad_request(_("the body is not valid JSON: %(error)s", error=str(error)))
    _check_values(body)
    return body


MAX_JSON_DEPTH = 32
"""Objects and lists nested deeper than any game's data: deeper ones would only cost the referee stack."""
SAFE_INTEGER = 2**53 - 1
"""The largest whole number a phone's JavaScript (and the record's SQLite) hold exactly."""


class _RefusedValue(ValueError):
    """A value the JSON parser read but a table does not accept."""


def _refuse_constant(name: str) -> NoReturn:
    raise _RefusedValue(_("%(name)s is not a number JSON allows", name=name))


def _whole_number(text: str) -> int:
    value = int(text) if len(text) <= 20 else SAFE_INTEGER + 1  # int() of thousands of digits is slow
    if abs(value) > SAFE_INTEGER:
        raise _RefusedValue(
            _(
                "the whole number %(number)s is too large: at most %(limit)s either way",
                number=text if len(text) <= 24 else f"{text[:20]}... ({len(text)} digits)",
                limit=SAFE_INTEGER,
            )
        )
    return value


def _finite_number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _RefusedValue(_("the number %(number)s is too large", number=text[:24]))
    return value


def _too_deep() -> str:
    return str(
        _("the body is nested too deep: at most %(depth)d levels of objects and lists", depth=MAX_JSON_DEPTH)
    )


def _check_values(body: Any) -> None:
    """Refuse nesting past MAX_JSON_DEPTH and text that is no valid Unicode, walking without recursion."""
    pending: list[tuple[Any, int]] = [(body, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            if depth > MAX_JSON_DEPTH:
                bad_request(_too_deep())
            items = value.values() if isinstance(value, dict) else value
            pending.extend((item, depth + 1) for item in items)
            pending.extend((key, depth) for key in value if isinstance(value, dict))
        elif isinstance(value, str):
            surrogate = _lone_surrogate(value)
            if surrogate is not None:
                bad_request(
                    _(
                        "the text %(text)s holds a lone surrogate (U+%(code)04X), which is no character",
                        text=ascii(value[:24]),
                        code=surrogate,
                    )
                )


def _lone_surrogate(text: str) -> int | None:
    """The first code point of `text` that is half of a UTF-16 pair (JSON's \\ud800 escape), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return ord(text[error.start])
    return None


def _json_kind(value: Any) -> str:
    kinds = {
        list: _("a list"),
        str: _("a text"),
        bool: _("true or false"),
        int: _("a number"),
        float: _("a number"),
    }
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


# ---------------------------------------------------------------- free text


MAX_NAME_LENGTH = 32
"""Characters of a player's name: a scoreboard line on a phone."""
_INVISIBLE_CONTROLS = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))
"""Bidirectional embeddings, overrides and isolates: they turn the text after them round on every phone."""


def check_free_text(what: str, text: str, max_length: int) -> str:
    """`text` if it is a stored name or note every phone can show; else a 400 naming the fault."""
    if not text.strip():
        bad_request(_("%(what)s must be a non-empty text", what=what))
    if len(text) > max_length:
        bad_request(
            _(
                "%(what)s must be at most %(limit)d characters, not %(count)d",
                what=what,
                limit=max_length,
                count=len(text),
            )
        )
    surrogate = _lone_surrogate(text)
    if surrogate is not None:
        bad_request(
            _(
                "%(what)s holds a lone surrogate (U+%(code)04X), which is no character",
                what=what,
                code=surrogate,
            )
        )
    for character in text:
        code = ord(character)
        if unicodedata.category(character) in ("Cc", "Zl", "Zp") or code in _INVISIBLE_CONTROLS:
            bad_request(
                _(
                    "%(what)s holds the control character U+%(code)04X: %(text)s",
                    what=what,
                    code=code,
                    text=ascii(text),
                )
            )
    return text


def optional_int(body: JsonDict, name: str) -> int | None:
    value = body.get(name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        bad_request(f"{name} must be a whole number, not {value!r}")
    return value


def submit(command: Command, source: str = "host") -> Reply:
    """Hand `command` to the referee and wait for its reply (503 if it does not answer in time)."""
    try:
        return current_referee().call(command, source=source, timeout=current_app.config["REPLY_TIMEOUT"])
    except TimeoutError:
        fail(503, "the referee did not answer in time; the input may still apply: check the table")
    except ValueError as error:  # stopped or busy
        fail(503, str(error))


def reply_response(reply: Reply, *, created: bool = False) -> Response:
    """The reply as JSON with the table's new view; a refusal gets the 4xx that fits its reason."""
    data = reply.to_json()
    if reply.ok:
        data["state"] = current_referee().latest().payload
        status = 201 if created else 200
    else:
        status = _STATUS_OF_REFUSAL.get(reply.error_type or "", 500)
        data["status"] = status
    return make_response(jsonify(data), status)


class SafeIntegerConverter(IntegerConverter):
    """`<int:...>` in a route, up to SAFE_INTEGER: a larger id is no such thing (404), where it reached the
    record's SQLite, which cannot hold it (a 500)."""

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", SAFE_INTEGER)
        super().__init__(map, *args, **kwargs)


def register_error_handlers(app: Flask) -> None:
    """Errors under /api/ as JSON; and ids in routes bounded (call before any blueprint is registered)."""
    app.url_map.converters["int"] = SafeIntegerConverter

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response | HTTPException:
        if not request.path.startswith("/api/"):
            return error
        status = error.code or 500
        response = make_response(jsonify(error=error.description, status=status), status)
        for name, value in error.get_headers():  # e.g. Allow on a 405
            if name.lower() != "content-type":
                response.headers[name] = value
        return response
