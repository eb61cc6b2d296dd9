"""Sheets read back: payout figures are the engine's, options change what is printed."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from generator.build import Options, prepare
from generator.i18n import load_translator
from generator.render import sheets as sheet_html
from generator.sheets import SITUATIONS, SheetOptions, transfers

PREP = prepare(Options(formats=("html",)))


def payout_rows(html: str) -> dict[tuple[str, int], list[tuple[str, str, Decimal]]]:
    """(situation, players) -> [(payer, payee, amount)] as printed on the sheet."""
    rows = {}
    for sid, row in re.findall(r'<tr data-situation="([a-z-]+)">(.*?)</tr>', html, re.S):
        for n, cell in re.findall(r'<td data-players="(\d)">(.*?)</td>', row, re.S):
            rows[(sid, int(n))] = [(a, b, Decimal(c)) for a, b, c in re.findall(
                r'data-payer="(\w+)" data-payee="(\w+)" data-amount="([0-9.]+)"', cell)]
    return rows


def engine_rows(stake: Decimal) -> dict[tuple[str, int], list[tuple[str, str, Decimal]]]:
    out = {}
    for n, situations in SITUATIONS.items():
        for s in situations:
            owed: dict[tuple[str, str], int] = {}
            for t in transfers(s):
                owed[(t.payer, t.payee)] = owed.get((t.payer, t.payee), 0) + t.amount
            out[(s.id, n)] = [(a, b, units * stake) for (a, b), units in owed.items()]
    return out


@pytest.mark.parametrize("code, stake", [("en", "1"), ("en", "2.50"), ("bn", "5"), ("bn", "2.50"), ("ne", "10"),
                                         ("ko", "1000"), ("hi", "20"), ("fr", "0.50")])
def test_payout_sheet_figures_are_the_engines(code, stake):
    tr = PREP.translators[code]
    opts = SheetOptions(stake=Decimal(stake))
    html = sheet_html.payout_sheet(PREP.models["tonk"].model, tr, opts)
    printed = payout_rows(html)
    assert printed == engine_rows(Decimal(stake))
    # Every amount is printed in the locale's currency and digits, next to its data.
    for moves in printed.values():
        for _, _, amount in moves:
            assert tr.money(amount) in html


def test_changed_stake_changes_the_sheet():
    tr, model = PREP.translators["en"], PREP.models["tonk"].model
    one = payout_rows(sheet_html.payout_sheet(model, tr, SheetOptions(stake=Decimal(1))))
    ten = payout_rows(sheet_html.payout_sheet(model, tr, SheetOptions(stake=Decimal(10))))
    assert one != ten
    assert {k: [(a, b, x * 10) for a, b, x in v] for k, v in one.items()} == ten


def test_currency_option():
    tr, model = PREP.translators["fr"], PREP.models["tonk"].model
    html = sheet_html.payout_sheet(model, tr, SheetOptions(stake=Decimal(5), currency="INR"))
    assert "5,00\u00a0₹" in html or "5,00 ₹" in html or "5,00\u202f₹" in html


def test_tally_sheet_options():
    tr, model = PREP.translators["hi"], PREP.models["bunco"].model
    import datetime as dt
    html = sheet_html.tally_sheet(model, tr, SheetOptions(sets=3, group="Friday club", date=dt.date(2026, 12, 4),
                                                          per_page=2, copies=2))
    assert html.count('class="copy cut"') == 4  # 2 pages x 2 copies, each with cut lines
    assert "Friday club" in html
    assert "2026" in html
    assert html.count("<th scope=\"colgroup\"") == 3 * 4


def test_wipeout_boxes_only_with_the_house_rule():
    tr, model = PREP.translators["en"], PREP.models["bunco"].model
    assert "Wipeouts" not in sheet_html.tally_sheet(model, tr, SheetOptions())
    rules = tuple(r.model_copy(update={"enabled": True}) for r in model.house_rules)
    with_rule = model.model_copy(update={"house_rules": rules})
    assert "Wipeouts" in sheet_html.tally_sheet(with_rule, tr, SheetOptions())


@pytest.mark.parametrize("tables, labels", [
    (1, ["The table"]),
    (2, ["Head table", "Low table"]),
    (3, ["Head table", "Middle table", "Low table"]),
    (5, ["Head table", "Table 2", "Table 3", "Table 4", "Low table"]),
])
def test_scorepad_table_labels(tables, labels):
    tr = load_translator("en", ())
    got = [str(sheet_html.table_label(tr, i, tables)) for i in range(tables)]
    assert got == labels
