"""German and English: which language a page speaks, the switch that keeps a choice, the scripts' catalog.

The language is, in order: the phone's own choice made with the switch (cookie `lang`, kept a year),
the best match of the phone's Accept-Language, else the table's LANGUAGE setting ("de", "en"; "auto"
or unset means English). Texts are Babel catalogs in companion/translations (the .po and its compiled
.mo, both committed so an installed wheel needs no build step); the English text is the msgid, so an
untranslated string shows in English. The scripts get their part of the same catalog in the page
(_i18n_scripts.html's <script id="i18n">), read by Companion.t in static/i18n.js, and the games'
sentences it can translate (game_texts.py, <script id="i18n-game">).
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from babel.messages.pofile import read_po
from flask import Blueprint, Flask, Response, current_app, redirect, request, url_for
from flask_babel import Babel, get_locale
from flask_babel import gettext as _
from werkzeug.exceptions import BadRequest
from werkzeug.wrappers import Response as Redirect

from companion.translations import DIRECTORY, DOMAIN, LANGUAGES
from companion.web import game_texts

DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "lang"
COOKIE_DAYS = 365
NAMES = {"de": "Deutsch", "en": "English"}
SCRIPT_SOURCES = (".js", "companion/web/game_texts.py", "companion/web/game_refusals.py")

bp = Blueprint("i18n", __name__)


def configured_language() -> str:
    """The table's default for phones that ask for neither language ("auto" or unset: English)."""
    setting = str(current_app.config.get("LANGUAGE") or "auto").lower()
    return setting if setting in LANGUAGES else DEFAULT_LANGUAGE


def select_language() -> str:
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or configured_language()


def current_language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def safe_next(target: str | None) -> str:
    """`target` if it is a path on this server; another host (http://x, //x, /\\x) gets the scoreboard."""
    if (
        not target
        or not target.startswith("/")
        or target.startswith(("//", "/\\"))
        or urlsplit(target).netloc
    ):
        return url_for("pages.table_page")
    return target


@bp.get("/lang/<code>")
def choose_language(code: str) -> Redirect:
    """Keep `code` as this phone's language and go back to `next` (only de and en are offered)."""
    if code not in LANGUAGES:
        raise BadRequest(
            _(
                "unknown language %(code)s: choose one of %(codes)s",
                code=repr(code),
                codes=", ".join(LANGUAGES),
            )
        )
    response = redirect(safe_next(request.args.get("next")))
    response.set_cookie(LANG_COOKIE, code, max_age=COOKIE_DAYS * 24 * 3600, samesite="Lax", httponly=True)
    return response


@lru_cache(maxsize=len(LANGUAGES))
def script_catalog(language: str) -> dict[str, str]:
    """The msgids the scripts use (found in a .js file or game_texts.py) with their translations."""
    path = DIRECTORY / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return {}
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    return {
        str(message.id): str(message.string)
        for message in catalog
        if message.id
        and isinstance(message.id, str)
        and message.string
        and not message.fuzzy
        and any(location.endswith(SCRIPT_SOURCES) for location, _line in message.locations)
    }


def game_templates(language: str) -> dict[str, list[str]]:
    """The games' sentences this language has a translation of, for Companion.gameText to match."""
    translated = script_catalog(language)
    return {
        "templates": [template for template in game_texts.TEMPLATES if template in translated],
        "numbers": list(game_texts.NUMBERS),
    }


def switch_links() -> list[dict[str, str]]:
    """The links to the other language(s), each coming back to this page."""
    here = request.full_path.rstrip("?")
    return [
        {"code": code, "name": NAMES[code], "href": url_for("i18n.choose_language", code=code, next=here)}
        for code in LANGUAGES
        if code != current_language()
    ]


def page_context() -> dict[str, object]:
    language = current_language()
    return {
        "lang": language,
        "js_catalog": script_catalog(language),
        "game_templates": game_templates(language),
        "language_links": switch_links(),
    }


def vary_by_language(response: Response) -> Response:
    """A page's language depends on the cookie and Accept-Language: caches must not mix them up."""
    if response.mimetype == "text/html":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def install(app: Flask) -> None:
    """Babel over `app` with the catalogs in companion/translations, the switch, and the pages' context."""
    app.config.setdefault("LANGUAGE", "auto")
    Babel(
        app,
        default_locale=DEFAULT_LANGUAGE,
        default_translation_directories=str(DIRECTORY),
        locale_selector=select_language,
    )
    app.register_blueprint(bp)
    app.context_processor(page_context)
    app.after_request(vary_by_language)
