"""What a native reader expects: local names, money as written at a home game, small numbers in
words, and the glossary's words (and none of its avoided ones) in every artifact."""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal

import pytest
from babel.messages.catalog import Catalog

from generator import GAMES
from generator.i18n.translate import LOCALES_DIR, load_translator, placeholder_problems
from generator.render.html import local_names

from tests.i18n.test_translations import DOCS, SCRIPT, TRANSLATED, visible_text

NBSP, NNBSP = "\u00a0", "\u202f"


def _glossary(code: str) -> dict:
    with (LOCALES_DIR / code / "glossary.toml").open("rb") as fh:
        return tomllib.load(fh)


# -- names ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(k for k in DOCS if k[1] in SCRIPT), ids=lambda k: "/".join(map(str, k)))
def test_no_latin_word_in_a_local_script_artifact(key):
    """No English name or word of three letters or more; card faces (drawn) aside."""
    words = re.findall(r"[A-Za-zÀ-ÿ]{3,}", visible_text(DOCS[key], drop_cards=True))
    assert not words


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_example_player_has_a_local_name(code):
    english = set()
    for game in GAMES:
        english |= set(re.findall(r'data-player="([^"]+)"', DOCS[(game, "en", "rulebook", None)]))
    names = dict(load_translator(code, ()).config.names)
    assert len(set(names.values())) == len(names), "two players share a local name"
    if code in SCRIPT:
        assert english <= set(names), sorted(english - set(names))
        return
    # A Latin-script locale keeps the names that read well as they are and respells a few (Ines -> Inès):
    # every respelling is of a player an English book has, and that book uses it, never the English spelling.
    assert names
    for name, local in names.items():
        books = [g for g in GAMES if re.search(rf"\b{name}\b", visible_text(DOCS[(g, "en", "rulebook", None)]))]
        assert books, f"{name}: no English book has this player"
        for game in books:
            text = visible_text(DOCS[(game, code, "rulebook", None)])
            assert local != name and local in text, (game, name)
            assert not re.search(rf"\b{name}\b", text), (game, name)


def test_names_are_swapped_only_as_whole_words():
    tr = load_translator("ne", ())
    assert local_names(tr, "Rinaलाई Samको, Samira") == "रिनालाई श्यामको, Samira"


def test_korean_particles_follow_the_local_name():
    """"Tariq가" becomes "태민이", not "태민가": 이/가, 은/는, 을/를, 과/와 follow the name's last sound."""
    tr = load_translator("ko", ())
    assert local_names(tr, "Tariq가 Rina의 런에, Mei와 Jo가 가장 낮아요") == "태민이 리나의 런에, 민서와 조은이 가장 낮아요"


@pytest.mark.parametrize("key", sorted(k for k in DOCS if k[1] == "ko"), ids=lambda k: "/".join(map(str, k)))
def test_korean_particles_after_names_agree(key):
    from generator.render.html import _KO_PARTICLES, _ends_in_consonant
    text = visible_text(DOCS[key])
    wrong = [m.group(0) for name in dict(load_translator("ko", ()).config.names).values()
             for m in re.finditer(re.escape(name) + r"([가이는은를을와과])(?![가-힣])", text)
             if _KO_PARTICLES[m.group(1)][_ends_in_consonant(name)] != m.group(1)]
    assert not wrong


@pytest.mark.parametrize("code,label", [("hi", "तारिक़ नॉक"), ("ne", "तिलक नक"), ("bn", "তারিক নক"),
                                        ("ko", "태민 노크")])
def test_example_labels_are_neutral(code, label):
    """The knocker's label is a noun beside the name, not a verb that must agree with it."""
    assert label in visible_text(DOCS[("tonk", code, "rulebook", None)])


def test_korean_partners_are_joined_by_a_middle_dot():
    text = visible_text(DOCS[("bunco", "ko", "rulebook", None)])
    assert "서연·민준" in text and " 및 " not in text


# -- money ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("code,amounts", [
    ("en", {10: "$10", Decimal("2.5"): "$2.50", 1000: "$1,000"}),
    ("fr", {1: f"1{NBSP}€", Decimal("2.5"): f"2,50{NBSP}€", 1000: f"1{NNBSP}000{NBSP}€"}),
    ("hi", {10: "₹10", 100000: "₹1,00,000", Decimal("2.5"): "₹2.50"}),
    ("ko", {1000: "1,000원", 2000: "2,000원"}),
    ("bn", {10: "৳১০", 100000: "৳১,০০,০০০", Decimal("2.5"): "৳২.৫০"}),
    ("ne", {10: "रु. १०", 20: "रु. २०", Decimal("2.5"): "रु. २.५०"}),
])
def test_money_as_written_at_a_home_game(code, amounts):
    tr = load_translator(code, ())
    assert {a: tr.money(a) for a in amounts} == amounts


def test_another_currency_keeps_the_cldr_pattern():
    """The locale's own pattern (रु., 원) is for its own currency; dollars stay dollars."""
    assert load_translator("ne", ()).money(10, "USD") == f"US${NBSP}१०"
    assert load_translator("ko", ()).money(10, "USD") == "US$10"


@pytest.mark.parametrize("code", TRANSLATED + ("en",))
def test_payout_sheet_has_no_zero_decimals(code):
    text = visible_text(DOCS[("tonk", code, "payout-sheet", None)])
    tr = load_translator(code, ())
    assert " ".join(tr.money(tr.config.stake).split()) in text  # the text's spaces are collapsed
    assert not re.search(r"[0-9০-৯०-९][.,][0०০]{2}(?![0-9০-৯०-९])", text)


# -- small numbers in words -----------------------------------------------------------------------

@pytest.mark.parametrize("code,words", [
    ("fr", ["exactement une carte de votre main", "perd un jeton", "encore exactement un tour"]),
    ("hi", ["ठीक एक पत्ता", "एक टोकन जाता है", "एक बारी और"]),
    ("bn", ["ঠিক একটি তাস", "একটি টোকেন হারান", "একটি করে পালা"]),
    ("ne", ["ठीक एउटा पत्ती", "एउटा टोकन गुमाउँछ", "एउटा पालो थप"]),
    ("ko", ["카드 딱 1장", "토큰을 1개 잃어요"]),  # Korean print keeps digit + counter
])
def test_small_numbers_in_running_text(code, words):
    text = visible_text(DOCS[("stop-the-bus", code, "rulebook", None)])
    assert [w for w in words if w not in text] == []


def test_a_spelled_out_fact_falls_back_when_the_fact_changes():
    """"एक पत्ता" is right only while cards_swapped is 1: a changed fact makes it outdated."""
    tr = load_translator("hi", ("stop-the-bus",))
    msgid = next(m.id for m in tr.catalogs["stop-the-bus"] if m.id and str(m.id).startswith("On your turn, swap"))
    text, fallback = tr.lookup("stop-the-bus", msgid, {"cards_swapped": 1, "hand_size": 3})
    assert not fallback and "एक पत्ता" in text
    text, fallback = tr.lookup("stop-the-bus", msgid, {"cards_swapped": 2, "hand_size": 3})
    assert fallback and text == msgid and tr.misses[-1].reason == "outdated"


def test_a_placeholder_may_be_left_out_only_when_spelled_out():
    catalog = Catalog(locale="fr")
    catalog.add("Lose {n} token.", "Perdez un jeton.", lineno=3)
    assert [p.message for p in placeholder_problems(catalog, LOCALES_DIR / "x.po")] == [
        "translation of 'Lose {n} token.': missing placeholder {n}"]
    catalog["Lose {n} token."].user_comments = ["spelled out: n=1"]
    assert placeholder_problems(catalog, LOCALES_DIR / "x.po") == []


# -- glossary -------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(k for k in DOCS if k[1] != "en"), ids=lambda k: "/".join(map(str, k)))
def test_glossary_terms_in_every_artifact(key):
    """Where the English artifact uses a game term, the translation uses the glossary's word."""
    game, code, kind, extra = key
    glossary = _glossary(code)
    english = visible_text(DOCS[(game, "en", kind, extra)]).casefold()
    local = visible_text(DOCS[key]).casefold()
    missing = [f"{term!r} -> {word!r}" for term, word in glossary.get(game, {}).items()
               if re.search(rf"\b{re.escape(term.casefold())}\b", english) and word.casefold() not in local]
    assert not missing


@pytest.mark.parametrize("key", sorted(k for k in DOCS if k[1] != "en"), ids=lambda k: "/".join(map(str, k)))
def test_no_avoided_word_in_any_artifact(key):
    game, code = key[0], key[1]
    avoid = _glossary(code).get("avoid", {})
    text = visible_text(DOCS[key], drop_cards=True)
    found = [f"{word!r} ({why})" for scope in (game, "common") for word, why in avoid.get(scope, {}).items()
             if word in text]
    assert not found


@pytest.mark.parametrize("extra,problem", [
    ('money_pattern = 5', "'money_pattern' must be a string"),
    ('names = "Rina"', "'names' must be a table"),
    ('[names]\nRina = ""', "names: 'Rina' must map to a name"),
])
def test_bad_locale_settings_are_one_line_problems(tmp_path, extra, problem):
    from generator.core.errors import InputError
    from generator.i18n.translate import load_locale_config
    (tmp_path / "fr").mkdir()  # a real language tag: the folder's name is checked too
    (tmp_path / "fr" / "locale.toml").write_text(
        'digits = "latn"\nfonts = ["Noto Sans"]\ncurrency = "EUR"\npaper = "a4"\nstake = 1\n' + extra + "\n",
        encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_locale_config("fr", tmp_path)
    assert [p.message for p in err.value.problems] == [problem]


@pytest.mark.parametrize("game,gloss", [("stop-the-bus", "K pour le roi, Q pour la dame et J pour le valet"),
                                        ("tonk", "Le valet, la dame et le roi (J, Q et K sur les cartes de ce livret)")])
def test_french_books_gloss_the_card_letters(game, gloss):
    """The cards show A K Q J: each French book that writes them says once what they stand for."""
    assert visible_text(DOCS[(game, "fr", "rulebook", None)]).count(gloss) == 1


@pytest.mark.parametrize("code,words", [
    ("fr", ["Bastard", "Tunk", "descendre", "prise"]), ("hi", ["बास्टर्ड", "टंक", "गोइंग डाउन", "कैच"]),
    ("ko", ["배스터드", "텅크", "고잉 다운", "캐치"]), ("bn", ["বাস্টার্ড", "টাঙ্ক", "নেমে যাওয়া", "ক্যাচ"]),
    ("ne", ["बास्टर्ड", "टङ्क", "गोइङ डाउन", "क्याच"]),
])
def test_the_other_names_from_the_seeds(code, words):
    """Stop the Bus is also Bastard; Tonk is also Tunk, knocking is dropping or going down, a tie is a catch."""
    text = visible_text(DOCS[("stop-the-bus", code, "rulebook", None)]) + visible_text(DOCS[("tonk", code, "rulebook", None)])
    assert [w for w in words if w not in text] == []
