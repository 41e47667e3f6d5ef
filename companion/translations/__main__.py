"""Keep the catalogs in step with the code: `python -m companion.translations extract|update|compile|check`.

extract: every msgid in the source tree into messages.pot, by babel.cfg's file patterns. Python and
the templates are read with gettext's keywords (_, gettext, ngettext, lazy_gettext, N_, say), the scripts
with `t` only (Companion.t): pybabel's single keyword list would read Python's `t[...]` as a message.
update: extract, then merge the template into each language's .po (new msgids empty, gone ones
obsolete). compile: every .po to its .mo. check: exit 1 if a .mo differs from its .po.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from companion.translations import DIRECTORY, DOMAIN, LANGUAGES

ROOT = DIRECTORY.parent.parent
PY_KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "say": None}
"""`say` (companion/words.py): a device's sentence, made in every language where it happens."""
JS_KEYWORDS = {"t": None}
TEMPLATE = DIRECTORY / f"{DOMAIN}.pot"


def po_path(language: str) -> Path:
    return DIRECTORY / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def in_source(directory: str) -> bool:
    """Walk the package only (not .venv, build or the recordings beside it)."""
    parts = Path(directory).relative_to(ROOT).parts
    return not parts or (parts[0] == "companion" and "__pycache__" not in parts)


def extracted() -> Catalog:
    """Every message the code marks, with its places (the pages pick the scripts' ones by them)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)  # type: ignore[no-untyped-call]  # Babel's own
    catalog = Catalog(project="Minotaur Companion", copyright_holder="Minotaur Companion", fuzzy=False)
    for methods, keywords in (
        ([m for m in method_map if m[1] != "javascript"], PY_KEYWORDS),
        ([m for m in method_map if m[1] == "javascript"], JS_KEYWORDS),
    ):
        for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT),
            methods,
            options_map,
            keywords=keywords,
            comment_tags=("Translators:",),
            directory_filter=in_source,
        ):
            catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*"$', re.M)


def write_if_changed(path: Path, catalog: Catalog, **options: bool) -> None:
    """Write `catalog` unless only its header's dates would change (no noise in the history)."""
    out = io.BytesIO()
    write_po(out, catalog, width=110, **options)
    text = out.getvalue()
    if not path.exists() or DATES.sub(b"", path.read_bytes()) != DATES.sub(b"", text):
        path.write_bytes(text)


def write_template() -> Catalog:
    template = extracted()
    write_if_changed(TEMPLATE, template)
    return template


def update(template: Catalog) -> None:
    for language in LANGUAGES:
        path = po_path(language)
        if path.exists():
            with path.open("rb") as source:
                catalog = read_po(source, locale=language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project="Minotaur Companion", fuzzy=False)
        catalog.update(template)
        write_if_changed(path, catalog, ignore_obsolete=True)


def compiled(language: str) -> bytes:
    with po_path(language).open("rb") as source:
        catalog = read_po(source, locale=language)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def compile_all() -> None:
    for language in LANGUAGES:
        po_path(language).with_suffix(".mo").write_bytes(compiled(language))


def translations_of(mo: bytes) -> dict[object, object]:
    return {message.id: message.string for message in read_mo(io.BytesIO(mo)) if message.id}


def stale() -> Iterator[str]:
    """The languages whose committed .mo does not hold what their .po says."""
    for language in LANGUAGES:
        mo = po_path(language).with_suffix(".mo")
        if not mo.exists() or translations_of(mo.read_bytes()) != translations_of(compiled(language)):
            yield language


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.translations", description=__doc__)
    parser.add_argument("step", choices=["extract", "update", "compile", "check"])
    step = parser.parse_args(argv).step
    if step == "extract":
        print(f"{len(write_template())} messages in {TEMPLATE}")
    elif step == "update":
        update(write_template())
    elif step == "compile":
        compile_all()
    else:
        out_of_date = list(stale())
        if out_of_date:
            print(f"out of date: {', '.join(out_of_date)}; run python -m companion.translations compile")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
