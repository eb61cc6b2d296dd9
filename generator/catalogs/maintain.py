"""Catalog maintenance (`rulesheets i18n`): extract msgids from models and templates, update, compile, status, init."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po
from jinja2 import TemplateSyntaxError

from generator import GAMES
from generator.core.registry import GAMES as GAMES_BY_ID
from generator.core.errors import CheckFailed, InputError, Problem, template_problem
from generator.i18n.translate import (COMMON_DOMAIN, LOCALES_DIR, SOURCE_LOCALE, catalog_path, discover_locales, load_locale_config, placeholder_problems, read_catalog)
from generator.model.loader import load_model, translatable_units
from generator.core.files import atomic_write
from generator.core.paths import PROJECT_DIR, TEMPLATES_DIR, display_path, require_checkout
from generator.render.html import CATEGORY_NAMES
from generator.render.names import COMMENTS as NAME_COMMENTS
from generator.core.yamlsource import read_text
from generator.site.builder import SITE_PLURALS, SITE_TEXT

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
    game_templates = [p for g in GAMES_BY_ID.values() for p in sorted(g.templates_dir.rglob("*.j2"))]
    for path in sorted(TEMPLATES_DIR.rglob("*.j2")) + game_templates:
        try:
            # silent=false: a template that does not parse is an error, not a template without strings
            # (which would drop its strings and their translations from every catalog).
            found = list(extract_from_file(
                "jinja2.ext:babel_extract", str(path),
                keywords={"_": None, "_attr": None, "gettext": None, "ngettext": (1, 2)},
                options={"trim_blocks": "true", "lstrip_blocks": "true", "silent": "false"}))
        except TemplateSyntaxError as exc:
            exc.filename = str(path)  # the extractor parses the text alone; name the file
            raise InputError(template_problem(exc)) from None
        except UnicodeDecodeError:
            read_text(path)  # raises InputError naming the line
            raise
        for lineno, msgid, comments, _ctx in found:
            cat.add(msgid, locations=[(_rel(path), lineno)], auto_comments=comments)
    # Code that speaks through `_()` too (table names): without these, `update` would drop their translations.
    for path in sorted((PROJECT_DIR / "generator").glob("**/*.py")):
        for lineno, msgid, comments, _ctx in extract_from_file("python", str(path), keywords={"_": None}):
            cat.add(msgid, locations=[(_rel(path), lineno)], auto_comments=comments)
    from generator.render.sheets import TITLES

    for title in TITLES:
        cat.add(title, locations=[("generator/render/sheets.py", 1)], auto_comments=["Title of a printed document"])
    for g in GAMES_BY_ID.values():
        for sheet in g.sheets:
            cat.add(sheet.title, locations=[(_rel(g.folder / "__init__.py"), 1)],
                    auto_comments=["Title of a printed document"])
    for name in CATEGORY_NAMES.values():
        cat.add(name, locations=[("generator/render/html.py", 1)], auto_comments=["Stop the Bus hand category"])
    for msgid, comment in NAME_COMMENTS.items():
        cat.add(msgid, locations=[("generator/render/names.py", 1)], auto_comments=[comment])
    for text in SITE_TEXT + SITE_PLURALS:
        cat.add(text, locations=[("generator/site/builder.py", 1)], auto_comments=["Static site"])
    return cat


def game_catalog(game: str) -> Catalog:
    loaded = load_model(game)
    cat = _new_catalog()
    where = _rel(loaded.path)
    for text, loc in translatable_units(loaded.model):
        cat.add(text, locations=[(where, loaded.source.line(loc) or 0)],
                auto_comments=["Keep every {placeholder}; it is filled with a number."] if "{" in text else [])
    return cat


def templates() -> dict[str, Catalog]:
    """The current source strings of every domain (what the .pot files must say)."""
    out = {game: game_catalog(game) for game in GAMES}
    out[COMMON_DOMAIN] = template_catalog()
    return out


def pot_bytes(catalogs: dict[str, Catalog]) -> dict[str, bytes]:
    """Each domain's .pot file as it is written, so a test can compare it with the committed one."""
    out = {}
    for domain, cat in catalogs.items():
        buf = io.BytesIO()
        write_po(buf, cat, width=100, omit_header=False)
        out[domain] = buf.getvalue()
    return out


def _write_if_changed(path: Path, data: bytes) -> None:
    """Unchanged catalogs keep their bytes and dates: a second `i18n update` changes nothing."""
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)


def extract() -> dict[str, Catalog]:
    require_checkout("i18n extract")
    current = templates()
    for domain, data in pot_bytes(current).items():
        _write_if_changed(pot_path(domain), data)
    return current


def merged_catalog(code: str, domain: str, template: Catalog) -> bytes:
    """The locale's catalog merged with the template: template order, translations kept, obsolete ones dropped."""
    path = catalog_path(code, domain)
    cat = read_catalog(path, code) if path.exists() else _new_catalog(code.replace("-", "_"))
    cat.update(template, update_header_comment=False)
    cat.creation_date = cat.revision_date = _EPOCH
    cat.fuzzy = False
    buf = io.BytesIO()
    write_po(buf, cat, width=100, ignore_obsolete=True)
    return buf.getvalue()


def update(locales: tuple[str, ...]) -> None:
    """Merge new msgids into every catalog; everything is read and checked before the first file is written."""
    current = extract()
    merged = {catalog_path(code, domain): merged_catalog(code, domain, template)
              for code in locales if code != SOURCE_LOCALE for domain, template in current.items()}
    for path, data in merged.items():
        _write_if_changed(path, data)


def compile_mo(locales: tuple[str, ...]) -> None:
    for code in locales:
        for domain in DOMAINS:
            path = catalog_path(code, domain)
            if code == SOURCE_LOCALE or not path.exists():
                continue
            buf = io.BytesIO()
            write_mo(buf, read_catalog(path, code))
            atomic_write(path.with_suffix(".mo"), buf.getvalue())


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


def run(action: str, locales: tuple[str, ...], strict: bool = False, explicit: bool = False) -> int:
    """`explicit`: the user named the locales, so `--strict` holds drafts among them to completeness too."""
    from generator.i18n.translate import check_locales

    check_locales(locales)
    if action in ("extract", "update", "compile"):
        require_checkout(f"i18n {action}")
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
    found = [catalog_path(c, d) for c in locales if c != SOURCE_LOCALE for d in DOMAINS if catalog_path(c, d).exists()]
    if not found:
        raise InputError(Problem(display_path(LOCALES_DIR), None, "no catalogs (locales/<lang>/LC_MESSAGES/*.po) for "
                                 f"{', '.join(locales)}; run rulesheets i18n update"))
    rows = status(locales)
    problems: list[Problem] = []
    for path in found:
        problems += placeholder_problems(read_catalog(path, path.parent.parent.name), path)
    drafts = {c for c in locales if load_locale_config(c).draft}
    print(f"{'locale':<9}{'status':<10}{'catalog':<14}{'translated':>11}{'fuzzy':>7}{'missing':>9}{'done':>7}")
    incomplete = []
    for code, domain, ok, fuzzy, missing, total in rows:
        pct = 100 * ok / total if total else 100
        if (fuzzy or missing) and (code not in drafts or explicit):
            incomplete.append(code)
        print(f"{code:<9}{'draft' if code in drafts else 'complete':<10}{domain:<14}{ok:>11}{fuzzy:>7}{missing:>9}{pct:>6.0f}%")
    for p in problems:
        print(p)
    if problems or (strict and incomplete):
        names = ", ".join(dict.fromkeys(incomplete))
        raise CheckFailed([Problem("locales", None, f"incomplete catalogs ({names})" if incomplete and strict
                                   else "catalogs have broken placeholders")])
    return 0
