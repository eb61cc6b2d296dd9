"""Call Break plugged in as one unit: its score sheet, kit, decimal scores and Fraction house rule, through the CLI."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import run_main

LOCALES = ("en", "fr", "hi", "bn", "ne", "ko")
#: How each locale writes the overtrick example's 4.2 (decimal sign and digits through Babel).
FOUR_POINT_TWO = {"en": "4.2", "fr": "4,2", "hi": "4.2", "bn": "৪.২", "ne": "४.२", "ko": "4.2"}


def _build(out: Path, *args: str) -> dict:
    r = run_main("build", "--games", "call-break", "--jobs", "1", "--out", str(out), *args)
    assert r.returncode == 0, r.stderr
    return {e["path"]: e for e in json.loads((out / "manifest.json").read_text(encoding="utf-8"))}


#: The shortest and the longest sheet in `make test`, every length between in `make test-full`.
@pytest.mark.parametrize("deals", [d if d in (3, 10) else pytest.param(d, marks=pytest.mark.full) for d in range(3, 11)])
def test_score_sheet_has_a_row_per_deal_and_running_totals(tmp_path, deals):
    entries = _build(tmp_path / "out", "--locales", "en", "--kinds", "score-sheet", "--tables", "1",
                     "--rule", f"call-break.deals={deals}")
    html = (tmp_path / "out/en/call-break/score-sheet-table-1.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr data-deal="(\d+)">(.*?)</tr>', html, re.S)
    assert [int(n) for n, _ in rows] == list(range(1, deals + 1))
    for _, row in rows:
        # Per player: call, tricks, score and the running total, the score and total ruled for tenths.
        assert re.findall(r'<td class="box (\w+)">', row) == ["call", "tricks", "score", "total"] * 4
    assert len(re.findall(r'<th scope="colgroup" colspan="4" class="player"', html)) == 4
    assert '<main class="tenths">' in html
    for paper in ("a4", "letter"):  # the layout gate passed (exit 0) and the sheet is one page
        assert entries[f"en/call-break/score-sheet-table-1-{paper}.pdf"]["pages"] == 1


def test_score_sheet_one_per_table(tmp_path):
    entries = _build(tmp_path / "out", "--locales", "en", "--kinds", "score-sheet", "--formats", "html",
                     "--tables", "3")
    assert sorted(p for p in entries) == [f"en/call-break/score-sheet-table-{t}.html" for t in (1, 2, 3)]
    html = (tmp_path / "out/en/call-break/score-sheet-table-2.html").read_text(encoding="utf-8")
    assert '<span class="table-label">Table 2</span>' in html


def test_each_kind_carries_its_own_styles_only(tmp_path):
    """The score sheet's styles (score-sheet.css) go in its head and in the kit's, not in the card's."""
    _build(tmp_path / "out", "--locales", "en", "--kinds", "score-sheet", "quick-reference", "--formats", "html",
           "--tables", "1")
    folder = tmp_path / "out/en/call-break"
    assert ".cb-scores {" in (folder / "score-sheet-table-1.html").read_text(encoding="utf-8")
    assert ".cb-scores" not in (folder / "quick-reference.html").read_text(encoding="utf-8")


def test_overtrick_points_zero_from_the_command_line(tmp_path):
    entries = _build(tmp_path / "out", "--locales", "en", "--kinds", "rulebook", "score-sheet", "--formats", "html",
                     "--tables", "1", "--rule", "call-break.overtrick_points=0")
    assert {e["rules"]["overtrick_points"] for e in entries.values()} == {0}
    sheet = (tmp_path / "out/en/call-break/score-sheet-table-1.html").read_text(encoding="utf-8")
    assert '<main class="whole">' in sheet and "extra tricks score nothing" in sheet
    book = (tmp_path / "out/en/call-break/rulebook.html").read_text(encoding="utf-8")
    assert 'id="ex-overtrick-nothing"' in book and 'id="ex-overtrick"' not in book
    assert "Extra tricks score nothing; a player who takes more tricks than they called scores just the\u00a0call." \
        in book  # the house-rules box


def test_overtrick_points_from_a_house_rules_file(tmp_path):
    rules = tmp_path / "ours.toml"
    rules.write_text("[call-break]\novertrick_points = 0.1\ndeals = 3\n", encoding="utf-8")
    entries = _build(tmp_path / "out", "--locales", "en", "--kinds", "rulebook", "--formats", "html",
                     "--house-rules", str(rules))
    # 0.1 is the standard value: only the number of deals is a house rule.
    assert next(iter(entries.values()))["rules"] == {"deals": 3}


@pytest.mark.parametrize("value, message", [
    ("0.2", "--rule: call-break.overtrick_points must be 0.1 | 0, got 0.2"),
    ("a tenth", "--rule: call-break.overtrick_points: expected a number like 0.1 (or 1/10), got 'a tenth'"),
])
def test_a_bad_overtrick_value_is_one_line(tmp_path, value, message):
    r = run_main("check", "--rule", f"call-break.overtrick_points={value}")
    assert r.returncode == 2 and r.stderr.strip() == message


def test_rules_lists_the_tenth():
    r = run_main("rules", "call-break")
    assert r.returncode == 0, r.stderr
    line = next(l for l in r.stdout.splitlines() if "overtrick_points" in l)
    assert "(default 0.1; allowed 0.1 | 0)" in line and "Extra tricks score nothing" in line


def test_scores_are_decimals_in_each_locale(tmp_path):
    _build(tmp_path / "out", "--locales", ",".join(LOCALES), "--kinds", "rulebook", "--formats", "html")
    for code in LOCALES:
        book = (tmp_path / f"out/{code}/call-break/rulebook.html").read_text(encoding="utf-8")
        cell = re.search(r'<figure class="example" id="ex-overtrick">.*?data-score="21/5"><b>([^<]*)</b>', book, re.S)
        assert cell and cell.group(1) == FOUR_POINT_TWO[code], code
        if code in ("bn", "ne"):  # no Latin digit in any score of the game-totals example
            totals = re.search(r'id="ex-game-five-deals">(.*?)</figure>', book, re.S).group(1)
            assert not re.search(r">[^<]*[0-9][^<]*<", totals.split("</thead>")[1]), code


def test_decimal_placeholder_format():
    from generator.i18n.translate import load_translator

    cases = {"en": ("0.1", "-11.3", "4"), "fr": ("0,1", "-11,3", "4"), "bn": ("০.১", "-১১.৩", "৪"),
             "ne": ("०.१", "-११.३", "४"), "hi": ("0.1", "-11.3", "4"), "ko": ("0.1", "-11.3", "4")}
    for code, expected in cases.items():
        tr = load_translator(code, ())
        got = tuple(tr.fill("{x:decimal}", {"x": x}) for x in (Fraction(1, 10), Fraction(-113, 10), 4))
        assert got == expected, code


def _kit(tmp_path: Path, names: list[str]) -> tuple[int, str, str]:
    out = tmp_path / f"kit{len(names)}"
    r = run_main("kit", "call-break", "--players", ",".join(names), "--out", str(out))
    html = (out / "call-break-en.html").read_text(encoding="utf-8") if r.returncode == 0 else ""
    return r.returncode, r.stderr, html


NAMES = ["Asha", "Ben", "Kiran", "Maya", "Dev", "Gita", "Nabin", "Sita", "Tom", "Yuna", "Rina", "Sam"]


#: Two tables in `make test`; one and three in `make test-full`.
@pytest.mark.parametrize("count", [pytest.param(4, marks=pytest.mark.full), 8, pytest.param(12, marks=pytest.mark.full)])
def test_kit_seats_tables_of_four(tmp_path, count):
    code, err, html = _kit(tmp_path, NAMES[:count])
    assert code == 0, err
    slips = re.findall(r'<div class="slip cut" data-table="(\d+)" data-seat="(\d+)"><span class="slip-table '
                       r'player-name">([^<]+)</span>', html)
    assert [name for _, _, name in slips] == NAMES[:count]
    assert [(int(t), int(s)) for t, s, _ in slips] == [(i // 4 + 1, i % 4 + 1) for i in range(count)]
    sheets = re.findall(r'<table class="grid cb-scores".*?</thead>', html, re.S)
    assert len(sheets) == count // 4
    for t, sheet in enumerate(sheets):  # each table's sheet prints its four players in seat order
        assert re.findall(r'<span class="player-name">([^<]*)</span>', sheet) == NAMES[4 * t:4 * t + 4]
    assert html.count('class="sheet-title">Quick reference') + html.count("<p class=\"kicker\">Quick reference") \
        == count // 4


@pytest.mark.parametrize("count, nearest", [(3, "4"), (5, "4 or 8"), (10, "8 or 12")])
def test_kit_refuses_a_count_that_is_not_tables_of_four(tmp_path, count, nearest):
    code, err, _ = _kit(tmp_path, NAMES[:count])
    assert code == 2
    assert err.strip() == (f"--players: Call Break is played at tables of exactly 4: {count} players cannot be "
                           f"seated (try {nearest})")
