"""One term, one meaning: every built artifact of a locale (rulebook, sheets, card, kit, site) names each
concept of its glossary's `[concepts]` with the glossary's term, and never with a word the glossary avoids."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.builtdocs import documents, text
from tests.conftest import ROOT

GLOSSARIES = {p.parent.name: p for p in sorted((ROOT / "locales").glob("*/glossary.toml"))}
#: The concepts every glossary must settle first: the words a reader is most likely to confuse.
FIRST_CONCEPTS = {"rank", "value", "hand", "deal", "pot", "stake"}


def concepts(code: str) -> dict[str, dict]:
    with GLOSSARIES[code].open("rb") as fh:
        return tomllib.load(fh).get("concepts", {})


def _applies(concept: dict, game: str | None) -> bool:
    return game in concept.get("games", [game])


def problems(code: str, docs) -> list[str]:
    """Each concept's term where the English twin names the concept; no avoided word anywhere."""
    found = []
    for doc in docs:
        local = text(doc.path)
        english = text(doc.twin) if doc.twin else ""
        for name, concept in concepts(code).items():
            if not _applies(concept, doc.game):
                continue
            if "en" in concept and "term" in concept and re.search(concept["en"], english) \
                    and not re.search(concept["term"], local, re.I):
                found.append(f"{doc.name}: {name}: the English says it, {concept['term']!r} is missing")
            for word in concept.get("avoid", []):
                for m in re.finditer(word, local):
                    found.append(f"{doc.name}: {name}: avoided {word!r} in "
                                 f"{local[max(0, m.start() - 30):m.end() + 30]!r}")
    return found


@pytest.mark.parametrize("code", sorted(GLOSSARIES))
def test_glossary_settles_the_first_concepts(code):
    """rank vs value, hand vs deal, pot vs stake: each has a term, and says where the English uses it."""
    mine = concepts(code)
    assert FIRST_CONCEPTS <= set(mine), sorted(FIRST_CONCEPTS - set(mine))
    for name, concept in mine.items():
        assert set(concept) <= {"en", "term", "avoid", "games", "why"}, name
        assert ("en" in concept) == ("term" in concept), f"{name}: 'en' and 'term' go together"
        assert "term" in concept or concept.get("avoid"), f"{name}: neither a term nor a word to avoid"
        for pattern in [concept.get("en", ""), concept.get("term", ""), *concept.get("avoid", [])]:
            re.compile(pattern)


@pytest.mark.parametrize("code", sorted(GLOSSARIES))
def test_one_term_one_meaning(html_build, code):
    docs = [d for d in documents(html_build) if d.lang == code]
    kinds = {d.path.relative_to(html_build).parts[0] for d in docs}
    assert {code, "site", "kit"} <= kinds  # the rulebooks, sheets and cards; the site; the kits
    assert not problems(code, docs)


def test_a_planted_slip_is_found(html_build, tmp_path):
    """The French Tonk card calling a book "de même valeur" (the review's fr-3) fails the test."""
    docs = [d for d in documents(html_build) if d.lang == "fr" and d.path.name == "quick-reference.html"
            and d.game == "tonk"]
    assert docs and not problems("fr", docs)
    planted = tmp_path / "fr" / "tonk" / "quick-reference.html"
    planted.parent.mkdir(parents=True)
    planted.write_text(docs[0].path.read_text(encoding="utf-8").replace("de même rang", "de même valeur"),
                       encoding="utf-8")
    found = problems("fr", [type(docs[0])(planted, "fr", "tonk", docs[0].twin)])
    assert any("rank: avoided" in p for p in found) and any("rank: the English says it" in p for p in found)


def test_a_broken_concept_is_a_one_line_problem():
    from generator.i18n.glossary_concepts import concept_problems
    data = {"concepts": {"rank": {"en": "rank", "term": "rang(", "avoid": ["x"]}, "pot": {"term": "cagnotte"},
                         "deal": {"en": "hand", "term": "donne", "colour": "bleu"}}}
    messages = [p.message for p in concept_problems(data, "locales/fr/glossary.toml", lambda name: 3)]
    assert messages == [
        "concept 'rank': 'rang(': missing ), unterminated subpattern at position 4",
        "concept 'pot': 'en' and 'term' go together",
        "concept 'deal': unknown key 'colour' (one of: en, term, avoid, games, why)",
    ]


def test_call_break_pages_are_call_break_and_a_trick_word_for_the_hand_is_found(html_build, tmp_path):
    """Call Break's pages carry their game, so its own concepts apply: the Hindi example label calling the
    held cards हाथ (the trick's word in Call Break; the back-translation review's hi finding) fails."""
    docs = [d for d in documents(html_build) if d.lang == "hi" and d.path.name == "rulebook.html"
            and d.game == "call-break"]
    assert docs and not problems("hi", docs)
    planted = tmp_path / "hi" / "call-break" / "rulebook.html"
    planted.parent.mkdir(parents=True)
    html = docs[0].path.read_text(encoding="utf-8")
    assert "पत्ते: " in html
    planted.write_text(html.replace("पत्ते: ", "हाथ में: "), encoding="utf-8")
    found = problems("hi", [type(docs[0])(planted, "hi", "call-break", docs[0].twin)])
    assert found and all("held-cards: avoided 'हाथ में:'" in p for p in found)
