"""What every blueprint shares: the referee, strict JSON bodies, and errors as JSON."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any, NoReturn

from flask import Flask, Response, abort, current_app, jsonify, make_response, request
from werkzeug.exceptions import HTTPException

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
    """The request body as a JSON object with only `allowed` keys; an empty body is an empty object."""
    raw = request.get_data(cache=False)  # over MAX_CONTENT_LENGTH: 413 before anything is read
    if not raw.strip():
        body: Any = {}
    else:
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as error:
            bad_request(f"the body is not valid JSON: {error}")
    if not isinstance(body, dict):
        bad_request(f"the body must be a JSON object, not {type(body).__name__}")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        bad_request(f"unknown field(s) {', '.join(unknown)}; expected {', '.join(sorted(allowed))}")
    missing = sorted(set(required) - set(body))
    if missing:
        bad_request(f"missing field(s) {', '.join(missing)}")
    return body


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


def register_error_handlers(app: Flask) -> None:
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
