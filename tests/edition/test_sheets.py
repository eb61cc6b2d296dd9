"""Sheets read back: payout figures are the engine's, options change what is printed."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from generator.pipeline.build import Options, prepare
from generator.i18n.translate import load_translator
from generator.games.bunco.sheets import scorepad, tally_sheet
from generator.games.stop_the_bus.sheets import hand_ranking
from generator.games.tonk.sheets import payout_sheet
from generator.render.html import table_label
from generator.edition.editions import make_edition
from generator.edition.sheets import SheetOptions

from tests.lazy import Lazy

PREP = Lazy(lambda: prepare(Options(formats=("html",))))


def edition(game: str, **house):
    """The edition of `game` under house rules given as strings, as from --rule."""
    return make_edition(PREP.models[game], {k: str(v) for k, v in house.items()})


def payout_rows(html: str) -> dict[tuple[str, int], list[tuple[str, str, Decimal]]]:
    """(situation, players) -> [(payer, payee, amount)] as printed on the sheet."""
    rows = {}
    for sid, row in re.findall(r'<tr data-situation="([a-z-]+)">(.*?)</tr>', html, re.S):
        for n, cell in re.findall(r'<td data-players="(\d)">(.*?)</td>', row, re.S):
            rows[(sid, int(n))] = [(a, b, Decimal(c)) for a, b, c in re.findall(
                r'data-payer="(\w+)" data-payee="(\w+)" data-amount="([0-9.]+)"', cell)]
    return rows


#: What each player pays whom, in stakes, read off the rules' own words for the model's example totals
#: (generator/games/tonk/model.yaml, payouts) under the standard rules: tonk 2, tonk out 2, caught 2.
#: Written by hand so the sheet is checked against the rules, not against the functions it calls.
STANDARD_PAYOUTS = {
    ("dealt", 2): [("B", "A", 2)],  # a dealt tonk wins 2 stakes from each other player
    ("dealt", 3): [("B", "A", 2), ("C", "A", 2)],
    ("two-dealt", 2): [],  # nobody pays
    ("two-dealt", 3): [],
    ("tonk-out", 2): [("B", "A", 2)],  # out without a discard: 2 stakes from each player
    ("tonk-out", 3): [("B", "A", 2), ("C", "A", 2)],
    ("out", 2): [("B", "A", 1)],  # out by the last discard: a single stake from each
    ("out", 3): [("B", "A", 1), ("C", "A", 1)],
    ("knock-low", 2): [("B", "A", 1)],  # A knocks on 6, strictly lowest: a single stake from each
    ("knock-low", 3): [("B", "A", 1), ("C", "A", 1)],
    # A knocks on 11, B has 5: A pays B 2 stakes, and B, the lowest, collects 1 more from A and 1 from C (19)
    ("caught", 2): [("A", "B", 3)],
    ("caught", 3): [("A", "B", 3), ("C", "B", 1)],
    ("caught-tie", 2): [("A", "B", 3)],  # 8 and 8: the tie catches A, who pays 2 + 1
    ("caught-tie", 3): [("A", "B", 3), ("C", "B", 1)],
    ("stock-out", 2): [("B", "A", 1)],  # 9 against 15
    ("stock-out", 3): [("C", "A", 1), ("C", "B", 1)],  # 9, 9 and 15: both lowest collect from C
}
#: The same with new spreads doubled and caught paying 3: "tonk out" splits in two, the catch costs 3 + 1.
HOUSE_PAYOUTS = {
    **{k: v for k, v in STANDARD_PAYOUTS.items() if k[0] not in ("tonk-out", "caught", "caught-tie")},
    ("tonk-out-new-spread", 2): [("B", "A", 2)],
    ("tonk-out-new-spread", 3): [("B", "A", 2), ("C", "A", 2)],
    ("tonk-out-hits", 2): [("B", "A", 1)],  # out by hits alone: a single stake
    ("tonk-out-hits", 3): [("B", "A", 1), ("C", "A", 1)],
    ("caught", 2): [("A", "B", 4)],
    ("caught", 3): [("A", "B", 4), ("C", "B", 1)],
    ("caught-tie", 2): [("A", "B", 4)],
    ("caught-tie", 3): [("A", "B", 4), ("C", "B", 1)],
}


def expected_rows(table, stake: Decimal) -> dict[tuple[str, int], list[tuple[str, str, Decimal]]]:
    return {key: sorted((a, b, units * stake) for a, b, units in moves) for key, moves in table.items()}


def sorted_rows(rows):
    return {key: sorted(moves) for key, moves in rows.items()}


@pytest.mark.parametrize("code, stake", [("en", "1"), ("en", "2.50"), ("bn", "5"), ("bn", "2.50"), ("ne", "10"),
                                         ("ko", "1000"), ("hi", "20"), ("fr", "0.50")])
def test_payout_sheet_figures_are_the_rules(code, stake):
    tr = PREP.translators[code]
    opts = SheetOptions(stake=Decimal(stake))
    html = payout_sheet(PREP.editions["tonk"], tr, opts)
    printed = payout_rows(html)
    assert sorted_rows(printed) == expected_rows(STANDARD_PAYOUTS, Decimal(stake))
    # Every amount is printed in the locale's currency and digits, next to its data.
    for moves in printed.values():
        for _, _, amount in moves:
            assert tr.money(amount) in html


def test_payout_sheet_under_house_rules():
    ed = edition("tonk", new_spreads_double="true", caught_multiplier=3)
    printed = payout_rows(payout_sheet(ed, PREP.translators["en"], SheetOptions(stake=Decimal(1))))
    assert sorted_rows(printed) == expected_rows(HOUSE_PAYOUTS, Decimal(1))


def test_changed_stake_changes_the_sheet():
    tr, model = PREP.translators["en"], PREP.editions["tonk"]
    one = payout_rows(payout_sheet(model, tr, SheetOptions(stake=Decimal(1))))
    ten = payout_rows(payout_sheet(model, tr, SheetOptions(stake=Decimal(10))))
    assert one != ten
    assert {k: [(a, b, x * 10) for a, b, x in v] for k, v in one.items()} == ten


def test_currency_option():
    tr, model = PREP.translators["fr"], PREP.editions["tonk"]
    html = payout_sheet(model, tr, SheetOptions(stake=Decimal(5), currency="INR"))
    # French placement of the rupee sign; a whole amount has no decimals (issue 14: "5 ₹", not "5,00 ₹").
    assert "5\u00a0₹" in html and "5,00" not in html


def _body(html: str) -> str:
    """The document without its head (whose meta tags carry the book's own dates)."""
    return html[html.index("<body"):]


@pytest.mark.parametrize(("code", "printed"), [("hi", "4 दिसंबर 2026"), ("en", "December 4, 2026"),
                                               ("ne", "२०२६ डिसेम्बर ४")])
def test_tally_sheet_options(code, printed):
    tr, model = PREP.translators[code], PREP.editions["bunco"]
    import datetime as dt
    html = tally_sheet(model, tr, SheetOptions(sets=3, group="Friday club", date=dt.date(2026, 12, 4),
                                               per_page=2, copies=2))
    assert html.count('class="copy cut"') == 4  # 2 pages x 2 copies, each with cut lines
    assert _body(html).count("Friday club") == 4
    # The date in the locale's own long form (written out here, not asked of Babel), on every copy.
    assert _body(html).count(printed) == 4
    assert html.count("<th scope=\"colgroup\"") == 3 * 4
    undated = _body(tally_sheet(model, tr, SheetOptions(sets=3, per_page=2, copies=2)))
    assert printed not in undated and "2026" not in undated and "२०२६" not in undated


def test_wipeout_boxes_only_with_the_house_rule():
    tr = PREP.translators["en"]
    assert ">Wipeouts</th>" not in tally_sheet(PREP.editions["bunco"], tr, SheetOptions())
    assert ">Wipeouts</th>" in tally_sheet(edition("bunco", wipeout="true"), tr, SheetOptions())


@pytest.mark.parametrize("rounds", [3, 4, 5, 6])
def test_tally_sheet_and_scorepad_rows_follow_rounds_per_set(rounds):
    tr = PREP.translators["ko"]
    ed = edition("bunco", rounds_per_set=rounds)
    tally = tally_sheet(ed, tr, SheetOptions(sets=1))
    assert tally.count('class="round-no"') == rounds
    pad = scorepad(ed, tr, SheetOptions(sets=1), 0)
    assert len(re.findall(r'<th scope="row"[^>]*>', pad)) >= rounds


def test_payout_sheet_with_tonk_multiplier_three_pays_three_stakes_each():
    ed = edition("tonk", tonk_multiplier=3)
    html = payout_sheet(ed, PREP.translators["en"], SheetOptions(stake=Decimal(1)))
    rows = payout_rows(html)
    assert rows[("dealt", 2)] == [("B", "A", Decimal(3))]
    assert sorted(rows[("dealt", 3)]) == [("B", "A", Decimal(3)), ("C", "A", Decimal(3))]
    dealt_three = {("dealt", 2): [("B", "A", 3)], ("dealt", 3): [("B", "A", 3), ("C", "A", 3)]}
    assert sorted_rows(rows) == expected_rows({**STANDARD_PAYOUTS, **dealt_three}, Decimal(1))
    assert "wins 3 stakes from each other player" in html


def test_payout_sheet_with_new_spreads_rule_has_the_hits_row():
    ed = edition("tonk", new_spreads_double="true")
    rows = payout_rows(payout_sheet(ed, PREP.translators["en"], SheetOptions(stake=Decimal(1))))
    assert rows[("tonk-out-hits", 2)] == [("B", "A", Decimal(1))]
    assert rows[("tonk-out-new-spread", 2)] == [("B", "A", Decimal(2))]
    assert ("tonk-out", 2) not in rows


def test_hand_ranking_card_with_ace_low_run_shows_720_and_48():
    ed = edition("stop-the-bus", ace_low_run="true")
    html = hand_ranking(ed, PREP.translators["en"], SheetOptions())
    counts = dict(re.findall(r'data-category="(\w+)">.*?<td class="num">([\d,]+)</td>', html, re.S))
    assert counts == {"three_of_a_kind": "52", "running_flush": "48", "run": "720", "flush": "1,096",
                      "pair": "3,744", "high_card": "16,440"}
    standard = hand_ranking(PREP.editions["stop-the-bus"], PREP.translators["en"], SheetOptions())
    assert dict(re.findall(r'data-category="(\w+)">.*?<td class="num">([\d,]+)</td>', standard, re.S))["run"] == "660"


@pytest.mark.parametrize("tables, labels", [
    (1, ["The table"]),
    (2, ["Head table", "Low table"]),
    (3, ["Head table", "Middle table", "Low table"]),
    (5, ["Head table", "Table 2", "Table 3", "Table 4", "Low table"]),
])
def test_scorepad_table_labels(tables, labels):
    tr = load_translator("en", ())
    got = [str(table_label(tr, i, tables)) for i in range(tables)]
    assert got == labels
