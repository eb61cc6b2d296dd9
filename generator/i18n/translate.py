"""Locales: per-locale settings, gettext catalogs read with Babel, number/currency formatting, native digits."""

from __future__ import annotations

import gettext
import io
import re
import tomllib
from collections.abc import Callable
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
from babel.messages.pofile import escape as po_escape, read_po, unescape as po_unescape
from babel.numbers import format_decimal, get_currency_precision, parse_pattern

from generator.core.errors import InputError, Problem
from generator.i18n.glossary_concepts import concept_problems
from generator.i18n.money import MAX_STAKE
from generator.model.loader import PLACEHOLDER, placeholders
# Locale discovery lives in paths (the command line needs it without Babel); importers here keep working.
from generator.core.paths import LOCALES_DIR, SOURCE_LOCALE, check_locales, discover_locales, display_path  # noqa: F401

#: A complete locale must be fully translated (--strict, tests); a draft shows English where it is not.
STATUSES = ("draft", "complete")
#: The template strings (sheets, site chrome, example captions) live in this domain.
COMMON_DOMAIN = "common"


def N_(msgid: str) -> str:
    """Marks a msgid that code hands on to be translated later (a sheet's or kit part's title): it is
    extracted, with a game's own code, into that game's catalog. Returns it unchanged."""
    return msgid


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




def read_toml(path: Path, missing: str) -> tuple[dict, str]:
    """A TOML file and its text; missing, non-UTF-8 or malformed files are InputError with a line."""
    from generator.core.yamlsource import read_text

    if not path.is_file():
        raise InputError(Problem(display_path(path), None, missing))
    text = read_text(path)
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        # tomllib puts the place in the message only: "... (at line 3, column 7)".
        m = re.search(r"\(at line (\d+), column \d+\)$", str(exc))
        what = str(exc)[: m.start()].strip() if m else str(exc)
        raise InputError(Problem(display_path(path), int(m.group(1)) if m else None, f"TOML syntax error: {what}")) from None


def toml_line(text: str, key: str) -> int | None:
    """The line where `key = ...` is written (TOML values carry no position)."""
    for n, line in enumerate(text.splitlines(), start=1):
        if re.match(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=", line):
            return n
    return None


def load_locale_config(code: str, locales_dir: Path = LOCALES_DIR) -> LocaleConfig:
    path = locales_dir / code / "locale.toml"
    where = display_path(path)
    data, text = read_toml(path, f"locale '{code}' has no locale.toml")
    problems = []

    def bad(key: str, message: str) -> None:
        problems.append(Problem(where, toml_line(text, key), message))

    try:
        babel_locale(code)
    except ValueError as exc:
        problems.append(Problem(where, None, f"the folder name {exc}; name it with a BCP 47 tag such as es or es-MX"))
    for key in data:
        if key not in _KEYS and key not in _OPTIONAL:
            bad(key, f"unknown key '{key}'")
        elif key in _OPTIONAL and not isinstance(data[key], _OPTIONAL[key]):
            bad(key, f"'{key}' must be a {'table' if key == 'names' else 'string'}")
    for english, local in (data.get("names") if isinstance(data.get("names"), dict) else {}).items():
        if not isinstance(local, str) or not local.strip():
            bad(english, f"names: '{english}' must map to a name")
    if isinstance(data.get("money_pattern"), str):
        try:
            parse_pattern(data["money_pattern"])
        except Exception as exc:  # Babel raises ValueError or NumberFormatError
            bad("money_pattern", f"money_pattern: {exc}")
    for key, typ in _KEYS.items():
        if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
            kind = "number" if isinstance(typ, tuple) else typ.__name__
            bad(key, f"'{key}' must be a {kind}")
    if not problems:
        if data.get("status", "complete") not in STATUSES:
            problems.append(Problem(where, None, f"status must be draft or complete, not '{data['status']}'"))
        if data["digits"] not in DIGITS:
            bad("digits", f"digits must be one of {', '.join(DIGITS)}, not '{data['digits']}'")
        for font in data["fonts"]:
            if not isinstance(font, str) or not re.fullmatch(r"[A-Za-z0-9 ]+", font):
                bad("fonts", f"font name {font!r} may only hold letters, digits and spaces")
        if data["paper"] not in ("a4", "letter"):
            bad("paper", f"paper must be a4 or letter, not '{data['paper']}'")
        from babel.numbers import get_currency_name
        try:
            if get_currency_name(data["currency"], locale="en") == data["currency"]:
                raise ValueError
        except ValueError:
            bad("currency", f"unknown currency '{data['currency']}'")
        stake = Decimal(str(data["stake"]))
        if not stake.is_finite() or not 0 < stake <= MAX_STAKE:
            bad("stake", f"stake must be a finite amount more than 0 and at most {MAX_STAKE:,}, not {data['stake']}")
    if problems:
        raise InputError(problems)
    return LocaleConfig(code, data["digits"], tuple(data["fonts"]), data["currency"], data["paper"],
                        Decimal(str(data["stake"])), data.get("money_pattern"),
                        tuple(sorted(data.get("names", {}).items())), data.get("status", "complete"))


def catalog_path(code: str, domain: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / code / "LC_MESSAGES" / f"{domain}.po"


def catalog_file(code: str, domain: str, locales_dir: Path = LOCALES_DIR) -> Path:
    """Where a build reads the catalog of `domain` in `code`: the project's `locales/`, or else, for a game
    that ships its own catalogs (a plug-in distribution), `locales/<code>/LC_MESSAGES/<id>.po` in its package."""
    from generator.core.registry import GAMES

    path = catalog_path(code, domain, locales_dir)
    game = GAMES.get(domain) if domain != COMMON_DOMAIN and not path.exists() else None
    if game is not None and game.folder is not None and catalog_path(code, domain, game.folder / "locales").is_file():
        return catalog_path(code, domain, game.folder / "locales")
    return path


def read_catalog(path: Path, code: str) -> Catalog:
    """A .po file; unreadable bytes, syntax errors and an unsafe Plural-Forms are InputError with a line."""
    locale = code.replace("-", "_")  # Babel spells es-MX es_MX
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Catalog(locale=locale)
    except OSError as exc:
        raise InputError(Problem(display_path(path), None, f"cannot read catalog: {exc.strerror}")) from None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(Problem(display_path(path), line, f"cannot read catalog: not valid UTF-8 (byte 0x{raw[exc.start]:02x})")) from None
    broken = _unterminated_string(raw.decode("utf-8"))
    if broken:  # Babel would read `msgstr "Manche` as "Manch": the last character lost without a word
        raise InputError(Problem(display_path(path), broken, "cannot read catalog: a string without its closing quote"))
    try:
        catalog = read_po(io.BytesIO(raw), locale=locale, abort_invalid=True)
    except Exception as exc:  # Babel raises PoFileError with a line number in the text
        # Babel counts lines from 0 here and repeats the line at the end ("... on 4").
        line = exc.lineno + 1 if isinstance(getattr(exc, "lineno", None), int) else None
        # Babel quotes the whole msgid, newlines and all: keep the report to one short line.
        text = re.sub(r" on \d+$", "", " ".join(str(exc).split()))
        text = text if len(text) <= 120 else text[:119] + "…"
        raise InputError(Problem(display_path(path), line, f"cannot read catalog: {text}")) from None
    plural_function(catalog, path, raw)
    _previous_ids(catalog)
    return catalog


#: A line of a .po file that holds strings: an optional keyword, then whole quoted strings only.
_PO_STRING = re.compile(r'(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?(?:"(?:[^"\\]|\\.)*"\s*)+')


def _unterminated_string(text: str) -> int | None:
    """The first line whose quoted string lacks its closing quote, or runs on after it (comments are not read)."""
    for n, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if '"' in line and not line.startswith("#") and not _PO_STRING.fullmatch(line):
            return n
    return None


def _previous_ids(catalog: Catalog) -> None:
    """`#| msgid "..."` lines (the source a fuzzy entry was translated from) as each message's previous_id.

    Babel writes them but reads them as user comments ("| msgid ..."); left so, they would be written
    back as "# | msgid" and the previous source lost at the next `i18n update`.
    """
    for msg in catalog:
        lines = [c[1:].strip() for c in msg.user_comments if c.startswith("|")]
        if not lines:
            continue
        msg.user_comments = [c for c in msg.user_comments if not c.startswith("|")]
        parts: dict[str, str] = {}
        key = None
        for line in lines:
            m = re.fullmatch(r'(msgctxt|msgid|msgid_plural)\s+(".*")', line)
            if m:
                key = m.group(1)
                parts[key] = po_unescape(m.group(2))
            elif key and line.startswith('"'):
                parts[key] += po_unescape(line)
        if "msgid" in parts:
            msg.previous_id = [parts["msgid"]] + ([parts["msgid_plural"]] if "msgid_plural" in parts else [])


#: A catalog's plural rule is tried on these counts; sheets and rules use small ones, CLDR rules change by 10^6.
_PLURAL_PROBES = (*range(0, 1001), 10_000, 100_000, 1_000_000, 1_000_001, 2_000_000, 10**9)


def plural_function(catalog: Catalog, path: Path | None = None, raw: bytes = b"") -> Callable[[int], int]:
    """The catalog's Plural-Forms as a function of n, checked once when the catalog loads.

    gettext's own parser compiles only C arithmetic on `n` (no names, no calls); the rule must
    then give an index below nplurals for every probe count, without dividing by zero.
    """
    expr, count = catalog.plural_expr, catalog.num_plurals
    line = next((n for n, text in enumerate(raw.decode("utf-8", "replace").splitlines(), start=1)
                 if "Plural-Forms:" in text), None)
    where = display_path(path) if path else "catalog"

    def bad(message: str) -> InputError:
        return InputError(Problem(where, line, f"Plural-Forms: {message}"))

    if not 1 <= count <= 6:
        raise bad(f"nplurals={count} must be between 1 and 6")
    try:
        fn = gettext.c2py(expr)
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        raise bad(f"plural={_short(expr)!r} is not an expression of n (only numbers, n and C operators)") from None
    for n in _PLURAL_PROBES:
        try:
            index = fn(n)
        except (ArithmeticError, RecursionError):
            raise bad(f"plural={_short(expr)!r} divides by zero for n = {n}") from None
        if not 0 <= index < count:
            raise bad(f"plural={_short(expr)!r} gives form {index} for n = {n}, but nplurals={count}")
    return fn


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
    #: The entry's msgctxt (a short UI string told apart by its use: pgettext), or None.
    context: str | None = None


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
    def _plural(self) -> dict[str, Callable[[int], int]]:
        return {domain: plural_function(catalog) for domain, catalog in self.catalogs.items()}

    # -- text ---------------------------------------------------------------------------------
    def lookup(self, domain: str, msgid: str, values: dict | None = None,
               context: str | None = None) -> tuple[str, bool]:
        """The translation of msgid (in `context`, its msgctxt), or (msgid, True) when it falls back to English.

        A translation that spells out a fact's value falls back, as outdated, once the fact changes.
        """
        if self.code == SOURCE_LOCALE:
            return msgid, False
        msg = self.catalogs.get(domain, Catalog()).get(msgid, context)
        if msg is None or not msg.string:
            self.misses.append(Miss(domain, msgid, "missing", context))
            return msgid, True
        if msg.fuzzy:
            self.misses.append(Miss(domain, msgid, "fuzzy", context))
            return msgid, True
        if values is not None and any(values.get(k, v) != v for k, v in spelled_out(msg).items()):
            self.misses.append(Miss(domain, msgid, "outdated", context))
            return msgid, True
        return msg.string, False

    def lookup_plural(self, domain: str, singular: str, plural: str, n: int) -> tuple[str, bool]:
        if self.code == SOURCE_LOCALE:
            return (singular if n == 1 else plural), False
        msg = self.catalogs.get(domain, Catalog()).get(singular)
        forms = msg.string if msg is not None and isinstance(msg.string, tuple) else ()
        index = self._plural[domain](n) if domain in self.catalogs else 0
        # A form the rule names but the entry lacks is missing, and shown marked, never as bare English.
        if msg is None or not all(forms) or index >= len(forms) or msg.fuzzy:
            self.misses.append(Miss(domain, singular, "fuzzy" if msg is not None and msg.fuzzy else "missing"))
            return (singular if n == 1 else plural), True
        return forms[index], False

    def fill(self, text: str, values: dict) -> str:
        """Replace `{name}` / `{name:format}` by locale-formatted values."""
        return PLACEHOLDER.sub(lambda m: self.format_value(values[m.group(1)], m.group(2)), text)

    # -- numbers ------------------------------------------------------------------------------
    def digits(self, text: str) -> str:
        return text.translate(_TO_NATIVE[self.config.digits])

    def number(self, value: int | float | Decimal) -> str:
        return self.digits(format_decimal(value, locale=self.config.babel))

    def decimal(self, value: int | Decimal | Fraction) -> str:
        """An exact number with its decimals, as a score with tenths: 4.2 ("4,2" in French, "४.२" in Nepali).

        A Fraction is divided out in Decimal arithmetic (never a binary float, so 21/5 is 4.2, not
        4.199999); the locale's pattern keeps at most three decimals and drops trailing zeros.
        """
        if isinstance(value, Fraction):
            value = Decimal(value.numerator) / Decimal(value.denominator)
        return self.number(Decimal(value))

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
        if fmt == "decimal" and not isinstance(value, bool):
            return self.decimal(value)
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
            if (code, miss.domain, miss.msgid, miss.context) not in seen:
                seen.add((code, miss.domain, miss.msgid, miss.context))
                path = catalog_file(code, miss.domain, locales_dir or LOCALES_DIR)
                entry = tr.catalogs.get(miss.domain, Catalog()).get(miss.msgid, miss.context)
                if entry is None:
                    what = "not in the catalog (run rulesheets i18n update)"
                else:
                    what = f"{miss.reason} translation"
                where = f"msgctxt {po_escape(miss.context)} " if miss.context else ""
                problems.append(Problem(display_path(path), entry.lineno if entry else None,
                                        f"{what}: {where}msgid {po_escape(miss.msgid)}"))
    return problems


def load_translator(code: str, domains: tuple[str, ...], locales_dir: Path = LOCALES_DIR) -> Translator:
    """Read the locale's settings and catalogs; placeholder mismatches are input errors."""
    config = load_locale_config(code, locales_dir)
    catalogs, problems = {}, []
    if code != SOURCE_LOCALE:
        for domain in domains:
            path = catalog_file(code, domain, locales_dir)
            catalogs[domain] = read_catalog(path, code)
            problems += placeholder_problems(catalogs[domain], path)
    if problems:
        raise InputError(problems)
    return Translator(config, catalogs)


def glossary_problems(code: str, locales_dir: Path = LOCALES_DIR) -> list[Problem]:
    """locales/<lang>/glossary.toml: a table per game (or `common`) of English term = translated term,
    and `[avoid.<game or common>]` tables of words to avoid = why."""
    from generator import GAMES

    path = locales_dir / code / "glossary.toml"
    if not path.exists():
        return []
    try:
        data, text = read_toml(path, "no glossary")
    except InputError as exc:
        return exc.problems
    where, problems, scopes = display_path(path), [], (*GAMES, COMMON_DOMAIN)

    def header(name: str) -> int | None:
        return next((n for n, t in enumerate(text.splitlines(), start=1) if t.strip() == f"[{name}]"), None)

    def check(name: str, terms) -> None:
        scope = name.removeprefix("avoid.")
        if scope not in scopes:
            problems.append(Problem(where, header(name) or toml_line(text, scope),
                                    f"unknown table '{name}' (one of: {', '.join(scopes)}, or avoid.<one of them>)"))
        elif not isinstance(terms, dict):
            problems.append(Problem(where, header(name) or toml_line(text, scope), f"'{name}' must be a table of terms"))
        else:
            for term, value in terms.items():
                if not isinstance(value, str) or not value.strip():
                    problems.append(Problem(where, toml_line(text, term), f"[{name}] '{term}' must be a non-empty text"))

    problems += concept_problems(data, where, lambda name: header(name) or toml_line(text, name))
    for table, terms in data.items():
        if table in ("concepts", "typography"):
            continue  # glossary_concepts.py
        if table == "avoid" and isinstance(terms, dict):
            for scope, words in terms.items():
                check(f"avoid.{scope}", words)
        else:
            check(table, terms)
    return problems
