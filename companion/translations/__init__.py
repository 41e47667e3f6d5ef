"""The German and English message catalogs, for the pages (Flask-Babel) and the console (Python's gettext).

<lang>/LC_MESSAGES/messages.po holds the translations, messages.mo the compiled catalog read at run
time; both are committed, so an installed wheel needs no build step. The English text is the msgid,
so the English catalog is empty and anything untranslated reads in English. `python -m
companion.translations` extracts, updates and compiles them (docs/languages.md).
"""

from __future__ import annotations

import gettext
from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent
DOMAIN = "messages"
LANGUAGES = ("de", "en")


def console_translation() -> gettext.NullTranslations:
    """The catalog for the console's language, found as Python's gettext finds it.

    The environment decides, first set wins: LANGUAGE, LC_ALL, LC_MESSAGES, LANG
    (`LANG=de_DE.UTF-8 companion --help` is German); anything else is English.
    """
    return gettext.translation(DOMAIN, str(DIRECTORY), fallback=True)


def console_gettext(message: str) -> str:
    """`message` in the console's language (imported as `_` by the commands, so Babel extracts it).

    Looked up at each call, not once at import, so the environment the command runs in decides.
    """
    return console_translation().gettext(message)
