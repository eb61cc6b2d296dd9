"""`rulesheets i18n init LANG`: a new draft locale (locale.toml guessed from CLDR, empty catalogs), no code change."""

from __future__ import annotations

import re

from babel import Locale
from babel.core import get_global
from babel.numbers import get_territory_currencies

from generator.core.errors import InputError, Problem
from generator.i18n.translate import DIGITS, LOCALES_DIR, babel_locale, catalog_path
from generator.core.paths import display_path, require_checkout

#: Where a script's Noto family is not "Noto Sans <CLDR's English name of the script>".
SCRIPT_FONTS = {"Latn": (), "Cyrl": (), "Grek": (), "Beng": ("Noto Sans Bengali",), "Kore": ("Noto Sans CJK KR",),
                "Hang": ("Noto Sans CJK KR",), "Jpan": ("Noto Sans CJK JP",), "Hans": ("Noto Sans CJK SC",),
                "Hant": ("Noto Sans CJK TC",)}
#: Every stack ends with these: Noto Sans has U+202F (Babel's narrow no-break space), DejaVu the card suits.
BASE_FONTS = ("Noto Sans", "DejaVu Sans")
#: Territories that print on US Letter (CLDR supplemental paperSize).
LETTER = {"BZ", "CA", "CL", "CO", "CR", "GT", "MX", "NI", "PA", "PH", "PR", "SV", "US", "VE"}


def canonical_tag(locale: Locale) -> str:
    """The BCP 47 spelling of a Babel locale: es-MX, zh-Hant-TW."""
    return "-".join(filter(None, (locale.language, locale.script, locale.territory)))


def guess_settings(locale: Locale) -> dict:
    """Digits, fonts, currency and paper for a locale, from CLDR's data (likely script and territory)."""
    likely = get_global("likely_subtags").get(str(locale), "") or get_global("likely_subtags").get(locale.language, "")
    parts = likely.split("_")
    script = locale.script or next((p for p in parts[1:] if len(p) == 4), "Latn")
    territory = locale.territory or next((p for p in parts[1:] if len(p) == 2 or p.isdigit()), "")
    if script in SCRIPT_FONTS:
        fonts = SCRIPT_FONTS[script]
    else:
        fonts = (f"Noto Sans {Locale('en').scripts.get(script, script)}",)
    currencies = get_territory_currencies(territory) if territory else []
    digits = locale.default_numbering_system
    return {"digits": digits if digits in DIGITS else "latn", "fonts": fonts + BASE_FONTS,
            "currency": currencies[0] if currencies else "EUR", "paper": "letter" if territory in LETTER else "a4",
            "script": script, "territory": territory}


def locale_toml(tag: str, locale: Locale, guess: dict) -> str:
    fonts = ", ".join(f'"{f}"' for f in guess["fonts"])
    name = locale.get_display_name("en")
    return f"""# {name} ({tag}): guessed by `rulesheets i18n init` from CLDR (script {guess['script']}, \
territory {guess['territory'] or 'none'}); check each value.
# draft: English shows wherever a translation is missing; say "complete" once every catalog is translated.
status = "draft"
# latn, deva or beng: the digits running text uses (Babel formats the numbers, we swap the digits).
digits = "{guess['digits']}"
# Families installed on the machine (fc-list); the first that has a character draws it.
fonts = [{fonts}]
currency = "{guess['currency']}"
paper = "{guess['paper']}"
# The payout sheet's default stake, a friendly amount in this currency (--stake overrides it).
stake = 1
"""


def init(tag: str | None) -> int:
    """Create locales/<tag>/ with a draft locale.toml and an empty catalog per domain; print what it made."""
    from generator.catalogs.maintain import _new_catalog, templates

    require_checkout("i18n init")
    if not tag:
        raise InputError(Problem("command line", None, "i18n init needs a language tag, e.g. rulesheets i18n init es-MX"))
    if re.split(r"[-_]", tag.strip(), maxsplit=1)[0].lower() in ("und", "root"):  # Babel would guess one (und: en-US)
        raise InputError(Problem("command line", None, f"i18n init: '{tag}' names no language (und is 'undetermined'); "
                                                       f"use a BCP 47 tag such as es, es-MX or pt-BR"))
    try:
        locale = babel_locale(tag)
    except ValueError as exc:
        raise InputError(Problem("command line", None, f"i18n init: {exc}; use a BCP 47 tag such as es, es-MX or pt-BR")) from None
    tag = canonical_tag(locale)
    folder = LOCALES_DIR / tag
    if folder.exists():
        raise InputError(Problem(display_path(folder), None, f"locale '{tag}' already exists"))
    guess = guess_settings(locale)
    folder.mkdir(parents=True)
    (folder / "locale.toml").write_text(locale_toml(tag, locale, guess), encoding="utf-8")
    from babel.messages.pofile import write_po

    for domain, template in templates().items():
        cat = _new_catalog(str(locale))  # Babel fills in the language's Plural-Forms from CLDR
        for msg in template:
            if msg.id:
                cat.add(msg.id, locations=msg.locations, auto_comments=msg.auto_comments, flags=msg.flags,
                        context=msg.context)
        path = catalog_path(tag, domain)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            write_po(fh, cat, width=100)
    print(f"created {display_path(folder)}: draft locale.toml ({guess['digits']} digits, {', '.join(guess['fonts'])}, "
          f"{guess['currency']}, {guess['paper']}) and empty catalogs; {_plural_note(locale)}")
    return 0


def _plural_note(locale: Locale) -> str:
    from babel.messages.catalog import Catalog

    cat = Catalog(locale=locale)
    return f"plural entries have {cat.num_plurals} form{'s' if cat.num_plurals > 1 else ''} ({cat.plural_forms})"
