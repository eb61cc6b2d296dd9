"""Languages from data: a new draft locale needs `i18n init` and no code change; BCP 47 tags throughout."""

from __future__ import annotations

import json
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.i18n.translate import LOCALES_DIR
from tests.conftest import manifest, run_cli, run_main


class _Attributes(HTMLParser):
    """Every attribute value of a page, and the text of elements with a class."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.values: list[tuple[str, str, str]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.values += [(tag, name, value or "") for name, value in attrs]


def test_draft_locale_from_init_builds_with_english_fallback_and_joins_the_site(project):
    r = run_cli(project, "i18n", "init", "es-MX")
    assert r.returncode == 0, r.stderr
    folder = project / "locales/es-MX"
    settings = tomllib.loads((folder / "locale.toml").read_text(encoding="utf-8"))
    assert settings == {"status": "draft", "digits": "latn", "fonts": ["Noto Sans", "DejaVu Sans"],
                        "currency": "MXN", "paper": "letter", "stake": 1}
    common = (folder / "LC_MESSAGES/common.po").read_text(encoding="utf-8")
    assert "Language: es_MX" in common and "Plural-Forms: nplurals=3;" in common
    assert sorted(p.name for p in (folder / "LC_MESSAGES").iterdir()) == sorted(
        p.name.replace(".pot", ".po") for p in (project / "locales").glob("*.pot"))

    # --strict holds the complete locales to completeness, not the draft (two games: a dice and a card game).
    r = run_cli(project, "build", "--strict", "--formats", "html", "--games", "bunco", "tonk",
                "--locales", "en", "fr", "es-MX")
    assert r.returncode == 0, r.stderr
    out = project / "output"
    rulebook = (out / "es-MX/bunco/rulebook.html").read_text(encoding="utf-8")
    assert '<html lang="es-MX">' in rulebook
    assert 'class="untranslated" lang="en"' in rulebook  # the English fallback is visible
    assert {e["locale"] for e in manifest(out)} >= {"es-MX"}

    site = out / "site"
    chooser = (site / "index.html").read_text(encoding="utf-8")
    # Marked as a draft (in English while the draft has no words for it); no alternate of the finished
    # pages, and no sitemap to join (drafts stay out of it: issue 16).
    assert '<a href="es-MX/index.html" hreflang="es-MX" lang="es-MX"><span class="native">Español (México)</span> ' \
           '<span class="draft-badge" lang="en">draft translation</span></a>' in chooser
    french = (site / "fr/bunco/index.html").read_text(encoding="utf-8")
    assert 'hreflang="es-MX" lang="es-MX">Español (México) <span class="draft-badge"' in french
    assert '<link rel="alternate" hreflang="es-MX"' not in french
    assert '<meta name="robots" content="noindex">' in (site / "es-MX/bunco/index.html").read_text(encoding="utf-8")
    assert 'property="og:locale" content="es_MX"' in (site / "es-MX/index.html").read_text(encoding="utf-8")

    # A fallback inside an attribute is plain text: the marker is markup and belongs in text only.
    pages = [p for p in out.rglob("*.html") if "es-MX" in p.parts]
    assert len(pages) > 10
    for page in pages:
        for tag, name, value in _Attributes(page.read_text(encoding="utf-8")).values:
            assert "<" not in value and "untranslated" not in value or name == "class", (page, tag, name, value)

    # A translator holds their draft to completeness by naming it.
    r = run_cli(project, "i18n", "status", "--locales", "es-MX", "--strict")
    assert r.returncode == 1
    assert r.stderr == "locales: incomplete catalogs (es-MX)\n"


def test_init_refuses_unknown_tags_and_existing_locales(project):
    r = run_cli(project, "i18n", "init", "xx-QQ")
    assert (r.returncode, r.stderr) == (2, "rulesheets: command line: i18n init: 'xx-QQ' is not a language tag "
                                           "CLDR knows; use a BCP 47 tag such as es, es-MX or pt-BR\n")
    r = run_cli(project, "i18n", "init", "fr")
    assert (r.returncode, r.stderr) == (2, "locales/fr: locale 'fr' already exists\n")
    assert not (project / "locales/xx-QQ").exists()


@pytest.mark.parametrize("tag", ["und", "und-IN", "UND", "root", "und_Latn"])
def test_init_refuses_a_tag_that_names_no_language(tag):
    """`und` is "undetermined": Babel guesses a language for it (und: en-US, und-IN: hi-IN), and i18n init created
    locales/en-US without a word (issue 44). Refused before anything is written."""
    before = sorted(p.name for p in LOCALES_DIR.iterdir())
    r = run_main("i18n", "init", tag)
    assert (r.returncode, r.stderr) == (2, f"rulesheets: command line: i18n init: '{tag}' names no language (und is "
                                           "'undetermined'); use a BCP 47 tag such as es, es-MX or pt-BR\n")
    assert sorted(p.name for p in LOCALES_DIR.iterdir()) == before


def test_locale_status_is_checked(project):
    path = project / "locales/fr/locale.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('status = "complete"', 'status = "beta"'), encoding="utf-8")
    r = run_cli(project, "build", "--locales", "fr", "--games", "bunco", "--formats", "html")
    assert (r.returncode, r.stderr) == (2, "locales/fr/locale.toml: status must be draft or complete, not 'beta'\n")


def test_partial_build_into_a_new_folder_builds_only_what_was_asked(project, tmp_path: Path):
    new = tmp_path / "sheets"
    r = run_cli(project, "build", "--games", "bunco", "--locales", "ko", "--kinds", "tally-sheet", "--papers", "a4",
                "--formats", "pdf", "--out", str(new))
    assert r.returncode == 0, r.stderr
    assert [(e["path"], e["pages"]) for e in json.loads((new / "manifest.json").read_text())] == [
        ("ko/bunco/tally-sheet-a4.pdf", 1)]
    assert not (new / "site").exists()


def test_kinds_a_game_does_not_have(project):
    r = run_cli(project, "build", "--games", "tonk", "--kinds", "tally-sheet")
    assert (r.returncode, r.stderr) == (2, "rulesheets: command line: --kinds tally-sheet: none of the chosen games "
                                           "has that kind (tally-sheet: bunco)\n")
    r = run_cli(project, "build", "--kinds", "poster")
    assert r.returncode == 2 and r.stderr.startswith("rulesheets: command line: unknown kind 'poster' (known: rulebook, ")
