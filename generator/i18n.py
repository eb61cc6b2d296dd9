"""Locales: per-locale settings, gettext catalogs read with Babel, number/currency formatting, native digits."""

from __future__ import annotations

import io
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from pathlib import Path

from babel import Locale
from babel.core import UnknownLocaleError
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import escape as po_escape, read_po
from babel.numbers import format_decimal, get_currency_precision, parse_pattern
from babel.support import Translations

from .errors import InputError, Problem
from .model import PLACEHOLDER, placeholders
from .paths import LOCALES_DIR
from .yamlsource import display_path

SOURCE_LOCALE = "en"
#: A complete locale must be fully translated (--strict, tests); a draft shows English where it is not.
STATUSES = ("draft", "complete")
#: The template strings (sheets, site chrome, example captions) live in this domain.
COMMON_DOMAIN = "common"
DIGITS = {"latn": "0123456789", "deva": "०१२३४५६७८९", "beng": "০১২৩৪৫৬৭৮৯"}
_TO_NATIVE = {name: str.maketrans("0123456789", digits) for name, digits in DIGITS.items()}


@dataclass(frozen=True)
class LocaleConfig:
    """What locales/<lang>/locale.toml says: digits, fonts, currency, default paper, draft or complete."""

    #: A BCP 47 language tag (`fr`, `es-MX`): the folder's name, `lang` in HTML, the output folder.
    code: str
    digits: str
    fonts: tuple[str, ...]
    currency: str
    paper: str
    #: The usual small stake for a friendly Tonk game, in `currency` (payout sheet default).
    stake: Decimal
    #: How people write an amount of `currency` at a home game, as a CLDR pattern ("#,##0'원'");
    #: None: CLDR's standard currency pattern. Decimals are added only when an amount has them.
    money_pattern: str | None = None
    #: The example players' names as this locale writes them: (English name, local name) pairs.
    names: tuple[tuple[str, str], ...] = ()
    status: str = "complete"

    @property
    def draft(self) -> bool:
        return self.status == "draft"

    @cached_property
    def babel(self) -> Locale:
        return babel_locale(self.code)

    @property
    def native_name(self) -> str:
        return self.babel.get_display_name(self.babel)


_KEYS = {"digits": str, "fonts": list, "currency": str, "paper": str, "stake": (int, float)}
#: status: "complete" when not given (held to completeness, the safe side).
_OPTIONAL = {"money_pattern": str, "names": dict, "status": str}


def babel_locale(tag: str) -> Locale:
    """Babel's locale for a BCP 47 tag (`es-MX` is Babel's `es_MX`); ValueError when CLDR does not know it."""
    try:
        return Locale.parse(tag, sep="-")
    except (ValueError, UnknownLocaleError):
        raise ValueError(f"'{tag}' is not a language tag CLDR knows") from None


def discover_locales(locales_dir: Path = LOCALES_DIR) -> tuple[str, ...]:
    """Every locale of the project: each folder of locales/ holding a locale.toml, English first."""
    found = sorted(p.parent.name for p in locales_dir.glob("*/locale.toml"))
    return tuple(sorted(found, key=lambda c: (c != SOURCE_LOCALE, c)))


def draft_locales(locales_dir: Path = LOCALES_DIR) -> tuple[str, ...]:
    """The locales whose locale.toml says `status = "draft"` (read without the full checks)."""
    out = []
    for code in discover_locales(locales_dir):
        try:
            data = tomllib.loads((locales_dir / code / "locale.toml").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if data.get("status") == "draft":
            out.append(code)
    return tuple(out)


def load_locale_config(code: str, locales_dir: Path = LOCALES_DIR) -> LocaleConfig:
    path = locales_dir / code / "locale.toml"
    where = display_path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(Problem(where, None, f"locale '{code}' has no locale.toml")) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(Problem(where, getattr(exc, "lineno", None), f"TOML syntax error: {exc}")) from None
    problems = []
    try:
        babel_locale(code)
    except ValueError as exc:
        problems.append(Problem(where, None, f"the folder name {exc}; name it with a BCP 47 tag such as es or es-MX"))
    for key in data:
        if key not in _KEYS and key not in _OPTIONAL:
            problems.append(Problem(where, None, f"unknown key '{key}'"))
        elif key in _OPTIONAL and not isinstance(data[key], _OPTIONAL[key]):
            problems.append(Problem(where, None, f"'{key}' must be a {'table' if key == 'names' else 'string'}"))
    for english, local in (data.get("names") if isinstance(data.get("names"), dict) else {}).items():
        if not isinstance(local, str) or not local.strip():
            problems.append(Problem(where, None, f"names: '{english}' must map to a name"))
    if isinstance(data.get("money_pattern"), str):
        try:
            parse_pattern(data["money_pattern"])
        except Exception as exc:  # Babel raises ValueError or NumberFormatError
            problems.append(Problem(where, None, f"money_pattern: {exc}"))
    for key, typ in _KEYS.items():
        if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
            kind = "number" if isinstance(typ, tuple) else typ.__name__
            problems.append(Problem(where, None, f"'{key}' must be a {kind}"))
    if not problems:
        if data.get("status", "complete") not in STATUSES:
            problems.append(Problem(where, None, f"status must be draft or complete, not '{data['status']}'"))
        if data["digits"] not in DIGITS:
            problems.append(Problem(where, None, f"digits must be one of {', '.join(DIGITS)}, not '{data['digits']}'"))
        for font in data["fonts"]:
            if not isinstance(font, str) or not re.fullmatch(r"[A-Za-z0-9 ]+", font):
                problems.append(Problem(where, None, f"font name {font!r} may only hold letters, digits and spaces"))
        if data["paper"] not in ("a4", "letter"):
            problems.append(Problem(where, None, f"paper must be a4 or letter, not '{data['paper']}'"))
        from babel.numbers import get_currency_name
        try:
            if get_currency_name(data["currency"], locale="en") == data["currency"]:
                raise ValueError
        except ValueError:
            problems.append(Problem(where, None, f"unknown currency '{data['currency']}'"))
    if problems:
        raise InputError(problems)
    if Decimal(str(data["stake"])) <= 0:
        raise InputError(Problem(where, None, "stake must be more than 0"))
    return LocaleConfig(code, data["digits"], tuple(data["fonts"]), data["currency"], data["paper"],
                        Decimal(str(data["stake"])), data.get("money_pattern"),
                        tuple(sorted(data.get("names", {}).items())), data.get("status", "complete"))


def catalog_path(code: str, domain: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / code / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, code: str) -> Catalog:
    locale = code.replace("-", "_")  # Babel spells es-MX es_MX
    try:
        with path.open("rb") as fh:
            return read_po(fh, locale=locale, abort_invalid=True)
    except FileNotFoundError:
        return Catalog(locale=locale)
    except Exception as exc:  # Babel raises PoFileError with a line number in the text
        # Babel counts lines from 0 here and repeats the line at the end ("... on 4").
        line = exc.lineno + 1 if isinstance(getattr(exc, "lineno", None), int) else None
        # Babel quotes the whole msgid, newlines and all: keep the report to one short line.
        text = re.sub(r" on \d+$", "", " ".join(str(exc).split()))
        text = text if len(text) <= 120 else text[:119] + "…"
        raise InputError(Problem(display_path(path), line, f"cannot read catalog: {text}")) from None


#: A translator comment "spelled out: tokens_lost=1" says the translation writes that fact's value
#: in words ("एक टोकन", "une carte"): the placeholder may then be left out while the fact has that value.
SPELLED_OUT = re.compile(r"spelled out: ([a-z_][a-z0-9_]*)=(-?\d+)")


def spelled_out(msg) -> dict[str, int]:
    return {m.group(1): int(m.group(2)) for c in msg.user_comments for m in SPELLED_OUT.finditer(c)}


def placeholder_problems(catalog: Catalog, path: Path) -> list[Problem]:
    """Every translation must keep exactly the placeholders of its source (bar values it spells out)."""
    problems = []
    for msg in catalog:
        if not msg.id or not msg.string or msg.fuzzy:  # a fuzzy entry is never shown
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        want = set().union(*(placeholders(i) for i in ids))
        words = spelled_out(msg)
        for s in strings:
            have = placeholders(s) | {p for p in want if p[0] in words and p[1] is None}
            if s and have != want:
                extra = sorted(f"{{{n}}}" for n, _ in have - want)
                lost = sorted(f"{{{n}}}" for n, _ in want - have)
                detail = "; ".join(filter(None, [extra and f"unknown placeholder {', '.join(extra)}",
                                                 lost and f"missing placeholder {', '.join(lost)}"]))
                problems.append(Problem(display_path(path), msg.lineno, f"translation of {_short(ids[0])!r}: {detail}"))
    return problems


def _short(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass
class Miss:
    """A string shown in English because its translation is missing or fuzzy."""

    domain: str
    msgid: str
    reason: str  # "missing", "fuzzy" or "outdated" (spells out a fact's old value)


@dataclass
class Translator:
    """Everything a template needs to speak one locale: text, plurals, numbers, money."""

    config: LocaleConfig
    catalogs: dict[str, Catalog]
    #: Strings that fell back to English during this render (visible marker in output).
    misses: list[Miss] = field(default_factory=list)

    @property
    def code(self) -> str:
        return self.config.code

    @cached_property
    def _plural(self) -> dict[str, Translations]:
        out = {}
        for domain, catalog in self.catalogs.items():
            buf = io.BytesIO()
            write_mo(buf, catalog, use_fuzzy=False)
            buf.seek(0)
            out[domain] = Translations(buf, domain=domain)
        return out

    # -- text ---------------------------------------------------------------------------------
    def lookup(self, domain: str, msgid: str, values: dict | None = None) -> tuple[str, bool]:
        """The translation of msgid, or (msgid, True) when it falls back to English.

        A translation that spells out a fact's value falls back, as outdated, once the fact changes.
        """
        if self.code == SOURCE_LOCALE:
            return msgid, False
        msg = self.catalogs.get(domain, Catalog()).get(msgid)
        if msg is None or not msg.string:
            self.misses.append(Miss(domain, msgid, "missing"))
            return msgid, True
        if msg.fuzzy:
            self.misses.append(Miss(domain, msgid, "fuzzy"))
            return msgid, True
        if values is not None and any(values.get(k, v) != v for k, v in spelled_out(msg).items()):
            self.misses.append(Miss(domain, msgid, "outdated"))
            return msgid, True
        return msg.string, False

    def lookup_plural(self, domain: str, singular: str, plural: str, n: int) -> tuple[str, bool]:
        if self.code == SOURCE_LOCALE:
            return (singular if n == 1 else plural), False
        msg = self.catalogs.get(domain, Catalog()).get(singular)
        if msg is None or not msg.string or not all(msg.string) or msg.fuzzy:
            self.misses.append(Miss(domain, singular, "fuzzy" if msg is not None and msg.fuzzy else "missing"))
            return (singular if n == 1 else plural), True
        return self._plural[domain].ngettext(singular, plural, n), False

    def fill(self, text: str, values: dict) -> str:
        """Replace `{name}` / `{name:format}` by locale-formatted values."""
        return PLACEHOLDER.sub(lambda m: self.format_value(values[m.group(1)], m.group(2)), text)

    # -- numbers ------------------------------------------------------------------------------
    def digits(self, text: str) -> str:
        return text.translate(_TO_NATIVE[self.config.digits])

    def number(self, value: int | float | Decimal) -> str:
        return self.digits(format_decimal(value, locale=self.config.babel))

    def percent(self, value: Fraction, places: int = 2) -> str:
        """A chance as a percentage with a fixed number of decimals, in the locale's pattern."""
        d = Decimal(value.numerator) / Decimal(value.denominator)
        pattern = parse_pattern(self.config.babel.percent_formats[None].pattern)
        pattern.frac_prec = (places, places)
        return self.digits(pattern.apply(d, self.config.babel))

    def money(self, amount: int | Decimal, currency: str | None = None) -> str:
        """An amount as people write it at a home game: "₹10", "1 €", but "$2.50" (locale digits).

        Whole amounts drop the decimals; others keep the currency's usual number of them. The
        locale's own currency may have its own pattern (locale.toml `money_pattern`, "1,000원").
        """
        currency = currency or self.config.currency
        amount = Decimal(amount)
        own = self.config.money_pattern if currency == self.config.currency else None
        pattern = parse_pattern(own or self.config.babel.currency_formats["standard"].pattern)
        places = 0 if amount == amount.to_integral_value() else get_currency_precision(currency)
        pattern.frac_prec = (places, places)
        return self.digits(pattern.apply(amount, self.config.babel, currency=currency, currency_digits=False))

    def items(self, values: list[str]) -> str:
        return format_list(values, locale=self.config.babel)

    def format_value(self, value, fmt: str | None) -> str:
        if isinstance(value, str):  # names and amounts already formatted
            return value
        if isinstance(value, tuple):  # a rule with several values: "49 or 50"
            return format_list([self.number(v) for v in value], style="or" if fmt == "or" else "standard",
                               locale=self.config.babel)
        if isinstance(value, Fraction):
            if fmt == "one_in":
                return self.number(round(1 / value))
            if fmt == "fraction":
                return f"{self.number(value.numerator)}/{self.number(value.denominator)}"
            return self.percent(value)
        if isinstance(value, bool):
            raise TypeError("a yes/no fact cannot be quoted in prose")
        if fmt == "percent":
            return self.percent(Fraction(value, 100))
        return self.number(value)


def fallback_problems(translators: dict[str, Translator], since: dict[str, int] | None = None,
                      locales_dir: Path | None = None) -> list[Problem]:
    """One problem per string shown in English (missing or fuzzy), for --strict; `since` skips earlier misses.

    Each names the .po entry (`path:line`) and the whole msgid. Draft locales are allowed their
    English fallbacks (`i18n status --strict --locales LANG` holds a draft to completeness).
    """
    problems, seen = [], set()
    for code, tr in translators.items():
        if tr.config.draft:
            continue
        for miss in tr.misses[(since or {}).get(code, 0):]:
            if (code, miss.domain, miss.msgid) not in seen:
                seen.add((code, miss.domain, miss.msgid))
                path = catalog_path(code, miss.domain, locales_dir or LOCALES_DIR)
                entry = tr.catalogs.get(miss.domain, Catalog()).get(miss.msgid)
                if entry is None:
                    what = "not in the catalog (run rulesheets i18n update)"
                else:
                    what = f"{miss.reason} translation"
                problems.append(Problem(display_path(path), entry.lineno if entry else None,
                                        f"{what}: msgid {po_escape(miss.msgid)}"))
    return problems


def load_translator(code: str, domains: tuple[str, ...], locales_dir: Path = LOCALES_DIR) -> Translator:
    """Read the locale's settings and catalogs; placeholder mismatches are input errors."""
    config = load_locale_config(code, locales_dir)
    catalogs, problems = {}, []
    if code != SOURCE_LOCALE:
        for domain in domains:
            path = catalog_path(code, domain, locales_dir)
            catalogs[domain] = read_catalog(path, code)
            problems += placeholder_problems(catalogs[domain], path)
    if problems:
        raise InputError(problems)
    return Translator(config, catalogs)


def check_locales(requested: tuple[str, ...], locales_dir: Path = LOCALES_DIR) -> None:
    known = discover_locales(locales_dir)
    bad = [c for c in requested if c not in known]
    if bad:
        hint = f" (known: {', '.join(known)})" if known else f" (no locale.toml under {display_path(locales_dir)})"
        raise InputError(Problem("command line", None, f"unknown locale '{bad[0]}'{hint}"))
