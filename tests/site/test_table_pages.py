"""The score keepers as pages (issue 40): linked from the rules and the language pages, found by search, small,
used in Chromium from disk (entries kept across a reload, undo, new game), accessible in light and dark at 360 px,
and computing under the house rules a site is built with."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from generator.core.registry import GAMES
from generator.i18n.translate import discover_locales
from generator.site import table
from tests.conftest import run_main
from tests.site.test_site import TAP_TARGETS, axe_violations
from tests.site.test_table_compute import chromium  # noqa: F401 (the module's browser)

LOCALES = discover_locales()
KEEPERS = [g for g in GAMES if table.has_table(g)]
#: Bytes of a keeper's own code and data (page, scripts, stylesheet), compressed; fonts aside.
BUDGET = 150_000


def test_every_game_and_locale_has_a_keeper_linked_from_its_rules_and_language_pages(html_build):
    site = html_build / "site"
    assert KEEPERS == list(GAMES)
    for code in LOCALES:
        index = (site / code / "index.html").read_text(encoding="utf-8")
        for game in KEEPERS:
            assert (site / code / game / "table.html").is_file()
            assert f'href="{game}/table.html"' in index, (code, game)
            rules = (site / code / game / "index.html").read_text(encoding="utf-8")
            links = [m.start() for m in re.finditer(r'<a class="button" href="table.html">', rules)]
            # At the top (before the contents) and inside the section on scoring, nowhere else.
            assert len(links) == 2 and links[0] < rules.index('id="contents"'), (code, game)
            section = re.search(rf'<section id="{table.scoring_section(game)}".*?</section>', rules, re.S).group(0)
            assert 'href="table.html"' in section, (code, game)


def test_search_finds_the_keepers(html_build):
    for code in LOCALES:
        text = (html_build / "site" / "search" / f"{code}.js").read_text(encoding="utf-8")
        entries = json.loads(text[len("rulesheetsSearch("):-3])["entries"]
        found = {e[0] for e in entries if e[0].endswith("/table.html")}
        assert found == {f"{code}/{g}/table.html" for g in KEEPERS}, code


def test_a_keeper_is_small(html_build):
    site = html_build / "site"
    for code in LOCALES:
        for game in KEEPERS:
            files = [site / code / game / "table.html", site / table.CORE_PATH, site / table.script_path(game),
                     site / "table" / "table.css", site / "style.css", site / "site.js"]
            size = sum(len(gzip.compress(f.read_bytes())) for f in files)
            assert size < BUDGET, (code, game, size)


def _open(browser, url: str, scheme: str = "light", width: int = 360):
    page = browser.new_page(viewport={"width": width, "height": 740}, color_scheme=scheme)
    trouble: list[str] = []
    page.on("console", lambda m: trouble.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: trouble.append(f"page error: {e}"))
    page.on("request", lambda r: None if r.url.startswith("file://") else trouble.append(f"network request: {r.url}"))
    page.on("dialog", lambda d: d.accept())
    page.goto(url, wait_until="load")
    return page, trouble


#: What a player does at each game's table, and what the page shows after it (in English).
PLAY = {
    "call-break": ("""() => { const f = document.getElementById('cb-deal');
        [[4, 6], [3, 3], [2, 1], [5, 3]].forEach(([c, t], i) => { f.querySelectorAll('.cb-call')[i].value = c;
                                                                   f.querySelectorAll('.cb-tricks')[i].value = t; });
        f.querySelector('button[type=submit]').click(); }""", "#cb-sheet tfoot", ["4.2", "3", "−2", "−5"]),
    "tonk": ("""() => { document.querySelector('#tk-end button[value=knock]').click();
        document.querySelector("#tk-who button[value='1']").click();
        [12, 5, 20].forEach((v, i) => document.getElementById('tk-total-' + i).value = String(v));
        document.querySelector('#tk-hand button[type=submit]').click(); }""", "#tk-ledger tfoot", ["−$1", "+$2", "−$1"]),
    "bunco": ("""() => { [2, 2, 2].forEach((f, d) => document.querySelector(`#bu-dice button[data-die='${d}'][value='${f}']`).click());
        document.getElementById('bu-throw').click(); }""", ".bu-teams", ["5"]),
    "stop-the-bus": ("""() => { ['QH', 'KH', 'AH', '2S', '7D', '9C', '5S', '5D', 'JC', '3C', '4D', '6H'].forEach(c => {
          document.querySelector(`#sb-ranks button[value='${c.slice(0, -1)}']`).click();
          document.querySelector(`#sb-suits button[value='${c.slice(-1)}']`).click(); });
        document.getElementById('sb-showdown').click(); }""", "#sb-tokens tbody", ["3", "2", "3", "3"]),
}


@pytest.mark.parametrize("game", KEEPERS)
def test_a_game_at_the_table_survives_a_reload_and_undoes(html_build, chromium, game):
    url = (html_build / "site" / "en" / game / "table.html").as_uri()
    context = chromium.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())
    trouble: list[str] = []
    page.on("pageerror", lambda e: trouble.append(str(e)))
    page.goto(url)
    play, where, expected = PLAY[game]
    before = page.inner_text(where)
    page.evaluate(play)
    after = page.inner_text(where)
    assert all(v in after for v in expected), after
    page.reload()
    assert page.inner_text(where) == after, "a reload loses no entry"
    page.click("#keeper-undo")
    assert page.inner_text(where) == before and page.is_disabled("#keeper-undo")
    page.evaluate(play)
    page.click("#keeper-new")
    assert page.inner_text(where) == before
    assert not trouble, trouble
    context.close()


#: `make test` checks two pages in Bengali (native digits, long words): Call Break's sheet and Stop the Bus's card
#: picker, the two with the most controls; `make test-full` every other game and locale.
EVERYDAY = {("bn", "call-break"), ("bn", "stop-the-bus")}
AXE_CASES = [pytest.param(code, game, marks=() if (code, game) in EVERYDAY else pytest.mark.full, id=f"{code}-{game}")
             for code in LOCALES for game in KEEPERS]


@pytest.mark.parametrize("code, game", AXE_CASES)
def test_keeper_is_accessible_at_360_px_in_light_and_dark(html_build, chromium, code, game):
    url = (html_build / "site" / code / game / "table.html").as_uri()
    for scheme in ("light", "dark"):
        page, trouble = _open(chromium, url, scheme)
        page.evaluate(PLAY[game][0])
        assert not trouble, trouble
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert not (small := page.evaluate(TAP_TARGETS)), f"targets under 44 px: {small}"
        assert not (found := axe_violations(page)), f"{scheme}: " + "\n".join(found)
        if code in ("bn", "ne"):  # the scores are written in the locale's digits
            text = page.inner_text("#keeper")
            assert not re.search(r"[0-9]", re.sub(r"\b(?:10|[2-9JQKA])[♠♥♦♣]|\b(?:10|[2-9]|[JQKA])\b(?=\s|$)", "", text)), text
        page.close()


def test_a_build_with_house_rules_computes_and_says_them(tmp_path, chromium):
    out = tmp_path / "out"
    result = run_main("build", "--games", "call-break", "tonk", "--locales", "fr", "--formats", "html",
                      "--rule", "call-break.overtrick_points=0", "--rule", "tonk.caught_multiplier=4",
                      "--out", str(out))
    assert result.returncode == 0, result.stderr
    deal = {"A": [4, 6], "B": [3, 3], "C": [2, 1], "D": [5, 3]}
    for game, request, answer, label in [
            ("call-break", {"fn": "game_totals", "deals": [deal]}, {"totals": {"A": "4", "B": "3", "C": "-2", "D": "-5"}},
             "overtrick_points"),
            ("tonk", {"fn": "payouts_knock", "totals": {"A": 9, "B": 5, "C": 20}, "knocker": "A"},
             {"payouts": {"A": -5, "B": 6, "C": -1}}, "caught_multiplier")]:
        page, trouble = _open(chromium, (out / "site" / "fr" / game / "table.html").as_uri())
        assert page.evaluate("r => rulesheetsTable.compute(r)", request) == answer
        # A request may still ask for the standard value.
        standard = {"overtrick_points": "0.1", "caught_multiplier": 2}[label]
        assert page.evaluate("r => rulesheetsTable.compute(r)", {**request, "rules": {label: standard}}) != answer
        assert page.locator(f'#rules-in-force dt[data-rule="{label}"]').count() == 1
        assert not trouble, trouble
        page.close()


#: `make test-full` only: a browser with the fonts arriving late, on every game's keeper in a Latin and an Indic locale.
@pytest.mark.full
def test_keepers_load_without_layout_shift(html_build):
    from tests.site.test_site import _assert_no_layout_shift

    _assert_no_layout_shift(html_build / "site", [f"{c}/{g}/table.html" for c in ("en", "bn") for g in KEEPERS])
