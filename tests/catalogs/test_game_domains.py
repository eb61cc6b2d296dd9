"""A game's strings live in its own catalog domain: extracted there, looked up there, moved there with their translations."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import write_po

from generator.catalogs.maintain import COMMON_KEYWORDS, KEYWORDS, PYTHON_KEYWORDS, _template_strings
from generator.core.paths import PROJECT_DIR, TEMPLATES_DIR
from generator.core.registry import GAMES
from generator.dev.move_game_strings import move
from generator.edition.editions import make_edition
from generator.edition.sheets import SheetOptions
from generator.i18n.translate import Translator, load_locale_config, load_translator, read_catalog
from generator.model.loader import load_model
from generator.render.html import environment, locale_globals

BUILTIN = [g for g in GAMES if GAMES[g].package.startswith("generator.games.")]


def _keys(catalog) -> set[tuple[str, str | None]]:
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}


def _found(found) -> set[tuple[str, str | None]]:
    return {(msgid if isinstance(msgid, str) else msgid[0], context) for _line, msgid, _comments, context in found}


@pytest.mark.parametrize("game", BUILTIN)
def test_a_games_own_strings_are_in_its_catalog_and_not_in_common(game):
    g = GAMES[game]
    own, asked_of_common = set(), set()
    for path in sorted(g.templates_dir.rglob("*.j2")):
        own |= _found(_template_strings(path, KEYWORDS))
        asked_of_common |= _found(_template_strings(path, COMMON_KEYWORDS))
    for path in sorted(g.folder.glob("**/*.py")):
        own |= _found(extract_from_file("python", str(path), keywords=PYTHON_KEYWORDS))
        asked_of_common |= _found(extract_from_file("python", str(path), keywords=COMMON_KEYWORDS))
    own |= {(s.title, None) for s in g.sheets}
    assert len(own) > 10, own  # the game's sheets and examples have their own strings
    pot = read_catalog(PROJECT_DIR / "locales" / f"{game}.pot", "en")
    assert own <= _keys(pot), sorted(own - _keys(pot))
    folder = str(g.folder.relative_to(PROJECT_DIR)) + "/"
    common = read_catalog(PROJECT_DIR / "locales" / "common.pot", "en")
    from_game = {k for m in common if m.id for k in _keys([m]) if any(f.startswith(folder) for f, _ in m.locations)}
    assert from_game <= asked_of_common, sorted(from_game - asked_of_common)


def _translator(catalogs: dict[str, dict]) -> Translator:
    """French with the given catalogs: {domain: {(msgid, msgctxt): translation}}."""
    out = {}
    for domain, entries in catalogs.items():
        out[domain] = Catalog(locale="fr")
        for (msgid, context), string in entries.items():
            out[domain].add(msgid, string, context=context)
    return Translator(load_locale_config("fr"), out)


SOURCE = '{{ _("Hi") }}|{{ pgettext("greeting", "Hi") }}|{{ ngettext("a die", "dice", 2) }}|{{ common_("Hi") }}|' \
         '{{ _attr("Hi") }}'


def _render(filename: Path, tr: Translator) -> str:
    env = environment()
    code = env.compile(SOURCE, filename.name, str(filename))
    return jinja2.Template.from_code(env, code, env.make_globals(None)).render(**locale_globals(tr))


def test_a_game_template_speaks_its_games_domain_and_a_shared_one_common():
    def entries(who: str) -> dict:
        return {("Hi", None): f"Salut ({who})", ("Hi", "greeting"): f"Salut ? ({who})",
                (("a die", "dice"), None): (f"un dé {who}", f"des dés {who}", f"des dés {who}")}

    tr = _translator({"common": entries("common"), "bunco": entries("bunco")})
    in_game = _render(GAMES["bunco"].templates_dir / "probe.html.j2", tr)
    assert in_game == "Salut (bunco)|Salut ? (bunco)|des dés bunco|Salut (common)|Salut (bunco)"
    shared = _render(TEMPLATES_DIR / "probe.html.j2", tr)
    assert shared == "Salut (common)|Salut ? (common)|des dés common|Salut (common)|Salut (common)"
    assert not tr.misses


def test_a_games_sheet_takes_its_strings_from_the_game_and_the_shared_frame_from_common():
    """Tonk's card: the shared quick-reference.html.j2 includes tonk/card-header.html.j2; one render, two domains."""
    tr = load_translator("fr", ("tonk", "common"))
    common, tonk = tr.catalogs["common"], tr.catalogs["tonk"]
    assert common.get("face value") is None  # a game's string is not in common
    common.get("Quick reference").string = "CADRE-COMMUN"
    tonk.get("face value").string = "VALEUR-DU-JEU"
    # Decoys: the same msgids in the other domain, which must not be read.
    common.add("face value", "LEURRE")
    tonk.get("Quick reference").string = "LEURRE"  # the sheet's title on the site's downloads
    edition = make_edition(load_model("tonk"), {})
    html = GAMES["tonk"].sheet("quick-reference").html(edition, tr, SheetOptions())
    assert "CADRE-COMMUN" in html and "VALEUR-DU-JEU" in html and "LEURRE" not in html
    assert not tr.misses, tr.misses


def _po(path: Path, cat: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, cat, width=100, include_previous=True)


def test_moving_carries_translation_context_comments_and_flags(tmp_path):
    locales = tmp_path / "locales"
    common = Catalog(locale="fr")
    common.add("Shared", "Partagé")
    common.add("Hand", "Main", context="column: the hand a player holds", user_comments=["kept as players say it"])
    common.add(("{count} token", "{count} tokens"), ("un jeton", "{count} jetons", "{count} jetons"), flags=["python-brace-format"],
               user_comments=["spelled out: count=1"])
    common.add("Half done", "À moitié", flags=["fuzzy"], previous_id="Half-done")
    _po(locales / "fr/LC_MESSAGES/common.po", common)
    game = Catalog(locale="fr")
    game.add("Rule prose", "La règle")
    _po(locales / "fr/LC_MESSAGES/bunco.po", game)
    templates = {"common": Catalog(), "bunco": Catalog()}
    templates["common"].add("Shared")
    for msgid, context in (("Rule prose", None), ("Hand", "column: the hand a player holds"),
                           (("{count} token", "{count} tokens"), None), ("Half done", None)):
        templates["bunco"].add(msgid, context=context, flags=["python-brace-format"] if "{" in str(msgid) else [])
    out, report = move(templates, ("fr",), locales)
    assert report == ["fr: 3 into bunco"]
    for path, data in out.items():
        path.write_bytes(data)
    moved = read_catalog(locales / "fr/LC_MESSAGES/bunco.po", "fr")
    hand = moved.get("Hand", "column: the hand a player holds")
    assert (hand.string, hand.user_comments) == ("Main", ["kept as players say it"])
    tokens = moved.get("{count} token")
    assert tokens.string == ("un jeton", "{count} jetons", "{count} jetons") and tokens.user_comments == ["spelled out: count=1"]
    assert "no-python-brace-format" in tokens.flags  # spelled out: msgfmt does not ask for the placeholder
    half = moved.get("Half done")
    assert half.string == "À moitié" and half.fuzzy and half.previous_id == ["Half-done"]
    assert moved.get("Rule prose").string == "La règle"
    left = read_catalog(locales / "fr/LC_MESSAGES/common.po", "fr")
    assert _keys(left) == {("Shared", None)} and left.get("Shared").string == "Partagé"
    again, report = move(templates, ("fr",), locales)
    assert report == ["fr: nothing to move"]
    assert all(path.read_bytes() == data for path, data in again.items())  # a second run changes nothing
