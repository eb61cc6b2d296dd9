"""Whole builds: the manifest, PDF metadata and page counts, facts flowing into every locale."""

from __future__ import annotations

import hashlib
import re
from collections import Counter

from pypdf import PdfReader

from generator import GAMES
from generator.pipeline.build import KINDS
from generator.i18n.translate import discover_locales

from tests.conftest import manifest, run_cli, sheets_per_locale

LOCALES = discover_locales()

NATIVE = {"bn": str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"), "ne": str.maketrans("0123456789", "०१२३४५६७८९")}


def test_manifest_lists_every_rulebook(full_build):
    entries = manifest(full_build)
    books = Counter((e["format"], e.get("paper")) for e in entries if e["kind"] == "rulebook")
    n = len(GAMES) * len(LOCALES)
    assert books == {("html", None): n, ("pdf", "a4"): n, ("pdf", "letter"): n}
    assert {(e["game"], e["locale"]) for e in entries if e["kind"] == "rulebook"} == {
        (g, loc) for g in GAMES for loc in LOCALES}


def test_manifest_entries_match_files(full_build):
    for e in manifest(full_build):
        data = (full_build / e["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == e["sha256"], e["path"]
        keys = {"game", "locale", "kind", "format", "path", "sha256"} | ({"paper", "pages"} if e["format"] == "pdf" else set())
        assert keys <= set(e), e
        if e["format"] == "pdf":
            assert len(PdfReader(full_build / e["path"]).pages) == e["pages"]


def test_pdf_metadata(full_build):
    for e in manifest(full_build):
        if e["format"] != "pdf" or e["kind"] != "rulebook":
            continue
        reader = PdfReader(full_build / e["path"])
        assert reader.metadata.title, e["path"]
        assert reader.metadata.author == "rulesheets"
        assert reader.trailer["/Root"]["/Lang"] == e["locale"]
        assert len(reader.outline) >= 8, "sections should appear in the PDF outline"


def test_sheets_are_one_page(full_build):
    sheets = [e for e in manifest(full_build) if e["format"] == "pdf" and e["kind"] != "rulebook"]
    # Per locale and paper: every game's sheets (a per-table sheet for each of the default three tables).
    assert len(sheets) == len(LOCALES) * 2 * sheets_per_locale()
    too_long = [(e["path"], e["pages"]) for e in sheets if e["pages"] != 1]
    assert not too_long


def test_every_page_has_html_lang(full_build):
    for e in manifest(full_build):
        if e["format"] == "html":
            html = (full_build / e["path"]).read_text(encoding="utf-8")
            assert f'<html lang="{e["locale"]}">' in html


def test_changed_fact_reaches_every_locale(project):
    model = project / "generator/games/bunco/model.yaml"
    text = model.read_text(encoding="utf-8")
    model.write_text(text.replace("  bunco_points: 21\n", "  bunco_points: 25\n"), encoding="utf-8")
    r = run_cli(project, "build", "--games", "bunco", "--formats", "html")
    assert r.returncode == 0, r.stderr
    for code in LOCALES:
        html = (project / f"output/{code}/bunco/rulebook.html").read_text(encoding="utf-8")
        # The play section quotes the fact in prose and shows the engine's score of a Bunco.
        section = re.search(r'<section id="play">(.*?)</section>', html, re.S).group(1)
        assert re.search(r"\b%s\b" % "25".translate(NATIVE.get(code, {})), section), code
        assert not re.search(r"\b%s\b" % "21".translate(NATIVE.get(code, {})), section), code


def test_build_refuses_example_disagreeing_with_engine(project):
    model = project / "generator/games/bunco/model.yaml"
    text = model.read_text(encoding="utf-8")
    written = 'expect: {points: "=2 * point_per_die + baby_bunco_points + point_per_die"}'
    assert written in text
    model.write_text(text.replace(written, "expect: {points: 9}"), encoding="utf-8")
    r = run_cli(project, "build", "--games", "bunco", "--formats", "html")
    assert r.returncode == 1
    assert "example 'turn-sequence': points is written as 9 but the engine computes 8" in r.stderr
    assert not (project / "output").exists()


#: The note a build prints when it is given the site's name or logo but makes no site (issue 44).
SITE_NOTE = ("rulesheets: note: the site's name and logo (--site-name, --site-logo, site_name, site_logo) apply only "
             "when the site is built, by a build of every game, language and kind; this build left the site as it was")


def test_site_name_for_a_build_without_a_site_is_noted(tmp_path):
    from tests.conftest import run_main

    args = ("build", "--games", "bunco", "--locales", "en", "--formats", "html", "--kinds", "quick-reference")
    r = run_main(*args, "--site-name", "Friday Club", "--out", str(tmp_path / "a"))
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [SITE_NOTE] and not (tmp_path / "a/site").exists()
    r = run_main(*args, "--out", str(tmp_path / "b"))  # no name given: nothing to say
    assert (r.returncode, r.stderr) == (0, "")
