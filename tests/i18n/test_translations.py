"""Every locale is complete: no missing, fuzzy or broken entries, text in the locale's script, glossary terms used."""

from __future__ import annotations

import html as htmllib
import re
import tomllib
import unicodedata
from collections.abc import Iterator, Mapping
from functools import cache

import pytest

from generator import GAMES
from generator.core.registry import GAMES as REGISTRY
from generator.pipeline.build import Options, check, prepare, render_html
from generator.catalogs.maintain import DOMAINS, status
from generator.i18n.translate import (LOCALES_DIR, SOURCE_LOCALE, catalog_path, discover_locales, draft_locales, load_locale_config, placeholder_problems, read_catalog)
from generator.render.script import WORD_JOINER, for_print

#: Complete locales are held to every test here; draft locales show English where they are not translated yet.
TRANSLATED = tuple(c for c in discover_locales() if c != SOURCE_LOCALE and c not in draft_locales())
#: Unicode's name for the letters of a script (ISO 15924 code, from CLDR's likely subtags); Latin is not checked.
UNICODE_SCRIPT = {"Deva": "DEVANAGARI", "Beng": "BENGALI", "Kore": "HANGUL", "Hang": "HANGUL", "Taml": "TAMIL",
                  "Arab": "ARABIC", "Cyrl": "CYRILLIC", "Grek": "GREEK", "Thai": "THAI"}


def _script(code: str) -> str | None:
    from babel.core import get_global

    from generator.i18n.translate import babel_locale

    locale = babel_locale(code)
    likely = get_global("likely_subtags").get(str(locale)) or get_global("likely_subtags").get(locale.language, "")
    return UNICODE_SCRIPT.get(locale.script or next((p for p in likely.split("_")[1:] if len(p) == 4), ""))


SCRIPT = {code: _script(code) for code in TRANSLATED if _script(code)}
NATIVE_DIGITS = tuple(c for c in TRANSLATED if load_locale_config(c).digits != "latn")

_OPTS = Options(formats=("html",), strict=True)


class _Documents(Mapping):
    """Every HTML document of a default build, by (game, locale, kind, table).

    The keys, which parametrize the tests, come from the registry; the documents are rendered once, when a
    test first reads one. Collecting the tests (in every xdist worker) renders nothing."""

    def __init__(self, opts: Options):
        self._opts, self._docs = opts, None
        tables = range(1, opts.sheets.tables + 1)
        self._keys = [(game, code, kind, table) for code in discover_locales() for game in GAMES
                      for kind, per_table in (("rulebook", False), *((s.kind, s.per_table) for s in REGISTRY[game].sheets))
                      for table in (tables if per_table else (None,))]

    def _rendered(self) -> dict:
        if self._docs is None:
            self._docs = render_html(prepare(self._opts), self._opts)
            assert sorted(self._docs, key=str) == sorted(self._keys, key=str)  # rendered what the keys promise
        return self._docs

    def __getitem__(self, key):
        return self._rendered()[key]

    def __iter__(self) -> Iterator:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


DOCS = _Documents(Options(formats=("html",)))


def visible_text(html: str, *, drop_cards: bool = False) -> str:
    """The words a reader sees: no CSS, no tags, no attribute values."""
    html = re.sub(r"<(style|title)\b.*?</\1>", " ", html, flags=re.S)
    if drop_cards:
        html = re.sub(r'<span class="card [^"]*"[^>]*>.*?</span></span>', " ", html, flags=re.S)
    # Tags become spaces (Korean words sit in their own spans), then runs of spaces one.
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html)))


@cache
def _status() -> dict[tuple[str, str], tuple]:
    return {(row[0], row[1]): row for row in status(TRANSLATED)}


@pytest.mark.parametrize("code, domain", [(c, d) for c in TRANSLATED for d in DOMAINS], ids=lambda v: v)
def test_catalog_complete(code, domain):
    assert len(_status()) == len(TRANSLATED) * len(DOMAINS)
    _, _, translated, fuzzy, missing, total = _status()[(code, domain)]
    assert (fuzzy, missing) == (0, 0), f"{code}/{domain}: {fuzzy} fuzzy, {missing} missing of {total}"


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_placeholders_kept(code, domain):
    path = catalog_path(code, domain)
    assert placeholder_problems(read_catalog(path, code), path) == []


def test_strict_check_passes():
    check(_OPTS)


@pytest.mark.parametrize("key", sorted(k for k in DOCS if k[1] in TRANSLATED), ids=lambda k: "/".join(map(str, k)))
def test_no_english_fallback(key):
    assert 'class="untranslated"' not in DOCS[key]


@pytest.mark.parametrize("key", sorted(k for k in DOCS if k[1] in SCRIPT), ids=lambda k: "/".join(map(str, k)))
def test_text_is_in_the_locale_script(key):
    letters = [ch for ch in visible_text(DOCS[key], drop_cards=True) if ch.isalpha()]
    script = SCRIPT[key[1]]
    share = sum(script in unicodedata.name(ch, "") for ch in letters) / len(letters)
    assert share >= 0.6, f"only {share:.0%} of letters are {script}"


@pytest.mark.parametrize("key", sorted(k for k in DOCS if k[1] in NATIVE_DIGITS), ids=lambda k: "/".join(map(str, k)))
def test_native_digits(key):
    """Bengali and Nepali pages use their own digits everywhere but on the cards themselves."""
    text = visible_text(DOCS[key], drop_cards=True)
    assert not re.findall(r".{0,20}[0-9].{0,20}", text)


def _glossary(code: str) -> dict:
    with (LOCALES_DIR / code / "glossary.toml").open("rb") as fh:
        return tomllib.load(fh)


@pytest.mark.parametrize("code", TRANSLATED)
def test_glossary_terms_are_used(code):
    glossary = _glossary(code)
    missing = []
    for game in GAMES:
        english = visible_text(DOCS[(game, "en", "rulebook", None)]).casefold()
        local = visible_text(DOCS[(game, code, "rulebook", None)]).casefold()
        for term, translated in glossary.get(game, {}).items():
            if re.search(rf"\b{re.escape(term.casefold())}\b", english) and translated.casefold() not in local:
                missing.append(f"{game}: {term!r} -> {translated!r}")
    assert not missing


@pytest.mark.parametrize("code", TRANSLATED)
def test_glossary_covers_the_game_terms(code):
    glossary = _glossary(code)
    required = {
        "bunco": {"round", "throw", "bunco", "baby bunco", "wipeout", "head table", "team", "partner", "ghost",
                  "tally sheet", "scorepad", "set", "bell"},
        "stop-the-bus": {"token", "pot", "swap", "stop the bus", "showdown", "three of a kind", "running flush",
                         "run", "flush", "pair", "high card"},
        "tonk": {"stake", "stock", "discard pile", "spread", "book", "run", "hit", "knock", "tonk", "deadwood"},
        "call-break": {"call", "trick", "trump", "extra trick", "follow suit", "deal", "score sheet"},
    }
    for game, terms in required.items():
        assert terms <= set(glossary.get(game, {})), f"{game}: missing {sorted(terms - set(glossary.get(game, {})))}"


@pytest.mark.parametrize("key", sorted(k for k in DOCS if k[1] == "ko"), ids=lambda k: "/".join(map(str, k)))
def test_korean_words_cannot_break_in_print(key):
    """WeasyPrint ignores `word-break: keep-all`: in print, a word joiner sits between every two letters."""
    printed = for_print(DOCS[key], "ko")
    words = re.findall(r"\S+", visible_text(printed))
    korean = [w for w in words if re.search("[\uac00-\ud7af]", w)]
    assert korean
    for word in korean:
        letters = [u for u in re.findall(r"&#?\w+;|.", word) if u != WORD_JOINER]
        assert word == WORD_JOINER.join(letters), word
    assert visible_text(printed).replace(WORD_JOINER, "") == visible_text(DOCS[key])
