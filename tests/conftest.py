"""What every test shares."""

from __future__ import annotations

import os

# The console speaks the language of LANGUAGE/LC_ALL/LC_MESSAGES/LANG (companion.translations), and tests
# read its English lines ("Scoreboard: ..."), also from `companion run` subprocesses, which inherit this.
# A developer's German locale must not fail them; the German console is tested with its own environment.
os.environ["LANGUAGE"] = "en"
