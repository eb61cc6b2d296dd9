"""Catalog maintenance (`rulesheets i18n`): extract msgids from models and templates, update, compile, status, init."""

from __future__ import annotations

import ast
import datetime as dt
import io
import re
from functools import lru_cache
from pathlib import Path

from babel.core import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po
from jinja2 import TemplateSyntaxError

from generator import GAMES
from generator.core.registry import GAMES as GAMES_BY_ID
from generator.core.errors import CheckFailed, InputError, Problem, template_problem
from generator.i18n.translate import (COMMON_DOMAIN, LOCALES_DIR, SOURCE_LOCALE, catalog_path, discover_locales, load_locale_config, placeholder_problems, read_catalog, spelled_out)
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


#: Where translators report a problem with a source string (the PO header's Report-Msgid-Bugs-To).
BUGS_ADDRESS = "rulesheets issue tracker"
#: Template keywords: `_` and `_attr` (one string), `ngettext` (singular, plural), and `pgettext`
#: (msgctxt first): a short or ambiguous UI string ("Hand", "won", "Page") carries the use it is put to.
KEYWORDS = {"_": None, "_attr": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def _new_catalog(locale: str | None = None) -> Catalog:
    return Catalog(locale=locale, project="rulesheets", version="1", copyright_holder="rulesheets",
                   msgid_bugs_address=BUGS_ADDRESS, creation_date=_EPOCH, revision_date=_EPOCH, fuzzy=False)


def _rel(path: Path) -> str:
    return str(path.resolve().relative_to(PROJECT_DIR))


@lru_cache(maxsize=None)
def _string_lines(path: Path) -> dict[str, int]:
    """Each string literal of a Python source and the line it starts on (the first, if it is there twice)."""
    lines: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            lines[node.value] = min(node.lineno, lines.get(node.value, node.lineno))
    return lines


def source_location(path: Path, text: str) -> tuple[str, int]:
    """(file, line) of the literal `text` in a Python source: the reference a translator follows."""
    line = _string_lines(path.resolve()).get(text)
    if line is None:
        raise ValueError(f"{_rel(path)} holds no string literal {text!r}")  # a renamed constant: a bug here
    return _rel(path), line


#: What a template (a game's too) writes for a string of the common catalog: `common_("Total")`.
COMMON_KEYWORDS = {"common_": None, "common_attr": None, "common_ngettext": (1, 2), "common_pgettext": ((1, "c"), 2)}
#: A game's own Python code: `_()` where it translates, `N_()` where it hands a msgid on (a sheet's title).
PYTHON_KEYWORDS = {"_": None, "N_": None}


def _template_strings(path: Path, keywords: dict) -> list[tuple[int, str, list[str], str | None]]:
    try:
        # silent=false: a template that does not parse is an error, not a template without strings
        # (which would drop its strings and their translations from every catalog).
        return list(extract_from_file(
            "jinja2.ext:babel_extract", str(path), keywords=keywords,
            options={"trim_blocks": "true", "lstrip_blocks": "true", "silent": "false"}))
    except TemplateSyntaxError as exc:
        exc.filename = str(path)  # the extractor parses the text alone; name the file
        raise InputError(template_problem(exc)) from None
    except UnicodeDecodeError:
        read_text(path)  # raises InputError naming the line
        raise


def python_strings(path: Path, keywords: dict) -> list[tuple[int, str, list[str], str | None]]:
    """Babel's Python extractor on `path`, or nothing at once where no keyword is ever called: most of
    the package's modules (reading each through Python's tokenizer was half of `i18n update`)."""
    names = "|".join(re.escape(k) for k in sorted(keywords, key=len, reverse=True))
    # A name, then (past spaces, line breaks and comments) an opening bracket: how the extractor sees a call.
    if not re.search(rf"(?<!\w)(?:{names})\s*(?:#[^\n]*\n\s*)*\(", read_text(path)):
        return []
    return list(extract_from_file("python", str(path), keywords=keywords))


def _game_templates(g) -> list[Path]:
    return sorted(g.templates_dir.rglob("*.j2"))


def _game_sources(g) -> list[Path]:
    return sorted(g.folder.glob("**/*.py"))


def template_catalog() -> Catalog:
    """The common domain: the shared templates' and the shared code's strings, and what a game asks of it
    explicitly (`common_()`). A game's own strings are in its catalog (game_catalog)."""
    cat = _new_catalog()
    for path in sorted(TEMPLATES_DIR.rglob("*.j2")):
        for lineno, msgid, comments, context in _template_strings(path, {**KEYWORDS, **COMMON_KEYWORDS}):
            _add(cat, msgid, (_rel(path), lineno), comments, context)
    for g in GAMES_BY_ID.values():
        for path in _game_templates(g):
            for lineno, msgid, comments, context in _template_strings(path, COMMON_KEYWORDS):
                _add(cat, msgid, (_rel(path), lineno), comments, context)
    # Code that speaks through `_()` too (table names): without these, `update` would drop their translations.
    game_code = {p.resolve() for g in GAMES_BY_ID.values() for p in _game_sources(g)}
    for path in sorted((PROJECT_DIR / "generator").glob("**/*.py")):
        keywords = COMMON_KEYWORDS if path.resolve() in game_code else {"_": None, **COMMON_KEYWORDS}
        for lineno, msgid, comments, context in python_strings(path, keywords):
            _add(cat, msgid, (_rel(path), lineno), comments, context)
    # Strings the code hands to `_()` from a table: the reference is the line of the literal.
    from generator.kit import summary
    from generator.render import html, names, sheets
    from generator.site import builder

    for title in sheets.TITLES:
        _add(cat, title, source_location(Path(sheets.__file__), title), ["Title of a printed document"])
    for name in CATEGORY_NAMES.values():
        _add(cat, name, source_location(Path(html.__file__), name), [], html.CATEGORY_CONTEXT)
    for msgid, comment in NAME_COMMENTS.items():
        _add(cat, msgid, source_location(Path(names.__file__), msgid), [comment])
    for text in SITE_TEXT + SITE_PLURALS:
        singular = text if isinstance(text, str) else text[0]
        _add(cat, text, source_location(Path(builder.__file__), singular), ["Static site"])
    for text in (summary.SUMMARY, *summary.COUNTS.values()):
        singular = text if isinstance(text, str) else text[0]
        _add(cat, text, source_location(Path(summary.__file__), singular), ["The line `rulesheets kit` ends with"])
    return cat


def _add(cat: Catalog, msgid, location: tuple[str, int], comments, context: str | None = None) -> None:
    """One more reference (and its comments) to the entry of (msgid, msgctxt); Catalog.add merges them."""
    cat.add(msgid, locations=[location], auto_comments=comments, context=context)


def game_catalog(game: str) -> Catalog:
    """A game's domain: its model's prose, then every string of its own templates and code, and its sheets' titles.

    Adding a game adds its catalog and leaves the common one alone.
    """
    loaded = load_model(game)
    cat = _new_catalog()
    where = _rel(loaded.path)
    for text, loc in translatable_units(loaded.model):
        cat.add(text, locations=[(where, loaded.source.line(loc) or 0)],
                auto_comments=["Keep every {placeholder}; it is filled with a number."] if "{" in text else [])
    g = GAMES_BY_ID[game]
    for path in _game_templates(g):
        for lineno, msgid, comments, context in _template_strings(path, KEYWORDS):
            _add(cat, msgid, (_rel(path), lineno), comments, context)
    for path in _game_sources(g):
        for lineno, msgid, comments, context in python_strings(path, PYTHON_KEYWORDS):
            _add(cat, msgid, (_rel(path), lineno), comments, context)
    for sheet in g.sheets:
        _add(cat, sheet.title, source_location(g.folder / "__init__.py", sheet.title), ["Title of a printed document"])
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


def merged_catalog(code: str, domain: str, template: Catalog, cat: Catalog | None = None,
                   locales_dir: Path = LOCALES_DIR) -> bytes:
    """The locale's catalog merged with the template: template order, translations kept, obsolete ones dropped.

    What the standard tools (msgfmt -c, pofilter, Poedit) expect of it: a string newly given a msgctxt
    keeps its translation, a fuzzy entry keeps the source it was translated from (`#|`), and an entry
    whose translation spells a number out says `no-python-brace-format` (so msgfmt does not demand
    the placeholder the translator was asked to write as a word).
    """
    if cat is None:
        path = catalog_path(code, domain, locales_dir)
        cat = read_catalog(path, code) if path.exists() else _new_catalog(code.replace("-", "_"))
    _carry_into_contexts(cat, template)
    # Babel's update carries the previous msgid only when it makes an entry fuzzy; one fuzzy already keeps its own.
    previous = {(m.id if isinstance(m.id, str) else m.id[0], m.context): m.previous_id for m in cat if m.id and m.previous_id}
    cat.update(template, update_header_comment=False)
    for msg in cat:
        key = (msg.id if isinstance(msg.id, str) else msg.id[0], msg.context)
        if msg.id and msg.fuzzy and not msg.previous_id and key in previous:
            msg.previous_id = previous[key]
    cat.creation_date = cat.revision_date = _EPOCH
    cat.fuzzy = False
    _complete_header(cat, code)
    for msg in cat:
        if msg.id and "python-brace-format" in msg.flags and spelled_out(msg):
            msg.flags = (msg.flags - {"python-brace-format"}) | {"no-python-brace-format"}
    buf = io.BytesIO()
    write_po(buf, cat, width=100, ignore_obsolete=True, include_previous=True)
    return buf.getvalue()


def _carry_into_contexts(cat: Catalog, template: Catalog) -> None:
    """A string the templates now give a msgctxt keeps its translation (and its state) in the new context."""
    for msg in template:
        if not msg.id or msg.context is None or cat.get(msg.id, msg.context) is not None:
            continue
        old = cat.get(msg.id)
        if old is not None and old.string:
            cat.add(msg.id, old.string, flags=old.flags, user_comments=old.user_comments,
                    previous_id=old.previous_id, context=msg.context)


def _complete_header(cat: Catalog, code: str) -> None:
    """Every header field a PO tool reads, none left at its placeholder (msgfmt -c warns of those)."""
    language = Locale.parse(code.replace("-", "_")).english_name
    cat.header_comment = (f"# {language} translations for rulesheets.\n# Copyright (C) 2026 rulesheets\n"
                          "# This file is distributed under the same license as the rulesheets project.\n#")
    cat.msgid_bugs_address = BUGS_ADDRESS
    cat.last_translator = "rulesheets translators"
    cat.language_team = f"{language} (rulesheets translators)"


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
            ids = [(m.id, m.context) for m in template if m.id]
            if code == SOURCE_LOCALE:
                rows.append((code, domain, len(ids), 0, 0, len(ids)))
                continue
            cat = read_catalog(catalog_path(code, domain), code)
            translated = fuzzy = 0
            for msgid, context in ids:
                key = msgid[0] if isinstance(msgid, tuple) else msgid
                msg = cat.get(key, context)
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
