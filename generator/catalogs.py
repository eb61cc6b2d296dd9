"""Catalog maintenance (`rulesheets i18n`): extract msgids from models and templates, update, compile, status."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from . import GAMES, PROJECT_DIR
from .errors import CheckFailed, Problem
from .i18n import COMMON_DOMAIN, LOCALES_DIR, SOURCE_LOCALE, catalog_path, placeholder_problems, read_catalog
from .model import load_model, translatable_units
from .render.html import CATEGORY_NAMES, TEMPLATES_DIR
from .yamlsource import display_path

#: Fixed header dates keep catalogs stable in version control.
_EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
DOMAINS = GAMES + (COMMON_DOMAIN,)


def pot_path(domain: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / f"{domain}.pot"


def _new_catalog(locale: str | None = None) -> Catalog:
    return Catalog(locale=locale, project="rulesheets", version="1", copyright_holder="rulesheets",
                   msgid_bugs_address="", creation_date=_EPOCH, revision_date=_EPOCH, fuzzy=False)


def _rel(path: Path) -> str:
    return str(path.resolve().relative_to(PROJECT_DIR))


def template_catalog() -> Catalog:
    """The common domain: every `_()` / `ngettext()` in templates, plus names the code supplies."""
    cat = _new_catalog()
    for path in sorted(TEMPLATES_DIR.rglob("*.j2")):
        for lineno, msgid, comments, _ctx in extract_from_file(
                "jinja2.ext:babel_extract", str(path), keywords={"_": None, "gettext": None, "ngettext": (1, 2)},
                options={"trim_blocks": "true", "lstrip_blocks": "true"}):
            cat.add(msgid, locations=[(_rel(path), lineno)], auto_comments=comments)
    from .render.sheets import TITLES

    for title in TITLES:
        cat.add(title, locations=[("generator/render/sheets.py", 1)], auto_comments=["Title of a printed document"])
    for name in CATEGORY_NAMES.values():
        cat.add(name, locations=[("generator/render/html.py", 1)], auto_comments=["Stop the Bus hand category"])
    return cat


def game_catalog(game: str) -> Catalog:
    loaded = load_model(game)
    cat = _new_catalog()
    where = _rel(loaded.path)
    for text, loc in translatable_units(loaded.model):
        cat.add(text, locations=[(where, loaded.source.line(loc) or 0)],
                auto_comments=["Keep every {placeholder}; it is filled with a number."] if "{" in text else [])
    return cat


def extract() -> dict[str, Catalog]:
    templates = {game: game_catalog(game) for game in GAMES}
    templates[COMMON_DOMAIN] = template_catalog()
    for domain, cat in templates.items():
        with pot_path(domain).open("wb") as fh:
            write_po(fh, cat, width=100, omit_header=False)
    return templates


def update(locales: tuple[str, ...]) -> None:
    templates = extract()
    for code in locales:
        if code == SOURCE_LOCALE:
            continue
        for domain, template in templates.items():
            path = catalog_path(code, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            cat = read_catalog(path, code) if path.exists() else _new_catalog(code)
            cat.update(template, update_header_comment=False)
            cat.creation_date = cat.revision_date = _EPOCH
            cat.fuzzy = False
            with path.open("wb") as fh:
                write_po(fh, cat, width=100, ignore_obsolete=True)


def compile_mo(locales: tuple[str, ...]) -> None:
    for code in locales:
        for domain in DOMAINS:
            path = catalog_path(code, domain)
            if code == SOURCE_LOCALE or not path.exists():
                continue
            with path.with_suffix(".mo").open("wb") as fh:
                write_mo(fh, read_catalog(path, code))


def status(locales: tuple[str, ...]) -> list[tuple[str, str, int, int, int, int]]:
    """(locale, domain, translated, fuzzy, missing, total) per catalog, against the current templates."""
    templates = {game: game_catalog(game) for game in GAMES}
    templates[COMMON_DOMAIN] = template_catalog()
    rows = []
    for code in locales:
        for domain, template in templates.items():
            ids = [m.id for m in template if m.id]
            if code == SOURCE_LOCALE:
                rows.append((code, domain, len(ids), 0, 0, len(ids)))
                continue
            cat = read_catalog(catalog_path(code, domain), code)
            translated = fuzzy = 0
            for msgid in ids:
                key = msgid[0] if isinstance(msgid, tuple) else msgid
                msg = cat.get(key)
                if msg is None or not msg.string or (isinstance(msg.string, tuple) and not all(msg.string)):
                    continue
                if msg.fuzzy:
                    fuzzy += 1
                else:
                    translated += 1
            rows.append((code, domain, translated, fuzzy, len(ids) - translated - fuzzy, len(ids)))
    return rows


def run(action: str, locales: tuple[str, ...], strict: bool = False) -> int:
    from .i18n import check_locales

    check_locales(locales)
    if action == "extract":
        for domain in extract():
            print(f"wrote {display_path(pot_path(domain))}")
        return 0
    if action == "update":
        update(locales)
        print(f"updated catalogs of {', '.join(c for c in locales if c != SOURCE_LOCALE)}")
        return 0
    if action == "compile":
        compile_mo(locales)
        print("compiled .mo files")
        return 0
    rows = status(locales)
    problems: list[Problem] = []
    for code in locales:
        if code == SOURCE_LOCALE:
            continue
        for domain in DOMAINS:
            path = catalog_path(code, domain)
            if path.exists():
                problems += placeholder_problems(read_catalog(path, code), path)
    print(f"{'locale':<7}{'catalog':<14}{'translated':>11}{'fuzzy':>7}{'missing':>9}{'done':>7}")
    incomplete = False
    for code, domain, ok, fuzzy, missing, total in rows:
        pct = 100 * ok / total if total else 100
        incomplete |= bool(fuzzy or missing)
        print(f"{code:<7}{domain:<14}{ok:>11}{fuzzy:>7}{missing:>9}{pct:>6.0f}%")
    for p in problems:
        print(p)
    if problems or (strict and incomplete):
        raise CheckFailed([Problem("locales", None, "catalogs are incomplete or have broken placeholders")])
    return 0
